"""The screens at 80 columns, with and without colour."""

from __future__ import annotations

import io
import random
import re

import pytest
from kalooki_cli.help_screen import render_help
from kalooki_cli.interactive import meld_preview
from kalooki_cli.narrate import describe_event, table_lines
from kalooki_cli.plain_text import HANDLER, register_stand_ins
from kalooki_cli.remote import table_commands
from kalooki_cli.render import (
    Seating,
    hand_groups,
    hand_lines,
    hand_text,
    joker_meaning,
    meld_text,
    plain_cards,
    render_screen,
)
from kalooki_cli.scoresheet import render_game_end, render_hand_end, render_totals
from rich.console import Console
from rich.text import Text

from kalooki.bots import make_bot
from kalooki.cards import JOKER, parse_card, parse_cards
from kalooki.driver import play_hand
from kalooki.engine import Event, FixedDeal, Game
from kalooki.loader import load_variant
from kalooki.melds import make_meld
from kalooki.moves import Discard, parse_move
from kalooki.rulebook import key_rules
from kalooki.variant import Variant

ANSI = re.compile(r"\x1b\[[0-9;]*m")
BOTS = {1: "greedy", 2: "random", 3: "expert"}


def console(color: bool = False, width: int = 80, encoding: str = "utf-8") -> Console:
    file = io.StringIO()
    if encoding != "utf-8":
        # rich reads the encoding from the file it writes to.
        file = io.TextIOWrapper(io.BytesIO(), encoding=encoding)
    return Console(
        file=file,
        width=width,
        color_system="truecolor" if color else None,
        force_terminal=color,
        highlight=False,
    )


def output(out: Console) -> str:
    file = out.file
    if isinstance(file, io.TextIOWrapper):
        file.flush()
        buffer = file.buffer
        assert isinstance(buffer, io.BytesIO)
        return buffer.getvalue().decode(file.encoding)
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def busy_game() -> tuple[Game, Seating]:
    """A table with sets and runs holding jokers, owned by different players, the human to play."""
    variant = Variant()
    deal = FixedDeal(
        hands={
            0: parse_cards("2C 3C 4C 9D 9H KS QH 5S 7D 8S JC 6H 2S"),
            1: parse_cards("7H 8H JK TH QS QD QC 5C 5D 6S 8C KD 3S"),
            2: parse_cards("9S 9C JK AD KC QC JC AH AS 4D 4H 2D 3D"),
            3: parse_cards("7D 2H 3H 4S 5H 6D 7S 8D TC TS JD JS KC"),
        },
        discard=parse_card("TD"),
        stock_top=parse_cards("KH 6C 7C"),
    )
    game = Game(variant, ["ann", "bob", "cid", "dee"], seed=1, deal=deal)
    for move in ("ds", "d KH", "ds", "m 7H 8H JK TH, QS QD QC", "d KD", "ds", "m 9S 9C JK, AD AH AS", "d 4D"):
        game.apply(parse_move(move))
    game.apply(parse_move("ds"))
    game.apply(Discard(parse_card("7D") if parse_card("7D") in game.hands[3] else game.hands[3][0]))
    return game, Seating(tuple(game.players), 0, BOTS)


def visible_lines(text: str) -> list[str]:
    return ANSI.sub("", text).splitlines()


@pytest.mark.parametrize("color", [False, True])
def test_the_screen_fits_80_columns(color: bool) -> None:
    game, seating = busy_game()
    out = console(color)
    render_screen(out, game, seating, preview=meld_preview(game, 0))
    text = output(out)
    lines = visible_lines(text)
    assert max(len(line) for line in lines) <= 80
    assert ("\x1b[" in text) == color
    plain = "\n".join(line.rstrip() for line in lines)
    for expected in (
        "────────────── Kalooki · classic · hand 1, dealt by dee · turn 5 ───────────────",
        "▶ ann (you)         13 cards  not opened  total 0",
        "  bob (greedy bot)   6 cards  opened      total 0",
        "  dee (expert bot)  13 cards  not opened  total 0",
        "1 bob 7♥ 8♥ JK(9♥) 10♥",
        "2 bob Q♠ Q♦ Q♣",
        "3 cid 9♠ 9♣ JK(9♦/♥)",
        "4 cid A♦ A♥ A♠",
        "Discard pile: 7♦ (5 cards)    Stock: 49 cards",
        "Your hand (13): 2♣ 3♣ 4♣ J♣   7♦ 9♦   6♥ 9♥ Q♥   2♠ 5♠ 8♠ K♠",
        "You could lay: 2♣ 3♣ 4♣ = 9 points, not enough to open (51)",
        "Your turn: draw a card: ds (draw stock) or dd (draw discard: 7♦)",
        "Not opened yet: your first melds must make 51 together, in one meld command.",
    ):
        assert expected in plain.splitlines()


