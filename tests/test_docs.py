"""The README is a short user guide; it and the pages in docs/ link only to what exists."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def test_the_readme_is_short() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 300


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_link_leads_somewhere(page: Path) -> None:
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.exists(), f"{page.name}: {target} does not exist"
        if anchor and linked.suffix == ".md":
            assert anchor in anchors(linked), f"{page.name}: {target}: no such heading"


def test_the_docs_say_nothing_a_reader_cannot_see() -> None:
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert "/work/" not in text
        assert "the issue" not in text.lower(), page.name


# ---------------------------------------------------------------- the docs held to the code

NAME = re.compile(r"`([a-z_][a-z0-9_]*)`")


def doc(name: str) -> str:
    return (ROOT / "docs" / name).read_text(encoding="utf-8")


def paragraph(text: str, opening: str) -> str:
    """The paragraph (or list item) that starts with ``opening``, up to the next blank line or item."""
    start = text.index(opening)
    ends = [end for end in (text.find("\n\n", start), text.find("\n- ", start)) if end != -1]
    return text[start : min(ends, default=len(text))]


def table_rows(text: str, header: str) -> list[list[str]]:
    """The cells of each row of the Markdown table whose header line is ``header``."""
    lines = text[text.index(header) :].splitlines()[2:]
    rows = []
    for line in lines:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def test_the_script_json_fields_are_the_ones_play_writes() -> None:
    from typing import get_args

    from kalooki.gamestate import HandEnd
    from kalooki.script_run import HandReport, MoveFailure, RefusedMove, ScriptRun

    hand = HandReport(1, False, None, False, {}, {}, end="blocked")
    failure = MoveFailure(1, 1, "ann", "ds", "no")
    refused = RefusedMove(1, 1, "ann", "ds", "no")
    run = ScriptRun("classic", [], hands=[hand], error=failure, refused=[refused])
    written = set(run.to_json()) | set(hand.to_json()) | set(failure.to_json())
    text = paragraph(doc("formats.md"), "`--json` prints")
    braced = re.findall(r"`\{([^}]*)\}`", text)
    named = set(NAME.findall(text)) | {word for group in braced for word in re.split(r",\s*", group)}
    assert written - named == set(), "formats.md: --json fields not described"
    assert named - written - set(get_args(HandEnd)) == set(), "formats.md: --json fields play does not write"


def test_the_simulate_csv_columns_are_the_ones_it_writes() -> None:
    from kalooki.simulate import CSV_FIELDS

    text = paragraph(doc("simulation.md"), "`--csv FILE` (or `-`)")
    columns = [name for name in NAME.findall(text) if name not in ("max_hands",)]
    # "run" ends each row of a comparison (--compare) only.
    expected = [*CSV_FIELDS, "total_1", "total_2", "bots", "run"]
    assert columns == expected, "simulation.md: the CSV columns differ"


def test_the_view_table_names_every_field_of_the_view() -> None:
    import dataclasses

    from kalooki.view import PlayerView

    rows = table_rows(doc("bots.md"), "| field | what it holds |")
    named = {name for row in rows for name in NAME.findall(row[0])}
    fields = {field.name for field in dataclasses.fields(PlayerView)}
    assert fields - named == set(), "bots.md: view fields not in its table"
    assert {name for name in named if not hasattr(PlayerView, name)} == set(), "bots.md: no such view field"


def message_models(union: object) -> dict[str, set[str]]:
    """Each message's type and its other fields."""
    from typing import get_args

    from pydantic import BaseModel

    models = {}
    for model in get_args(union):
        if isinstance(model, type) and issubclass(model, BaseModel):
            (kind,) = get_args(model.model_fields["type"].annotation)
            models[kind] = set(model.model_fields) - {"type"}
    return models


@pytest.mark.parametrize("direction", ["From a client:", "From the host:"])
def test_the_protocol_tables_name_every_message_and_field(direction: str) -> None:
    from typing import get_args

    from kalooki_net import protocol

    text = doc("protocol.md")
    section = text[text.index(direction) :]
    rows = table_rows(section, "| type | fields |")
    documented = {row[0].strip("`"): set(NAME.findall(row[1])) for row in rows}
    union = protocol.ClientMessages if direction == "From a client:" else get_args(protocol.HostMessage)[0]
    for kind, fields in message_models(union).items():
        assert kind in documented, f"protocol.md: no row for {kind}"
        assert fields - documented[kind] == set(), f"protocol.md: {kind}: fields not in its row"
    assert set(documented) == set(message_models(union)), "protocol.md: a row for no message"


