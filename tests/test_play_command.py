"""``kalooki play`` and ``kalooki resume`` from the command line: usage errors, saves, scripts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from kalooki_cli.app import app
from kalooki_cli.interactive import new_game
from kalooki_cli.saves import read_save
from typer.testing import CliRunner

from kalooki.savegame import SAVE_SUFFIX
from kalooki.variant import Variant


def test_play_rejects_json_without_a_script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    result = CliRunner().invoke(app, ["play", "--json"])
    assert result.exit_code == 2


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--bots", "nosuch"], "there is no bot called 'nosuch'"),
        (["--players", "7"], "classic is for 2 to 4 players"),
        (["--name", "two words"], "a name is one word"),
        # As at a hosted table: a longer name pushed the players' rows off an 80-column screen.
        (["--name", "a" * 21], "Invalid value for '--name': a name is at most 20 characters, got 21"),
        (["--name", "ann\x07"], "a name holds no control characters, got 'ann\\x07'"),
        (["--name", "ann\u200f"], "a name holds no control characters, got 'ann\\u200f'"),  # a mark unseen
        # As at a hosted table: ann beside ann and a grapheme joiner read as two anns, or as a blank.
        (["--name", "bob\u034f"], "a name is written in characters that show: no blank fillers"),
        (["--humans", "ann,ann\u034f"], "a name is written in characters that show: no blank fillers"),
        (["--humans", "ann,\u3164"], "a name is written in characters that show: no blank fillers"),
        (["--name", "\ufe0f"], "a name is written in characters that show: no blank fillers"),
        (
            ["--humans", f"ann,{'b' * 30}"],
            "Invalid value for '--humans': a name is at most 20 characters, got 30",
        ),
        # "ann" and "Ann": a reader of "ann went out" takes them for one player.
        (
            ["--humans", "ann,Ann"],
            "Invalid value for '--humans': 'Ann' reads as 'ann' on the screens; give each person a "
            "different name",
        ),
        # It said "'ann' reads as 'ann' on the screens" of the same name given twice.
        (
            ["--humans", "ann,bob,ann"],
            "Invalid value for '--humans': 'ann' is given twice; give each person a different name",
        ),
        (["--humans", "You,ann"], "'you' is what the screens call a player: give each person their own name"),
        # Two people were named: "name two or more people" did not say the empty name was what was wrong.
        (["--humans", "ann,,bob"], "an empty name in 'ann,,bob': one name between each two commas"),
        (["--players", "2", "--bots", "greedy,random"], "2 bots for 1 bot seat (--players 2)"),
        (
            ["--bots", "greedy,random,expert,greedy"],
            "Invalid value for '--bots': 4 bots and you make 5 players, but classic is for 2 to 4 players",
        ),
        (["--players", "1"], "Invalid value for '--players': classic is for 2 to 4 players"),
        # Hot-seat: a bot named beyond the bot seats was left out without a word, and a count made by
        # --humans and --bots was blamed on a --players never given ("classic is for 2 to 4 players").
        (
            ["--humans", "ann,bob", "--players", "4", "--bots", "expert,random,greedy"],
            "Invalid value for '--bots': 3 bots for 2 bot seats (--players 4, 2 people)",
        ),
        (
            ["--humans", "ann,bob", "--bots", "greedy,greedy,greedy"],
            "Invalid value for '--bots': 2 people and 3 bots make 5 players, "
            "but classic is for 2 to 4 players",
        ),
        (
            ["--humans", "ann,bob,cid", "--players", "2"],
            "Invalid value for '--players': 2 players are fewer than the 3 people named",
        ),
        (
            ["kaluki-51", "--humans", "ann,bob,cid"],
            "Invalid value for '--humans': 3 people make 3 players, but kaluki-51 is for exactly 4 players; "
            "--players 4 seats bots in the other places",
        ),
        (["--humans", "ann,bob", "--bots", "greedy,"], "name each bot, separated by commas (greedy,random)"),
        # Taken as not given, an empty --bots (a shell variable left unset) played the default bots.
        (["--bots", ""], "Invalid value for '--bots': give a bot name, not an empty value"),
        (
            ["--humans", "ann,bob", "--bots", " "],
            "Invalid value for '--bots': give a bot name, not an empty value",
        ),
        (["--players", "x"], "Invalid value for '--players': 'x' is not a valid integer"),
        (["--seed", "abc"], "Invalid value for '--seed': 'abc' is not a valid integer"),
        (
            ["kaluki-51", "--players", "3"],
            "Invalid value for '--players': kaluki-51 is for exactly 4 players",
        ),
    ],
)
def test_play_usage_errors(
    arguments: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    result = CliRunner().invoke(app, ["play", *arguments])
    assert result.exit_code == 2
    assert message in result.output


def test_fewer_bots_named_than_bot_seats_repeat_in_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As --help and the README say: the names go round the bot seats.
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    arguments = ["play", "--players", "4", "--bots", "expert,random", "--seed", "1", "--fast"]
    result = CliRunner().invoke(app, arguments, input="quit\n")
    assert result.exit_code == 0
    assert "You against bob (expert bot), cid (random bot), dee (expert bot)." in result.output


def test_play_an_unknown_variant_fails_with_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    result = CliRunner().invoke(app, ["play", "no-such-variant"])
    assert result.exit_code == 1
    assert "unknown variant 'no-such-variant'" in result.output


@pytest.mark.parametrize(
    "command", [["play"], ["validate"], ["rules"], ["simulate", "-n", "1"], ["variants", "show"]]
)
def test_a_missing_file_given_for_a_variant_is_no_such_file(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A name with a dot was read as a misspelt built-in: "unknown variant 'friday.json'; the built-in
    # variants are classic, ..., or give the path of a .yaml file", while friday.yaml was "no such file".
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    for name in ("friday.json", "game.kalooki-save.json", "rules.txt"):
        result = CliRunner().invoke(app, [*command, name])
        assert result.exit_code == 1, result.output
        assert result.stderr == f"{name}: no such file\n"


def test_a_missing_file_named_by_a_scripts_variant_is_no_such_file(tmp_path: Path) -> None:
    script = tmp_path / "game.yaml"
    script.write_text("variant: friday.json\nplayers: [ann, bob]\n")
    result = CliRunner().invoke(app, ["play", str(script)])
    assert result.exit_code == 1, result.output
    assert result.stderr == f"{script}:1:10: variant: no such file: friday.json\n"


def test_a_scripts_illegal_move_is_told_at_its_line_and_column(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The line once began "hand 1, move 2": the editor or the reader had to count the moves.
    monkeypatch.chdir(tmp_path)
    Path("game.yaml").write_text(
        "players: [ann, bob]\nseed: 1\nhands:\n  - moves:\n"
        "      - ann: draw stock\n      - ann:  build 9 8C\n"
    )
    result = CliRunner().invoke(app, ["play", "game.yaml"])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("game.yaml:6:15: hand 1, move 2 (ann: build 9 8C): "), result.stderr


def test_play_from_the_command_line_then_resume_the_latest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    runner = CliRunner()
    result = runner.invoke(app, ["play", "--seed", "9", "--players", "2", "--fast"], input="ds\nhint\n")
    assert result.exit_code == 0, result.output
    assert "Seed 9: deal the same cards again with kalooki play --players 2 --seed 9" in result.output
    saves = list((tmp_path / "saves").glob(f"*{SAVE_SUFFIX}"))
    assert len(saves) == 1
    saved = read_save(saves[0])
    assert saved.game.players == ["you", "bob"]
    assert saved.game.phase == "play"
    result = runner.invoke(app, ["resume"], input="score\n")
    assert result.exit_code == 0, result.output
    assert "Resuming your game against bob (greedy bot) (hand 1, turn 1)" in result.output
    assert "Your hand (14)" in result.output


def test_bots_are_named_around_the_player() -> None:
    game, session = new_game(Variant(), "bob", ["greedy", "random", "expert"], seed=1)
    assert game.players == ["bob", "cid", "dee", "eve"]
    assert session.bots == {1: "greedy", 2: "random", 3: "expert"}


def test_resume_with_no_saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    result = CliRunner().invoke(app, ["resume"])
    assert result.exit_code == 1
    assert "there are no saved games in" in result.output


def test_play_hands_a_script_to_the_script_runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Path, bool, Path | None]] = []

    def fake_run_script(path: Path, *, json_output: bool, log_path: Path | None) -> int:
        calls.append((path, json_output, log_path))
        return 3

    monkeypatch.setattr("kalooki_cli.script_commands.run_script", fake_run_script)
    script = tmp_path / "game.yaml"
    script.write_text("players: [ann, bob]\nseed: 1\n")
    result = CliRunner().invoke(app, ["play", str(script), "--json", "--log", str(tmp_path / "x.jsonl")])
    assert result.exit_code == 3
    assert calls == [(script, True, tmp_path / "x.jsonl")]
    result = CliRunner().invoke(app, ["play", str(script), "--players", "3"])
    assert result.exit_code == 2
    # --humans was the one terminal-game option a script took silently, playing its own players.
    result = CliRunner().invoke(app, ["play", str(script), "--humans", "a,b"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == (
        "Error: Invalid value for '--humans': a game script sets its own players, seed and rules"
    )
    # --save and --fast were refused with the same words, which speak of neither.
    result = CliRunner().invoke(app, ["play", str(script), "--save", str(tmp_path / "s.json")])
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (
        2,
        "Error: Invalid value for '--save': a game script is played through at once and not saved: "
        "--log records it",
    )
    result = CliRunner().invoke(app, ["play", str(script), "--fast"])
    assert (result.exit_code, result.stderr.splitlines()[-1]) == (
        2,
        "Error: Invalid value for '--fast': a game script is played through at once, with no pauses to skip",
    )
    assert len(calls) == 1


def test_play_keeps_a_log_already_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's moves typed at the terminal are in its log only: a new game does not write over it."""
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    log = tmp_path / "game.jsonl"
    played = CliRunner().invoke(app, ["play", "--seed", "3", "--log", str(log)], input="ds\nquit\n")
    assert played.exit_code == 0
    written = log.read_bytes()
    for extra in ([], ["--humans", "ann,bob"]):
        result = CliRunner().invoke(app, ["play", "--seed", "4", "--log", str(log), *extra], input="quit\n")
        assert result.exit_code == 1
        assert result.stderr == f"{log}: already exists, and the log would write over it; give a new file\n"
        assert log.read_bytes() == written
    assert len(read_save_files(tmp_path)) == 1  # the refused games left no save behind
    empty = tmp_path / "empty.jsonl"
    empty.touch()  # nothing to lose: a file made ready for the log is written
    result = CliRunner().invoke(app, ["play", "--seed", "4", "--log", str(empty)], input="quit\n")
    assert result.exit_code == 0
    assert empty.read_text().startswith("{")


