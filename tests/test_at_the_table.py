"""At the table: cards as the table writes them, why a one-turn go-out was not Kalooki, help, Enter.

Scripts, JSON and logs keep the script notation (``TS``); what a person reads at the table
(refusals, hints, the narration) writes ``10♠`` and ``JK(7♠)``.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from kalooki_cli.app import app
from kalooki_cli.going_out import why_not_kalooki
from kalooki_cli.interactive import LOOK_WORDS, InteractiveGame
from kalooki_cli.render import COMMANDS, Seating
from kalooki_cli.scoresheet import hand_end_event, render_hand_end
from kalooki_cli.script_commands import table_legend
from kalooki_cli.table_notation import built_event_cards, move_text, table_sentence
from rich.console import Console
from test_interactive import error_lines, fixed_game, flowing, run
from typer.testing import CliRunner

from kalooki.cards import JOKER, parse_card, parse_cards
from kalooki.engine import FixedDeal, Game
from kalooki.events import HandEndEvent
from kalooki.moves import Build, parse_move
from kalooki.script_run import ScriptRun
from kalooki.variant import Variant

SCRIPTS = Path(__file__).parent / "golden" / "scripts"


def test_refusals_write_cards_as_the_table_does() -> None:
    variant = Variant()
    assert table_sentence("you have no TS in your hand to discard", variant) == (
        "you have no 10♠ in your hand to discard"
    )
    assert (
        table_sentence("8C does not fit the run 5H JK 7H", variant) == "8♣ does not fit the run 5♥ JK(6♥) 7♥"
    )
    assert table_sentence("QS QD 8C is not a set", variant) == "Q♠ Q♦ 8♣ is not a set"
    assert table_sentence("a JK is not A-2-3", variant) == "a JK is not A-2-3"
    assert table_sentence("you have no TS", variant, letters=True) == "you have no 10S"
    assert table_sentence("only the exact card a joker stands for does (TH 8S)", variant) == (
        "only the exact card a joker stands for does (10♥ 8♠)"
    )
    assert table_sentence("JK(9H) stays", variant) == "JK(9H) stays"


def test_at_the_prompt_a_refusal_is_in_table_notation_but_how_to_write_a_card_is_not() -> None:
    game = fixed_game()
    _, transcript, _ = run(game, ["ds", "d TS", "d 1Z"])
    assert error_lines(transcript) == [
        "✗ you have no 10♠ in your hand to discard",
        "✗ 'd 1Z': '1Z' is not a card: write a rank (A 2-9 T J Q K, or 10) and a suit (C D H S), "
        "e.g. 7H, TC, 10C, QS, or JK for a joker",
    ]


def test_a_refused_swap_names_the_card_wanted_as_the_table_does() -> None:
    game = fixed_game(hand="7H 8H JK TH QS QD QC 9D 5D 6S 8C KD 3S")
    _, transcript, _ = run(game, ["ds", "m 7H 8H JK TH, QS QD QC", "s 1 9D"])
    assert error_lines(transcript) == [
        "✗ 9♦ does not free a joker from the run 7♥ 8♥ JK(9♥) 10♥: only the exact card a joker stands for"
        " does (9♥)"
    ]


def test_a_hint_with_a_joker_says_what_it_stands_for_and_types_back() -> None:
    game = fixed_game(hand="7H 8H 9H TH QS QD QC JK 5D 6S 8C KD 3S")
    run(game, ["ds", "m 7H 8H 9H TH, QS QD QC"])
    assert move_text(Build(1, (JOKER,)), game).plain == "build 1 JK(J♥)"
    assert move_text(Build(1, (JOKER,), "low"), game).plain == "build 1 JK(6♥) low"
    assert parse_move("build 1 JK(J♥)") == Build(1, (JOKER,))
    assert parse_move("m 5♥ JK(6♥) 7♥").groups == (tuple(parse_cards("5H JK 7H")),)  # type: ignore[attr-defined]
    meld = parse_move("meld 9♠ 9♦ JK(9♣/♥)")
    assert meld.groups[0][2] == JOKER  # type: ignore[attr-defined]


def test_the_narration_says_what_a_built_joker_stands_for() -> None:
    game = fixed_game(hand="7H 8H 9H TH QS QD QC JK 5D 6S 8C KD 3S")
    _, transcript, _ = run(game, ["ds", "m 7H 8H 9H TH, QS QD QC", "b 1 JK"])
    assert "You build JK(J♥) onto meld 1." in transcript


def test_a_joker_built_onto_a_run_holding_one_is_told_as_the_card_it_adds() -> None:
    # 5H JK 7H 8H with a JK built on: the narration read JK(6♥), the joker already on the table, as if the
    # meld before the build were 5H 7H 8H JK, which is no meld.
    game = fixed_game(hand="5H JK 7H 8H JK QS QD QC 9D 5D 6S 8C 3S")
    _, transcript, _ = run(game, ["ds", "m 5H JK 7H 8H, QS QD QC", "b 1 JK"])
    assert "You build JK(9♥) onto meld 1." in transcript
    variant = Variant(run_minimum=3)
    assert built_event_cards([JOKER], parse_cards("JK 5H JK 7H"), variant, end="low").plain == "JK(4♥)"
    assert built_event_cards([JOKER], parse_cards("5H JK 7H JK"), variant).plain == "JK(8♥)"
    # JK on J-Q-K-A (the 10♥) and JK on 10-J-Q-K (the ace) make the same cards: neither is claimed.
    assert built_event_cards([JOKER], parse_cards("JK JH QH KH JK"), variant).plain == "JK"
    assert built_event_cards([JOKER], parse_cards("JK JH QH KH JK"), variant, end="low").plain == "JK(10♥)"


def test_script_narration_shows_jokers_and_json_keeps_script_notation() -> None:
    runner = CliRunner()
    text = runner.invoke(app, ["play", str(SCRIPTS / "build-and-swap.yaml")]).output
    assert "bob melds 5♥ JK(6♥) 7♥ 8♥, " in text
    assert "ann builds JK(9♥) on meld 1: 4♥ 5♥ 6♥ 7♥ 8♥ JK(9♥)" in text
    result = runner.invoke(app, ["play", str(SCRIPTS / "build-and-swap.yaml"), "--json"])
    assert "♥" not in result.output
    assert json.loads(result.output)["variant"] == "classic"


def test_the_script_result_table_explains_its_numbers() -> None:
    output = (
        CliRunner()
        .invoke(app, ["play", str(SCRIPTS / "kalooki-opening.yaml")], env={"COLUMNS": "200"})
        .output
    )
    assert "│ +105 (80) │" in output
    assert (
        "Each cell: what the hand added to the player's total (+105), and in brackets the value of the cards "
        "they were left with (80); going Kalooki adds 25 to every other player (80 + 25 = 105). "
        "The total row is each player's total at the end."
    ) in flowing(output)


def test_a_result_table_with_no_hand_scored_explains_itself_with_its_own_cell() -> None:
    # It fell back to a made-up "(+12) ... (12)" under cells reading "+0 (103)" and "+0 (95)".
    script = SCRIPTS / "opening-too-low.yaml"
    output = CliRunner().invoke(app, ["play", str(script)], env={"COLUMNS": "200"}).output
    assert "│ +0 (103) │ +0 (95) │" in output
    assert (
        "Each cell: what the hand added to the player's total (+0), and in brackets the value of the cards "
        "they were left with (103). The total row is each player's total at the end."
    ) in flowing(output)


def test_a_result_table_with_no_cell_gives_no_made_up_example() -> None:
    legend = table_legend(ScriptRun(variant="classic", players=["ann", "bob"]), Variant())
    assert legend.startswith(
        "Each cell: what the hand added to the player's total, and in brackets the value of the cards they "
        "were left with. "
    )


def test_the_script_result_on_a_narrow_terminal_writes_every_score_whole() -> None:
    # At 50 columns the squeezed table read "(11…" and "(12…" for scores of 118 and 126.
    output = CliRunner().invoke(app, ["play", str(SCRIPTS / "bots-game.yaml")], env={"COLUMNS": "50"}).output
    lines = [line.rstrip() for line in output.splitlines()]
    assert "…" not in output
    start = lines.index("Hands")
    assert lines[start : start + 15] == [
        "Hands",
        "hand 1, dealt by dee: cid",
        "  ann +0 (64) · bob +0 (118) · cid +192 (0)",
        "  dee +0 (10)",
        "hand 2, dealt by cid: ann",
        "  ann +203 (0) · bob +0 (4) · cid +0 (126)",
        "  dee +0 (73)",
        "hand 3, dealt by bob: bob",
        "  ann +0 (3) · bob +47 (0) · cid +0 (2)",
        "  dee +0 (42)",
        "hand 4, dealt by ann: ann (Kalooki)",
        "  ann +151 (0) · bob -25 (40) · cid -25 (15)",
        "  dee -25 (96)",
        "total",
        "  ann 354 · bob 22 · cid 167 · dee -25",
    ]
    assert flowing(output).endswith(
        "Each score: what the hand added to the player's total (+192), and in brackets the value of the "
        "cards they were left with (0); the winner collects the others' cards. "
        "Under total: each player's total at the end. Game over: ann won"
    )
    # Where the table fits, it is the table.
    wide = CliRunner().invoke(app, ["play", str(SCRIPTS / "bots-game.yaml")], env={"COLUMNS": "80"}).output
    assert "│    1 │ dee    │ cid           │  +0 (64) │ +0 (118) │ +192 (0) │  +0 (10) │" in wide


def one_turn_out_with_a_build() -> tuple[Game, list[dict[str, object]]]:
    """Bob lays his whole hand in his first turn, one card of it built onto ann's run: not Kalooki."""
    deal = FixedDeal(
        hands={
            0: parse_cards("7H 8H 9H TH QS QD QC 2C 5D 6S 8C KD 3S"),
            1: parse_cards("2S 3S 4S 5S 6D 7D 8D 9D TD KC KH KS JH"),
        },
        discard=parse_card("9C"),
        stock_top=parse_cards("4D 2C"),
    )
    game = Game(Variant(), ["ann", "bob"], seed=1, deal=deal)
    for move in [
        "ds",
        "m 7H 8H 9H TH, QS QD QC",
        "d KD",
        "ds",
        "m 2S 3S 4S 5S, 6D 7D 8D 9D TD, KC KH KS",
        "b 1 JH",
    ]:
        game.apply(parse_move(move))
    return game, game.apply(parse_move("d 2C"))


