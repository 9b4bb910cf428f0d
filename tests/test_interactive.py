"""The interactive game driven through its streams: scripted keystrokes in, screens out."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from kalooki_cli.app import app
from kalooki_cli.interactive import (
    EXIT_INTERRUPTED,
    InteractiveGame,
    ReadLine,
    new_game,
    scripted_input,
    suggest_turn,
    without_needless_end,
)
from kalooki_cli.saves import SaveFileError, read_save, write_save
from rich.console import Console
from typer.testing import CliRunner

from kalooki.cards import parse_card, parse_cards
from kalooki.engine import FixedDeal, Game
from kalooki.moves import Build, format_move, parse_move
from kalooki.savegame import SAVE_SUFFIX, Session, dump_save, load_save, seat_rng
from kalooki.variant import Variant

OPENING_HAND = "7H 8H 9H TH QS QD QC 2C 5D 6S 8C KD 3S"
"""34 points of run and 30 of set: enough to open at 51, with six loose cards."""


def fixed_game(hand: str = OPENING_HAND, stock: str = "4D", discard: str = "9C", players: int = 4) -> Game:
    names = ["you", "bob", "cid", "dee"][:players]
    deal = FixedDeal(hands={0: parse_cards(hand)}, discard=parse_card(discard), stock_top=parse_cards(stock))
    return Game(Variant(), names, seed=42, deal=deal)


def session_for(game: Game, bot: str = "greedy") -> Session:
    seats = range(1, len(game.players))
    return Session(
        human_seat=0,
        bots=dict.fromkeys(seats, bot),
        bot_rngs={seat: seat_rng(game.seed, seat).getstate() for seat in seats},
    )


def console(width: int = 80) -> Console:
    return Console(file=io.StringIO(), width=width, color_system=None, highlight=False)


def run(
    game: Game,
    lines: Sequence[str] | ReadLine,
    save_path: Path | None = None,
    session: Session | None = None,
    width: int = 80,
    **options: object,
) -> tuple[int, str, InteractiveGame]:
    out = console(width)
    read_line = lines if callable(lines) else scripted_input(lines, out)
    loop = InteractiveGame(
        game,
        session or session_for(game),
        console=out,
        read_line=read_line,
        save_path=save_path,
        write_save=write_save,
        **options,  # type: ignore[arg-type]
    )
    code = loop.run()
    file = out.file
    assert isinstance(file, io.StringIO)
    return code, file.getvalue(), loop


def state(game: Game) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


NOT_AN_ERROR = ("draw> ", "play> ", "Press Enter", "✗ ", "─")
"""The lines that end an error message wrapped over several: a prompt, another error, a screen's rule."""


def error_lines(transcript: str) -> list[str]:
    """Each error message as one line, joined from the lines it wrapped onto."""
    errors: list[str] = []
    lines = transcript.splitlines()
    for index, line in enumerate(lines):
        if not line.startswith("✗ "):
            continue
        parts = [line]
        for following in lines[index + 1 :]:
            if not following.strip() or following.startswith(NOT_AN_ERROR):
                break
            parts.append(following.strip())
        errors.append(" ".join(part.strip() for part in parts))
    return errors


def flowing(transcript: str) -> str:
    """The transcript with its line breaks and runs of spaces as single spaces: text however it wrapped."""
    return " ".join(transcript.split())


