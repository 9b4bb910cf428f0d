"""Every ``help`` and ``help <topic>`` of the play screen describes the variant played, in each built-in:
no swap where no joker ever leaves the table, no draw of the discard where nobody may take it, no JK where
the pack has none, ``end`` wherever a turn may end without a discard and nowhere else; a move the variant
refuses is said to be none of its moves, not "not a command"."""

from __future__ import annotations

import pytest
from kalooki_cli import help_screen
from kalooki_cli.prompt_commands import COMMANDS, HELP_ROWS, pause_commands, topic_refusal, undo_meaning
from rich.console import Console
from test_interactive import error_lines, run

from kalooki import rules
from kalooki.cards import parse_cards
from kalooki.engine import FixedDeal, Game
from kalooki.loader import builtin_variant_names, load_variant
from kalooki.moves import ALIASES
from kalooki.variant import Variant

TOPICS = sorted({*(word for row in HELP_ROWS for word in row.words), *ALIASES, "end", "draw", "swap"})


def help_text(variant: Variant, topic: str = "", commands: tuple[tuple[str, str], ...] = COMMANDS) -> str:
    """What ``help`` (``help TOPIC``) shows at the play prompt: the refusal, or the rows and rules."""
    refusal = topic_refusal(variant, commands, topic) if topic else None
    if refusal is not None:
        return refusal
    console = Console(width=200, force_terminal=False)
    with console.capture() as captured:
        help_screen.render_help(console, variant, commands, topic=topic)
    return captured.get()


@pytest.mark.parametrize("name", builtin_variant_names())
def test_every_help_topic_holds_in_the_variant_played(name: str) -> None:
    variant = load_variant(name)
    screens = {topic: help_text(variant, topic) for topic in ["", *TOPICS]}
    screens["(pause)"] = help_text(variant, "", pause_commands())
    for topic, text in screens.items():
        lowered = text.lower()
        if not rules.may_ever_swap(variant) and topic not in ("swap", "s"):
            assert "swap" not in lowered, (name, topic, text)
        if not rules.may_ever_take_discard(variant) and topic not in ("dd", "draw"):
            assert "draw discard" not in lowered, (name, topic, text)
            assert "| dd" not in lowered, (name, topic, text)
        if not variant.jokers:
            assert "jk" not in lowered, (name, topic, text)
        if topic in ("undo", "u"):
            ends = "before you discard or end your turn" in text
            assert ends == rules.may_end_without_discard(variant), (name, text)
    # A move of the move language the variant refuses is said to be none of its moves, and why.
    if not rules.may_ever_take_discard(variant):
        assert screens["dd"].startswith(f"dd (draw discard) is no move in {name}: "), screens["dd"]
    if not rules.may_end_without_discard(variant):
        assert screens["end"].startswith(f"end is no move in {name}: "), screens["end"]
    if not rules.may_ever_swap(variant):
        assert screens["swap"].startswith(f"swap is no move in {name}: "), screens["swap"]


def test_undo_in_czech_500_names_no_swap_and_the_end_of_a_turn_without_a_discard() -> None:
    czech = load_variant("czech-500")
    assert undo_meaning(czech, end_offered=True) == (
        "take back this turn's melds and builds (before you discard or end your turn)"
    )
    assert (
        "undo | u take back this turn's melds and builds (before you discard or end your turn)"
        in " ".join(help_text(czech, "undo").split())
    )
    classic = " ".join(help_text(load_variant("classic"), "undo").split())
    assert "undo | u take back this turn's melds, builds and swaps (before you discard)" in classic


@pytest.mark.parametrize("name", builtin_variant_names())
def test_undo_with_nothing_to_take_back_names_swaps_only_where_the_variant_has_them(name: str) -> None:
    # czech-500's player typing undo before laying anything was told "undo takes back this turn's melds,
    # builds and swaps", though no joker ever leaves its table.
    variant = load_variant(name)
    seats = next(count for count in range(2, 9) if rules.may_play(variant, count))
    game = Game(variant, ["you", "bob", "cid", "dee", "eve", "fay", "gus", "hal"][:seats], seed=3)
    _, transcript, _ = run(game, ["undo"], width=200)
    laid = "melds, builds and swaps" if rules.may_ever_swap(variant) else "melds and builds"
    assert error_lines(transcript) == [f"✗ there is nothing to take back: undo takes back this turn's {laid}"]


def test_the_turns_status_after_a_meld_names_swaps_only_where_the_variant_has_them() -> None:
    # After a meld in czech-500 the status under the hand read "(undo takes back this turn's melds, builds and
    # swaps)": no joker ever leaves its table.
    deal = FixedDeal(
        hands={0: parse_cards("7H 8H 9H QS QD QC 2C 4D 6S 8C TD KS AS")}, stock_top=parse_cards("JH")
    )
    for name, laid in (("czech-500", "melds and builds"), ("classic", "melds, builds and swaps")):
        game = Game(load_variant(name, ["opening_threshold=0"]), ["you", "bob"], seed=42, deal=deal)
        _, transcript, _ = run(game, ["ds", "m 7H 8H 9H"], width=200)
        assert f"(undo takes back this turn's {laid})" in transcript.splitlines()


def test_draw_alone_where_the_discard_is_never_taken_draws_from_the_stock() -> None:
    # In czech-500 'draw' was refused with "write draw stock or draw discard (ds or dd)", offering a draw of
    # the discard pile the variant never allows; the stock is the one draw there is.
    game = Game(load_variant("czech-500"), ["you", "bob"], seed=3)
    top = game.stock[-1]
    _, transcript, _ = run(game, ["draw"], width=200)
    assert error_lines(transcript) == []
    assert top in game.hands[0]
    assert game.phase == "play"
    classic = Game(load_variant("classic"), ["you", "bob"], seed=3)
    _, transcript, _ = run(classic, ["draw"], width=200)
    assert error_lines(transcript) == ["✗ 'draw': write draw stock or draw discard (ds or dd)"]
