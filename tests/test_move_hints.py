"""The moves a player is shown follow the variant: the play screen's help and its hint for a line that
is no command list a draw of the discard only where some player may take it (not under czech-500's
discard_draw: never), a joker swap only where melds ever give a joker up (not under czech-500's
joker releases: never), and ``end`` only where a turn may end without a discard (turn_discard: optional)."""

from __future__ import annotations

from pathlib import Path

from kalooki_cli.app import app
from test_interactive import error_lines, fixed_game, run
from typer.testing import CliRunner

from kalooki.cards import parse_cards
from kalooki.engine import FixedDeal, Game
from kalooki.loader import load_variant

CZECH = load_variant("czech-500")


def czech_game() -> Game:
    deal = FixedDeal(
        hands={0: parse_cards("7H 7S 7D 2C 4D 6H 8S TC QD KH 3S 5C 9D")}, stock_top=parse_cards("JH")
    )
    return Game(CZECH, ["you", "bob"], seed=42, deal=deal)


def help_rows(game: Game) -> list[str]:
    """The play screen's lines after ``help``, each with its runs of spaces as one."""
    code, out, _ = run(game, ["help"], width=120)
    assert code == 0
    return [" ".join(line.split()) for line in out.splitlines()]


def test_the_help_lists_a_draw_of_the_discard_and_end_only_where_the_variant_allows_them() -> None:
    czech = help_rows(czech_game())
    assert not any(row.startswith(("draw discard", "dd")) for row in czech), czech
    assert "draw stock | ds draw the top card of the stock" in czech
    assert "end end your turn without a discard (this variant's discard is optional)" in czech
    assert not any(row.startswith(("swap", "s ")) for row in czech), czech
    classic = help_rows(fixed_game(players=2))
    assert "draw discard | dd take the top card of the discard pile" in classic
    assert not any(row.startswith("end ") for row in classic), classic
    assert any(row.startswith("swap N CARDS") for row in classic), classic


def test_a_line_that_is_no_command_is_told_only_the_variants_moves() -> None:
    code, out, _ = run(czech_game(), ["zz"])
    assert code == 0
    assert error_lines(out) == ["✗ 'zz' is not a command: type help for the list (moves: ds m b d end)"]
    code, out, _ = run(fixed_game(players=2), ["zz"])
    assert code == 0
    assert error_lines(out) == ["✗ 'zz' is not a command: type help for the list (moves: ds dd m b s d)"]


def test_the_turn_line_offers_a_swap_only_where_a_joker_can_be_freed() -> None:
    game = czech_game()
    code, out, _ = run(game, ["ds"], width=120)
    assert code == 0
    assert "Your turn: meld or build if you can, then discard a card (d CARD) or end the turn" in out
    assert "swap" not in out.lower()
    code, out, _ = run(fixed_game(players=2), ["ds"], width=120)
    assert code == 0
    assert "Your turn: meld, build or swap if you can, then discard a card (d CARD)." in out


def test_a_hint_that_keeps_what_could_be_laid_says_why(tmp_path: Path) -> None:
    # "You could lay: 10♠ on meld 2 = 10 points", then a hint of "discard 10♠" and nothing else: the bot
    # keeps the card because laying it would leave a hand that cannot go out, and the hint now says so.
    rules = tmp_path / "friday.yaml"
    rules.write_text("extends: classic\njokers: 4\nopening_threshold: 40\njoker_penalty: 50\n")
    moves = "ds\nm 3H 4H 5H, JS JK KS AS\nd QH\nds\nb 4 KC\nb 3 10H\nd QC\ndd\nb 6 3S\nd 9C\nds\nhint\nquit\n"
    result = CliRunner().invoke(app, ["play", str(rules), "--seed", "11", "--fast"], input=moves)
    assert result.exit_code == 0, result.output
    screen = " ".join(result.output.split())
    assert "Your hand (4): 5♥ 7♥ 2♠ 10♠* You could lay: 10♠ on meld 2 = 10 points" in screen
    assert (
        "Hint (what the greedy bot would play): discard 10♠ The greedy bot keeps what you could lay: laid "
        "now, it would leave too few cards to go out with on this table."
    ) in screen


def test_a_hint_that_goes_out_says_so_and_whether_it_is_kalooki() -> None:
    # The hint laid the whole hand and discarded the last card, and said only "That lays 91 points: enough
    # to open": that the turn ends the hand, and goes Kalooki, was first told by the end-of-hand screen.
    hand = "QC QD QS 7H 8H 9H TH 2C 3C 4C 5D 6D 7D"
    _, out, _ = run(fixed_game(hand=hand, stock="KS"), ["ds", "hint"], width=200)
    assert (
        "That lays 91 points: enough to open (51 needed). That goes out and goes Kalooki "
        "(+25 to every other player)."
    ) in out
    # Going out having opened before is no Kalooki; a winner-takes-all table takes the 25 from the others.
    from kalooki_cli.hints import Hint, hint_summary

    game = fixed_game(hand=hand, stock="KS")
    out_alone = Hint(actions=(), points=0, opening=False, short=None, out=True)
    assert hint_summary(out_alone, game, 0) == "That goes out and ends the hand."
    game.variant = game.variant.model_copy(update={"scoring": "winner"})
    kalooki = Hint(actions=(), points=0, opening=False, short=None, out=True, kalooki=True)
    assert hint_summary(kalooki, game, 0) == "That goes out and goes Kalooki (-25 from every other player)."


def test_a_second_draw_is_told_the_moves_the_variant_leaves_in_the_turn() -> None:
    # "meld, build or discard" whatever the variant: no swap where jokers are freed (classic), and no end
    # where the discard is optional and no joker is ever freed (czech-500), where swap is no move at all.
    code, out, _ = run(fixed_game(), ["ds", "ds"], width=120)
    assert code == 0
    assert error_lines(out) == ["✗ you have drawn already this turn: meld, build, swap or discard"]
    code, out, _ = run(czech_game(), ["ds", "ds"], width=120)
    assert code == 0
    assert error_lines(out) == ["✗ you have drawn already this turn: meld, build, discard or end"]


def test_the_help_of_build_says_what_low_and_high_do() -> None:
    # "build N CARDS [low|high] | b  add cards to table meld N: build 2 TH JK": low and high went unexplained.
    code, out, _ = run(fixed_game(), ["help build"], width=200)
    assert code == 0
    rows = [" ".join(line.split()) for line in out.splitlines() if "build N CARDS" in line]
    assert rows == [
        "build N CARDS [low|high] | b add cards to table meld N: build 2 TH JK "
        "(a joker goes on a run's high end unless low is given)"
    ]


def test_a_hinted_draw_of_the_discard_says_when_it_would_open() -> None:
    # Under the hand, "You could lay: 7♥ 8♥ 9♥ 10♥ = 34 points, not enough to open (51)" leaves the top
    # discard out, and the hint to take it said only "Q♠ fits your hand": that it opens went unsaid.
    game = fixed_game(hand="QC QD 7H 8H 9H TH 2C 3S 5D 6S 8C KD 4H", discard="QS")
    code, out, _ = run(game, ["hint"], width=200)
    assert code == 0
    assert "You could lay: 7♥ 8♥ 9♥ 10♥ = 34 points, not enough to open (51)" in out
    assert "  draw discard\n    Q♠ fits your hand: with it your melds make 64, enough to open (51)\n" in out