def packed(text: str) -> str:
    """``text`` without its white space: a message naming a temporary path, however the console wrapped
    it (a path longer than the console's width, in a deep temporary folder, goes on a line of its own)."""
    return "".join(text.split())


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("hello", "'hello' is not a command: type help for the list"),
        ("dra stock", "'dra stock' is not a command (did you mean 'draw stock'?): type help for the list"),
        ("DISCRAD KD", "(did you mean 'discard KD'?)"),
        ("zz", "'zz' is not a command: type help"),
        ("dss", "'dss' is not a command (did you mean 'ds'?): type help"),
        ("dds", "'dds' is not a command (did you mean 'dd' or 'ds'?): type help"),
        ("mm 3C 4C 5C", "'mm 3C 4C 5C' is not a command (did you mean 'm 3C 4C 5C'?)"),
        ("mb 3C", "'mb 3C' is not a command: type help"),
        ("dicsard KD*", "'dicsard KD*' is not a command (did you mean 'discard KD*'?)"),
        ("d7C", "'d7C' is not a command (did you mean 'd 7C'?): type help"),
        ("m7H 8H 9H", "'m7H 8H 9H' is not a command (did you mean 'm 7H 8H 9H'?)"),
        ("b2 TH", "'b2 TH' is not a command (did you mean 'b 2 TH'?)"),
        ("discard10♥*", "(did you mean 'discard 10♥*'?)"),
        ("dd7C", "'dd7C' is not a command: type help"),
        # A short verb with a mark after it had no suggestion, where "discard: KD" was told "discard KD".
        ("d: KD", "'d: KD' is not a command (did you mean 'd KD'?): type help"),
        ("m: 7H 8H 9H", "'m: 7H 8H 9H' is not a command (did you mean 'm 7H 8H 9H'?)"),
        ("ds.", "'ds.' is not a command (did you mean 'ds'?): type help"),
        ("hint?", "'hint?' is not a command (did you mean 'hint'?): type help"),
        ("d KD", "you must draw first: draw stock or draw discard"),
        ("draw sideways", "write draw stock or draw discard (ds or dd)"),
        ("m", "write each meld's cards"),
        ("build x 7H", "write the table meld's number"),
        ("undo", "there is nothing to take back"),
        ("d ZZ", "'ZZ' is not a card"),
    ],
)
def test_bad_input_costs_nothing(typed: str, reason: str) -> None:
    game = fixed_game()
    before = state(game)
    code, transcript, _ = run(game, [typed])
    assert code == 0  # end of input after the bad line
    errors = error_lines(transcript)
    assert len(errors) == 1
    assert reason in errors[0]
    assert state(game) == before


def test_a_pasted_page_is_not_shown_back_whole() -> None:
    code, transcript, _ = run(fixed_game(), ["y" * 5000], width=200)
    assert code == 0
    [error] = error_lines(transcript)
    assert error == f"✗ '{'y' * 79}…' is not a command: type help for the list (moves: ds dd m b s d)"


def test_an_illegal_meld_says_why_and_leaves_the_hand() -> None:
    game = fixed_game()
    code, transcript, _ = run(game, ["ds", "m QS QD 8C", "m 7H 8H 9H"])
    assert code == 0
    errors = error_lines(transcript)
    assert errors[0] == "✗ Q♠ Q♦ 8♣ is not a set: the ranks differ"
    assert "your first meld is worth 24 points; this variant needs 51" in errors[1]
    assert game.table == []
    assert len(game.hands[0]) == 14


def test_melds_typed_without_their_comma_are_told_where_it_goes() -> None:
    game = fixed_game()
    code, transcript, _ = run(game, ["ds", "m 7H 8H 9H TH QS QD QC", "m QS QD QC 2C 5D", "m 7H 8H 9H 5D"])
    assert code == 0
    assert error_lines(transcript) == [
        "✗ 7♥ 8♥ 9♥ 10♥ Q♠ Q♦ Q♣ is not a set: the ranks differ; to lay 2 melds, put a comma between"
        " them: meld 7♥ 8♥ 9♥ 10♥, Q♠ Q♦ Q♣",
        "✗ Q♠ Q♦ Q♣ 2♣ 5♦ is not a set: the ranks differ",  # no melds in it as written: no comma to suggest
        "✗ 7♥ 8♥ 9♥ 5♦ is not a run: the suits differ",
    ]
    assert game.table == []
    assert len(game.hands[0]) == 14


# ---------------------------------------------------------------- the turn


def test_open_build_and_discard_then_the_bots_play() -> None:
    game = fixed_game()
    code, transcript, _ = run(game, ["ds", "meld 7H 8H 9H TH, QS QD QC", "b 1 JH", "d KD"])
    assert code == 0
    assert "You meld 7♥ 8♥ 9♥ 10♥ [1] and Q♠ Q♦ Q♣ [2] (64 points)." in transcript
    assert "1 you 7♥ 8♥ 9♥ 10♥" in transcript
    assert error_lines(transcript) == ["✗ you have no J♥ in your hand to play"]
    assert "You discard K♦." in transcript
    # Each bot's turn is one readable line that never names a card drawn from the stock.
    for bot in ("bob", "cid", "dee"):
        line = next(line for line in transcript.splitlines() if line.startswith(f"{bot} "))
        assert line.startswith((f"{bot} draws from the stock", f"{bot} takes "))
    assert game.current == 0
    assert game.opened[0]


