"""Text from files shown as written: never taken for rich's markup or Markdown on the way out."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from kalooki_cli.app import app
from kalooki_cli.web_coach import WebCoach
from markdown_it import MarkdownIt
from typer.testing import CliRunner

from kalooki.loader import load_variant

runner = CliRunner()
KALOOKI = Path(sys.executable).with_name("kalooki")
needs_script = pytest.mark.skipif(not KALOOKI.exists(), reason="needs the installed console script")

LINK = "Read the [official rules](https://evil.example/phish) *now*"
"""A description whose link rich's Markdown drew as a terminal hyperlink, the address hidden."""

LINKED = (
    f'name: lk\nextends: classic\ndescription: "{LINK}"\nsource: "the [book](https://evil.example/b)"\n'
    "provenance:\n  jokers: |\n    two jokers\n    # Fake heading\n    - fake bullet\n"
)
"""A variant file whose texts hold Markdown: a link, emphasis, and a heading and a bullet of its own."""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- a player's name


@pytest.mark.parametrize("columns", ["120", "30"])
def test_a_script_s_player_named_like_markup_is_shown_by_name_in_every_cell(
    columns: str, tmp_path: Path
) -> None:
    # The hands table's dealer cell was the one left unescaped: '[/]' ended the game told in a
    # MarkupError traceback, on the wide table and on the narrow lines alike, and '[red]b' dealt in red.
    path = write(
        tmp_path,
        "mk.yaml",
        'players: [{name: "[/]", bot: greedy}, {name: "[red]b", bot: greedy}]\nseed: 1\n',
    )
    result = runner.invoke(app, ["play", str(path)], env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    assert result.exception is None
    if columns == "30":
        assert "dealt by [/]:" in result.stdout
        assert "dealt by [red]b:" in result.stdout
    else:
        dealers = {line.split("│")[2].strip() for line in result.stdout.splitlines() if line.count("│") > 3}
        assert {"[/]", "[red]b"} <= dealers


# ----------------------------------------------------------------------------- a variant's name


@pytest.mark.parametrize("compare", [[], ["--compare-set", "jokers=4", "--verbose"]])
def test_simulate_reports_a_variant_named_like_markup_by_its_name(compare: list[str], tmp_path: Path) -> None:
    # Every game was played, then the report's first line, the variant's name printed as markup, ended
    # in a MarkupError traceback (and the comparison's 'A = ..., B = ...' line the same).
    path = write(tmp_path, "brk.yaml", 'name: "[/]"\nextends: classic\n')
    result = runner.invoke(app, ["simulate", str(path), "-n", "2", "-w", "1", *compare])
    assert result.exit_code == 0, result.output
    assert result.exception is None
    lines = result.stdout.splitlines()
    if compare:
        assert lines[0].startswith("A = [/], B = [/] with jokers=4: 2 games each")
        assert any(line.startswith("[/] with jokers=4: 2 games,") for line in lines)
    assert any(line.startswith("[/]: 2 games,") for line in lines)


# ----------------------------------------------------------------------------- a variant's texts


def structure(markdown: str) -> list[str]:
    """The kinds of block a Markdown document opens, in order, and each link and emphasis in them."""
    kinds: list[str] = []
    for token in MarkdownIt("commonmark").parse(markdown):
        if token.type.endswith("_open"):
            kinds.append(token.type)
        kinds += [child.type for child in token.children or () if child.type in ("link_open", "em_open")]
    return kinds


def test_rules_into_a_file_keeps_a_variant_s_texts_as_written(tmp_path: Path) -> None:
    # The Markdown written for docs took the texts for Markdown: a link, a heading and a bullet the file
    # wrote as text became the rulebook's own. Escaped, they read as written wherever it is shown.
    path = write(tmp_path, "lk.yaml", LINKED)
    result = runner.invoke(app, ["rules", str(path)])
    assert result.exit_code == 0, result.output
    plain = write(
        tmp_path, "plain.yaml", "name: lk\ndescription: words\nsource: a book\nprovenance: {jokers: two}\n"
    )
    assert structure(result.stdout) == structure(runner.invoke(app, ["rules", str(plain)]).stdout)
    shown = [
        "".join(child.content or " " for child in token.children or () if child.type in ("text", "softbreak"))
        for token in MarkdownIt("commonmark").parse(result.stdout)
        if token.type == "inline"
    ]
    assert shown[1] == LINK  # the description, its link and its stars as the file wrote them
    assert ": two jokers # Fake heading - fake bullet" in shown  # after `jokers: 2`, in its bullet
    # A text with nothing Markdown would take for markup is written as it is: classic's rulebook quotes
    # a card as [10], not \[10\].
    classic = runner.invoke(app, ["rules", "classic"]).stdout
    assert "a player who has a [10] and a [10] can add both" in classic


@needs_script
def test_rules_on_a_terminal_shows_a_link_s_address_and_draws_no_hyperlink(tmp_path: Path) -> None:
    pytest.importorskip("pty")
    from test_play_pty import Terminal, environment

    path = write(tmp_path, "lk.yaml", LINKED)
    terminal = Terminal(["rules", str(path), "--no-pager"], environment(tmp_path / "home"))
    try:
        assert terminal.wait() == 0
    finally:
        terminal.kill()
    assert "\x1b]8;" not in terminal.output  # OSC 8: a hyperlink, its address hidden behind its words
    assert LINK in terminal.output
    assert "the [book](https://evil.example/b)" in terminal.output
    assert "two jokers # Fake heading - fake bullet" in terminal.output


def test_rules_at_the_table_show_a_variant_s_description_as_written(tmp_path: Path) -> None:
    # The rules command of play (and of join, whose variant is the host's) drew the same rulebook.
    path = write(tmp_path, "lk.yaml", LINKED)
    result = runner.invoke(
        app,
        ["play", str(path), "--seed", "1", "--save", str(tmp_path / "game.json")],
        input="rules\nquit\n",
        env={"KALOOKI_HOME": str(tmp_path / "home"), "COLUMNS": "100"},
    )
    assert result.exit_code == 0, result.output
    assert LINK in result.stdout


def test_the_browser_s_rulebook_shows_a_variant_s_description_as_written() -> None:
    variant = load_variant("classic").model_copy(update={"name": "lk [x](y)", "description": LINK})
    page = WebCoach().rulebook(variant)["html"]
    assert page.startswith(
        "<h2>lk [x](y)</h2>\n<p>Read the [official rules](https://evil.example/phish) *now*</p>"
    )


@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_charts_of_a_variant_named_like_a_formula_are_drawn(command: str, tmp_path: Path) -> None:
    # matplotlib read the text between two '$' of the charts' titles and legends as a formula: the name
    # 'a$\x$b' stopped --plot and --report in a ParseFatalException traceback once every game was played.
    pytest.importorskip("matplotlib")
    # The sweep names the variant by its path, the simulation by its name: both hold the formula.
    path = write(tmp_path, "a$\\x$b.yaml", 'name: "a$\\\\x$b"\nextends: classic\n')
    grid = ["--grid", "jokers=2,3"] if command == "sweep" else []
    plot, page = tmp_path / "chart.png", tmp_path / "report.html"
    arguments = [command, str(path), *grid, "-n", "2", "-w", "1", "--plot", str(plot), "--report", str(page)]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    assert result.exception is None
    assert plot.stat().st_size > 0
    assert "a$\\x$b" in page.read_text(encoding="utf-8")


# ----------------------------------------------------------------------------- the other reports

ELIMINATING = (
    'players: [{name: ann, bot: greedy}, {name: "[b]", bot: greedy}, {name: ":x:", bot: greedy}]\n'
    "seed: 5\nset: {goal_score: 30, elimination: true}\n"
)
"""A script whose game puts '[b]' and ':x:' out: names rich would read as markup and as an emoji code."""


def test_a_script_s_and_its_log_s_names_are_shown_as_written(tmp_path: Path) -> None:
    # 'Eliminated: ann, \[b]' showed the escape meant for markup on a line printed without it, and
    # ':x:' came out as a cross mark in the account, the table and replay's --show.
    path = write(tmp_path, "out.yaml", ELIMINATING)
    log = tmp_path / "out.jsonl"
    result = runner.invoke(app, ["play", str(path), "--log", str(log)], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "Eliminated: [b], :x:" in result.stdout.splitlines()
    assert "\N{CROSS MARK}" not in result.stdout
    assert ":x: discards" in result.stdout
    shown = runner.invoke(app, ["replay", str(log), "--show"], env={"COLUMNS": "120"})
    assert shown.exit_code == 0, shown.output
    assert "\N{CROSS MARK}" not in shown.stdout
    assert ", :x: " in shown.stdout.split("totals: ")[1]


def test_simulate_and_sweep_show_names_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The simulation's title showed a variant named ':x:' as a cross mark; the sweep's first line
    # read a file named '[red]x.yaml' as markup, and printed 'x.yaml' (in red, on a terminal).
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "[red]x.yaml", 'name: ":x:"\nextends: classic\n')
    result = runner.invoke(app, ["simulate", "[red]x.yaml", "-n", "2", "-w", "1"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(":x:: 2 games, ")
    result = runner.invoke(app, ["sweep", "[red]x.yaml", "--grid", "jokers=2,3", "-n", "2", "-w", "1"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("[red]x.yaml: 2 cells")


def test_variants_diff_heads_its_columns_with_the_knobs_set_as_typed() -> None:
    # A --set option is a column's heading: '--set description=[/]' stopped the table in a MarkupError.
    result = runner.invoke(
        app, ["variants", "diff", "classic", "classic", "--set", "jokers=3", "--set", "description=[/]"]
    )
    assert result.exit_code == 0, result.output
    assert result.exception is None
    assert "classic (jokers=3, description=[/])" in result.stdout
