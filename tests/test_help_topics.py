"""``help meld`` at the play prompt: that command's rows of the help, as the variant offers it, where it was
refused as "help takes no arguments"."""

from __future__ import annotations

from kalooki_cli.interactive import new_game
from test_interactive import error_lines, fixed_game, hint_player, run, state

from kalooki.cards import parse_card, parse_cards
from kalooki.engine import FixedDeal, Game
from kalooki.loader import load_variant
from kalooki.variant import Variant


def after_the_prompt(transcript: str, prompts: int = 1) -> list[str]:
    """The lines printed after the ``prompts``-th prompt and the line typed there, up to the next prompt."""
    chunks = transcript.split("draw> ")
    return [line.rstrip() for line in chunks[prompts].splitlines()[1:]]


def test_help_with_a_command_shows_its_rows_and_the_variants_rules_for_it() -> None:
    game = fixed_game()
    before = state(game)
    _, transcript, _ = run(game, ["help meld", "h d", "help draw", "? undo"], width=200)
    assert after_the_prompt(transcript, 1) == [
        "meld CARDS[, CARDS] | m  lay new melds: meld 7H 8H 9H, QS QD QC (runs low to high; JK 6H JK run: "
        "5-6-7, not a set of sixes)",
        "Melding in classic",
        "• Your first melds must total at least 51 points (lay them together).",
        "• Sets: 3-4 cards of one rank, all suits different. Runs: 3+ cards of a suit; an ace may sit low "
        "(A-2-3) or high (Q-K-A).",
    ]
    assert after_the_prompt(transcript, 2) == [
        "discard CARD | d  discard a card and end your turn: d KD",
        "Discarding and going out in classic",
        "• Your last card must be discarded.",
    ]
    assert after_the_prompt(transcript, 3) == [
        "draw stock | ds    draw the top card of the stock",
        "draw discard | dd  take the top card of the discard pile",
        "Drawing in classic",
        "• You may always take the top discard.",
    ]
    # undo is no move: its row alone.
    assert after_the_prompt(transcript, 4)[:2] == [
        "undo | u  take back this turn's melds, builds and swaps (before you discard)",
        "",  # and the end of input: no rules
    ]
    assert error_lines(transcript) == []
    assert state(game) == before


def test_help_on_a_move_gives_this_variants_rule_for_it() -> None:
    # kalooki-40 takes the discard only to lay it: the row alone said "take the top card of the discard
    # pile", and dd was then refused.
    game = Game(load_variant("kalooki-40"), ["you", "bob"], seed=11)
    _, transcript, _ = run(game, ["help dd"], width=200)
    assert after_the_prompt(transcript)[1:3] == [
        "Drawing in kalooki-40",
        "• You may take the top discard only to lay it that same turn (meld, build or swap).",
    ]


def test_help_with_no_such_command_says_so_and_changes_nothing() -> None:
    game = fixed_game()
    before = state(game)
    _, transcript, _ = run(game, ["help xyz", "help end"], width=200)
    # end is no move where the last card must be discarded (classic): a word of the move language all the
    # same, which another variant's help lists.
    assert error_lines(transcript) == [
        "✗ 'xyz' is not a command here: type help for the list",
        "✗ end is no move in classic: its discard is not optional (discard CARD ends your turn)",
    ]
    assert state(game) == before


def test_help_on_a_move_the_variant_has_is_as_the_variant_writes_it() -> None:
    # A jokerless pack's meld row has no JK example; a variant whose discard is optional lists end.
    deal = FixedDeal(hands={0: parse_cards("7H 8H 9H QS QD QC 2C")}, discard=parse_card("9C"))
    variant = load_variant("classic", ["jokers=0", "hand_size=7", "turn_discard=optional"])
    _, transcript, _ = run(
        Game(variant, ["you", "bob"], seed=3, deal=deal), ["help m", "help end"], width=200
    )
    assert after_the_prompt(transcript, 1)[0] == (
        "meld CARDS[, CARDS] | m  lay new melds: meld 7H 8H 9H, QS QD QC (runs low to high)"
    )
    assert after_the_prompt(transcript, 2)[0] == (
        "end  end your turn without a discard (this variant's discard is optional)"
    )


