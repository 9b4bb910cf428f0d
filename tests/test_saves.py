"""Saves as a player meets them: one save a game, ``kalooki saves``, ``resume N``, ``--log`` (``--clean`` in
test_saves_clean.py)."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from kalooki_cli.app import app
from kalooki_cli.continue_log import continue_log
from kalooki_cli.interactive import TurnLogWriter, new_game
from kalooki_cli.saves import move_save, read_save, remember_save, write_save
from test_interactive import fixed_game, packed, run
from typer.testing import CliRunner

from kalooki.cards import format_card
from kalooki.engine import Game
from kalooki.log import replay
from kalooki.savegame import SAVE_SUFFIX, dump_save
from kalooki.variant import Variant

KALOOKI = Path(sys.executable).with_name("kalooki")

runner = CliRunner()


def home_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """kalooki's folder in ``tmp_path`` (not made yet), the terminal wide enough for a line a game."""
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "200")
    return tmp_path / "home"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return home_in(tmp_path, monkeypatch)


def play(*arguments: str, typed: str = "") -> str:
    result = runner.invoke(app, list(arguments), input=typed)
    assert result.exit_code == 0, result.output
    return result.output


def test_save_to_a_file_moves_the_game_there_and_resume_finds_it(home: Path, tmp_path: Path) -> None:
    friday = tmp_path / "friday.json"
    play("play", "--seed", "3", "--fast", typed=f"ds\nsave {friday}\nquit\n")
    assert not list((home / "saves").glob(f"*{SAVE_SUFFIX}"))  # the autosave went: one game, one save
    assert friday.is_file()
    output = play("resume", typed="quit\n")
    assert f"The game is saved after every move to {friday}" in output
    assert (
        "Resuming your game against bob (greedy bot), cid (greedy bot), dee (greedy bot) (hand 1, turn 1)"
        in " ".join(output.split())
    )


def test_move_save_renames_and_writes_the_current_state(tmp_path: Path, home: Path) -> None:
    old, new = tmp_path / f"a{SAVE_SUFFIX}", tmp_path / "b.json"
    write_save(old, "old\n")
    move_save(old, new, "new\n")
    assert not old.exists()
    assert new.read_text() == "new\n"
    assert json.loads((home / "known-saves.json").read_text()) == {"saves": [str(new)]}


@pytest.mark.parametrize(
    "index",
    [
        '{"saves": 5}',
        "[" * 100_000,
        json.dumps({"saves": ["a" * 5000, "/x\u0000y", "", 7]}),
    ],
    ids=["saves not a list", "nested too deeply", "names no file could have"],
)
def test_a_damaged_index_of_saves_elsewhere_lists_none_of_them_and_is_written_anew(
    index: str, tmp_path: Path, home: Path
) -> None:
    home.mkdir()
    (home / "known-saves.json").write_text(index)
    elsewhere = tmp_path / "friday.json"
    play("play", "--seed", "3", "--fast", "--save", str(elsewhere), typed="quit\n")
    assert json.loads((home / "known-saves.json").read_text()) == {"saves": [str(elsewhere)]}
    (home / "known-saves.json").write_text(index)
    assert "No saved games in " in play("saves")


def test_a_save_on_a_folder_gone_for_now_is_kept_in_the_index_and_listed_once_back(
    tmp_path: Path, home: Path
) -> None:
    # A save on a drive unplugged while another game was saved elsewhere was dropped from the index for
    # good; one named twice in it (or through a link to its folder) was listed twice.
    drive = tmp_path / "drive"
    drive.mkdir()
    first = drive / "a.json"
    play("play", "--seed", "2", "--fast", "--save", str(first), typed="quit\n")
    drive.rename(tmp_path / "drive-off")  # unplugged
    play("play", "--seed", "3", "--fast", "--save", str(tmp_path / "b.json"), typed="quit\n")
    assert str(first) not in play("saves")
    (tmp_path / "drive-off").rename(drive)  # back
    (tmp_path / "link").symlink_to(drive)
    index = json.loads((home / "known-saves.json").read_text())
    index["saves"] += [str(first), str(tmp_path / "link" / "a.json")]
    (home / "known-saves.json").write_text(json.dumps(index))
    listed = play("saves")
    assert listed.count("a.json") == 1, listed
    assert str(first) in listed
    (drive / "a.json").unlink()  # removed, its folder there: forgotten
    play("play", "--seed", "4", "--fast", "--save", str(tmp_path / "c.json"), typed="quit\n")
    assert str(first) not in json.loads((home / "known-saves.json").read_text())["saves"]