def test_the_totals_line_up_when_their_digits_differ() -> None:
    game, seating = busy_game()
    game.totals[:] = [8, 5, 0, 53]
    out = console()
    render_screen(out, game, seating)
    rows = [line.rstrip() for line in visible_lines(output(out)) if "opened" in line and "total" in line]
    assert rows == [
        "▶ ann (you)         13 cards  not opened  total  8",
        "  bob (greedy bot)   6 cards  opened      total  5",
        "  cid (random bot)   7 cards  opened      total  0",
        "  dee (expert bot)  13 cards  not opened  total 53",
    ]


def test_the_last_card_of_the_stock_is_one_card() -> None:
    game, seating = busy_game()
    del game.stock[1:]  # drawn down to its last card, as a long hand does before the reshuffle
    out = console()
    render_screen(out, game, seating)
    [piles] = [line.rstrip() for line in visible_lines(output(out)) if line.startswith("Discard pile:")]
    assert piles == "Discard pile: 7♦ (5 cards)    Stock: 1 card"


@pytest.mark.parametrize("width", [30, 36, 44, 52, 60])
def test_a_narrow_screen_cuts_no_number(width: int) -> None:
    # After a hand played out, with totals of several digits and a player out of the game.
    game, seating = busy_game()
    play_out_hand(game)
    game.next_hand()
    game.eliminated[3] = True
    out = console(width=width)
    render_screen(out, game, seating, preview=meld_preview(game, 0))
    lines = visible_lines(output(out))
    assert max(len(line) for line in lines) <= width, "\n".join(lines)
    assert not [line for line in lines if "…" in line], "\n".join(lines)
    plain = "\n".join(lines)
    assert f"turn {game.turn_number}" in plain
    for seat in range(4):
        row = next(line for line in lines if line[2:].startswith(game.players[seat]))
        counted = "" if game.eliminated[seat] else rf"{len(game.hands[seat])}( cards)? +"
        opened = "out" if game.eliminated[seat] else "(not opened|opened|yes|no)"
        assert re.search(rf"{counted}{opened} +(total +)?{game.totals[seat]}$", row.rstrip()), row


@pytest.mark.parametrize("width", [36, 44, 60])
def test_a_narrow_hand_end_and_score_sheet_cut_no_number(width: int) -> None:
    game, seating = busy_game()
    end = next(event for event in play_out_hand(game) if event["type"] == "hand_end")
    out = console(width=width)
    render_hand_end(out, game, seating, end)
    render_totals(out, game, seating)
    lines = visible_lines(output(out))
    assert max(len(line) for line in lines) <= width, "\n".join(lines)
    assert not [line for line in lines if "…" in line], "\n".join(lines)
    text = "\n".join(line.rstrip() for line in lines)
    for name in game.players:
        points, total = end.hand_points[name], end.totals[name]
        score = end.scores[name]
        shown = f"{score:+d}" if score else "0"
        assert re.search(rf"^ {name}\b.* {points} +{re.escape(shown)} +{total}$", text, re.MULTILINE), text
    totals = "".join(rf" +{end.totals[name]}" for name in game.players)
    assert re.search(rf"^ +total{totals}$", text, re.MULTILINE), text
    for hand in game.hands:  # every card left is shown
        assert all(card in text for card in hand_text(hand).plain.split())
    lines = text.splitlines()
    if "Cards left" in lines:  # narrow: cards wrapped onto a next line stand under the first card
        left = lines[lines.index("Cards left") + 1 :]
        left = left[: left.index("")] if "" in left else left
        start = len(left[0]) - len(left[0].split(":", 1)[1].lstrip())  # the first card's column
        for line in left:
            if not line.startswith(tuple(seating.label(seat) for seat in range(4))):
                assert len(line) - len(line.lstrip()) == start, "\n".join(left)