def test_the_end_of_hand_says_why_a_one_turn_go_out_was_not_kalooki() -> None:
    game, events = one_turn_out_with_a_build()
    end = hand_end_event(events)
    assert end is not None
    assert end["kalooki"] is False
    out = Console(file=io.StringIO(), width=200, color_system=None)
    render_hand_end(out, game, Seating(tuple(game.players), 0, {1: "greedy"}), end, laid_in_turn=True)
    screen = out.file.getvalue()  # type: ignore[attr-defined]
    assert "bob went out." in screen
    assert (
        "Not Kalooki: bob went out in one turn, but built on (or took a joker from) a meld already on the "
        "table; in classic Kalooki is the whole hand laid in melds of one's own." in screen
    )


def test_going_out_after_melding_in_an_earlier_turn_says_so() -> None:
    game = fixed_game(hand="7H 8H 9H TH QS QD QC 2C 3C 4C 5C 6C JH", stock="4D 9S", players=2)
    lines = ["ds", "m 7H 8H 9H TH, QS QD QC", "d 4D", "ds", "m 2C 3C 4C 5C 6C", "b 1 JH", "d 9S"]
    _, transcript, _ = run(game, lines)
    assert "You went out." in transcript
    assert (
        "Not Kalooki: you had melded in an earlier turn; Kalooki is the whole hand laid in one turn, "
        "nothing laid before." in flowing(transcript)
    )