def test_the_protocol_error_codes_are_the_ones_the_host_sends() -> None:
    from typing import get_args

    from kalooki_net.protocol import ErrorCode

    named = {
        code
        for group in re.findall(r"`error` ((?:`\w+`(?: / )?)+)", doc("protocol.md"))
        for code in NAME.findall(group)
    }
    assert named == set(get_args(ErrorCode)), "protocol.md: the error codes differ from the protocol's"


def test_the_browser_table_weighs_what_its_page_says() -> None:
    (stated,) = re.findall(r"About (\d+) KB in all, uncompressed", doc("browser.md"))
    weight = sum(path.stat().st_size for path in (ROOT / "net" / "web").iterdir()) / 1000
    assert abs(weight - int(stated)) <= 0.1 * int(stated), f"browser.md: the page weighs {weight:.0f} KB"


def test_the_readmes_table_writes_each_meld_as_the_screen_does() -> None:
    # Its closed set was written JK(10♣), where the screen writes JK(10♣, closed).
    from kalooki_cli.render import meld_text

    from kalooki.melds import make_meld
    from kalooki.moves import Meld, parse_move
    from kalooki.variant import Variant

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    screen = readme[readme.index("\nTable\n") : readme.index("\nDiscard pile:")]
    lines = [re.fullmatch(r"(\d+) (\w+) (.+)", line) for line in screen.strip().splitlines()[1:]]
    assert len(lines) == 9
    classic = Variant()
    for line in lines:
        assert line is not None
        move = parse_move(f"meld {line.group(3).replace(', closed', '')}")  # the mark is the screen's
        assert isinstance(move, Meld)
        assert meld_text(make_meld(move.groups[0], classic), classic).plain == line.group(3)


def test_the_readme_and_the_help_say_the_same_of_rules_log_files_and_the_sweeps_baseline() -> None:
    from kalooki_cli.app import app
    from typer.testing import CliRunner

    runner = CliRunner()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    # "(Markdown into a file)" in the help, "(Markdown into a pipe)" in the README: it is both.
    listed = runner.invoke(app, ["--help"], env={"COLUMNS": "200"}).output
    assert "rulebook (Markdown into a pipe or file)." in listed
    assert "# the rules as a rulebook (Markdown into a pipe or file)" in readme
    # resume's --log read LOG.jsonl where play's, host's and its own messages read FILE.jsonl.
    for command in (["play"], ["resume"], ["host"]):
        said = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"}).output
        assert re.search(r"--log FILE\.jsonl ", said), command
    # "against a baseline": the example's baseline is the first cell, not classic's own values.
    assert "the first unless `--baseline` names another (below: opening_threshold=30" in readme


def test_the_package_docstring_names_only_what_each_module_holds() -> None:
    """``help(kalooki)`` says where the library's names live: each name it gives a module is there."""
    import importlib

    import kalooki

    listing = (kalooki.__doc__ or "").split("\n\n")[2]  # the list, after the title and its lead-in
    named = 0
    for part in re.split(r"(?=:mod:`)", listing)[1:]:
        module = importlib.import_module(re.match(r":mod:`([\w.]+)`", part).group(1))  # type: ignore[union-attr]
        holders: list[object] = [module]  # a method is named after its class: Game (legal_actions, ...)
        for name in re.findall(r"``(\w+)``", part):
            assert any(hasattr(holder, name) for holder in holders), f"{module.__name__} has no {name}"
            holders.append(getattr(module, name, None))
            named += 1
    assert named >= 20


OTHER_TOOLS_OPTIONS = {
    "--host",  # dask scheduler (docs/dask.md)
    "--no-dashboard",  # dask scheduler
    "--nworkers",  # dask worker
    "--nthreads",  # dask worker
    "--forwarded-allow-ips",  # uvicorn's, which --trust-proxy is likened to (docs/protocol.md)
    "--no-deps",  # pip wheel (docs/development.md)
    "--strict",  # mypy
    "--x",  # the mistyped option a usage error quotes (docs/untrusted-input.md)
}
"""Options the pages name that belong to other programs than kalooki and this repository's own tools."""


def test_every_option_the_docs_name_is_one_a_command_takes() -> None:
    # docs/variants.md named `play --hotseat`, which play has never taken: it is --humans.
    from kalooki_cli.app import app
    from typer.main import get_command

    def options(command: Any) -> set[str]:
        named = {name for param in command.params for name in (*param.opts, *param.secondary_opts)}
        for sub in getattr(command, "commands", {}).values():
            named |= options(sub)
        return named

    kalooki = options(get_command(app)) | {"--help"}
    # The repository's own tools (python -m bench, -m mutate, -m kalooki.rulebook) declare theirs in literals.
    sources = [*(ROOT / "bench").glob("*.py"), *(ROOT / "mutate").glob("*.py"), ROOT / "cli" / "knob_docs.py"]
    tools = {
        name for path in sources for name in re.findall(r"\"(--[a-z][a-z-]*)\"", path.read_text("utf-8"))
    }
    for page in PAGES:
        named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", page.read_text(encoding="utf-8")))
        unknown = named - kalooki - tools - OTHER_TOOLS_OPTIONS
        assert unknown == set(), f"{page.name}: no command takes {sorted(unknown)}"