def test_colours_red_and_black_and_jokers_stand_out() -> None:
    out = console(color=True)
    out.print(hand_text(parse_cards("7H 7S JK"), marked=parse_cards("7H")))
    text = output(out)
    # Red for hearts (underlined: part of a meld to lay), bold default for spades, a highlighted joker.
    assert "\x1b[1;4;31m7♥" in text or "\x1b[1;31;4m7♥" in text
    assert "\x1b[1m7♠" in text
    assert re.search(r"\x1b\[[0-9;]*43m" + "JK", text)


def test_the_hand_is_sorted_by_suit_and_rank_with_suits_apart() -> None:
    out = console()
    out.print(hand_text(parse_cards("KS JK 2H AC 10D 3C 9H"), new=parse_card("9H")))
    assert output(out).strip() == "A♣ 3♣   10♦   2♥ 9♥*   K♠   JK"


@pytest.mark.parametrize(
    ("width", "expected"),
    [
        (80, ["Hand: Q♣ K♣   3♥ 4♥ 5♥ 7♥ 10♥ Q♥   A♠ 2♠ J♠ Q♠   JK"]),
        (40, ["Hand: Q♣ K♣   3♥ 4♥ 5♥ 7♥ 10♥ Q♥", "      A♠ 2♠ J♠ Q♠   JK"]),
        (20, ["Hand: Q♣ K♣", "      3♥ 4♥ 5♥ 7♥ 10♥ Q♥", "      A♠ 2♠ J♠ Q♠", "      JK"]),
    ],
)
def test_a_narrow_terminal_breaks_the_hand_between_suits(width: int, expected: list[str]) -> None:
    groups = hand_groups(parse_cards("QC KC 3H 4H 5H 7H 10H QH AS 2S JS QS JK"))
    assert [line.plain for line in hand_lines(Text("Hand: "), groups, width)] == expected


def test_letters_when_the_terminal_cannot_show_suit_symbols() -> None:
    out = console(encoding="ascii")
    assert plain_cards(out)
    out.print(hand_text(parse_cards("TD QS JK"), letters=True))
    game, seating = busy_game()
    render_screen(out, game, seating, preview=meld_preview(game, 0))
    render_help(out, game.variant)
    text = output(out)
    assert text.isascii()
    assert "10D   QS   JK" in text
    assert "1 bob 7H 8H JK(9H) 10H" in text
    assert "> ann (you)" in text


def test_a_set_joker_stands_for_its_missing_suits() -> None:
    variant = Variant()
    three = make_meld(parse_cards("9S 9C JK"), variant)
    assert joker_meaning(three, 2, variant) == "9♦/♥"
    run = make_meld(parse_cards("JK 2H 3H"), variant)
    assert joker_meaning(run, 0, variant) == "A♥"
    assert run.cards[0] == JOKER


def test_a_set_joker_where_suits_may_repeat_stands_for_any_suit() -> None:
    # It was shown as only the missing suits (JK(7♣/♦)), though the engine's swap frees it for a 7♥ the
    # set holds already; and the help said "a nine of a suit the set lacks".
    from kalooki.melds import swap

    variant = Variant(opening_threshold=0, set_suits="may_repeat", set_joker_release="any_missing_suit")
    three = make_meld(parse_cards("7H 7S JK"), variant)
    assert meld_text(three, variant).plain == "7♥ 7♠ JK(7♣/♦/♥/♠)"
    assert joker_meaning(three, 2, variant, letters=True) == "7C/D/H/S"
    assert swap(three, tuple(parse_cards("7H")), variant)[1] == 1
    fives = variant.model_copy(update={"set_maximum": 5})
    five = make_meld(parse_cards("7H 7S JK JK 7D"), fives)
    assert meld_text(five, fives).plain == "7♥ 7♠ JK(7♣/♦/♥/♠) JK(7♣/♦/♥/♠) 7♦"
    assert swap(five, tuple(parse_cards("7H 7C")), fives)[1] == 2
    out = console()
    render_help(out, variant)
    assert "(JK(9♣/♦/♥/♠) in a set: a nine of any suit)" in " ".join(output(out).split())
    # Where suits differ, the missing ones alone free it.
    assert meld_text(make_meld(parse_cards("7H 7S JK"), Variant()), Variant()).plain == "7♥ 7♠ JK(7♣/♦)"