def test_a_failed_move_leaves_the_game_where_it_was(tmp_path: Path, home: Path) -> None:
    old = tmp_path / f"a{SAVE_SUFFIX}"
    write_save(old, "old\n")
    (tmp_path / "file").write_text("")
    with pytest.raises(Exception, match="cannot save the game"):
        move_save(old, tmp_path / "file" / "b.json", "new\n")
    assert old.read_text() == "old\n"


def saved_game(path: Path, *, finished: bool, seed: int) -> None:
    game, session = new_game(Variant(goal_score=1 if finished else 150), "you", ["greedy"], seed)
    if finished:
        import random

        from kalooki.bots import make_bot
        from kalooki.driver import play_turn

        bots = {seat: make_bot("greedy", random.Random(seat)) for seat in range(2)}
        while not game.game_over:
            if game.phase == "hand_over":
                game.next_hand()
            else:
                play_turn(game, bots[game.current])
    write_save(path, dump_save(game, session))


def test_saves_says_a_game_stopped_between_hands_has_its_hand_over(home: Path) -> None:
    import random

    from kalooki.bots import make_bot
    from kalooki.driver import play_turn

    game, session = new_game(Variant(), "you", ["greedy"], 4)
    bots = {seat: make_bot("greedy", random.Random(seat)) for seat in range(2)}
    while game.phase != "hand_over":
        play_turn(game, bots[game.current])
    write_save(home / "saves" / f"paused{SAVE_SUFFIX}", dump_save(game, session))
    lines = play("saves").splitlines()
    assert lines[1].startswith("1  classic · you, bob · hand 1 is over · last played 20")


def test_saves_spells_a_control_character_in_a_saves_name(home: Path) -> None:
    # A save copied in as "x<ESC>[31m.kalooki-save.json" turned the listing red.
    saved_game(home / "saves" / f"x\x1b[31m{SAVE_SUFFIX}", finished=False, seed=2)
    lines = play("saves").splitlines()
    assert lines[2] == f"   x\\x1b[31m{SAVE_SUFFIX}"


def test_saves_lists_unfinished_games_first_and_resume_takes_a_number(home: Path, tmp_path: Path) -> None:
    folder = home / "saves"
    saved_game(folder / f"done{SAVE_SUFFIX}", finished=True, seed=1)
    saved_game(folder / f"open{SAVE_SUFFIX}", finished=False, seed=2)
    (folder / f"bad{SAVE_SUFFIX}").write_text("{")
    output = play("saves")
    lines = output.splitlines()
    assert lines[0] == f"Saved games in {folder}, unfinished first:"
    assert lines[1].startswith("1  classic · you, bob · hand 1, turn 1 · last played 20")
    assert lines[2] == f"   open{SAVE_SUFFIX}"
    assert lines[3].startswith("2  classic · you, bob · over after hand ")
    assert lines[4] == f"   done{SAVE_SUFFIX}"
    # In the reader's words, not the parser's ("not valid JSON (line 1 column 2: Expecting property name").
    assert lines[5].startswith("3  cannot be resumed: the save is damaged: it is cut off (the file ends")
    assert "Continue one with: kalooki resume N" in output
    output = play("resume", "1", typed="quit\n")
    assert packed(f"saved after every move to {folder / f'open{SAVE_SUFFIX}'}") in packed(output)
    result = runner.invoke(app, ["resume", "9"])
    assert result.exit_code == 1
    assert "there is no saved game 9: 'kalooki saves' lists 3" in result.output


