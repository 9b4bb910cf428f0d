"""The command line as a person meets it: -h, readable help, shell completion, rules, a starter variant.

Terminal behaviour runs the installed ``kalooki`` script in a real process (a pipe, or a pty).
"""

from __future__ import annotations

import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from kalooki_cli.app import app
from kalooki_cli.completion import complete_bots
from kalooki_cli.output import TrimmedLines
from test_saves import home_in, saved_game
from typer.testing import CliRunner

from kalooki.bots.base import bot_names
from kalooki.loader import builtin_variant_names, load_variant
from kalooki.resources import schemas_dir
from kalooki.rulebook import render_rulebook
from kalooki.savegame import SAVE_SUFFIX
from kalooki.variant import KNOB_NAMES, Variant

KALOOKI = Path(sys.executable).with_name("kalooki")
needs_script = pytest.mark.skipif(not KALOOKI.exists(), reason="needs the installed console script")


def kalooki(
    *arguments: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "COLUMNS": "100", **(env or {})}
    return subprocess.run(
        [str(KALOOKI), *arguments], capture_output=True, text=True, env=environment, cwd=cwd, timeout=60
    )


COMMANDS = [
    [],
    ["validate"],
    ["rules"],
    ["schema"],
    ["new"],
    ["variants"],
    ["variants", "list"],
    ["variants", "show"],
    ["variants", "diff"],
    ["play"],
    ["resume"],
    ["saves"],
    ["replay"],
    ["simulate"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda words: " ".join(words) or "kalooki")
def test_help_has_h_and_no_python_types(command: list[str]) -> None:
    short = CliRunner().invoke(app, [*command, "-h"], env={"COLUMNS": "100"})
    long = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "100"})
    assert short.exit_code == long.exit_code == 0
    assert short.output == long.output
    assert "-h, --help" in short.output
    assert not re.search(r"<(str|int|path|list\[[a-z]+\]|float)>|\{[A-Z|]+\}", short.output), short.output


@needs_script
@pytest.mark.parametrize("command", [[], ["variants"]], ids=["kalooki", "variants"])
def test_the_list_of_commands_says_each_whole_at_80_columns(command: list[str]) -> None:
    """Each command's line is a whole summary, not its help cut off at "...": "Check variant files:
    exit 0 when all are valid, 1 when any is..." was the first thing a newcomer read."""
    # The installed command, as a terminal shows it (click sizes the summaries by the terminal).
    listed = kalooki(*command, "--help", env={"COLUMNS": "80"}).stdout.split("Commands:\n", 1)[1].splitlines()
    names = [line.split()[0] for line in listed if line.strip()]
    assert len(names) == (13 if not command else 3)
    for line in listed:
        assert line.rstrip().endswith("."), line
        assert "..." not in line, line


@needs_script
def test_reports_into_a_file_carry_no_trailing_spaces(tmp_path: Path) -> None:
    # rich pads a table's cells to their width, the last column too: a report saved with
    # `kalooki simulate ... > report.txt` had spaces at the end of nearly every line.
    commands = [
        ["variants", "list"],
        ["variants", "diff", "classic", "kalooki-40"],
        ["simulate", "classic", "-n", "4", "--seed", "1", "--workers", "1"],
        ["sweep", "classic", "--grid", "goal_score=100,150", "-n", "4", "--seed", "1", "--workers", "1"],
        ["saves"],
        ["play", str(Path(__file__).parent / "golden" / "scripts" / "bots-game.yaml")],
    ]
    # A game left unfinished, for `saves` to list (its columns are padded to line up).
    environment = {**os.environ, "COLUMNS": "100", "KALOOKI_HOME": str(tmp_path)}
    started = [str(KALOOKI), "play", "--seed", "1", "--fast"]
    subprocess.run(started, input="ds\nquit\n", capture_output=True, text=True, env=environment, timeout=60)
    for command in commands:
        result = kalooki(*command, env={"KALOOKI_HOME": str(tmp_path)})
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert len(lines) > 1, command
        assert [line for line in lines if line != line.rstrip()] == [], command


def test_trimmed_lines_keep_a_line_still_being_written() -> None:
    target = io.StringIO()
    trimmed = TrimmedLines(target)
    trimmed.write("a table row   \nthe next ")
    assert target.getvalue() == "a table row\n"
    trimmed.write("row  \n\n   \nend ")
    trimmed.flush()
    assert target.getvalue() == "a table row\nthe next row\n\n\nend "