def test_a_message_or_move_writes_a_set_joker_as_the_table_does_where_suits_may_repeat() -> None:
    # Messages and moves wrote it without the variant, as the missing suits alone (JK(7♣/♦)), beside a
    # table showing every suit; and never with the table's "closed", which is the table's state.
    from kalooki_cli.table_notation import annotated_cards, table_sentence

    variant = Variant(opening_threshold=0, set_suits="may_repeat", set_joker_release="any_missing_suit")
    assert table_sentence("ann lays 7H 7S JK.", variant) == "ann lays 7♥ 7♠ JK(7♣/♦/♥/♠)."
    after = make_meld(parse_cards("7H 7S JK"), variant)
    assert annotated_cards(parse_cards("JK"), None, after, variant, letters=True).plain == "JK(7C/D/H/S)"
    assert table_sentence("ann lays 9S 9C 9D JK.", Variant()) == "ann lays 9♠ 9♣ 9♦ JK(9♥)."


def test_the_help_leaves_out_jokers_a_pack_has_none_of_and_gives_the_low_aces_value() -> None:
    # It said "ace 11" alone, though a low ace counts 1 toward an opening there, and with no jokers
    # "a joker left in hand 25", "(meld, build or swap)" and what JK(9♥) on the table means.
    variant = Variant(ace_low_value=1, discard_draw="meld_at_once", jokers=0)
    out = console()
    render_help(out, variant)
    text = " ".join(output(out).split())
    assert "Values: 2-9 as marked, 10/J/Q/K 10, ace 11 (1 below the two of a run: A-2-3). " in text
    assert "You may take the top discard only to lay it that same turn (meld or build)." in text
    assert "Cards: 7H, TC or 10C, QS; suits C D H S." in text
    for joker in ("joker left in hand", "JK(", "JK (a joker)"):
        assert joker not in text
    # Nor do the moves' examples hold one (build 2 TH JK; JK 6H JK run), at the table or a hosted one.
    assert "JK" not in text
    assert "build 2 TH " in text
    assert "(runs low to high) " in text
    hosted = console()
    render_help(hosted, variant, table_commands(host=False))
    assert "JK" not in output(hosted)
    from kalooki.rulebook import render_rulebook

    book = " ".join(render_rulebook(variant).split())
    assert "the discard pile instead only to lay it in that same turn: in a meld or on one." in book
    with_jokers = key_rules(Variant(discard_draw="meld_at_once"))
    assert "You may take the top discard only to lay it that same turn (meld, build or swap)." in with_jokers
    assert "Values: 2-9 as marked, 10/J/Q/K 10, ace 11, a joker left in hand 25." in with_jokers


def test_a_joker_that_can_never_be_taken_says_so() -> None:
    classic = Variant()

    def shown(cards: str, variant: Variant) -> str:
        return meld_text(make_meld(parse_cards(cards), variant), variant).plain

    assert shown("9S 9C JK", classic) == "9♠ 9♣ JK(9♦/♥)"
    assert shown("9S 9C 9D JK", classic) == "9♠ 9♣ 9♦ JK(9♥, closed)"  # three suits and a joker: closed
    assert shown("9S 9C JK", Variant(set_joker_release="never")) == "9♠ 9♣ JK(9♦/♥, closed)"
    assert shown("7H 8H JK", classic) == "7♥ 8♥ JK(9♥)"
    assert shown("7H 8H JK", Variant(run_joker_release="never")) == "7♥ 8♥ JK(9♥, closed)"
    game, seating = busy_game()
    events = [{"type": "meld", "player": "bob", "melds": ["5S 5D 5C JK"], "numbers": [5], "points": 20}]
    assert [line.plain for line in table_lines(events, game, seating)] == [
        "bob melds 5♠ 5♦ 5♣ JK(5♥, closed) [5] (20 points)."
    ]