def test_undo_takes_back_the_melds_but_not_the_draw() -> None:
    game = fixed_game()
    code, transcript, _ = run(game, ["ds", "m 7H 8H 9H TH, QS QD QC", "undo", "undo"])
    assert code == 0
    assert "Taken back: your hand and the table are as they were after your draw." in transcript
    assert error_lines(transcript) == [
        "✗ there is nothing to take back: undo takes back this turn's melds, builds and swaps"
    ]
    assert game.table == []
    assert not game.opened[0]
    assert sorted(game.hands[0]) == sorted(parse_cards(OPENING_HAND + " 4D"))
    assert game.phase == "play"


def test_the_screen_previews_the_melds_the_hand_could_lay() -> None:
    game = fixed_game()
    _, transcript, _ = run(game, [])
    assert "You could lay: Q♣ Q♦ Q♠, 7♥ 8♥ 9♥ 10♥ = 64 points, enough to open (51)" in transcript


# ---------------------------------------------------------------- hint, help, rules, score


def test_hint_before_the_draw_and_after() -> None:
    game = fixed_game()
    before = state(game)
    _, transcript, _ = run(game, ["hint"])
    assert "Hint (what the greedy bot would play):" in transcript
    assert "  draw " in transcript
    assert state(game) == before


def test_a_hinted_opening_with_a_build_says_what_its_new_melds_make() -> None:
    # "That lays 58 points: enough to open (40 needed)" counted the build, which opens nothing.
    from kalooki_cli.hints import Hint, hint_summary

    from kalooki.moves import Meld

    game = fixed_game()
    game.apply(parse_move("ds"))
    melds = Meld((tuple(parse_cards("QC QD QS")), tuple(parse_cards("7H 8H 9H TH"))))
    build = Build(1, tuple(parse_cards("QH")))
    with_build = Hint(actions=(melds, build), points=74, opening=True, short=None)
    assert (
        hint_summary(with_build, game, 0)
        == "That lays 74 points, 64 of them in new melds: enough to open (51 needed)."
    )
    alone = Hint(actions=(melds,), points=64, opening=True, short=None)
    assert hint_summary(alone, game, 0) == "That lays 64 points: enough to open (51 needed)."
    # With no threshold it read "enough to open (0 needed)", as though points were counted.
    game.variant = game.variant.model_copy(update={"opening_threshold": 0})
    assert hint_summary(alone, game, 0) == "That lays 64 points, which opens: any meld does."


def test_hint_reports_the_points_and_the_opening() -> None:
    game = fixed_game()
    _, transcript, _ = run(game, ["ds", "hint"])
    # The bot may list the two melds in either order; the command is alone on its line, the points under it.
    lines = transcript.splitlines()
    index = next(index for index, line in enumerate(lines) if line.startswith("  meld "))
    assert sorted(lines[index].removeprefix("  meld ").split(", ")) == ["7♥ 8♥ 9♥ 10♥", "Q♣ Q♦ Q♠"]
    # The meld's points are the summary's: said once ("64 points" under the meld said it twice).
    assert lines[index + 1].startswith("  discard ")
    assert "That lays 64 points: enough to open (51 needed)." in transcript
    assert len(game.hands[0]) == 14  # the hint played on a copy


def hint_commands(transcript: str) -> list[str]:
    """The commands of the last hint on the screen: its lines indented by two spaces exactly."""
    lines = transcript.splitlines()
    start = max(index for index, line in enumerate(lines) if line.startswith("Hint (what"))
    commands = []
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        if not line.startswith("    "):
            commands.append(line)
    return commands


def test_the_hint_can_be_typed_back_as_it_is() -> None:
    _, transcript, _ = run(fixed_game(), ["ds", "hint"])
    commands = hint_commands(transcript)
    assert len(commands) == 2  # the opening meld, then the discard
    assert commands[0].startswith("  meld ")
    game = fixed_game()
    code, transcript, _ = run(game, ["ds", *commands])
    assert code == 0
    assert error_lines(transcript) == []
    assert game.opened[0]
    assert game.turn_number == 5  # the hint's discard ended the turn, and the bots played