def test_play_refuses_a_log_that_is_the_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The save, written whole after every move, replaced a log named as the same file (by any path or
    link), and the "continue it with" line then named a log that was gone."""
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.json").symlink_to("later.json")
    for save, log in (("same.json", "same.json"), ("./x.json", "x.json"), ("later.json", "link.json")):
        for command in (["play", "--seed", "3"], ["host", "--bind", "127.0.0.1", "--port", "1"]):
            result = CliRunner().invoke(app, [*command, "--save", save, "--log", log], input="ds\nquit\n")
            assert result.exit_code == 2
            assert result.stderr.splitlines()[-1] == (
                "Error: Invalid value for '--log': the log and the save must be two files"
            )
    assert sorted(path.name for path in tmp_path.iterdir()) == ["link.json"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX file kind")
def test_play_refuses_a_log_that_is_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A FIFO held the game before its first screen until something read it, and /dev/null took the
    log for one that `kalooki resume` then refused as a device: a game's log is a file."""
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    for place, kind in ((fifo, "is a pipe (FIFO)"), (Path(os.devnull), "is a device")):
        for extra in ([], ["--humans", "ann,bob"]):
            result = CliRunner().invoke(app, ["play", "--log", str(place), *extra], input="quit\n")
            assert result.exit_code == 1
            assert (
                result.stderr == f"{place}: {kind}, not a regular file; give a new file for the game's log\n"
            )
    assert read_save_files(tmp_path) == []