def test_saves_of_games_all_over_offer_no_resume(home: Path) -> None:
    # "Continue one with: kalooki resume N" closed a list in which every game was over.
    folder = home / "saves"
    saved_game(folder / f"done{SAVE_SUFFIX}", finished=True, seed=1)
    (folder / f"bad{SAVE_SUFFIX}").write_text("{")
    output = play("saves")
    assert "kalooki resume N" not in output
    assert output.splitlines()[-1] == (
        "None of them can be continued: start a new game with 'kalooki play'; "
        "'kalooki saves --clean' removes the finished ones."
    )


def test_resume_finds_a_save_by_the_name_saves_lists(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'kalooki saves' shows a save in the saves folder by its name alone: typed from another folder,
    that name was "no such save file"."""
    folder = home / "saves"
    saved_game(folder / f"open{SAVE_SUFFIX}", finished=False, seed=2)
    monkeypatch.chdir(tmp_path)
    output = play("resume", f"open{SAVE_SUFFIX}", typed="quit\n")
    assert packed(f"saved after every move to {folder / f'open{SAVE_SUFFIX}'}") in packed(output)
    result = runner.invoke(app, ["resume", f"gone{SAVE_SUFFIX}"])
    assert result.exit_code == 1
    assert result.stderr == f"gone{SAVE_SUFFIX}: no such save file\n"
    (tmp_path / f"open{SAVE_SUFFIX}").write_text("{")  # a file of that name here is the one meant
    result = runner.invoke(app, ["resume", f"open{SAVE_SUFFIX}"])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"open{SAVE_SUFFIX}: ")


def test_saves_on_a_narrow_terminal_wraps_each_game_under_its_description(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # At 50 columns a description's second line began in column 1, under the games' numbers.
    folder = home / "saves"
    saved_game(folder / f"open{SAVE_SUFFIX}", finished=False, seed=2)
    monkeypatch.setenv("COLUMNS", "40")
    lines = play("saves").splitlines()
    first = next(index for index, line in enumerate(lines) if line.startswith("1  "))
    assert lines[first] == "1  classic · you, bob · hand 1, turn 1 ·"
    assert lines[first + 1].startswith("   last played 20")
    assert lines[first + 2] == f"   open{SAVE_SUFFIX}"


def test_saves_keeps_a_date_with_its_time_at_every_width(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # At 60 columns, and at others, "last played 2026-12-07 23:45" was broken between the date and the time.
    folder = home / "saves"
    saved_game(folder / f"open{SAVE_SUFFIX}", finished=False, seed=2)
    saved_game(folder / f"done{SAVE_SUFFIX}", finished=True, seed=1)
    date_time = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d")
    for columns in range(20, 101):
        monkeypatch.setenv("COLUMNS", str(columns))
        lines = play("saves").splitlines()
        dated = [line for line in lines if date_time.search(line)]
        assert len(dated) == 2, (columns, lines)
        if columns >= len("   last played 2026-12-07 23:45"):  # and "last played" with them where it fits
            assert all(" last played 20" in line for line in dated), (columns, lines)
        assert all(len(line) <= columns for line in dated), (columns, lines)


def test_saves_yes_without_clean_is_a_usage_error(home: Path) -> None:
    saved_game(home / "saves" / f"done{SAVE_SUFFIX}", finished=True, seed=1)
    result = runner.invoke(app, ["saves", "-y"])
    assert result.exit_code == 2
    assert (
        "Invalid value for '--yes': --yes goes with --clean or --remove N: kalooki saves --clean --yes"
        in result.output
    )
    assert (home / "saves" / f"done{SAVE_SUFFIX}").exists()


def test_a_finished_hosted_table_is_not_reopened(home: Path, tmp_path: Path) -> None:
    """Reopened, a table whose game was over waited for its host's start, which ended in a TableError
    traceback ("the game has started"): it is refused as kalooki resume refuses a game that is over."""
    import random

    from net_helpers import new_table

    from kalooki.bots import make_bot
    from kalooki.driver import play_hand

    table = new_table(seats=2, goal_score=1)
    table.join("ann", host=True)
    table.start()
    game = table.require_game()
    bots = {seat: make_bot("greedy", random.Random(seat)) for seat in range(2)}
    play_hand(game, bots)
    assert game.game_over
    path = tmp_path / f"over{SAVE_SUFFIX}"
    path.write_text(table.save_text())
    before = path.read_bytes()
    result = runner.invoke(app, ["host", "--resume", str(path), "--bind", "127.0.0.1", "--port", "0"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [f"{path}: that game is over; open a new table with: kalooki host"]
    assert path.read_bytes() == before


def test_a_hosted_tables_save_is_reopened_by_host_not_resumed_with_bots(home: Path, tmp_path: Path) -> None:
    """``kalooki resume`` would seat bots in the other people's places and write the save back without
    its table, so that ``host --resume`` refused it for good: it says how to reopen the table instead."""
    from kalooki_net.table import Table
    from net_helpers import new_table

    folder = home / "saves"
    folder.mkdir(parents=True)
    table = new_table(seats=2)
    table.join("ann", host=True)
    table.start()
    hosted = folder / f"table{SAVE_SUFFIX}"
    hosted.write_text(table.save_text())
    before = hosted.read_bytes()
    output = play("saves")
    assert "1  hosted table · classic · ann, " in output
    # Only the command that takes it: "Continue one with: kalooki resume N" named one that refuses it.
    assert output.splitlines()[-1] == "Reopen a hosted table with: kalooki host --resume N"
    assert "kalooki resume N" not in output
    assert "None of them can be continued" not in output
    for arguments in (["resume", "1"], ["resume", str(hosted)], ["resume"]):
        result = runner.invoke(app, arguments, input="quit\n")
        assert result.exit_code == 1, result.output
        assert "kalooki host --resume" in result.output
        assert "Resuming" not in result.output
    assert hosted.read_bytes() == before
    Table.resume(before)  # still a table's save
    result = runner.invoke(app, ["resume"])
    assert f"the unfinished games in {folder} are hosted tables" in " ".join(result.output.split())
    # A game of one's own is resumed past the table, however recent the table is.
    saved_game(folder / f"solo{SAVE_SUFFIX}", finished=False, seed=2)
    os.utime(folder / f"solo{SAVE_SUFFIX}", (1, 1))
    assert "saved after every move to" in " ".join(play("resume", typed="quit\n").split())
    assert hosted.read_bytes() == before
    # Nor is a new game saved over it: its message names the command that reopens it.
    result = runner.invoke(app, ["play", "--save", str(hosted)], input="quit\n")
    assert result.exit_code == 1
    assert f"continue it with `kalooki host --resume {hosted}`" in " ".join(result.output.split())


def test_commands_given_a_hosted_tables_save_name_the_command_that_reopens_it(
    home: Path, tmp_path: Path
) -> None:
    # They said "continue it with `kalooki resume FILE`", which refuses a hosted table's save.
    from net_helpers import new_table

    table = new_table(seats=2)
    table.join("ann", host=True)
    table.start()
    hosted = tmp_path / f"table{SAVE_SUFFIX}"
    hosted.write_text(table.save_text())
    reopen = f"reopen it with `kalooki host --resume {hosted}`"
    for arguments, wanted in ((["replay"], "log"), (["play"], "variant"), (["validate"], "variant")):
        result = runner.invoke(app, [*arguments, str(hosted)])
        assert result.exit_code == 1, result.output
        said = " ".join(result.output.split())
        assert f"this is a hosted table's save, not a {wanted}: {reopen}" in said, said


def test_no_saves(home: Path) -> None:
    assert "No saved games in" in play("saves")


def test_resume_with_log_continues_the_log_and_replay_accepts_it(home: Path, tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    save = tmp_path / f"g{SAVE_SUFFIX}"
    output = play(
        "play", "--seed", "5", "--players", "2", "--save", str(save), "--log", str(log), typed="ds\n"
    )
    assert output.endswith(f"Continue it with: kalooki resume {save}\n")  # the save names its log
    for _ in range(3):  # discard in one session, draw in the next: the bot plays in between
        card = format_card(read_save(save).game.hands[0][0])
        play("resume", str(save), "--log", str(log), typed=f"d {card}\n")
        play("resume", str(save), "--log", str(log), typed="ds\n")
    records = [json.loads(line) for line in log.read_text().splitlines()]
    summary = replay(records)
    assert [record["type"] for record in records if record.get("player") == "you"] == ["draw"] + [
        "discard",
        "draw",
    ] * 3
    assert summary.ends == "in hand 1, turn 7 (you to play)"


def test_a_turn_stopped_after_its_melds_can_still_be_undone_in_the_log(tmp_path: Path) -> None:
    game = fixed_game()
    log = tmp_path / "game.jsonl"
    code, _, _ = run(game, ["ds", "m 7H 8H 9H TH, QS QD QC"], log=TurnLogWriter(game, log))
    assert code == 0
    resumed = Game.from_json(game.to_json())
    writer = continue_log(resumed, log)
    assert [record["type"] for record in writer.pending] == ["meld"]
    code, _, _ = run(resumed, ["undo", "m 7H 8H 9H, QS QD QC", "d KD"], log=writer)
    assert code == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [
        record["melds"] for record in records if record["type"] == "meld" and record["player"] == "you"
    ] == [["7H 8H 9H", "QS QD QC"]]
    assert replay(records).actions >= 3


def test_resume_refuses_a_log_of_another_game(home: Path, tmp_path: Path) -> None:
    log = tmp_path / "other.jsonl"
    play("play", "--seed", "5", "--players", "2", "--log", str(log), typed="ds\nd KD\n")
    save = tmp_path / f"g{SAVE_SUFFIX}"
    play("play", "--seed", "6", "--players", "2", "--save", str(save), typed="ds\n")
    before = log.read_text()
    result = runner.invoke(app, ["resume", str(save), "--log", str(log)])
    assert result.exit_code == 1
    assert "this log does not end where the save does" in result.output
    assert log.read_text() == before
    result = runner.invoke(app, ["resume", str(save), "--log", str(tmp_path / "new.jsonl")])
    assert result.exit_code == 1
    assert "no such log" in result.output


def test_resume_says_what_a_file_that_is_not_a_save_is(home: Path, tmp_path: Path) -> None:
    # Not "the save is damaged: it is not valid JSON": the file is fine, it is just not a save.
    log = tmp_path / "game.jsonl"
    play("play", "--seed", "5", "--players", "2", "--log", str(log), typed="ds\n")
    variant = tmp_path / "friday.yaml"
    variant.write_text("extends: classic\njokers: 4\n")
    expected = {
        log: f"{log}: this is a game log, not a save: replay it with `kalooki replay {log}`",
        variant: f"{variant}: this is a variant file, not a save: play it with `kalooki play {variant}`",
    }
    for path, message in expected.items():
        result = runner.invoke(app, ["resume", str(path)])
        assert result.exit_code == 1
        assert result.output.strip() == message
    cut = tmp_path / f"cut{SAVE_SUFFIX}"
    play("play", "--seed", "6", "--players", "2", "--save", str(cut), typed="ds\n")
    cut.write_text(cut.read_text()[:-10])
    result = runner.invoke(app, ["resume", str(cut)])
    assert result.exit_code == 1
    assert "the save is damaged: it is cut off (the file ends partway through)" in result.output


def test_a_variant_with_a_mistake_is_a_variant_not_a_damaged_save(home: Path, tmp_path: Path) -> None:
    # Only a variant that loaded was recognised: one with a mistake in it was "the save is damaged: it is
    # not valid JSON (line 1 column 1: Expecting value)", and for replay "not JSON".
    for text in ("extends: classic\nopening_threshold: yes\n", "jokers: 4\njokers: 6\n"):
        variant = tmp_path / "friday.yaml"
        variant.write_text(text)
        for command, wanted in (("resume", "a save"), ("replay", "a log")):
            result = runner.invoke(app, [command, str(variant)])
            assert result.exit_code == 1, result.output
            assert result.stderr == (
                f"{variant}: this is a variant file, not {wanted}: play it with `kalooki play {variant}`\n"
            )
        assert variant.read_text() == text


def test_a_save_never_writes_over_another_file(home: Path, tmp_path: Path) -> None:
    # `--save friday.yaml` or `save friday.yaml` at the prompt replaced the variant file with the save.
    friday = tmp_path / "friday.yaml"
    friday.write_text("jokers: 4\n")
    result = runner.invoke(app, ["play", str(friday), "--save", str(friday)], input="ds\n")
    assert result.exit_code == 1
    over = "already exists, and a save would write over it; give a new file"
    assert result.output.strip() == f"{friday}: {over}"
    assert friday.read_text() == "jokers: 4\n"
    first = tmp_path / "first.json"
    play("play", "--seed", "3", "--fast", "--save", str(first), typed="ds\n")
    kept = first.read_text()
    result = runner.invoke(app, ["play", "--seed", "4", "--save", str(first)], input="ds\n")
    assert result.exit_code == 1
    assert f"{first}: already holds a saved game (continue it with `kalooki resume {first}`)" in result.output
    second = tmp_path / "second.json"
    out = play(
        "play", "--seed", "4", "--fast", "--save", str(second), typed=f"save {friday}\nsave {second}\n"
    )
    assert packed(f"✗ {friday}: {over}") in packed(out)
    assert f"Saved to {second}" in out
    assert friday.read_text() == "jokers: 4\n"
    assert first.read_text() == kept


def test_a_save_never_replaces_a_fifo_or_a_dangling_link(home: Path, tmp_path: Path) -> None:
    # `--save` on a FIFO held the game for ever at its first save, waiting for a reader, and the
    # prompt's `save` replaced the FIFO with a file. A process, with a timeout, so a regression fails.
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    dangling = tmp_path / "link.json"
    dangling.symlink_to(tmp_path / "nowhere.json")
    over = "already exists, and a save would write over it; give a new file"
    for taken in (fifo, dangling):
        result = subprocess.run(
            [str(KALOOKI), "play", "--seed", "4", "--fast", "--save", str(taken)],
            capture_output=True, text=True, input="ds\n", timeout=60,
        )  # fmt: skip
        assert result.returncode == 1, result.stderr
        assert result.stderr.strip() == f"{taken}: {over}"
    out = play("play", "--seed", "4", "--fast", "--save", str(tmp_path / "g.json"), typed=f"save {fifo}\n")
    assert packed(f"✗ {fifo}: {over}") in packed(out)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert dangling.is_symlink()
    assert not (tmp_path / "nowhere.json").exists()


def test_a_save_named_through_dot_dot_is_noted_once_without_it(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `save ../games/x` was noted as /.../here/../games/x: listed so, and a second spelling of the
    # same file was noted again.
    (tmp_path / "here").mkdir()
    (tmp_path / "games").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    save = tmp_path / "games" / f"x{SAVE_SUFFIX}"
    saved_game(save, finished=False, seed=2)
    remember_save(Path("..") / "games" / save.name)
    remember_save(save)
    noted = json.loads((home / "known-saves.json").read_text())["saves"]
    assert noted == [str(save)]


def test_a_save_named_through_a_linked_folder_is_noted_where_the_system_puts_it(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # here/games links to elsewhere/games: 'save games/../g' is written beside the folder linked to,
    # elsewhere/g, and was noted as here/g, a file that is not there (kalooki saves listed no game).
    (tmp_path / "here").mkdir()
    (tmp_path / "elsewhere" / "games").mkdir(parents=True)
    (tmp_path / "here" / "games").symlink_to(tmp_path / "elsewhere" / "games")
    monkeypatch.chdir(tmp_path / "here")
    typed = Path("games") / ".." / f"g{SAVE_SUFFIX}"
    saved_game(typed, finished=False, seed=2)
    remember_save(typed)
    written = tmp_path / "elsewhere" / f"g{SAVE_SUFFIX}"
    assert written.exists()
    assert json.loads((home / "known-saves.json").read_text())["saves"] == [str(written)]
    assert str(written) in play("saves")