def test_the_hint_writes_low_or_high_only_when_a_build_needs_it() -> None:
    game = fixed_game(hand="7H 8H 9H TH QS QD QC 6H 5H 5D 6S KD 3S")
    _, transcript, _ = run(game, ["ds", "m 7H 8H 9H TH, QS QD QC", "hint"])
    assert hint_commands(transcript) == ["  build 1 6♥", "  build 1 5♥", "  discard K♦"]
    joker = parse_cards("JK")
    # A joker fits either end of 7H 8H 9H 10H: low must be said; high is where it goes anyway.
    assert without_needless_end(Build(1, tuple(joker), "low"), game) == Build(1, tuple(joker), "low")
    assert without_needless_end(Build(1, tuple(joker), "high"), game) == Build(1, tuple(joker), None)
    assert without_needless_end(parse_move("b 1 6H low"), game) == parse_move("b 1 6H")


def test_commands_that_take_no_arguments_say_so() -> None:
    game = fixed_game()
    before = state(game)
    _, transcript, _ = run(game, ["hint extra", "score please", "undo it"])
    assert error_lines(transcript) == [
        "✗ hint takes no arguments",
        "✗ score takes no arguments",
        "✗ undo takes no arguments",
    ]
    assert "Hint (what" not in transcript
    assert state(game) == before


def test_hint_when_the_hand_cannot_open() -> None:
    game = fixed_game(hand="2C 3C 4C 9D 9H KS QH 5S 7D 8S JC 6H 2S", stock="AD")
    _, transcript, _ = run(game, ["ds", "hint"])
    assert "You cannot open yet: your best melds make 9 of the 51 points needed." in transcript
    hint = suggest_turn(game)
    assert len(hint.actions) == 1
    assert format_move(hint.actions[0]).startswith("discard ")


def test_help_rules_and_score() -> None:
    game = fixed_game()
    _, transcript, _ = run(game, ["help", "rules", "score"])
    assert "draw stock | ds" in transcript
    assert "Your first melds must total at least 51 points" in transcript
    assert "Players and cards" in transcript  # the rulebook's first section
    assert "total" in transcript
    assert error_lines(transcript) == []


# ---------------------------------------------------------------- saving, stopping, resuming


def test_the_game_is_saved_after_every_move(tmp_path: Path) -> None:
    game = fixed_game()
    path = tmp_path / f"g{SAVE_SUFFIX}"
    seen: list[str] = []

    def read_line(prompt: str) -> str:
        seen.append(state(read_save(path).game))
        answers = ["ds", "m 7H 8H 9H TH, QS QD QC"]
        if len(seen) > len(answers):
            raise EOFError
        return answers[len(seen) - 1]

    code, transcript, _ = run(game, read_line, save_path=path)
    assert code == 0
    assert f"End of input: the game is saved in {path}" in flowing(transcript)
    assert f"Continue it with: kalooki resume {path}" in flowing(transcript)
    assert seen[0] != seen[1] != seen[2]
    assert state(read_save(path).game) == state(game)
    assert not list(tmp_path.glob("*.tmp"))


def test_ctrl_c_exits_130_with_the_save_in_place(tmp_path: Path) -> None:
    game = fixed_game()
    path = tmp_path / f"g{SAVE_SUFFIX}"
    answers = iter(["ds"])

    def read_line(prompt: str) -> str:
        answer = next(answers, None)
        if answer is None:
            raise KeyboardInterrupt
        return answer

    code, transcript, _ = run(game, read_line, save_path=path)
    assert code == EXIT_INTERRUPTED
    assert "Interrupted: the game is saved in" in transcript
    assert state(read_save(path).game) == state(game)


def unwritable(tmp_path: Path) -> tuple[Path, str]:
    """A save path that cannot be written (its folder is a file), and the reason a save there fails."""
    (tmp_path / "file").write_text("")
    bad = tmp_path / "file" / f"x{SAVE_SUFFIX}"
    with pytest.raises(SaveFileError) as caught:
        write_save(bad, "{}")
    return bad, caught.value.reason