def test_help_writes_metavars_a_person_reads() -> None:
    result = CliRunner().invoke(app, ["validate", "-h"], env={"COLUMNS": "100"})
    assert "Usage: kalooki validate [OPTIONS] PATH..." in result.output
    assert "--set KEY=VALUE" in result.output
    assert "--format [text|json]" in result.output
    result = CliRunner().invoke(app, ["play", "-h"], env={"COLUMNS": "100"})
    assert "--name NAME" in result.output
    assert "--players N" in result.output
    result = CliRunner().invoke(app, ["replay", "-h"], env={"COLUMNS": "100"})
    assert "interactive" in result.output


def complete(words: str, env: dict[str, str] | None = None) -> list[str]:
    """What bash completion offers after ``words`` (the last word is the one being completed)."""
    split = words.split(" ")
    env = {
        **(env or {}),
        "_KALOOKI_COMPLETE": "complete_bash",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(split) - 1),
    }
    result = kalooki(env=env)
    assert (result.returncode, result.stderr) == (0, ""), words
    return result.stdout.split()


@needs_script
def test_completion_knows_variants_and_knobs() -> None:
    assert complete("kalooki play ka") == [name for name in builtin_variant_names() if name.startswith("ka")]
    assert complete("kalooki rules cz") == ["czech-300", "czech-500"]
    assert complete("kalooki play classic --set opening_t") == ["opening_threshold="]
    assert complete("kalooki play classic --set opening") == ["opening_threshold=", "opening_joker_value="]
    assert complete("kalooki validate x.yaml --set scoring=") == [
        "scoring=penalty",
        "scoring=winner_collects",
    ]
    assert len(complete("kalooki rules classic --set ")) == len(KNOB_NAMES)
    assert complete("kalooki new x.yaml --extends kalooki") == ["kalooki-40"]
    assert complete("kalooki simulate classic --compare cz") == ["czech-300", "czech-500"]
    assert complete("kalooki simulate classic --compare-set joker_p") == ["joker_penalty="]
    assert complete("kalooki variants diff classic rom") == ["romanian"]
    assert complete("kalooki variants diff classic classic --set-a elim") == ["elimination="]
    assert complete("kalooki validate kaluki") == ["kaluki-51"]


@needs_script
def test_completion_knows_the_bots_after_each_comma() -> None:
    # --bots completed nothing: a bot's name had to be known, and spelt, from 'kalooki play -h'.
    names = bot_names()
    assert complete("kalooki play --bots gr") == ["greedy"]
    assert complete("kalooki play --bots greedy,ra") == ["greedy,random"]
    assert complete("kalooki simulate classic --bots ") == names
    assert complete("kalooki sweep --bots greedy,") == [f"greedy,{name}" for name in names]
    assert complete("kalooki host --bots random,greedy,e") == ["random,greedy,expert"]
    assert complete("kalooki play --bots nosuch,") == [f"nosuch,{name}" for name in names]


