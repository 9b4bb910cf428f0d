"""The move language and card notation: every command and alias, parse and format, and the exact errors."""

from __future__ import annotations

import pytest

from kalooki.cards import (
    JOKER,
    CardError,
    card_name,
    card_symbol,
    format_card,
    format_cards,
    make_card,
    parse_card,
    parse_cards,
)
from kalooki.errors import KalookiError
from kalooki.moves import (
    END_TURN,
    USAGE,
    Action,
    Build,
    Discard,
    Draw,
    Meld,
    MoveSyntaxError,
    Swap,
    format_move,
    parse_move,
)

C, D, H, S = 0, 1, 2, 3
WHICH_END = "for the end of the run it goes on, write low or high"
CARD_HELP = (
    "is not a card: write a rank (A 2-9 T J Q K, or 10) and a suit (C D H S), "
    "e.g. 7H, TC, 10C, QS, or JK for a joker"
)


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_cards(text))


# ---------------------------------------------------------------- card notation


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("7H", make_card(7, H)),
        ("7h", make_card(7, H)),
        ("TC", make_card(10, C)),
        ("tc", make_card(10, C)),
        ("10c", make_card(10, C)),
        ("10C", make_card(10, C)),
        ("QS", make_card(12, S)),
        ("qs", make_card(12, S)),
        ("AD", make_card(1, D)),
        ("ad", make_card(1, D)),
        ("KD", make_card(13, D)),
        ("JC", make_card(11, C)),
        ("2S", make_card(2, S)),
        ("9D", make_card(9, D)),
        ("JK", JOKER),
        ("jk", JOKER),
        ("Jk", JOKER),
        ("joker", JOKER),
        ("*", JOKER),
        ("7♥", make_card(7, H)),
        ("10♣", make_card(10, C)),
        ("t♣", make_card(10, C)),
        ("q♠", make_card(12, S)),
        ("A♦", make_card(1, D)),
        ("K♡", make_card(13, H)),
        ("3♢", make_card(3, D)),
        ("4♧", make_card(4, C)),
        ("5♤", make_card(5, S)),
        ("  7H  ", make_card(7, H)),
    ],
)
def test_parse_card(text: str, card: int) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize(
    "text", ["", "7", "H", "JJ", "11H", "1H", "0S", "7HH", "KX", "♥7", "10", "JKR", "T10"]
)
def test_parse_card_errors(text: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_card(text)
    assert str(caught.value) == f"'{text.strip()}' {CARD_HELP}"
    assert isinstance(caught.value, KalookiError)
    assert isinstance(caught.value, ValueError)


def test_every_card_formats_and_parses_back() -> None:
    for code in [*range(52), JOKER]:
        assert parse_card(format_card(code)) == code
        assert parse_card(card_symbol(code)) == code
    assert len({format_card(code) for code in range(53)}) == 53


@pytest.mark.parametrize(
    ("text", "formatted", "symbol", "name"),
    [
        ("10h", "TH", "10♥", "ten of hearts"),
        ("ac", "AC", "A♣", "ace of clubs"),
        ("qs", "QS", "Q♠", "queen of spades"),
        ("2d", "2D", "2♦", "two of diamonds"),
        ("jk", "JK", "JK", "joker"),
    ],
)
def test_card_formats(text: str, formatted: str, symbol: str, name: str) -> None:
    card = parse_card(text)
    assert format_card(card) == formatted
    assert card_symbol(card) == symbol
    assert card_name(card) == name


def test_parse_cards_splits_on_whitespace() -> None:
    assert parse_cards("7H 8h\t9♥  JK") == [make_card(7, H), make_card(8, H), make_card(9, H), JOKER]
    assert parse_cards("") == []
    assert format_cards(parse_cards("10c jk 2d")) == "TC JK 2D"


# ---------------------------------------------------------------- commands and aliases


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("draw stock", Draw("stock")),
        ("draw discard", Draw("discard")),
        ("DRAW STOCK", Draw("stock")),
        ("Draw Discard", Draw("discard")),
        ("  draw   stock  ", Draw("stock")),
        ("ds", Draw("stock")),
        ("dd", Draw("discard")),
        ("DS", Draw("stock")),
        ("meld 7H 8H 9H", Meld((cards("7H 8H 9H"),))),
        ("meld 7H 8H 9H, QS QD QC", Meld((cards("7H 8H 9H"), cards("QS QD QC")))),
        ("meld 7h 8h 9h,qs qd qc", Meld((cards("7H 8H 9H"), cards("QS QD QC")))),
        ("meld 5H 6H JK 8H", Meld((cards("5H 6H JK 8H"),))),
        ("MELD 10♥ J♥ Q♥", Meld((cards("TH JH QH"),))),
        ("m 7H 8H 9H", Meld((cards("7H 8H 9H"),))),
        ("M 2C 2D 2S, 3C 3D 3S", Meld((cards("2C 2D 2S"), cards("3C 3D 3S")))),
        ("build 2 TH", Build(2, cards("TH"))),
        ("build 2 TH JK", Build(2, cards("TH JK"))),
        ("build 2 JK low", Build(2, cards("JK"), "low")),
        ("build 2 JK high", Build(2, cards("JK"), "high")),
        ("build 12 9c LOW", Build(12, cards("9C"), "low")),
        ("b 1 7H", Build(1, cards("7H"))),
        ("b 3 7H 8H high", Build(3, cards("7H 8H"), "high")),
        ("swap 3 5C", Swap(3, cards("5C"))),
        ("swap 1 TD TS", Swap(1, cards("TD TS"))),
        ("s 2 7h", Swap(2, cards("7H"))),
        ("discard KD", Discard(make_card(13, D))),
        ("discard jk", Discard(JOKER)),
        ("discard 10♠", Discard(make_card(10, S))),
        ("d KD", Discard(make_card(13, D))),
        ("D 2c", Discard(make_card(2, C))),
    ],
)
def test_parse_move(text: str, action: object) -> None:
    assert parse_move(text) == action


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Draw("stock"), "draw stock"),
        (Draw("discard"), "draw discard"),
        (Meld((cards("7H 8H 9H"),)), "meld 7H 8H 9H"),
        (Meld((cards("7H 8H 9H"), cards("QS QD QC"))), "meld 7H 8H 9H, QS QD QC"),
        (Meld((cards("10h jk qh"),)), "meld TH JK QH"),
        (Build(2, cards("TH"), None), "build 2 TH"),
        (Build(2, cards("JK"), "low"), "build 2 JK low"),
        (Build(4, cards("9C TC"), "high"), "build 4 9C TC high"),
        (Swap(3, cards("5C")), "swap 3 5C"),
        (Swap(1, cards("TD TS")), "swap 1 TD TS"),
        (Discard(make_card(13, D)), "discard KD"),
        (Discard(JOKER), "discard JK"),
    ],
)
def test_format_move_round_trips(action: Draw | Meld | Build | Swap | Discard, text: str) -> None:
    assert format_move(action) == text
    assert str(action) == text
    assert parse_move(text) == action


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Draw("stock"), "ds"),
        (Draw("discard"), "dd"),
        (Meld((cards("JK 6H JK"), cards("QS QD QC")), ("run", None)), "m JK 6H JK run, QS QD QC"),
        (Build(2, cards("JK"), "low"), "b 2 JK low"),
        (Swap(1, cards("TD TS")), "s 1 TD TS"),
        (Discard(make_card(13, D)), "d KD"),
        (END_TURN, "end"),
    ],
)
def test_a_move_written_short_is_as_a_player_types_it(action: Action, text: str) -> None:
    # The browser's "You could lay" wrote its moves short by hand, beside the language's own writer.
    assert format_move(action, short=True) == text
    assert parse_move(text) == action