def test_a_failed_save_keeps_saving_to_the_good_file(tmp_path: Path) -> None:
    game = fixed_game()
    good = tmp_path / f"a{SAVE_SUFFIX}"
    bad, reason = unwritable(tmp_path)
    # A wide screen: pytest's temporary paths are too long for one 80-column line.
    code, transcript, loop = run(game, [f"save {bad}", "ds", "quit"], save_path=good, width=300)
    assert code == 0
    assert error_lines(transcript) == [
        f"✗ {bad}: cannot save the game: {reason}; the game is still saved to {good}"
    ]
    assert loop.save_path == good
    assert state(read_save(good).game) == state(game)  # the draw after the failed save was saved
    assert game.phase == "play"
    assert f"Stopped: the game is saved in {good}" in flowing(transcript)


def test_an_autosave_failure_is_said_once_and_the_game_goes_on(tmp_path: Path) -> None:
    game = fixed_game()
    bad, reason = unwritable(tmp_path)
    code, transcript, _ = run(game, ["ds", "d KD", "ds", "quit"], save_path=bad, width=300)
    assert code == 1  # stopped, and not saved: the game is lost
    assert error_lines(transcript) == [f"✗ could not save to {bad}: {reason}; the game goes on"]
    assert "You discard K♦." in transcript
    assert game.turn_number == 5  # the bots played, and so did you
    assert game.phase == "play"
    assert f"Stopped: the game could not be saved to {bad} ({reason})." in flowing(transcript)
    assert "kalooki resume" not in transcript


def hint_player(game_ref: list[Game], limit: int, out: Console | None = None) -> ReadLine:
    """A player who types whatever the hint says, for ``limit`` prompts, then stops typing."""
    count = [0]

    def read_line(prompt: str) -> str:
        count[0] += 1
        if count[0] > limit:
            raise EOFError
        game = game_ref[0]
        line = "" if prompt.startswith("Press Enter") else format_move(suggest_turn(game).actions[0])
        if out is not None:
            out.print(prompt + line)
        return line

    return read_line


def test_resume_continues_exactly(tmp_path: Path) -> None:
    """A game stopped and resumed ends exactly as the same game played straight through."""
    variant = Variant()
    straight, session = new_game(variant, "you", ["random", "greedy", "random"], seed=2024)
    code, transcript, _ = run(straight, hint_player([straight], 10_000), session=session)
    assert code == 0
    assert straight.game_over
    assert "Hand 1 is over" in transcript
    assert "Game over" in transcript

    path = tmp_path / f"g{SAVE_SUFFIX}"
    game, session = new_game(variant, "you", ["random", "greedy", "random"], seed=2024)
    code, _, _ = run(game, hint_player([game], 25), save_path=path, session=session)
    assert code == 0
    assert not game.game_over
    for stop in (40, 10_000):
        loaded = read_save(path)
        holder = [loaded.game]
        code, transcript, _ = run(
            loaded.game, hint_player(holder, stop), save_path=path, session=loaded.session, resumed=True
        )
        assert code == 0
        assert "Resuming your game against bob (random bot), cid (greedy bot), dee (random bot)" in transcript
    final = read_save(path).game
    assert final.game_over
    assert final.totals == straight.totals
    assert [result.to_json() for result in final.results] == [result.to_json() for result in straight.results]