def test_bot_completion_offers_the_plug_ins_too(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib.metadata import EntryPoint

    from kalooki.bots import base

    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    plug_in = EntryPoint("grumpy", "kalooki.bots:GreedyBot", base.ENTRY_POINT_GROUP)
    monkeypatch.setattr(base, "entry_points", lambda group: [plug_in])
    assert complete_bots("random,gr") == ["random,greedy", "random,grumpy"]


def shell_completion(shell: str, line: str) -> subprocess.CompletedProcess[str]:
    """What Typer's completion prints for zsh or fish after ``line`` (the words typed so far)."""
    fish = {"_TYPER_COMPLETE_FISH_ACTION": "get-args"} if shell == "fish" else {}
    environment = {"_KALOOKI_COMPLETE": f"complete_{shell}", "_TYPER_COMPLETE_ARGS": line, "COLUMNS": "80"}
    return kalooki(env={**environment, **fish})


@needs_script
def test_completion_offers_the_saved_games_resume_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # kalooki resume <TAB> offered only the file names where the shell stood, not the games 'kalooki saves'
    # numbers; in zsh and fish each number comes with its line from 'kalooki saves'.
    home = home_in(tmp_path, monkeypatch)
    saved_game(home / "saves" / f"open{SAVE_SUFFIX}", finished=False, seed=2)
    saved_game(home / "saves" / f"done{SAVE_SUFFIX}", finished=True, seed=1)
    assert complete("kalooki resume ") == ["1", "2"]
    assert complete("kalooki resume 2") == ["2"]
    assert complete("kalooki resume o") == [f"open{SAVE_SUFFIX}"]
    assert complete("kalooki resume ./") == []  # none: the shell completes its own file names
    # The other options that take a game as 'kalooki saves' numbers it.
    assert complete("kalooki saves --remove ") == complete("kalooki host --resume ") == ["1", "2"]
    zsh = shell_completion("zsh", "kalooki resume ")
    assert '"1":"classic · you, bob · hand 1, turn 1 · last played ' in zsh.stdout
    assert '"2":"classic · you, bob · over after hand 1, you won · last played ' in zsh.stdout
    # Saves that cannot be listed (a file where the saves folder goes): nothing offered, and no traceback.
    (tmp_path / "file").write_text("")
    assert complete("kalooki resume ", {"KALOOKI_HOME": str(tmp_path / "file")}) == []


@needs_script
def test_a_saved_games_help_in_completion_is_plain_text_whoever_named_its_players(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A save's players are whoever joined a hosted table. zsh evaluated the help with a backslash left as it
    # was, so a player named \$(touch pwned) ran the command at TAB; rich read [/x] as markup and raised; fish
    # took the second line of a help wrapped at 80 columns (Typer's width when piped) for a candidate; a
    # save name with a space or a quote went into bash's command line unquoted.
    from kalooki_cli.interactive import new_game
    from kalooki_cli.saves import write_save

    from kalooki.savegame import dump_save

    home = home_in(tmp_path, monkeypatch)
    (home / "saves").mkdir(parents=True)
    for seat, name in enumerate([r"\$(touch pwned)", "[/x]", "漢" * 20]):  # a wide letter takes two columns
        game = new_game(Variant(), name, ["greedy"] * 3, seat)
        write_save(home / "saves" / f"g{seat}{SAVE_SUFFIX}", dump_save(*game))
    write_save(home / "saves" / f"my game{SAVE_SUFFIX}", dump_save(*new_game(Variant(), "b", ["greedy"], 9)))
    zsh = shell_completion("zsh", "kalooki resume ")
    assert (zsh.returncode, zsh.stderr) == (0, "")
    assert not re.search(r"\$\(|\[/x\]", zsh.stdout)
    assert re.search(r'"[1-4]":"classic · \?\?\(touch pwned\), bob, cid, dee · hand 1, turn 1 ·', zsh.stdout)
    assert re.search(r'"[1-4]":"classic · \?\?x\?, bob, cid, dee · hand 1, turn 1 ·', zsh.stdout)
    fish = shell_completion("fish", "kalooki resume ")
    assert (fish.returncode, fish.stderr) == (0, "")
    assert sorted(line.split("\t")[0] for line in fish.stdout.splitlines()) == ["1", "2", "3", "4"]
    assert complete("kalooki resume g") == [f"g{seat}{SAVE_SUFFIX}" for seat in (2, 1, 0)]
    assert complete("kalooki resume m") == []  # 'my game': the shell's own file names quote it


def test_bot_completion_imports_no_plug_in(monkeypatch: pytest.MonkeyPatch) -> None:
    # Completing --bots imported every plug-in on each TAB: a slow or noisy one slowed or garbled the shell.
    from importlib.metadata import EntryPoint

    from kalooki.bots import base

    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    monkeypatch.setattr(base, "_BROKEN", dict(base._BROKEN))
    plug_ins = [
        EntryPoint("slow", "a_module_nobody_has:Bot", base.ENTRY_POINT_GROUP),
        EntryPoint("odd name", "a_module_nobody_has:Bot", base.ENTRY_POINT_GROUP),
    ]
    monkeypatch.setattr(base, "entry_points", lambda group: plug_ins)
    assert complete_bots("greedy,s") == ["greedy,slow"]
    assert not base._BROKEN  # never imported, so not yet found broken


@needs_script
@pytest.mark.parametrize("word", ["classic", "friday.yaml"])
def test_completion_after_a_variant_where_the_variants_command_goes_ends_without_a_traceback(
    word: str,
) -> None:
    # kalooki variants classic <TAB> ended in a traceback: the hint that names `variants show` was a usage
    # error raised while the shell completed, where click lets a completion read past a mistake.
    split = f"kalooki variants {word} ".split(" ")
    env = {
        "_KALOOKI_COMPLETE": "complete_bash",
        "COMP_WORDS": " ".join(split),
        "COMP_CWORD": str(len(split) - 1),
    }
    result = kalooki(env=env)
    assert (result.returncode, result.stderr) == (0, "")


@needs_script
def test_completion_scripts_install_as_typer_provides() -> None:
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("needs bash")
    # Typer finds the shell among the parent processes: run it from bash, as a person would
    # (the "; true" keeps bash from replacing itself with the command).
    result = subprocess.run(
        [bash, "-c", f"'{KALOOKI}' --show-completion; true"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert "_KALOOKI_COMPLETE=complete_bash" in result.stdout
    assert "--install-completion" in kalooki("-h").stdout


@needs_script
def test_rules_into_a_pipe_is_markdown() -> None:
    result = kalooki("rules", "kalooki-40")
    assert result.returncode == 0
    assert result.stdout.startswith(render_rulebook(load_variant("kalooki-40")))
    assert "## Where each rule comes from" in result.stdout
    assert result.stdout.startswith("# ")
    # Every heading after the first has a blank line before it, the last section's too.
    lines = result.stdout.splitlines()
    assert [lines[index - 1] for index, line in enumerate(lines) if line.startswith("#") and index] == [
        "" for line in lines[1:] if line.startswith("#")
    ]


@needs_script
def test_rules_on_a_terminal_is_rendered_and_markdown_on_request() -> None:
    pty = pytest.importorskip("pty")
    from test_play_pty import Terminal, environment

    env = environment(Path("/nonexistent-kalooki-home"))
    terminal = Terminal(["rules", "kalooki-40", "--no-pager"], env)
    try:
        assert terminal.wait() == 0
    finally:
        terminal.kill()
    title = render_rulebook(load_variant("kalooki-40")).splitlines()[0]
    assert title.startswith("# ")
    assert title[2:] in terminal.output
    assert "# " + title[2:] not in terminal.output  # rendered: the heading is drawn, not written as '# '
    terminal = Terminal(["rules", "kalooki-40", "--markdown"], env)
    try:
        assert terminal.wait() == 0
    finally:
        terminal.kill()
    assert title in terminal.output
    del pty


def recording_pager(into: Path) -> str:
    """A pager command (for KALOOKI_PAGER or PAGER) that writes what it is given to ``into`` and ends."""
    program = "import sys; open(sys.argv[1], 'wb').write(sys.stdin.buffer.read())"
    return shlex.join([sys.executable, "-c", program, str(into)])


@needs_script
@pytest.mark.parametrize("variable", ["KALOOKI_PAGER", "PAGER"])
def test_rules_longer_than_the_terminal_go_through_the_pager(tmp_path: Path, variable: str) -> None:
    pytest.importorskip("pty")
    from test_play_pty import Terminal, environment

    paged = tmp_path / "paged.txt"
    env = {
        key: value for key, value in environment(tmp_path).items() if key not in ("KALOOKI_PAGER", "PAGER")
    }
    title = render_rulebook(load_variant("kalooki-40")).splitlines()[0][2:]
    terminal = Terminal(["rules", "kalooki-40"], {**env, variable: recording_pager(paged)})
    try:
        assert terminal.wait() == 0
    finally:
        terminal.kill()
    assert title in paged.read_text(encoding="utf-8")
    assert "\x1b[" in paged.read_text(encoding="utf-8")  # formatted, its colours kept
    assert title not in terminal.output
    # A terminal taller than the rulebook shows it at once; so does PAGER=cat, and a pipe is never paged.
    for more, arguments in (({"LINES": "1000"}, []), ({variable: "cat"}, []), ({}, ["--no-pager"])):
        paged.unlink(missing_ok=True)
        terminal = Terminal(
            ["rules", "kalooki-40", *arguments], {**env, variable: recording_pager(paged), **more}
        )
        try:
            assert terminal.wait() == 0
        finally:
            terminal.kill()
        assert title in terminal.output
        assert not paged.exists()
    piped = kalooki("rules", "kalooki-40", env={variable: recording_pager(paged)})
    assert piped.stdout.startswith(render_rulebook(load_variant("kalooki-40")))
    assert not paged.exists()


def test_new_writes_a_starter_variant_that_validates(tmp_path: Path) -> None:
    path = tmp_path / "friday.yaml"
    result = CliRunner().invoke(app, ["new", str(path)])
    assert result.exit_code == 0, result.output
    text = path.read_text()
    assert text.startswith("# yaml-language-server: $schema=")
    # Outside the checkout, the installed schema as a file URI (its path may hold a space).
    where = text.splitlines()[0].split("$schema=")[1]
    assert where == (schemas_dir().absolute() / "variant.schema.json").as_uri()
    assert "\nextends: classic\n" in text
    assert "# opening_threshold: 51\n" in text
    assert "# Points a player's first meld action must total" in text
    # Each house rule the README opens with is offered, changed by the built-ins often or not.
    for knob in (
        "# joker_penalty: 25\n",
        "# kalooki_bonus: 25\n",
        "# run_minimum: 3\n",
        "# goal_score: 150\n",
    ):
        assert knob in text
    assert (
        load_variant(path)
        == load_variant("classic").model_copy(update={"name": "friday", "description": "My house rules"})
        or load_variant(path).opening_threshold == 51
    )
    # Uncommenting a knob is all it takes to change it.
    path.write_text(text.replace("# opening_threshold: 51", "opening_threshold: 40"))
    assert load_variant(path).opening_threshold == 40
    again = CliRunner().invoke(app, ["new", str(path)])
    assert again.exit_code == 1
    assert "already exists" in again.output


def test_new_takes_the_values_of_its_base(tmp_path: Path) -> None:
    path = tmp_path / "ours.yaml"
    result = CliRunner().invoke(app, ["new", str(path), "--extends", "kalooki-40"])
    assert result.exit_code == 0
    base = load_variant("kalooki-40")
    assert f"# opening_threshold: {base.opening_threshold}\n" in path.read_text()
    assert load_variant(path).opening_threshold == base.opening_threshold
    refused = CliRunner().invoke(app, ["new", str(tmp_path / "x.txt")])
    assert refused.exit_code == 2
    # .yml is written as well: the message said .yaml alone.
    assert refused.stderr.splitlines()[-1] == (
        "Error: Invalid value for 'FILE.yaml': a variant file's name ends in .yaml (or .yml)"
    )
    assert CliRunner().invoke(app, ["new", str(tmp_path / "x.yml")]).exit_code == 0
    # In any case, as validate and play read it.
    assert CliRunner().invoke(app, ["new", str(tmp_path / "X.YAML")]).exit_code == 0
    assert load_variant(tmp_path / "X.YAML").opening_threshold == 51


def test_new_gives_commands_that_paste_whole_and_refuses_a_file_that_extends_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "kalooki validate my rules.yaml", as printed and as written in the file, validated two files.
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["new", "my rules.yaml"])
    assert result.exit_code == 0, result.output
    assert result.output == "my rules.yaml: written; edit it, then: kalooki validate 'my rules.yaml'\n"
    header = " ".join(line.removeprefix("#") for line in Path("my rules.yaml").read_text().splitlines()[:6])
    said = " ".join(header.split())
    assert (
        "with `kalooki validate 'my rules.yaml'` and read it back with `kalooki rules 'my rules.yaml'`"
        in said
    )
    # Written, it named itself its base, and every command reading it refused the cycle.
    for base in ("./my rules.yaml", str(tmp_path / "my rules.yaml")):
        refused = CliRunner().invoke(app, ["new", "my rules.yaml", "--force", "--extends", base])
        assert refused.exit_code == 2
        assert refused.stderr.splitlines()[-1] == (
            f"Error: Invalid value for '--extends': {base} is the file being written: a variant extends "
            "another one, or a built-in"
        )
    assert load_variant(tmp_path / "my rules.yaml").opening_threshold == 51  # left as it was


@pytest.mark.parametrize(
    ("base", "said"),
    [
        (
            "czech-500",
            "# What frees a joker from a set: three_card_set, all_missing_suits, any_missing_suit, never. "
            "Under set_suits: "
            "may_repeat no suit is missing and a card of the set's rank in any suit serves:",
        ),
        (
            "classic",
            "# What frees a joker from a set: three_card_set (only a three-card set gives up a joker:",
        ),
    ],
)
def test_new_describes_set_joker_release_as_it_applies_to_the_base(
    tmp_path: Path, base: str, said: str
) -> None:
    # czech-500's set suits may repeat, so no suit is ever missing: the file spoke of "both missing
    # suits" alone, leaving out the reference's words for that case.
    path = tmp_path / "ours.yaml"
    assert CliRunner().invoke(app, ["new", str(path), "--extends", base]).exit_code == 0
    text = path.read_text()
    comment = text[: text.index("# set_joker_release:")].rsplit("\n\n", 1)[-1]
    assert " ".join(comment.replace("\n# ", " ").split()).startswith(said)
    assert ("of its missing suits added together" in comment) is (base == "classic")


def test_new_names_a_base_file_from_its_own_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The base is given from the current folder; extends is read from the new file's folder.
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(app, ["new", "friday.yaml"]).exit_code == 0
    (tmp_path / "sub").mkdir()
    result = CliRunner().invoke(app, ["new", "sub/ours.yaml", "--extends", "friday.yaml"])
    assert result.exit_code == 0, result.output
    assert "\nextends: ../friday.yaml\n" in (tmp_path / "sub" / "ours.yaml").read_text()
    checked = CliRunner().invoke(app, ["validate", "sub/ours.yaml"])
    assert checked.exit_code == 0, checked.output
    assert CliRunner().invoke(app, ["new", "here.yaml", "--extends", "./friday.yaml"]).exit_code == 0
    assert "\nextends: friday.yaml\n" in (tmp_path / "here.yaml").read_text()
    # A base file not named .yaml: the command line reads it, extends would not. The starter written
    # with it failed its own validate ("unknown variant 'friday.orig'"); it is refused before writing.
    (tmp_path / "friday.orig").write_text((tmp_path / "friday.yaml").read_text())
    for base in ("friday.orig", "./friday.orig"):
        refused = CliRunner().invoke(app, ["new", "copy.yaml", "--extends", base])
        assert refused.exit_code == 2
        assert (
            f"Invalid value for '--extends': a base variant file must end in .yaml or .yml: {base} (a copy "
            "named .yaml is one)" in " ".join(refused.output.split())
        )
        assert not (tmp_path / "copy.yaml").exists()
    # A base named .YML is a path to extends as .yml is: written as friday.yaml is.
    (tmp_path / "friday.YML").write_text((tmp_path / "friday.yaml").read_text())
    assert CliRunner().invoke(app, ["new", "upper.yaml", "--extends", "./friday.YML"]).exit_code == 0
    assert "\nextends: friday.YML\n" in (tmp_path / "upper.yaml").read_text()
    checked = CliRunner().invoke(app, ["validate", "upper.yaml"])
    assert checked.exit_code == 0, checked.output


def test_the_starter_knobs_follow_the_model() -> None:
    from kalooki_cli.new_variant import most_changed_knobs

    knobs = most_changed_knobs()
    assert knobs
    assert set(knobs) <= set(KNOB_NAMES)
    classic = Variant()
    for knob in knobs:
        assert any(
            getattr(load_variant(name), knob) != getattr(classic, knob) for name in builtin_variant_names()
        )


@needs_script
@pytest.mark.parametrize("command", COMMANDS, ids=lambda words: " ".join(words) or "kalooki")
def test_help_on_a_narrow_terminal_wraps_between_words(command: list[str]) -> None:
    """click wrapped help to 50 columns at the least: a 40-column terminal broke its lines again inside
    words (``terminal against b`` / ``ots``)."""
    narrow = kalooki(*command, "--help", env={"COLUMNS": "40"}).stdout
    wide = kalooki(*command, "--help", env={"COLUMNS": "200"}).stdout
    # Wider only where it is a block the help keeps as written (simulate's examples and figures).
    assert [line for line in narrow.splitlines() if len(line) > 40 and line not in wide.splitlines()] == []
    # Every word whole: a piece of one (``ots``) is no word of the wide help. (A short help is cut
    # where its width ends, ``and...``, and a word breaks after its hyphen: the letters compared alone.)
    assert set(re.findall(r"[A-Za-z]+", narrow)) <= set(re.findall(r"[A-Za-z]+", wide))


@needs_script
def test_host_and_join_without_the_net_extra_say_how_to_install_it(tmp_path: Path) -> None:
    # Installed with `pip install .` (no extras), the network commands have no websockets: one line
    # naming the extra both ways, from the index and from a clone, and nothing started.
    hidden = tmp_path / "hidden" / "websockets"
    hidden.mkdir(parents=True)
    (hidden / "__init__.py").write_text("raise ImportError('not installed here')\n", encoding="utf-8")
    env = {"PYTHONPATH": str(hidden.parent)}
    for arguments in (
        ["host", "--name", "ann", "--bind", "127.0.0.1"],
        ["join", "127.0.0.1:9", "--code", "7KQ2MX"],
    ):
        result = kalooki(*arguments, env=env, cwd=tmp_path)
        assert (result.returncode, result.stdout) == (1, ""), result
        assert result.stderr.splitlines() == [
            "kalooki host and join need the net extra: pip install 'kalooki[net]' "
            "(in a clone: pip install '.[net]')"
        ], result.stderr