def test_help_swap_gives_the_variants_rules_for_taking_a_joker() -> None:
    # The row says only a run's rule (the card the joker stands for): what frees a set's joker, who may
    # take one and when differ from variant to variant, and help swap says this variant's.
    classic = Game(load_variant("classic"), ["you", "bob"], seed=3)
    _, transcript, _ = run(classic, ["help swap"], width=200)
    shown = after_the_prompt(transcript)
    assert shown[0].startswith("swap N CARDS | s  put the card a joker of meld N stands for in its place")
    assert shown[1] == "Taking a joker from the table in classic"
    assert "• A joker in a three-card set is freed by adding the cards of both missing suits" in shown[2]
    assert "• Only a player who has opened may take a joker from the table." in shown
    kaluki = Game(load_variant("kaluki-51"), ["you", "bob", "cid", "dee"], seed=3)
    _, transcript, _ = run(kaluki, ["help s"], width=200)
    shown = after_the_prompt(transcript)
    assert shown[1] == "Taking a joker from the table in kaluki-51"
    assert shown[2].startswith("• A joker in a set is freed by putting in its place a card of that rank in a")
    assert any(line.startswith("• Nobody may take back a joker they laid themselves") for line in shown)


def test_help_swap_where_no_joker_leaves_the_table_says_why_there_is_no_swap() -> None:
    czech = Game(load_variant("czech-500"), ["you", "bob"], seed=3)
    jokerless = Game(load_variant("classic", ["jokers=0"]), ["you", "bob"], seed=3)
    _, czech_transcript, _ = run(czech, ["help swap"], width=200)
    _, jokerless_transcript, _ = run(jokerless, ["help s"], width=200)
    assert error_lines(czech_transcript) == [
        "✗ swap is no move in czech-500: a joker laid on the table stays there for good"
    ]
    assert error_lines(jokerless_transcript) == ["✗ swap is no move in classic: its pack has no jokers"]


RULES_END = "End of the rulebook of classic: scroll up for its start"


def test_rules_at_the_prompt_end_with_where_the_turn_stands() -> None:
    # The rulebook pushed the turn off the screen, and a bare draw> followed its last section.
    game = fixed_game()
    before = state(game)
    _, transcript, _ = run(game, ["rules"], width=200)
    shown = after_the_prompt(transcript)
    end = shown.index(f"{RULES_END}; Enter on an empty line draws the table again.")
    assert "The stock" in shown[:end]  # the rulebook's last section
    assert shown[end + 1] == "Your turn: draw a card: ds (draw stock) or dd (draw discard: 9♣)"
    assert shown[end + 2].startswith("Not opened yet: your first melds must make 51")
    assert state(game) == before


def test_rules_between_hands_end_with_no_turn() -> None:
    # There the prompt says what Enter does (deal), and no turn is under way.
    game, session = new_game(Variant(), "you", ["greedy", "greedy", "greedy"], seed=5)
    playing = hint_player([game], 10_000)
    asked: list[str] = []

    def rules_when_the_hand_ends(prompt: str) -> str:
        if prompt.startswith("Press Enter"):
            asked.append(prompt)
            if len(asked) > 1:
                raise EOFError
            return "rules"
        return playing(prompt)

    _, transcript, _ = run(game, rules_when_the_hand_ends, session=session, width=200)
    lines = [line.rstrip() for line in transcript.splitlines()]
    end = lines.index(f"{RULES_END}.")
    assert lines[end + 1 :] == ["", "End of input."]  # the next prompt (not printed here): no turn status


def test_help_meld_shows_a_run_as_long_as_the_variants_shortest() -> None:
    # kaluki-51's runs are of four or more: meld 7H 8H 9H, and JK 6H JK run (5-6-7), were refused there.
    game = Game(load_variant("kaluki-51"), ["you", "bob", "cid", "dee"], seed=3)
    _, transcript, _ = run(game, ["help meld"], width=200)
    assert after_the_prompt(transcript)[0] == (
        "meld CARDS[, CARDS] | m  lay new melds: meld 7H 8H 9H TH, QS QD QC (runs of 4+, low to high)"
    )