def test_a_game_stopped_between_hands_resumes_with_the_hand_result(tmp_path: Path) -> None:
    """Stopped at "Press Enter to deal", a resumed game shows the end of the hand again, as it was shown."""
    # It showed only the score sheet: who went out, why it was not Kalooki and the cards left were gone.
    game, session = new_game(Variant(), "you", ["greedy", "greedy", "greedy"], seed=5)
    path = tmp_path / f"g{SAVE_SUFFIX}"
    hinting = hint_player([game], 10_000)

    def until_the_hand_ends(prompt: str) -> str:
        if prompt.startswith("Press Enter"):
            raise EOFError
        return hinting(prompt)

    _, played, _ = run(game, until_the_hand_ends, save_path=path, session=session)
    assert game.phase == "hand_over"
    loaded = read_save(path)
    code, transcript, _ = run(loaded.game, ["quit"], save_path=path, session=loaded.session, resumed=True)
    assert code == 0
    lines = [line.rstrip() for line in transcript.splitlines()]
    assert lines[1:3] == [
        "Resuming your game against bob (greedy bot), cid (greedy bot), dee (greedy bot)",
        "(hand 1 is over).",
    ]
    start = lines.index("Type help for the commands, hint for a suggestion, quit to stop.") + 1
    shown = [
        "──────────────────────────────── Hand 1 is over ────────────────────────────────",
        "cid went out.",
        "Not Kalooki: cid had melded in an earlier turn; Kalooki is the whole hand laid",
        "in one turn, nothing laid before.",
        "",
        " player             cards left       points   this hand   total",
        " ──────────────────────────────────────────────────────────────",
        " you                2♣ 3♣ 2♠              7          +7       7",
        " bob (greedy bot)   A♣ 5♥ 7♥ 5♠          28         +28      28",
        " cid (greedy bot)   -                     0           0       0",
        " dee (greedy bot)   6♣ J♣ 5♦ 6♦ 5♥       32         +32      32",
        "",
    ]
    assert lines[start : start + len(shown) + 1] == [
        *shown,
        "Press Enter to deal hand 2 (or score, save, rules, help, quit): quit",
    ]
    before = [line.rstrip() for line in played.splitlines()]
    end = before.index(shown[0])
    assert before[end : end + len(shown)] == shown  # the screen read before the stop


def test_long_lines_wrap_between_words_and_paths_stay_whole(tmp_path: Path) -> None:
    game, session = new_game(Variant(), "you", ["greedy", "random", "expert"], seed=1)
    path = tmp_path / ("a-long-folder-name-" * 3) / f"game{SAVE_SUFFIX}"
    path.parent.mkdir()
    bogus = "please deal me a much better hand than this one next time"
    code, transcript, _ = run(game, [bogus], save_path=path, session=session, resumed=True)
    assert code == 0
    lines = [line.rstrip() for line in transcript.splitlines()]
    # Every line fits, but the save path: alone on its line, never broken, so it can be copied.
    assert {line for line in lines if len(line) > 80} == {f"  {path}", f"  kalooki resume {path}"}
    resuming = (
        "Resuming your game against bob (greedy bot), cid (random bot), dee (expert bot) (hand 1, turn 1)."
    )
    start = next(index for index, line in enumerate(lines) if line.startswith("Resuming"))
    assert lines[start : start + 2] == [
        "Resuming your game against bob (greedy bot), cid (random bot), dee (expert bot)",
        "(hand 1, turn 1).",
    ]
    assert " ".join(lines[start : start + 2]) == resuming
    start = lines.index("The game is saved after every move to")
    assert lines[start + 1] == f"  {path}"
    start = next(index for index, line in enumerate(lines) if line.startswith("✗ "))
    assert lines[start : start + 2] == [
        f"✗ '{bogus}' is not a command:",
        "type help for the list (moves: ds dd m b s d)",
    ]


def test_a_finished_game_resumes_to_its_result(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    game, session = new_game(Variant(goal_score=30), "you", ["greedy"], seed=5)
    path = tmp_path / f"done{SAVE_SUFFIX}"
    run(game, hint_player([game], 10_000), save_path=path, session=session)
    assert game.game_over
    result = CliRunner().invoke(app, ["resume", str(path)])
    assert result.exit_code == 0
    assert "That game is over" in result.output


def test_resume_refuses_a_damaged_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    game = fixed_game()
    path = tmp_path / f"g{SAVE_SUFFIX}"
    text = dump_save(game, session_for(game))
    path.write_text(text[: len(text) // 2])
    result = CliRunner().invoke(app, ["resume", str(path)])
    assert result.exit_code == 1
    assert f"{path}: the save is damaged: it is cut off (the file ends partway through)" in result.output


def test_a_save_round_trips_through_the_file(tmp_path: Path) -> None:
    game = fixed_game()
    session = session_for(game)
    path = tmp_path / f"g{SAVE_SUFFIX}"
    write_save(path, dump_save(game, session))
    loaded = load_save(path.read_text())
    assert state(loaded.game) == state(game)
    assert loaded.session.bots == session.bots
