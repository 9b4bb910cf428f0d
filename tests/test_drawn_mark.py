"""The card just drawn, marked in the hand (``4♦*``) at the terminal: shown, read back when copied with its
mark, and gone once the card or its twin from the other pack is laid."""

from __future__ import annotations

import pytest
from kalooki_cli.table_notation import without_drawn_marks
from test_interactive import error_lines, fixed_game, flowing, run


def test_a_draw_shows_the_card_and_marks_it_in_the_hand() -> None:
    game = fixed_game()
    _, transcript, _ = run(game, ["ds"])
    assert "You draw 4♦ from the stock." in transcript
    assert "4♦*" in transcript
    assert "Your turn: meld, build or swap if you can, then discard" in transcript


def test_the_drawn_card_copied_from_the_hand_with_its_mark_is_read_as_the_card() -> None:
    # "d 4♦*", copied from the hand as shown, was told "'4♦*' is not a card".
    game = fixed_game()
    _, transcript, _ = run(game, ["ds", "d 4♦*"])
    assert error_lines(transcript) == []
    assert "You discard 4♦." in transcript


def hand_lines(transcript: str) -> list[str]:
    return [line for line in transcript.splitlines() if line.startswith("Your hand")]


def test_the_mark_goes_once_the_drawn_card_or_its_twin_is_laid() -> None:
    # Holding 10♥ and drawing the other pack's 10♥, then laying one: the mark moved to the one left,
    # which may as well be the card held before the draw.
    game = fixed_game(stock="TH")
    _, transcript, _ = run(game, ["ds", "meld 7H 8H 9H TH, QS QD QC"])
    after_draw, after_meld = hand_lines(transcript)[-2:]
    assert "10♥* 10♥" in after_draw
    assert "10♥" in after_meld
    assert "*" not in after_meld


def test_the_mark_stays_while_the_hand_holds_the_card_drawn() -> None:
    game = fixed_game(stock="4D")
    _, transcript, _ = run(game, ["ds", "meld 7H 8H 9H TH, QS QD QC"])
    assert "4♦*" in hand_lines(transcript)[-1]


@pytest.mark.parametrize(
    ("typed", "read"),
    [("d 9♥*", "d 9♥"), ("d JK*", "d JK"), ("m 7H 7S 7D*, 3C 4C *", "m 7H 7S 7D, 3C 4C *"), ("d *", "d *")],
)
def test_only_a_mark_on_a_card_is_taken_off_a_star_alone_is_a_joker(typed: str, read: str) -> None:
    assert without_drawn_marks(typed) == read


def test_the_help_says_what_the_mark_after_a_card_in_the_hand_means() -> None:
    # After a draw the hand showed "4♦*", and neither the help nor the screen said what the * was.
    game = fixed_game()
    _, transcript, _ = run(game, ["ds", "help"])
    assert (
        "Cards: 7H, TC or 10C, QS, JK (a joker); suits C D H S. In your hand 9♥* is the card you just drew."
        in (flowing(transcript))
    )
