"""``help meld`` at the play prompt: that command's rows of the help, as the variant offers it, where it was
refused as "help takes no arguments"."""

from __future__ import annotations

from test_interactive import error_lines, fixed_game, run, state

from kalooki.cards import parse_card, parse_cards
from kalooki.engine import FixedDeal, Game
from kalooki.loader import load_variant


def after_the_prompt(transcript: str, prompts: int = 1) -> list[str]:
    """The lines printed after the ``prompts``-th prompt and the line typed there, up to the next prompt."""
    chunks = transcript.split("draw> ")
    return [line.rstrip() for line in chunks[prompts].splitlines()[1:]]


def test_help_with_a_command_shows_its_rows_alone() -> None:
    game = fixed_game()
    before = state(game)
    _, transcript, _ = run(game, ["help meld", "h d", "help draw", "? undo"], width=200)
    assert after_the_prompt(transcript, 1) == [
        "meld CARDS[, CARDS] | m  lay new melds: meld 7H 8H 9H, QS QD QC (runs low to high; JK 6H JK run: "
        "5-6-7, not a set of sixes)"
    ]
    assert after_the_prompt(transcript, 2) == ["discard CARD | d  discard a card and end your turn: d KD"]
    assert after_the_prompt(transcript, 3) == [
        "draw stock | ds    draw the top card of the stock",
        "draw discard | dd  take the top card of the discard pile",
    ]
    assert after_the_prompt(transcript, 4)[0].startswith("undo | u  take back this turn's melds")
    assert error_lines(transcript) == []
    assert state(game) == before


def test_help_with_no_such_command_says_so_and_changes_nothing() -> None:
    game = fixed_game()
    before = state(game)
    _, transcript, _ = run(game, ["help xyz", "help end"], width=200)
    # end is no command where the last card must be discarded (classic).
    assert error_lines(transcript) == [
        "✗ 'xyz' is not a command here: type help for the list",
        "✗ 'end' is not a command here: type help for the list",
    ]
    assert state(game) == before


def test_help_on_a_move_the_variant_has_is_as_the_variant_writes_it() -> None:
    # A jokerless pack's meld row has no JK example; a variant whose discard is optional lists end.
    deal = FixedDeal(hands={0: parse_cards("7H 8H 9H QS QD QC 2C")}, discard=parse_card("9C"))
    variant = load_variant("classic", ["jokers=0", "hand_size=7", "turn_discard=optional"])
    _, transcript, _ = run(
        Game(variant, ["you", "bob"], seed=3, deal=deal), ["help m", "help end"], width=200
    )
    assert after_the_prompt(transcript, 1) == [
        "meld CARDS[, CARDS] | m  lay new melds: meld 7H 8H 9H, QS QD QC (runs low to high)"
    ]
    assert after_the_prompt(transcript, 2)[0] == (
        "end  end your turn without a discard (this variant's discard is optional)"
    )