def read_save_files(home: Path) -> list[Path]:
    return sorted((home / "saves").glob(f"*{SAVE_SUFFIX}"))


@pytest.mark.parametrize(
    "command",
    [
        ["play"],
        ["play", "--humans", "ann,bob"],
        ["simulate", "-n", "1"],
        ["sweep", "--grid", "jokers=2,4", "-n", "1"],
        ["host", "--bind", "127.0.0.1", "--port", "0"],
    ],
    ids=lambda command: " ".join(command[:3]),
)
def test_a_misspelt_bot_is_named_with_the_bot_meant(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --bots said only "there is no bot called 'grredy'", where a game script's bot: says "did you mean".
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    bots = "the bots are expert, greedy, random"
    for typed, said in (
        ("grredy", f"there is no bot called 'grredy' (did you mean 'greedy'?): {bots}"),
        ("Expert", f"there is no bot called 'Expert' (did you mean 'expert'?): {bots}"),
        ("zz\x1b[2J", f"there is no bot called 'zz\\x1b[2J': {bots}"),
    ):
        result = CliRunner().invoke(app, [*command, "--bots", typed])
        assert result.exit_code == 2, result.output
        assert said in " ".join(result.output.split())
        assert "\x1b" not in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "command",
    [
        ["play"],
        ["simulate", "-n", "1"],
        ["sweep", "--grid", "jokers=2,4", "-n", "1"],
        ["host", "--bind", "127.0.0.1", "--port", "0"],
    ],
    ids=lambda command: command[0],
)
def test_a_seed_too_long_to_read_back_is_refused(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A 31-digit seed was played and saved: resume, replay and a sweep's --out then refused the files
    # as damaged ("not JSON: a number of 31 digits (at most 30 are accepted)").
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    for seed, digits in (("1" + "0" * 30, "31"), ("-" + "9" * 31, "31"), ("9" * 5000, "5,000")):
        result = CliRunner().invoke(app, [*command, "--seed", seed])
        assert result.exit_code == 2, result.output
        assert (
            f"Invalid value for '--seed': a seed of {digits} digits: give one of at most 30" in result.output
        )
    assert list(tmp_path.iterdir()) == []


def test_a_game_on_the_longest_seed_is_saved_and_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    save = tmp_path / f"game{SAVE_SUFFIX}"
    seed = "-" + "9" * 30
    played = CliRunner().invoke(app, ["play", "--seed", seed, "--fast", "--save", str(save)], input="ds\n")
    assert played.exit_code == 0, played.output
    assert read_save(save).game.seed == int(seed)
    assert CliRunner().invoke(app, ["resume", str(save)], input="quit\n").exit_code == 0