def test_the_totals_explain_the_star_only_once_a_hand_was_won() -> None:
    game, seating = busy_game()
    out = console()
    render_totals(out, game, seating)
    text = output(out)
    assert "* went out" not in text
    assert "Scoring: losers add their cards' value; the game ends at 150; lowest total wins." in " ".join(
        text.split()
    )
    play_out_hand(game)
    assert game.results[0].winner is not None
    out = console()
    render_totals(out, game, seating)
    assert "* went out.  Scoring: losers add" in output(out)


def test_no_color_environment_gives_plain_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    game, seating = busy_game()
    file = io.StringIO()
    out = Console(file=file, width=80, force_terminal=True, highlight=False)
    render_screen(out, game, seating)
    assert not re.search(r"\x1b\[[0-9;]*3[0-9]m", file.getvalue())  # no foreground colours


def test_narration_hides_stock_draws_of_others_only() -> None:
    game, seating = busy_game()
    events = [
        {"type": "draw", "player": "bob", "source": "stock", "card": "KH"},
        {"type": "meld", "player": "bob", "melds": ["9S 9D JK"], "numbers": [5], "points": 27},
        {"type": "discard", "player": "bob", "card": "KD"},
        {"type": "draw", "player": "ann", "source": "stock", "card": "2H"},
        {"type": "reshuffle", "rule": "reshuffle_all", "stock": "2C"},
    ]
    lines = [line.plain for line in table_lines(events, game, seating)]
    assert lines == [
        "bob draws from the stock, melds 9♠ 9♦ JK(9♣/♥) [5] (27 points), discards K♦.",
        "You draw 2♥ from the stock.",
        "The discard pile is shuffled to make a new stock.",
    ]


def test_a_reshuffle_that_keeps_the_top_card_says_so() -> None:
    # Under reshuffle_keep_top both narrations said the whole pile was shuffled, its top card still showing.
    game, seating = busy_game()
    event = {"type": "reshuffle", "rule": "reshuffle_keep_top", "stock": "2C"}
    told = [line.plain for line in table_lines([event], game, seating)]
    assert told == ["The discard pile but its top card is shuffled to make a new stock."]
    assert describe_event(event) == (
        "the stock ran out: the discard pile but its top card is shuffled into a new stock"
    )
    event["rule"] = "reshuffle_all"
    assert describe_event(event) == "the stock ran out: the discard pile is shuffled into a new stock"


def play_out_hand(game: Game) -> list[Event]:
    bots = {seat: make_bot("greedy", random.Random(seat)) for seat in range(len(game.players))}
    return play_hand(game, bots)


def test_hand_end_and_game_end_fit_80_columns() -> None:
    game, seating = busy_game()
    events = play_out_hand(game)
    end = next(event for event in events if event["type"] == "hand_end")
    out = console()
    render_hand_end(out, game, seating, end, eliminated=["bob", "ann"])
    game.eliminated[1] = True
    render_totals(out, game, seating)
    game.winners = [1]
    render_game_end(out, game, seating)
    text = output(out)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "Hand 1 is over" in text
    assert "cards left" in text
    assert "bob wins the game!" in text
    assert f"bob is out with {end['totals']['bob']} (out at 150)." in text
    assert f"You are out with {end['totals']['ann']} (out at 150)." in text
    assert re.search(r"total +\d+ +\d+ out", text)


