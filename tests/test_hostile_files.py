"""Variant files and typed input that could forge output or reach the terminal as control sequences."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterable
from pathlib import Path

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

from kalooki.file_kinds import MAX_SAVE_BYTES
from kalooki.loader import VariantError, load_variant
from kalooki.loader_layers import MAX_EXTENDS_DEPTH
from kalooki.suggestions import suggest
from kalooki.variant import Variant
from kalooki.yamlio import MAX_DIAGNOSTICS

runner = CliRunner()


def validate(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["validate", *args])
    return result.exit_code, result.stdout, result.stderr


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- forged lines


def test_a_newline_in_an_extends_value_cannot_forge_an_ok_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "v.yaml", 'extends: "x\\nfriday.yaml: ok"\n')
    code, out, err = validate("v.yaml")
    assert code == 1
    assert out == ""
    assert err.splitlines() == [
        "v.yaml:1:10: extends: unknown variant 'x\\nfriday.yaml: ok'; the built-in variants are classic, "
        "czech-300, czech-500, house-rules, kalooki-40, kaluki-51, romanian, or give the path of a .yaml file"
    ]


def test_a_newline_in_a_key_stays_on_its_line_in_text_and_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "v.yaml", '"decks\\nfake.yaml: ok\\u001b[2J": 2\n')
    code, _, err = validate("v.yaml")
    assert code == 1
    assert len(err.splitlines()) == 1
    assert "\x1b" not in err
    assert "decks\\nfake.yaml: ok\\x1b[2J" in err
    code, out, _ = validate("v.yaml", "--format", "json")
    diagnostic = json.loads(out)["diagnostics"][0]
    assert diagnostic["key"] == "decks\\nfake.yaml: ok\\x1b[2J"
    assert "\x1b" not in out


@pytest.mark.parametrize("key", ["name", "description"])
def test_name_and_description_refuse_control_characters(key: str, tmp_path: Path) -> None:
    path = write(tmp_path, "evil.yaml", f'{key}: "evil\\e]0;PWNED\\a\\e[2J"\n')
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    assert str(caught.value) == (
        f"{path}:1:{len(key) + 3}: {key}: holds a control character (\\x1b): give plain text on one line"
    )


def test_a_blank_name_is_refused_at_its_place(tmp_path: Path) -> None:
    # It was accepted: the game's title and the variants list then showed no name at all.
    path = write(tmp_path, "blank.yaml", "name: '  '\nopening_threshold: 40\n")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"{path}:1:7: name: is blank: give the variant a name"]


def test_the_source_and_its_words_refuse_control_characters_as_kalooki_rules_prints_them(
    tmp_path: Path,
) -> None:
    # kalooki rules printed both raw: the escape sequence retitled the terminal, the override turned the
    # rest of the line round.
    path = write(
        tmp_path,
        "evil.yaml",
        'source: "a book\\e]0;PWNED\\a"\nprovenance:\n  opening_threshold: "says 51\\u202e"\n',
    )
    result = runner.invoke(app, ["rules", str(path)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"{path}:1:9: source: holds a control character (\\x1b): give plain text",
        f"{path}:3:22: provenance.opening_threshold: holds a control character (\\u202e): give plain text",
    ]


def test_a_source_quoted_over_several_lines_keeps_its_line_breaks(tmp_path: Path) -> None:
    # A quote written as a YAML block (| or >) ends in a line feed: refused as a control character, so a
    # file that was valid the day before stopped loading.
    path = write(
        tmp_path,
        "quoted.yaml",
        "source: |\n  The Book of Rummy,\n  page 12\nprovenance:\n  opening_threshold: >\n    says 51\n",
    )
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["rules", str(path)])
    assert result.exit_code == 0, result.output
    assert "page 12" in result.stdout
    # Any other control character in such a block is refused still.
    path.write_text("source: |\n  a book\u202e\n  page 12\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert "source: holds a control character (\\u202e): give plain text" in result.output


def test_a_file_name_with_an_escape_sequence_is_spelled_out_where_it_is_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A file from an archive may be named anything: validate's ok line, its JSON, variants diff's columns
    # and the rulebook's "set at" lines printed the name raw, retitling the terminal.
    monkeypatch.chdir(tmp_path)
    name = "x\x1b]0;PWNED\x07.yaml"
    write(tmp_path, name, "name: fine\nopening_threshold: 40\n")
    spelled = "x\\x1b]0;PWNED\\x07.yaml"
    assert validate(name) == (0, f"{spelled}: ok\n", "")
    assert json.loads(validate(name, "--format", "json")[1])["files"] == [{"path": spelled, "valid": True}]
    shown = [
        runner.invoke(app, ["rules", name]).stdout,
        runner.invoke(app, ["variants", "diff", "classic", name]).stdout,
    ]
    assert "\x1b" not in "".join(shown)
    assert f"`opening_threshold: 40`: set at {spelled}:2:20\n" in shown[0]
    assert spelled in shown[1]


def test_the_model_refuses_a_control_character_in_a_name_too() -> None:
    with pytest.raises(ValueError, match="control character"):
        Variant(name="a\x9bb")


@pytest.mark.parametrize("override", ["\u202e", "\u202b", "\u2067"])
def test_a_name_refuses_a_direction_override(override: str, tmp_path: Path) -> None:
    # "kcab" shown after U+202E reads "back": a message could be made to say what it does not.
    path = write(tmp_path, "bidi.yaml", f"name: fine{override}kcab\n")
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    spelled = f"\\u{ord(override):04x}"
    assert str(caught.value) == (
        f"{path}:1:7: name: holds a control character ({spelled}): give plain text on one line"
    )


def test_a_name_keeps_the_direction_marks_and_text_of_either_direction() -> None:
    assert Variant(name="\u05e9\u05d1\u05ea \u200f(Shabbat)\u200e").name.endswith("\u200e")


# ----------------------------------------------------------------------------- caps and positions


def test_unknown_keys_stop_at_the_error_cap_with_a_position(tmp_path: Path) -> None:
    path = write(tmp_path, "many.yaml", "".join(f"k{i}x: 1\n" for i in range(4000)))
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    lines = str(caught.value).splitlines()
    assert len(lines) == MAX_DIAGNOSTICS + 1
    assert lines[-1] == f"{path}:{MAX_DIAGNOSTICS + 1}:1: too many errors; stopped after {MAX_DIAGNOSTICS}"


def test_no_hint_is_worked_out_for_the_unknown_keys_past_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each unknown key's "did you mean" was worked out, twice, for the 100 shown and the 3,900 cut alike:
    # 3 seconds for a file of 4,000. The keys shown keep their hints.
    import kalooki.loader_keys
    import kalooki.validation

    asked: list[str] = []

    def counted(name: str, choices: Iterable[str]) -> str | None:
        asked.append(name)
        return suggest(name, choices)

    monkeypatch.setattr(kalooki.validation, "suggest", counted)
    monkeypatch.setattr(kalooki.loader_keys, "suggest", counted)
    path = write(tmp_path, "many.yaml", "jokrs: 1\n" + "".join(f"k{i}x: 1\n" for i in range(4000)))
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    assert (
        str(caught.value).splitlines()[0] == f"{path}:1:1: jokrs: unknown key 'jokrs'; did you mean 'jokers'?"
    )
    assert len(asked) <= 3 * (MAX_DIAGNOSTICS + 1)


def test_extends_cycles_stop_at_the_error_cap(tmp_path: Path) -> None:
    bases = [f"b{i}.yaml" for i in range(300)]
    write(tmp_path, "b.yaml", "extends: [" + ", ".join(bases) + "]\n")
    for name in bases:
        write(tmp_path, name, "extends: b.yaml\n")
    with pytest.raises(VariantError) as caught:
        load_variant(tmp_path / "b.yaml")
    lines = str(caught.value).splitlines()
    assert len(lines) == MAX_DIAGNOSTICS + 1
    assert lines[-1].endswith(f"too many errors; stopped after {MAX_DIAGNOSTICS}")
    assert lines[-1].split(":")[1:3] != ["0", "0"]


def test_dev_zero_is_not_a_file_of_0_bytes() -> None:
    code, _, err = validate("/dev/zero")
    assert (code, err) == (1, "/dev/zero: is a device, not a regular file\n")


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="Unix sockets are a POSIX feature")
def test_a_socket_is_refused_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a socket's path has a short length limit: bind it by a relative name
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind("rules.yaml")
        code, _, err = validate("rules.yaml")
    assert (code, err) == (1, "rules.yaml: is a socket, not a regular file\n")


@pytest.mark.parametrize(
    ("key", "held"),
    [
        ("\u043epening_threshold", "U+043E CYRILLIC SMALL LETTER O"),
        ("opening\u200b_threshold", "U+200B ZERO WIDTH SPACE"),
        ("opening_threshold\u00a0", "U+00A0 NO-BREAK SPACE"),
    ],
)
def test_a_key_with_a_look_alike_or_invisible_character_names_it(key: str, held: str, tmp_path: Path) -> None:
    # The message read "unknown key 'opening_threshold'; did you mean 'opening_threshold'?": the two
    # names look the same on the screen, and nothing said which character differed.
    path = write(tmp_path, "v.yaml", f"{key}: 40\n")
    code, out, err = validate(str(path))
    assert (code, out) == (1, "")
    assert err == (
        f"{path}:1:1: {key}: unknown key '{key}' (it holds {held}; key names are plain ASCII); "
        "did you mean 'opening_threshold'?\n"
    )


# ----------------------------------------------------------------------------- extends


def test_extends_reads_only_yaml_files_and_never_echoes_another_file(tmp_path: Path) -> None:
    secret = write(tmp_path, "secret.txt", "root: x:0:0\npassword: hunter2\n")
    path = write(tmp_path, "v.yaml", f"extends: {secret}\n")
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    assert (
        str(caught.value) == f"{path}:1:10: extends: a base variant file must end in .yaml or .yml: {secret}"
    )


def test_extends_of_a_yaml_file_that_is_no_variant_names_no_key(tmp_path: Path) -> None:
    write(tmp_path, "compose.yaml", "services: {db: {password: hunter2}}\nvolumes: {}\n")
    path = write(tmp_path, "v.yaml", "extends: ./compose.yaml\n")
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    message = str(caught.value)
    expected = f"{tmp_path}/compose.yaml is not a variant file: none of its keys is a variant's"
    assert message == f"{path}:1:10: extends: {expected}"
    assert "hunter2" not in message
    assert "services" not in message


@pytest.mark.parametrize(
    ("named", "said"),
    [
        ("notes.txt", "a base variant file must end in .yaml or .yml: notes.txt"),
        ("notes", "a base variant file must end in .yaml or .yml: notes"),
        ("compose.yaml", "{folder}/compose.yaml is not a variant file: none of its keys is a variant's"),
    ],
)
def test_a_game_scripts_variant_is_held_to_extends_rules(named: str, said: str, tmp_path: Path) -> None:
    # A name without a slash that is a file next to the script was read as a variant, whatever it was:
    # `kalooki play` listed its keys, "notes.txt:1:1: password: unknown key 'password'".
    write(tmp_path, named, "services: {db: {password: hunter2}}\nuser: root\n")
    script = write(tmp_path, "game.yaml", f"variant: {named}\nplayers: [ann, bob]\n")
    result = runner.invoke(app, ["play", str(script)])
    assert result.exit_code == 1, result.output
    assert result.stderr == f"{script}:1:10: variant: {said.format(folder=tmp_path)}\n"
    assert result.stdout == ""


def test_extends_of_a_folder_is_refused_where_it_is_written(tmp_path: Path) -> None:
    (tmp_path / "rules.yaml").mkdir()
    path = write(tmp_path, "v.yaml", "decks: 2\nextends: rules.yaml\n")
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    assert (
        str(caught.value)
        == f"{path}:2:10: extends: is a directory, not a variant file: {tmp_path}/rules.yaml"
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX feature")
def test_extends_of_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    path = write(tmp_path, "v.yaml", "extends: pipe.yaml\n")
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    assert str(caught.value) == f"{path}:1:10: extends: is not a regular file: {tmp_path}/pipe.yaml"


def test_a_long_chain_of_extends_is_one_line_at_the_file_too_deep(tmp_path: Path) -> None:
    # 1,000 files, each extending the next: deep enough to exhaust Python's recursion.
    for index in range(1000):
        write(tmp_path, f"c{index}.yaml", f"extends: c{index + 1}.yaml\n")
    write(tmp_path, "c1000.yaml", "jokers: 4\n")
    code, out, err = validate(str(tmp_path / "c0.yaml"))
    assert (code, out) == (1, "")
    deepest = MAX_EXTENDS_DEPTH - 1
    assert err.splitlines() == [
        f"{tmp_path / f'c{deepest}.yaml'}:1:10: extends: more than {MAX_EXTENDS_DEPTH} files deep: "
        f"{tmp_path / 'c0.yaml'} -> ... -> {tmp_path / f'c{deepest + 1}.yaml'}; merge some of them"
    ]


def test_a_chain_of_extends_as_deep_as_allowed_loads(tmp_path: Path) -> None:
    for index in range(MAX_EXTENDS_DEPTH - 1):
        write(tmp_path, f"c{index}.yaml", f"extends: c{index + 1}.yaml\n")
    write(tmp_path, f"c{MAX_EXTENDS_DEPTH - 1}.yaml", "jokers: 4\n")
    assert load_variant(tmp_path / "c0.yaml").jokers == 4


@pytest.mark.parametrize(
    "command", [["validate"], ["rules"], ["play"], ["variants", "show"], ["simulate", "-n", "1"]]
)
def test_a_variant_name_too_long_for_a_file_name_is_said_in_one_short_line(command: list[str]) -> None:
    # The system refuses such a name (ENAMETOOLONG) when asked whether it is a file: a traceback.
    name = "x" * 5000
    result = runner.invoke(app, [*command, name], input="")
    assert result.exit_code == 1
    clipped = "x" * 79 + "…"
    assert result.stderr.startswith(f"{clipped}: unknown variant '{clipped}'; the built-in variants are ")
    assert len(result.stderr.splitlines()) == 1


def test_a_path_too_long_for_the_system_is_said_so() -> None:
    assert validate("x" * 5000 + ".yaml") == (
        1,
        "",
        f"{'x' * 5000}.yaml: cannot read the file: File name too long\n",
    )


def test_schema_write_spells_out_its_folder_s_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "wrote DIR/variant.schema.json" printed the folder as typed: a right-to-left override turned the line.
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["schema", "variant", "--write", "a\u202eb"])
    assert (result.exit_code, result.stdout) == (0, "wrote a\\u202eb/variant.schema.json\n")
    assert (tmp_path / "a\u202eb" / "variant.schema.json").is_file()


def test_a_sweep_folder_name_too_long_for_the_system_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["sweep", "--grid", "jokers=1,2", "-n", "1", "--out", "x" * 5000])
    assert (result.exit_code, result.stderr) == (
        1,
        f"{'x' * 79}…: cannot write a folder so named: File name too long\n",
    )


@pytest.mark.parametrize(("over", "told"), [(1, "over 4 MiB"), (1024 * 1024, "5 MiB")])
def test_a_save_too_big_is_told_its_size_without_contradiction(tmp_path: Path, over: int, told: str) -> None:
    # Sizes round down to whole units: one byte over the cap read "the file is 4 MiB; at most 4 MiB".
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (MAX_SAVE_BYTES + over))
    result = runner.invoke(app, ["resume", str(path)])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1].endswith(f"the file is {told}; at most 4 MiB are accepted")


def test_a_base_that_is_not_yaml_is_named_without_echoing_its_lines(tmp_path: Path) -> None:
    # YAML's syntax errors quote their line: a .yaml link to a password file listed its lines.
    secret = tmp_path / "secret"
    secret.write_text(
        "root:x:0:0:root:/root:/bin/bash\nann:x:1000:1000::/home/ann:/bin/sh\n", encoding="utf-8"
    )
    (tmp_path / "pw.yaml").symlink_to(secret)
    path = write(tmp_path, "house.yaml", "name: house\nextends: pw.yaml\n")
    code, out, err = validate(str(path))
    assert (code, out, err.splitlines()) == (
        1,
        "",
        [
            f"{path}:2:10: extends: {tmp_path / 'pw.yaml'} is not a variant file: it is not YAML, "
            "and no line of it starts with a variant's key"
        ],
    )
    # A base that is a variant with a syntax mistake still has the mistake shown where it is.
    typo = write(tmp_path, "typo.yaml", "name: typo\njokers 4\n")
    code, _, err = validate(str(write(tmp_path, "ours.yaml", "name: ours\nextends: typo.yaml\n")))
    assert code == 1
    assert (
        f"{typo}:2:1: YAML syntax: this line has no colon after its key: write jokers: 4" in err.splitlines()
    )