def test_a_plain_discard_to_go_out_gets_no_note() -> None:
    game, _ = one_turn_out_with_a_build()
    end = HandEndEvent(1, "went_out", "bob", kalooki=False, hand_points={}, scores={}, totals={})
    assert why_not_kalooki(game, end, laid_in_turn=False) is None
    assert why_not_kalooki(game, end, laid_in_turn=True) is not None


def accepted_words() -> set[str]:
    """Every word the prompt takes as a command, read from the prompt's own code."""
    import inspect

    source = inspect.getsource(InteractiveGame.command)
    words: set[str] = set()
    for group in re.findall(r"word (?:in|==) \(?([^)\n:]+)", source):
        words.update(re.findall(r'"([^"]+)"', group))
    if "word in LOOK_WORDS" in source:  # the look words are named once, for the join screen too
        words.update(LOOK_WORDS)
    return words


def test_help_lists_every_command_the_prompt_accepts() -> None:
    # What a command takes ([FILE], [COMMAND], [low|high]) is left out: the words that type it are listed.
    listed = {
        word for command, _ in COMMANDS for word in re.findall(r"[a-z?]+", re.sub(r"\[[^]]*\]", "", command))
    }
    accepted = accepted_words()
    assert {"look", "help", "quit", "save", "hint", "undo"} <= accepted
    assert accepted <= listed
    _, transcript, _ = run(fixed_game(), ["help"])
    assert "look | l | table | show" in transcript
    assert "Enter on an empty line" in flowing(transcript)


def test_enter_on_an_empty_line_redraws_the_table() -> None:
    game = fixed_game()
    _, transcript, _ = run(game, ["", "ds", ""])
    assert transcript.count("Your hand (13)") == 2
    assert transcript.count("Your hand (14)") == 2


def test_at_a_terminal_enter_redraws_help_lists_look_and_refusals_use_symbols(tmp_path: Path) -> None:
    from test_play_pty import KALOOKI, Terminal, environment

    if not KALOOKI.exists():
        return
    terminal = Terminal(["play", "--seed", "31", "--fast"], environment(tmp_path))
    try:
        terminal.read_until(r"draw> ")
        terminal.type("\n")
        assert "Your hand (13)" in terminal.read_until(r"draw> ")  # the table again
        terminal.type("help\n")
        assert "look | l | table | show" in terminal.read_until(r"draw> ")
        terminal.type("ds\n")
        terminal.read_until(r"play> ")
        terminal.type("d TH\n")  # seed 31 deals no 10♥
        assert "✗ you have no 10♥ in your hand to discard" in terminal.read_until(r"play> ")
        terminal.type("quit\n")
        assert terminal.wait() == 0
    finally:
        terminal.kill()