def test_the_replay_lines_formats_md_shows_are_the_ones_replay_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/formats.md's three replays (a whole log, one edited, one cut off) in replay's own words."""
    import json

    from kalooki_cli.app import app
    from typer.testing import CliRunner

    text = doc("formats.md")
    block = text[text.index("$ kalooki replay game.jsonl") :].split("```")[0]
    shown = [line for line in block.splitlines() if line and not line.startswith("$")]
    assert len(shown) == 4

    def shape(line: str) -> re.Pattern[str]:
        # The doc's numbers, players and where the log stops are its game's; the words are replay's.
        pattern = re.sub(r"\d+", r"\\d+", re.escape(line))
        pattern = re.sub(r"\b(ann|bob|cid|dee)\b", r"\\w+", pattern)
        pattern = pattern.replace(r"hands\ reproduced", r"hands?\ reproduced")  # re.escape writes spaces "\ "
        return re.compile(pattern.replace(r"to\ draw", r"to\ \w+"))

    monkeypatch.chdir(tmp_path)
    script = "players: [{name: ann, bot: greedy}, {name: bob, bot: greedy}, {name: cid, bot: greedy}, "
    Path("bots.yaml").write_text(script + "{name: dee, bot: greedy}]\nseed: 7\n", encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(app, ["play", "bots.yaml", "--log", "game.jsonl"]).exit_code == 0
    lines = Path("game.jsonl").read_text(encoding="utf-8").splitlines()
    ended = next(index for index, line in enumerate(lines) if json.loads(line)["type"] == "hand_end")
    record = json.loads(lines[ended])
    record["scores"]["bob"] += 5
    edited = [*lines[:ended], json.dumps(record), *lines[ended + 1 :]]
    Path("edited.jsonl").write_text("\n".join(edited) + "\n", encoding="utf-8")
    cut = len(lines) // 2
    Path("crashed.jsonl").write_text("\n".join(lines[:cut]) + "\n" + lines[cut][:20], encoding="utf-8")

    said = {
        name: runner.invoke(app, ["replay", name]) for name in ("game.jsonl", "edited.jsonl", "crashed.jsonl")
    }
    assert said["game.jsonl"].exit_code == 0
    assert said["edited.jsonl"].exit_code == said["crashed.jsonl"].exit_code == 1
    printed = [*said["game.jsonl"].output.splitlines(), *said["edited.jsonl"].output.splitlines()]
    printed += said["crashed.jsonl"].output.splitlines()
    assert len(printed) == len(shown)
    for line, out in zip(shown, printed, strict=True):
        assert shape(line).fullmatch(out), f"formats.md shows {line!r}; replay printed {out!r}"


def test_the_simulation_page_says_what_every_figure_counts() -> None:
    # Its table, "here at length" of what --help lists, had left out reshuffles per hand and hands abandoned.
    from kalooki.figures import figures_of

    rows = table_rows(doc("simulation.md"), "| figure | meaning |")
    named = {name.strip() for row in rows for name in row[0].split(",")}
    # A seat's or a bot's figures are one row each: "seat 2: hands won" is "hands won".
    reported = {figure.label.split(": ")[-1] for figure in figures_of(["greedy", "random"])}
    assert reported - named == set(), "simulation.md: figures its table does not explain"


def test_every_command_line_the_docs_show_uses_options_its_command_takes() -> None:
    """`kalooki CMD ... --opt` in a code span or a console line: --opt is one of CMD's own options."""
    from kalooki_cli.app import app
    from typer.main import get_command

    commands: dict[str, set[str]] = {}
    for name, command in get_command(app).commands.items():  # type: ignore[attr-defined]
        for full, each in [
            (name, command),
            *((f"{name} {sub}", c) for sub, c in getattr(command, "commands", {}).items()),
        ]:
            commands[full] = {
                option for param in each.params for option in (*param.opts, *param.secondary_opts)
            }
            commands[full] |= {"-h", "--help"}
    names = "|".join(sorted(commands, key=len, reverse=True))
    shown = re.compile(rf"kalooki ({names})((?:\s+(?!kalooki(?![\w-]))[^\s&|;#]+)*)")
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for line in re.findall(r"`([^`\n]+)`", text) + re.findall(r"^\$ (.+)$", text, re.MULTILINE):
            for match in shown.finditer(line):
                for option in re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", match.group(2)):
                    assert option in commands[match.group(1)], (
                        f"{page.name}: kalooki {match.group(1)} has no {option}"
                    )