@pytest.mark.parametrize("width", [80, 44])
def test_the_score_sheet_keeps_each_players_digits_in_line_beside_the_marks(width: int) -> None:
    """ "0*" (went out) and "75 out" (out of the game) put their marks after the number: the digits
    of every row stand in one column, on the wide sheet and the narrow one."""
    game, seating = busy_game()
    for _ in range(4):
        play_out_hand(game)
        game.next_hand()
    game.eliminated[1] = True
    out = console(width=width)
    render_totals(out, game, seating)
    rows = [line for line in output(out).splitlines() if re.match(r" *(\d+|total) +\d", line)]
    assert len(rows) == 5
    assert any("*" in row for row in rows)
    assert rows[-1].count(" out") == 1
    # Where each number's last digit is, the hand's number left out.
    ends = [[match.end() for match in re.finditer(r"\d+", row)][1:] for row in rows]
    ends[-1] = [match.end() for match in re.finditer(r"\d+", rows[-1])]
    assert all(row_ends == ends[-1] for row_ends in ends), "\n".join(rows)


def test_help_wraps_a_key_rule_under_its_words() -> None:
    out = console(width=50)
    render_help(out, Variant())
    lines = [line.rstrip() for line in output(out).splitlines()]
    start = lines.index("• Your first melds must total at least 51 points")
    assert lines[start : start + 3] == [
        "• Your first melds must total at least 51 points",
        "  (lay them together).",
        "• Sets: 3-4 cards of one rank, all suits",
    ]
    rules = lines[lines.index("Key rules of classic") + 1 :]
    assert all(line.startswith(("• ", "  ")) for line in rules), rules


def test_help_lists_commands_and_key_rules_in_80_columns() -> None:
    out = console()
    render_help(out, Variant(opening_threshold=40, run_minimum=4, discard_draw="never"))
    text = output(out)
    assert max(len(line) for line in text.splitlines()) <= 80
    for command in ("draw stock | ds", "undo", "hint", "save [FILE]", "quit", "rules", "score"):
        assert command in text
    assert "build N CARDS [low|high] | b " in text
    assert "at least 40 points" in " ".join(text.split())
    # The table's JK(10♣/♠), a set's joker, was never explained.
    assert "(JK(9♣/♠) in a set: a nine of a suit the set lacks)" in " ".join(text.split())
    rules = key_rules(Variant(opening_threshold=40, run_minimum=4, discard_draw="never"))
    assert any("Runs: 4+ cards" in rule for rule in rules)
    assert any("never be taken" in rule for rule in rules)


def test_game_end_shows_the_winners_name_as_written() -> None:
    # Re-capitalised at the line's start, one player read two ways on one screen: "Bob wins the game!"
    # above a score table that said bob.
    game = Game(Variant(), ["ann", "deAnn"], seed=1)
    game.winners = [1]
    out = console()
    render_game_end(out, game, Seating(tuple(game.players), 0, BOTS))
    assert "deAnn wins the game!" in output(out)


def test_a_shared_win_opens_its_sentence_and_lists_three_winners_as_a_sentence_does() -> None:
    # "you and bob share the win." opened in lower case, and three read "you and bob and cid".
    game = Game(Variant(), ["ann", "bob", "cid", "dee"], seed=1)
    game.winners = [0, 1]
    out = console()
    render_game_end(out, game, Seating(tuple(game.players), 0, BOTS))
    assert "You and bob share the win." in output(out)
    game.winners = [0, 1, 2]
    out = console()
    render_game_end(out, game, Seating(tuple(game.players), 0, BOTS))
    assert "You, bob and cid share the win." in output(out)
    game.winners = [1, 3]  # the person at the keyboard not among them: the names as written
    out = console()
    render_game_end(out, game, Seating(tuple(game.players), 0, BOTS))
    assert "bob and dee share the win." in output(out)


def test_a_seat_away_from_a_table_over_the_network_is_labelled_so() -> None:
    # The rows said "cid" alone while the table waited for him, and while a bot played his turns.
    seating = Seating(("ann", "bob", "cid"), 0, {}, away={2: None})
    assert [seating.label(seat) for seat in range(3)] == ["ann (you)", "bob", "cid (away)"]
    seating = Seating(("ann", "bob", "cid"), 0, {}, away={2: "greedy"})
    assert seating.label(2) == "cid (away, greedy bot)"