COMMA_BETWEEN = "write a comma only between two melds (meld 7H 8H 9H, QS QD QC)"
COMMA_STARTS = "a comma starts a new meld, so write one meld's cards with spaces (meld QC QH QS)"
COMMAS_PART = "melds are parted by commas (meld 7H 8H 9H, QS QD QC)"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", f"an empty move: {USAGE}"),
        ("   ", f"an empty move: {USAGE}"),
        ("jump", f"'jump' is not a move: {USAGE}"),
        ("pass 7H", f"'pass 7H' is not a move: {USAGE}"),
        # Said "draw from 'stock' or 'discard'", and "draw from stock" got the same answer back.
        ("draw", "'draw': write draw stock or draw discard (ds or dd)"),
        ("draw pile", "'draw pile': write draw stock or draw discard (ds or dd)"),
        ("draw from stock", "'draw from stock': write draw stock (ds)"),
        ("Draw the discard pile", "'Draw the discard pile': write draw discard (dd)"),
        (
            "draw from stock or discard",
            "'draw from stock or discard': write draw stock or draw discard (ds or dd)",
        ),
        # Said "draw from 'stock' or 'discard'" to a player who had written stock.
        ("draw stock discard", "'draw stock discard': write draw stock alone, with nothing after it"),
        ("ds now", "'ds now': ds is draw stock and takes nothing after it"),
        ("ds stock", "'ds stock': ds is draw stock and takes nothing after it"),
        ("DD discard", "'DD discard': DD is draw discard and takes nothing after it"),
        ("meld", "'meld': write each meld's cards, melds separated by commas (meld 7H 8H 9H)"),
        # Said "melds separated by commas" to a player whose commas were there, a group between them not.
        (
            "meld 7H 8H 9H,",
            f"'meld 7H 8H 9H,': meld group 2 of 2 holds no cards: {COMMA_BETWEEN}",
        ),
        (
            "meld , 7H 8H 9H",
            f"'meld , 7H 8H 9H': meld group 1 of 2 holds no cards: {COMMA_BETWEEN}",
        ),
        (
            "m JS QS KS AS,, 3S",
            f"'m JS QS KS AS,, 3S': meld group 2 of 3 holds no cards: {COMMA_BETWEEN}",
        ),
        # Commas between one meld's cards: said "QC is not a meld: a meld needs at least 3 cards".
        ("m qc,qh,qs", f"'m qc,qh,qs': meld group 1 of 3 holds one card: {COMMA_STARTS}"),
        ("m 7H 8H 9H, QC", f"'m 7H 8H 9H, QC': meld group 2 of 2 holds one card: {COMMA_STARTS}"),
        # The table tells melds laid as "7♥ 8♥ 9♥ [1] and Q♠ Q♦ Q♣ [2]": a move written so was told how a
        # card is written, never that melds are parted by commas.
        ("m 7H 8H 9H and QS QD QC", f"'m 7H 8H 9H and QS QD QC': 'and' is no card: {COMMAS_PART}"),
        ("m 7H 8H 9H & QS QD QC", f"'m 7H 8H 9H & QS QD QC': '&' is no card: {COMMAS_PART}"),
        ("m 7H 8H 9H; QS QD QC", f"'m 7H 8H 9H; QS QD QC': ';' is no card: {COMMAS_PART}"),
        ("m 7H 8H 9H / QS QD QC", f"'m 7H 8H 9H / QS QD QC': '/' is no card: {COMMAS_PART}"),
        ("meld 7X 8H 9H", f"'meld 7X 8H 9H': '7X' {CARD_HELP}"),
        ("m 11H", f"'m 11H': '11H' {CARD_HELP}"),
        ("build", "'build': write the table meld's number, then the cards (build 2 TH)"),
        ("build 7H", "'build 7H': write the table meld's number, then the cards (build 2 TH)"),
        ("build TH 2", "'build TH 2': write the table meld's number, then the cards (build 2 TH)"),
        # The table tells a meld laid by its number in brackets ("K♣ K♦ K♥ [3]"): "b [3] KS", typed as
        # shown, was told to write the meld's number, which it had.
        ("b [3] KS", "'b [3] KS': write the table meld's number alone: build 3 KS"),
        ("build 1: JH QH", "'build 1: JH QH': write the table meld's number alone: build 1 JH QH"),
        ("s #2 5C", "'s #2 5C': write the table meld's number alone: swap 2 5C"),
        ("build 0 7H", "'build 0 7H': table melds are numbered from 1"),
        ("build " + "9" * 31 + " 7H", f"'build {'9' * 31} 7H': no table has that many melds"),
        ("swap " + "9" * 5000 + " 5C", f"'swap {'9' * 74}…': no table has that many melds"),
        ("build -1 7H", "'build -1 7H': write the table meld's number, then the cards (build 2 TH)"),
        ("build 2 low", "'build 2 low': name the cards"),
        ("build 2 7Q", f"'build 2 7Q': '7Q' {CARD_HELP}"),
        ("b 1 5H lo", f"'b 1 5H lo': 'lo' is no card: {WHICH_END} (build 2 TH JK low)"),
        ("build 3 9C TC Hgih", f"'build 3 9C TC Hgih': 'Hgih' is no card: {WHICH_END} (build 2 TH JK low)"),
        ("build 2 7H x", f"'build 2 7H x': 'x' {CARD_HELP}"),
        ("swap", "'swap': write the table meld's number, then the cards (swap 2 5C)"),
        ("swap 5C", "'swap 5C': write the table meld's number, then the cards (swap 2 5C)"),
        ("swap 0 5C", "'swap 0 5C': table melds are numbered from 1"),
        ("swap 2 5C low", f"'swap 2 5C low': 'low' {CARD_HELP}"),
        ("discard", "'discard': name the card to discard (discard KD)"),
        ("discard 7H 8H", "'discard 7H 8H': discard exactly one card (discard KD)"),
        # A player who took d for draw was told to discard exactly one card.
        ("d", "'d': d is discard: name the card (d KD)"),
        ("discard 1S", f"'discard 1S': '1S' {CARD_HELP}"),
    ],
)
def test_parse_move_errors(text: str, message: str) -> None:
    with pytest.raises(MoveSyntaxError) as caught:
        parse_move(text)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


def test_a_move_error_quotes_a_long_move_cut_to_80_characters() -> None:
    # A pasted page is refused in one line: the quote ends in an ellipsis at 80 characters.
    pasted = "discard " + "7H " * 2000
    with pytest.raises(MoveSyntaxError) as caught:
        parse_move(pasted)
    assert str(caught.value) == f"'{pasted.strip()[:79]}…': discard exactly one card (discard KD)"


def test_usage_names_every_command() -> None:
    assert USAGE == (
        "commands: draw stock | draw discard | meld CARDS[, CARDS ...] | build N CARDS [low|high] "
        "| swap N CARDS | discard CARD | end"
    )
