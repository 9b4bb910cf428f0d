"""What an editor shows, from the real YAML language server, agrees with ``kalooki validate``.

The server (the npm package ``yaml-language-server``, the one VS Code's YAML extension and
Neovim's ``yamlls`` run) is started over stdio, set up as docs/editors.md tells a user to set up
their editor, and given every variant fixture, every built-in variant and the game scripts:

* on every file, the lines it flags are the lines the loader reports, except for the checks a
  JSON Schema cannot express (each kind named below, and listed in docs/editors.md);
* keys, enum values, the built-in variants after ``extends:`` and the bots after ``bot:`` complete;
* hover on a key names the knob.

``make test`` installs the server into ``.tools/`` (git-ignored). Without Node.js the tests are
skipped with one line, except in CI (``CI`` set), where they fail instead.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kalooki_cli import new_variant
from kalooki_cli.app import app
from lsp_client import LspClient
from typer.testing import CliRunner

from kalooki.knob_reference import knob_choices, values_note
from kalooki.loader import builtin_variant_names, builtin_variant_path, load_variant, load_variant_text
from kalooki.schema import schema_path
from kalooki.script import load_script
from kalooki.textpatterns import CARD_PATTERN_MESSAGE
from kalooki.variant import CLASSIC, KNOB_NAMES, Variant
from kalooki.variant_writer import yaml_scalar
from kalooki.yamlio import YamlError

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / ".tools" / "yaml-language-server" / "node_modules" / "yaml-language-server" / "bin"
FIXTURES = ROOT / "tests" / "fixtures"
VARIANT_FILES = [
    *(builtin_variant_path(name) for name in builtin_variant_names()),
    *sorted((FIXTURES / "variants" / "good").glob("*.yaml")),
    # Not the yaml-* fixtures: YAML-level checks (anchors, duplicate keys, tabs, ...) are validate's.
    *(path for path in sorted((FIXTURES / "variants" / "bad").glob("*.yaml")) if path.stem[:5] != "yaml-"),
]
SCRIPT_FILES = [
    *sorted((ROOT / "tests" / "golden" / "scripts").glob("*.yaml")),
    *sorted((FIXTURES / "scripts" / "bad").glob("*.yaml")),
]

VALIDATE_ONLY_LINES = {
    "field-hex": {1},  # 0x96 is the number 150 to YAML 1.2
    "field-octal": {1},  # 0250 is the number 250 to YAML 1.2
    "field-several-errors": {4},  # 0250 again
    "field-yes-for-bool": {2},  # True is a boolean to YAML 1.2 (yes is text there, and flagged)
    "field-and-cross-rule": {3},  # min_players over max_players: a rule across knobs, no schema's
}
"""Lines of bad variant fixtures only ``kalooki validate`` flags: a YAML 1.1 spelling an editor,
reading YAML 1.2, takes for a good value (docs/editors.md lists them), and a rule across knobs
said beside a knob in error."""

VALIDATE_ONLY_SCRIPT_LINES = {
    "validate-only": {2, 5, 7},
    "validate-only-players": {4, 5},
    "validate-only-seats": {3},
}
"""Game-script lines only the loader flags: an unknown bot (plug-ins may add any name), a deal's
size (the variant's hand_size), a move by someone who is not a player; a blank name, one that reads as
another seat's; more players than the variant seats."""

MOVE_COMMANDS = (
    "draw stock | draw discard | meld CARDS[, CARDS ...] | build N CARDS [low|high] | swap N CARDS | "
    "discard CARD | end"
)

VALIDATE_ONLY_SCRIPT_DOCS = {
    "validate-only": (
        "a bot that is not installed",
        "a deal of the wrong size",
        "someone who is not a player",
    ),
    "validate-only-players": ("a player's name that is blank or reads as another seat's",),
    "validate-only-seats": ("more players than the variant seats",),
}
"""The words docs/editors.md's table says each of them in."""


NODE = shutil.which("node")
if NODE is None and not os.environ.get("CI"):
    pytest.skip(
        "Node.js is not installed: the editor tests (yaml-language-server) are skipped",
        allow_module_level=True,
    )


def _server_command() -> list[str]:
    if NODE is None:
        pytest.fail("Node.js is needed for the editor tests in CI (it runs yaml-language-server)")
    if not (SERVER / "yaml-language-server").is_file():
        pytest.fail("yaml-language-server is not installed: `make test` installs it into .tools/")
    return [NODE, str(SERVER / "yaml-language-server"), "--stdio"]


def editor_settings(*, modeline_free: bool) -> dict[str, Any]:
    """The settings docs/editors.md gives, plus this repository's fixture folders."""
    variant_globs = ["*.kalooki.yaml", "house-rules/**/*.yaml"]
    script_globs = ["*.kalooki-script.yaml"]
    if not modeline_free:
        variant_globs.append("tests/fixtures/variants/**/*.yaml")
        script_globs.append("tests/fixtures/scripts/**/*.yaml")
    schemas = {
        schema_path("variant").as_uri(): variant_globs,
        schema_path("game-script").as_uri(): script_globs,
    }
    return {"yaml": {"validate": True, "hover": True, "completion": True, "schemas": schemas}}


@pytest.fixture(scope="module")
def editor() -> Iterator[LspClient]:
    with LspClient(_server_command(), ROOT, editor_settings(modeline_free=False)) as client:
        yield client


def _flagged_lines(editor: LspClient, path: Path) -> set[int]:
    # As an editor sends it, its line endings as they are (read_text would make a lone CR a line feed).
    diagnostics = editor.diagnostics(path.as_uri(), path.read_bytes().decode("utf-8"))
    return {item["range"]["start"]["line"] + 1 for item in diagnostics if item.get("severity", 1) == 1}


def _loader_lines(error: YamlError, path: Path) -> set[int]:
    own = {path.name, str(path)}
    return {item.line for item in error.diagnostics if Path(item.path).name in own or item.path in own}


def _variant_lines(path: Path) -> set[int]:
    try:
        load_variant(path)
    except YamlError as error:
        return _loader_lines(error, path)
    return set()


@pytest.mark.parametrize("path", VARIANT_FILES, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_variant_diagnostics_agree_with_validate(editor: LspClient, path: Path) -> None:
    kind = path.stem.split("-")[0] if path.parent.name == "bad" else "good"
    flagged = _flagged_lines(editor, path)
    reported = _variant_lines(path)
    if kind == "cross" or (kind == "extends" and "unknown variant" not in _expected(path)):
        # Rules across knobs, and whether a base file exists, is valid and has no cycle.
        assert reported
        assert flagged == set()
    elif path.stem == "field-game-script":
        # A game script given as a variant: validate says so once, the editor flags its keys.
        assert reported == {1}
        assert flagged
    else:
        only_validate = VALIDATE_ONLY_LINES.get(path.stem, set())
        assert only_validate <= reported
        assert flagged == reported - only_validate


def _expected(path: Path) -> str:
    return path.with_suffix(".expected").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", SCRIPT_FILES, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_script_diagnostics_agree_with_the_loader(editor: LspClient, path: Path) -> None:
    flagged = _flagged_lines(editor, path)
    try:
        load_script(path)
        reported: set[int] = set()
    except YamlError as error:
        reported = _loader_lines(error, path)
    only_loader = VALIDATE_ONLY_SCRIPT_LINES.get(path.stem, set())
    assert flagged == reported - only_loader
    assert only_loader <= reported


YAML_ONLY_VALIDATE_CHECKS = {
    "yaml-anchor-alias": "anchors, aliases",
    "yaml-comments-only": "an empty file (or one of comments only)",
    "yaml-empty": "an empty file",
    "yaml-not-utf8": "a file not saved as UTF-8",
    "yaml-tab": "tab characters",
    "yaml-tag": "tags (`!!int`)",
    "yaml-two-documents": "a second document after `---`",
}
"""The YAML-level fixtures the editor says nothing of, and the words docs/editors.md's table names them in."""


def test_what_the_editor_leaves_to_validate_at_the_yaml_level_is_listed_in_the_docs(
    editor: LspClient,
) -> None:
    # An empty file and a second document were refused by validate alone, and the docs did not say so.
    table = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8").split("## What only")[1]
    (row,) = [line for line in table.splitlines() if line.startswith("| YAML itself |")]
    silent = set()
    for path in sorted((FIXTURES / "variants" / "bad").glob("yaml-*.yaml")):
        # An editor that meets a file not in UTF-8 opens it in another encoding (Latin-1 here).
        try:
            text = path.read_bytes().decode("utf-8")  # its line endings as they are, as _flagged_lines
        except UnicodeDecodeError:
            text = path.read_bytes().decode("latin-1")
        if not editor.diagnostics(path.with_name(f"{path.stem}-probe.yaml").as_uri(), text):
            silent.add(path.stem)
            assert _variant_lines(path), path.name
    assert silent == set(YAML_ONLY_VALIDATE_CHECKS)
    for words in YAML_ONLY_VALIDATE_CHECKS.values():
        assert words in row, words


def test_what_the_editor_leaves_to_the_loader_in_a_script_is_listed_in_the_docs() -> None:
    # A blank player's name, two that read alike and more players than the variant seats were refused by
    # kalooki play alone, and docs/editors.md did not say so.
    table = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8").split("## What only")[1]
    (row,) = [line for line in table.splitlines() if line.startswith("| game scripts ")]
    # The table is of what validate checks, but validate checks no script: it names the command that does.
    script = FIXTURES / "scripts" / "bad" / "validate-only-seats.yaml"
    result = CliRunner().invoke(app, ["validate", str(script)])
    assert (result.exit_code, result.stderr) == (
        1,
        f"{script}:1:1: this is a game script, not a variant: run it with `kalooki play {script}`\n",
    )
    assert row.startswith("| game scripts (checked by `kalooki play`; `kalooki validate` says to run it) |")
    assert set(VALIDATE_ONLY_SCRIPT_DOCS) == set(VALIDATE_ONLY_SCRIPT_LINES)
    for words in VALIDATE_ONLY_SCRIPT_DOCS.values():
        for each in words:
            assert each in row, each


def test_the_documented_file_name_setting_finds_the_schema(tmp_path: Path) -> None:
    settings = editor_settings(modeline_free=True)
    with LspClient(_server_command(), tmp_path, settings) as client:
        variant = tmp_path / "friday.kalooki.yaml"
        flagged = client.diagnostics(variant.as_uri(), "extends: clasic\ndecks: 9\nopening_threshold: 40.0\n")
        assert {item["range"]["start"]["line"] for item in flagged} == {0, 1}
        in_folder = tmp_path / "house-rules" / "friday.yaml"
        flagged = client.diagnostics(in_folder.as_uri(), "scoring: lowest\n")
        assert [item["range"]["start"]["line"] for item in flagged] == [0]
        script = tmp_path / "game.kalooki-script.yaml"
        flagged = client.diagnostics(
            script.as_uri(), "players: [ann, bob]\nhands:\n  - moves: [{ann: fly away}]\n"
        )
        assert [item["range"]["start"]["line"] for item in flagged] == [2]


def test_the_modeline_kalooki_new_writes_finds_a_schema_whose_path_holds_a_space(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An installed kalooki under "Ann Smith": the modeline gave the path as it is, which the editor reads
    # up to the space ("Unable to load schema from '.../Ann'"), so nothing in the file was checked.
    installed = tmp_path / "Ann Smith" / "site-packages" / "schemas"
    shutil.copytree(schema_path("variant").parent, installed)
    monkeypatch.setattr(new_variant, "schemas_dir", lambda: installed)
    path = tmp_path / "rules" / "friday.yaml"
    path.parent.mkdir()
    assert CliRunner().invoke(app, ["new", str(path)]).exit_code == 0
    text = path.read_text(encoding="utf-8") + "jokers: four\n"
    with LspClient(_server_command(), tmp_path, editor_settings(modeline_free=True)) as client:
        flagged = client.diagnostics(path.as_uri(), text)
    line = text.count("\n") - 1
    assert [(item["range"]["start"]["line"], item["message"]) for item in flagged] == [
        (line, 'Incorrect type. Expected "integer".')
    ]


def _open(editor: LspClient, name: str, text: str) -> str:
    uri = (ROOT / "tests" / "fixtures" / "variants" / "good" / name).as_uri()
    editor.open(uri, text)
    return uri


def test_keys_enums_and_extends_complete(editor: LspClient) -> None:
    uri = _open(editor, "completion-probe.yaml", "extends: \nscoring: \n\n")
    assert set(editor.completion_labels(uri, 0, 9)) >= set(builtin_variant_names())
    assert set(editor.completion_labels(uri, 1, 9)) >= {"penalty", "winner_collects"}
    keys = set(editor.completion_labels(uri, 2, 0))
    assert keys >= set(KNOB_NAMES) - {"scoring"}


def test_the_built_in_variants_complete_in_a_list_of_bases(editor: LspClient) -> None:
    # extends takes a list (extends: [kalooki-40, ../ours.yaml]): in one, nothing was offered.
    names = builtin_variant_names()
    for number, (text, line, character) in enumerate(
        (
            ("extends: [\n", 0, 10),
            ("extends: [classic, ]\n", 0, 19),
            ("extends:\n  - \n", 1, 4),
            ("extends:\n  - classic\n  - \n", 2, 4),
        )
    ):
        uri = _open(editor, f"list-completion-probe-{number}.yaml", text)
        assert editor.completion_labels(uri, line, character) == names, text
    uri = _open(editor, "list-hover-probe.yaml", "extends:\n  - classic\n")
    description = Variant.model_fields["extends"].description
    assert editor.hover_text(uri, 1, 6).startswith(f"#### extends\n\n{description}\n")


def test_bots_and_set_knobs_complete_in_a_game_script(editor: LspClient) -> None:
    uri = (FIXTURES / "scripts" / "bad" / "completion-probe.yaml").as_uri()
    editor.open(uri, "players:\n  - name: ann\n    bot: \n  - bob\nset:\n  \n")
    assert set(editor.completion_labels(uri, 2, 9)) >= {"random", "greedy", "expert"}
    assert set(editor.completion_labels(uri, 5, 2)) >= set(KNOB_NAMES)


def test_a_script_s_variant_is_flagged_as_extends_is(editor: LspClient) -> None:
    # `variant: clasic` completed but was never flagged; the loader refuses it, as it does `extends: clasic`.
    uri = (FIXTURES / "scripts" / "bad" / "variant-probe.yaml").as_uri()
    text = "variant: clasic\nplayers: [ann, bob]\n"
    flagged = editor.diagnostics(uri, text)
    extends_uri = (FIXTURES / "variants" / "bad" / "extends-probe.yaml").as_uri()
    extends = editor.diagnostics(extends_uri, "extends: clasic\n")
    assert [(item["range"], item["message"]) for item in flagged] == [
        (item["range"], item["message"]) for item in extends
    ]
    assert flagged[0]["range"]["start"] == {"line": 0, "character": 9}
    assert flagged[0]["message"].startswith("unknown variant: the built-in variants are classic, ")
    # kalooki play reads a script's ours.YAML beside it, as extends reads it.
    for number, fine in enumerate(("classic", "kalooki-40", "ours.yaml", "../rules/ours.yml", "ours.YAML")):
        uri = (FIXTURES / "scripts" / "bad" / f"variant-probe-{number}.yaml").as_uri()
        assert editor.diagnostics(uri, f"variant: {fine}\nplayers: [ann, bob]\n") == []


def test_provenance_that_is_no_mapping_is_told_what_it_holds(editor: LspClient) -> None:
    # The editor said 'Incorrect type. Expected "provenance".', its title, where validate asks for a mapping.
    uri = (FIXTURES / "variants" / "bad" / "provenance-probe.yaml").as_uri()
    flagged = editor.diagnostics(uri, "provenance: [a, b]\n")
    assert [(item["range"]["start"], item["message"]) for item in flagged] == [
        ({"line": 0, "character": 12}, "expected a mapping: a knob a line, with its source's words")
    ]
    # A key that is no knob keeps its own words.
    uri = (FIXTURES / "variants" / "bad" / "provenance-key-probe.yaml").as_uri()
    (flagged_key,) = editor.diagnostics(uri, "provenance:\n  jokerz: x\n")
    assert flagged_key["message"].startswith('Value is not accepted. Valid values: "decks", "jokers",')


def test_not_played_that_is_no_list_is_told_what_it_holds(editor: LspClient) -> None:
    # The editor said 'Incorrect type. Expected "array".', JSON's word, where validate asks for a list.
    uri = (FIXTURES / "variants" / "bad" / "not-played-probe.yaml").as_uri()
    flagged = editor.diagnostics(uri, "not_played: a pool paid into each deal\n")
    assert [(item["range"]["start"], item["message"]) for item in flagged] == [
        ({"line": 0, "character": 12}, "expected a list: a text a line, what the source has and why")
    ]
    uri = (FIXTURES / "variants" / "bad" / "not-played-item-probe.yaml").as_uri()
    assert editor.diagnostics(uri, "not_played:\n  - a pool paid into each deal\n") == []


def test_a_move_that_is_no_mapping_is_told_how_a_move_is_written(editor: LspClient) -> None:
    # '- ann draw stock' was flagged 'Incorrect type. Expected "object(moves)".'
    uri = (FIXTURES / "scripts" / "bad" / "move-shape-probe.yaml").as_uri()
    text = "players: [ann, bob]\nhands:\n  - moves:\n      - ann draw stock\n      - ann: fly away\n"
    flagged = sorted(editor.diagnostics(uri, text), key=lambda item: item["range"]["start"]["line"])
    assert [(item["range"]["start"], item["message"]) for item in flagged] == [
        ({"line": 3, "character": 8}, "a move is one player's name and their command (ann: draw stock)"),
        ({"line": 4, "character": 13}, f"not a move: commands: {MOVE_COMMANDS}"),
    ]


def test_a_deal_that_is_no_mapping_is_told_what_it_holds(editor: LspClient) -> None:
    # It was flagged 'Incorrect type. Expected "deal | null".', where kalooki play asks for a mapping.
    uri = (FIXTURES / "scripts" / "bad" / "deal-shape-probe.yaml").as_uri()
    text = (
        "players: [ann, bob]\nhands:\n  - deal: [7H, 8H]\n  - deal: 7H\n  - deal:\n      ann: [7H]\n"
        "  - deal:\n      ann: [7X]\n"
    )
    flagged = sorted(editor.diagnostics(uri, text), key=lambda item: item["range"]["start"]["line"])
    told = "expected a mapping: each player's cards (ann: [7H, 8H, JK]), discard and stock"
    assert [(item["range"]["start"], item["message"]) for item in flagged] == [
        ({"line": 2, "character": 10}, told),
        ({"line": 3, "character": 10}, told),
        ({"line": 7, "character": 12}, CARD_PATTERN_MESSAGE),  # a card inside keeps its own words
    ]


_ONE_LINE = "holds a control character: give plain text on one line"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A family's description written as a YAML block, a tab in a name, an escape in a source.
        (
            'name: "a\\tb"\ndescription: |\n  one\n  two\nsource: "a\\u001bb"\n',
            {1: _ONE_LINE, 2: _ONE_LINE, 5: "holds a control character: give plain text"},
        ),
        ("name: '\u3000 '\nopening_threshold: 40\n", {1: "is blank: give the variant a name"}),
    ],
    ids=["control", "blank"],
)
def test_a_faulty_text_is_flagged_in_validate_s_words(
    editor: LspClient, text: str, expected: dict[int, str]
) -> None:
    # A file of its own each: closing one publishes an empty list for it, which a reopening would read.
    uri = (ROOT / "tests" / "fixtures" / "variants" / "bad" / f"{len(text)}-probe.yaml").as_uri()
    shown = {item["range"]["start"]["line"] + 1: item["message"] for item in editor.diagnostics(uri, text)}
    with pytest.raises(YamlError) as caught:
        load_variant_text(text)
    # The editor cannot name the character, which validate puts in brackets; the words are the same.
    said = {item.line: re.sub(r" \(.*?\)", "", item.message, count=1) for item in caught.value.diagnostics}
    assert said == expected
    assert shown == said


def test_hover_names_the_knob(editor: LspClient) -> None:
    values = {"name": "friday", "description": "ours", "extends": "classic"}
    values.update({knob: yaml_scalar(getattr(CLASSIC, knob)) for knob in KNOB_NAMES})
    uri = _open(editor, "hover-probe.yaml", "".join(f"{key}: {value}\n" for key, value in values.items()))
    for line, key in enumerate(values):
        text = editor.hover_text(uri, line, 1)
        assert text.startswith(f"#### {key}\n\n"), text
        assert "||" not in text
        assert "Kalooki variant" not in text
        plain = text.replace("\\", "")
        assert Variant.model_fields[key].description in plain
        if key in KNOB_NAMES:
            # The values it takes (docs/editors.md says so): a choice's listed by the server itself,
            # a number's bounds and a boolean's two values in the words `kalooki new` gives them.
            listed = [f"* `{choice}`" for choice in knob_choices(key)]
            note = values_note(key)
            assert (note != "" and note in plain) or (
                listed != [] and all(item in plain for item in listed)
            ), text


def test_hover_in_a_game_script_names_the_key(editor: LspClient) -> None:
    lines = [
        "players:",
        "  - name: bob",
        "    bot: greedy",
        "  - ann",
        "hands:",
        "  - deal:",
        "      discard: 7H",
    ]
    lines += ["set:", "  decks: 2"]
    uri = (FIXTURES / "scripts" / "bad" / "hover-probe.yaml").as_uri()
    editor.open(uri, "".join(f"{line}\n" for line in lines))
    for key, description in (
        ("bot", "The bot that plays this seat's turns"),
        ("deal", "A fixed deal"),
        ("discard", "The card turned face up"),
        ("decks", "Standard 52-card packs shuffled together. Values: 1-4."),
    ):
        line = next(number for number, text in enumerate(lines) if f"{key}:" in text)
        hover = editor.hover_text(uri, line, lines[line].index(key) + 1)
        assert hover.startswith(f"#### {key}\n\n{description}"), hover