def test_a_score_sheet_too_wide_for_its_names_cuts_them_and_says_whose_is_whose() -> None:
    """Six players at 40 columns: names broken over lines pushed the totals onto a second row."""
    players = ["Josephine", "bob", "cid", "dee", "eve", "fay"]
    game = Game(Variant(max_players=6), players, seed=3)
    play_out_hand(game)
    seating = Seating(tuple(players), 0, dict.fromkeys(range(1, 6), "greedy"))
    out = console(width=40)
    render_totals(out, game, seating)
    lines = [line.rstrip() for line in output(out).splitlines()]
    assert max(len(line) for line in lines) <= 40, "\n".join(lines)
    heading = next(line for line in lines if line.lstrip().startswith("hand"))
    assert heading.split() == ["hand", "Josep…", "bob", "cid", "dee", "eve", "fay"]
    totals = "".join(rf" +{game.totals[seat]}" for seat in range(6))
    assert [line for line in lines if re.fullmatch(rf" total{totals}", line)], "\n".join(lines)
    assert "  Josep… is Josephine" in lines


def score_sheet_lines(players: list[str], out: Console) -> list[str]:
    game = Game(Variant(max_players=6), players, seed=3)
    play_out_hand(game)
    render_totals(out, game, Seating(tuple(players), 0, dict.fromkeys(range(1, 6), "greedy")))
    return [line.rstrip() for line in output(out).splitlines()]


def test_names_cut_alike_give_way_to_seat_numbers_told_whole() -> None:
    """Josephine and Josephina both cut to Jo…: whose total was whose was lost again."""
    players = ["Josephine", "Josephina", "Maximilian", "Alexandria", "Bartholomew", "Christopher"]
    lines = score_sheet_lines(players, console(width=40))
    heading = next(line for line in lines if line.lstrip().startswith("hand"))
    assert heading.split() == ["hand", "1", "2", "3", "4", "5", "6"]
    key = " ".join(" ".join(lines[lines.index(heading) :]).split())
    assert (
        "1 is Josephine, 2 is Josephina, 3 is Maximilian, 4 is Alexandria, 5 is Bartholomew, 6 is Christopher"
        in key
    )


def test_a_cut_name_on_a_console_without_the_ellipsis_keeps_the_sheet_in_line() -> None:
    """LC_ALL=C: … was written as ..., three columns where rich had measured one."""
    register_stand_ins()
    file = io.TextIOWrapper(io.BytesIO(), encoding="ascii", errors=HANDLER)
    out = Console(file=file, width=40, color_system=None, highlight=False)
    lines = score_sheet_lines(["Josephine", "bob", "cid", "dee", "eve", "fay"], out)
    drawn = [line for line in lines if line.startswith(("+", "|"))]
    assert len({len(line) for line in drawn}) == 1, "\n".join(lines)
    assert max(len(line) for line in lines) <= 40, "\n".join(lines)
    assert "Josep. is Josephine" in " ".join(lines)


def test_help_explains_a_joker_laid_by_another_where_that_decides_who_takes_it() -> None:
    # kaluki-51's table writes JK(9♥, laid by bob) for a joker bob built onto another's meld: the help
    # explained JK(9♥) and JK(9♥, closed), never that.
    laid_by = "JK(9♥, laid by bob): bob built it on and may not take it back."
    for variant, explained in ((load_variant("kaluki-51"), True), (load_variant("classic"), False)):
        out = console(width=200)
        render_help(out, variant)
        assert (laid_by in " ".join(output(out).split())) is explained


def test_a_bots_seat_is_called_a_bot_as_the_browser_calls_it() -> None:
    # "bob (greedy)" told a newcomer nothing of a bot; a plug-in whose name says bot is not "smartbot bot".
    from kalooki_cli.render import bot_label

    assert [bot_label(kind) for kind in ("greedy", "random", "expert", "smartbot", "RoBot")] == [
        "greedy bot",
        "random bot",
        "expert bot",
        "smartbot",
        "RoBot",
    ]
