"""The melds a hand could lay, each alone: :func:`candidate_melds`, and the cards of those one card short
that a hand keeps (:func:`near_meld_cards`).

A hand's candidates are the sets of each rank it holds and the runs of each suit; they depend only on
the hand's part of that rank or suit and its jokers, so each part's are worked out once per variant and
remembered (:class:`_Memo`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations

from kalooki.cards import JOKER, Card, make_card
from kalooki.cardstate import (
    JOKER_AT,
    KEY_BITS,
    RUN_BITS,
    CardState,
    SuitTables,
    by_bytes,
    new_suit_tables,
    suit_ranks,
    suit_tables_union,
)
from kalooki.melds import MeldError, make_meld
from kalooki.rules import RUN_MAX, SMALLEST_MELD, RunFrame, run_frame, suits_must_differ
from kalooki.variant import Variant
from kalooki.variant_memo import PerVariant


def candidate_melds(hand: Sequence[Card] | CardState, variant: Variant) -> list[tuple[Card, ...]]:
    """Every distinct meld the hand can lay, in a stable order.

    The sets of each rank, then the runs of each suit. A rank's sets depend only on the suits (or,
    with books, the copies) held of it and the jokers; a suit's runs only on the run positions
    held and the jokers: each is worked out once per variant and remembered, so a hand's list is
    read from its :class:`~kalooki.cardstate.CardState` in at most 17 look-ups.
    """
    state = hand if isinstance(hand, CardState) else CardState.of(hand)
    memo = _candidate_memo(variant)
    set_keys, run_keys = _part_keys(state, memo.books, state.jokers)
    found: list[tuple[Card, ...]] = []
    sets, runs = memo.sets, memo.runs
    for key in set_keys:
        groups = sets.get(key)
        found += _sets_of(memo, key, variant) if groups is None else groups
    for key in run_keys:
        groups = runs.get(key)
        found += _runs_of(memo, key, variant) if groups is None else groups
    return found


def lone_runs(state: CardState, variant: Variant) -> list[tuple[Card, ...]]:
    """The runs of one natural card and jokers that read as a set unless laid as a run (``JK 6H JK run``
    is 5-6-7): for each natural held, every length from the run minimum up to a set's most cards and
    every place of the natural the run frame allows. Listed apart from :func:`candidate_melds`, whose
    groups are read as written. A hand of fewer than two jokers has none (a meld holds three cards).
    """
    jokers = state.jokers
    if jokers < 2:
        return []
    most = min(jokers + 1, variant.set_maximum)
    memo = _lone_memo(variant)
    found: list[tuple[Card, ...]] = []
    for card in state.distinct():
        if card == JOKER:
            continue
        groups = memo.get((card, most))
        if groups is None:
            groups = memo[card, most] = lone_runs_of(card, most, variant)
        found += groups
    return found


def lone_runs_of(card: Card, most: int, variant: Variant) -> tuple[tuple[Card, ...], ...]:
    """:func:`lone_runs` of one natural, up to ``most`` cards: each group :func:`make_meld` reads as a run,
    shortest first, and of one length with the natural placed lowest first (the solver's order too)."""
    found: list[tuple[Card, ...]] = []
    for length in range(max(3, run_frame(variant).minimum), most + 1):
        for place in range(length):
            group = (JOKER,) * place + (card,) + (JOKER,) * (length - place - 1)
            try:
                make_meld(group, variant, kind="run")
            except MeldError:
                continue
            found.append(group)
    return tuple(found)


_lone_memo: PerVariant[dict[tuple[Card, int], tuple[tuple[Card, ...], ...]]] = PerVariant(lambda variant: {})
""":func:`lone_runs` of each natural card and most cards, per variant."""


def near_meld_cards(state: CardState, variant: Variant, extra_jokers: int = 0) -> int:
    """The cards (bit ``code``) of every candidate meld of ``state`` with at least two natural cards,
    the hand holding ``extra_jokers`` more jokers (one stands for a card still to come).

    The same look-ups as :func:`candidate_melds`, each part's cards remembered as one mask; where
    suits must differ, a rank's part depends only on its suits and the jokers, so the sets' parts
    are read two ranks at a time, a byte of the suit masks each (see :func:`_byte_near`). A suit's
    part is read from the suit's list by its ranks held (see :func:`_suit_near_bits`).
    """
    memo = _candidate_memo(variant)
    jokers = ((state.key >> JOKER_AT) & 15) + extra_jokers
    found = 0
    if memo.books:
        near = memo.set_near
        for key in _part_keys(state, True, jokers)[0]:
            bits = near.get(key)
            if bits is None:
                bits = near[key] = _near_bits(_sets_of(memo, key, variant))
            found |= bits
    else:
        tables = memo.byte_near.get(jokers)
        if tables is None:
            tables = memo.byte_near[jokers] = _byte_near(memo, jokers, variant)
        # Seven bytes of the suit masks (the last holds the kings alone), one look-up each.
        one, two, three, four, five, six, seven = tables
        b1, b2, b3, b4, b5, b6, b7 = state.suits.to_bytes(7, "little")
        found = one[b1] | two[b2] | three[b3] | four[b4] | five[b5] | six[b6] | seven[b7]
    by_suit = memo.run_near.get(jokers)
    if by_suit is None:
        by_suit = memo.run_near[jokers] = new_suit_tables()
    runs = state.runs
    in_runs = suit_tables_union(runs, by_suit)
    if in_runs is not None:
        return found | in_runs
    for suit in range(4):
        ranks = suit_ranks(runs, suit)
        bits = by_suit[suit][ranks]
        found |= _suit_near_bits(suit, ranks, jokers, variant, by_suit) if bits is None else bits
    return found


def _byte_near(memo: _Memo, jokers: int, variant: Variant) -> tuple[tuple[int, ...], ...]:
    """For each byte of a hand's suit masks (ranks ``2 * place`` and the next), the :func:`_near_bits`
    of the sets of the ranks it holds, with ``jokers``: a hand's sets part in seven look-ups.

    A rank's sets are the aces' of the same suits and jokers with each natural card moved up by the
    rank's index (the rank only names the cards in :func:`_rank_sets`), and so are their cards: the
    aces' fifteen parts, moved, make every entry."""
    aces = [0] + [_near_bits(_sets_of(memo, suits << 4 | jokers << 20, variant)) for suits in range(1, 16)]
    joker = 1 << JOKER
    by_index = [[(bits & ~joker) << index | bits & joker for bits in aces] for index in range(13)]
    by_index.append([0] * 16)
    return tuple(
        tuple(low | high for high in by_index[2 * place + 1] for low in by_index[2 * place])
        for place in range(7)
    )


def _near_bits(groups: tuple[tuple[Card, ...], ...]) -> int:
    bits = 0
    for group in groups:
        if len(group) - group.count(JOKER) >= 2:
            for card in group:
                bits |= 1 << card
    return bits


def _part_keys(state: CardState, books: bool, jokers: int) -> tuple[list[int], tuple[int, int, int, int]]:
    """The memo keys of a hand's parts holding ``jokers``: each rank held (index, suits or copies,
    jokers; where a set's suits must differ, only a rank held in suits enough for a set), then each
    suit (suit, run positions, jokers)."""
    held = state.suits
    if books:
        set_keys: list[int] = []
        key = state.key
        for index in range(13):
            if (held >> (index * 4)) & 15:
                # The copies held of each suit, 4 bits each.
                signature = 0
                for suit in range(4):
                    signature |= ((key >> ((suit * 13 + index) * KEY_BITS)) & 15) << (suit * 4)
                set_keys.append(index | signature << 4 | jokers << 20)
    elif jokers < 2:
        # Two ranks a byte of the suit masks: each byte's keys read from a table, the ranks held in too
        # few suits to make a set with the jokers left out (they have none to list).
        set_keys = by_bytes(held, _BYTE_SET_KEYS[jokers])
    else:
        set_keys = [key | jokers << 20 for key in by_bytes(held, _BYTE_SET_KEYS[2])]
    return set_keys, _run_keys(state.runs, jokers)


def _run_keys(runs: int, jokers: int) -> tuple[int, int, int, int]:
    """The memo keys of a hand's suits (suit, run positions, jokers) from its ``runs`` masks."""
    jokers <<= 18
    return (
        (runs & 0xFFFF) << 2 | jokers,
        1 | ((runs >> RUN_BITS) & 0xFFFF) << 2 | jokers,
        2 | ((runs >> (2 * RUN_BITS)) & 0xFFFF) << 2 | jokers,
        3 | ((runs >> (3 * RUN_BITS)) & 0xFFFF) << 2 | jokers,
    )


_BYTE_SET_KEYS = tuple(
    tuple(
        tuple(
            tuple(
                index | suits << 4 | (jokers if jokers < 2 else 0) << 20
                for index, suits in ((2 * place, byte & 15), (2 * place + 1, byte >> 4))
                if suits and index < 13 and suits.bit_count() + jokers >= SMALLEST_MELD
            )
            for byte in range(256)
        )
        for place in range(7)
    )
    for jokers in range(3)
)
"""For a hand holding no joker, one, and two or more (keys without the jokers): for each byte of its
suit masks (ranks ``2 * place`` and the next), the set keys of the ranks it holds in suits enough to
make a set (suits and jokers three at least), where a set's suits must differ."""


def _sets_of(memo: _Memo, key: int, variant: Variant) -> tuple[tuple[Card, ...], ...]:
    groups = memo.sets.get(key)
    if groups is None:
        memo.trim()
        groups = memo.sets[key] = _rank_sets((key & 15) + 1, (key >> 4) & 0xFFFF, key >> 20, variant)
    return groups


def _runs_of(memo: _Memo, key: int, variant: Variant) -> tuple[tuple[Card, ...], ...]:
    """The runs of a suit's part (``key``: suit, run positions, jokers), from the clubs' of the same
    positions and jokers where those are known: the same runs, each natural card moved by the suit
    (the cards of a suit are the clubs' codes plus 13 times the suit). Random hands bring thousands
    of such parts, so this finds most of a new one's four times as often."""
    groups = memo.runs.get(key)
    if groups is None:
        memo.trim()
        suit = key & 3
        clubs = memo.runs.get(key & ~3)
        if clubs is None:
            clubs = memo.runs[key & ~3] = _suit_runs(0, (key >> 2) & 0xFFFF, key >> 18, variant)
        groups = memo.runs[key] = _moved(clubs, suit * 13) if suit else clubs
    return groups


def _moved(groups: tuple[tuple[Card, ...], ...], step: int) -> tuple[tuple[Card, ...], ...]:
    """``groups`` with every natural card's code moved up by ``step`` (a joker stays a joker)."""
    return tuple(tuple(card if card == JOKER else card + step for card in group) for group in groups)


_MEMO_LIMIT = 200_000
"""Remembered sets and runs per variant before the memo starts again (a few MB at most)."""


class _Memo:
    """The remembered sets (by rank, suits held, jokers) and runs (by suit, positions, jokers), and
    each one's cards as bits for :func:`near_meld_cards`."""

    __slots__ = ("books", "byte_near", "run_near", "runs", "set_near", "sets")

    def __init__(self, books: bool) -> None:
        self.books = books
        # By jokers held: near_meld_cards's sets part by byte of the suit masks (without books).
        self.byte_near: dict[int, tuple[tuple[int, ...], ...]] = {}
        self.sets: dict[int, tuple[tuple[Card, ...], ...]] = {}
        self.runs: dict[int, tuple[tuple[Card, ...], ...]] = {}
        self.set_near: dict[int, int] = {}
        # By jokers held: each suit's part of near_meld_cards, a list per suit by its ranks held.
        self.run_near: dict[int, SuitTables] = {}

    def trim(self) -> None:
        """Start again once the memo holds :data:`_MEMO_LIMIT` parts."""
        if len(self.sets) + len(self.runs) > _MEMO_LIMIT:
            for memo in (self.sets, self.runs, self.set_near, self.run_near):
                memo.clear()


def _variant_candidate_memo(variant: Variant) -> _Memo:
    """The memo of variants that agree on the knobs candidates depend on (keyed on them)."""
    books = not suits_must_differ(variant)
    return _memo_of(variant.set_maximum, books, variant.ace_in_runs, variant.run_minimum)


_candidate_memo: PerVariant[_Memo] = PerVariant(_variant_candidate_memo, limit=32)
""":func:`_variant_candidate_memo`, found by the variant object first: the bots ask on every turn."""


@lru_cache(maxsize=32)
def _memo_of(set_maximum: int, books: bool, ace_in_runs: str, run_minimum: int) -> _Memo:
    # set_maximum, ace_in_runs and run_minimum are read by no one here: they are lru_cache's key, so
    # variants that differ in them get memos of their own (the memo's parts depend on them).
    return _Memo(books)


def _rank_sets(rank: int, signature: int, jokers: int, variant: Variant) -> tuple[tuple[Card, ...], ...]:
    """The sets of ``rank`` a hand can lay holding ``signature`` of it (suits, or copies per suit)."""
    if suits_must_differ(variant):
        suits = [suit for suit in range(4) if signature >> suit & 1]
    else:
        # Each copy held may go in (books): a suit appears as often as the hand holds it.
        suits = [suit for suit in range(4) for _ in range((signature >> (suit * 4)) & 15)]
    capacity = variant.set_maximum
    found: list[tuple[Card, ...]] = []
    for size in range(1, min(len(suits), capacity) + 1):
        for chosen in dict.fromkeys(combinations(suits, size)):
            set_cards = tuple(make_card(rank, suit) for suit in chosen)
            for extra in range(max(0, 3 - size), min(jokers, capacity - size) + 1):
                found.append(set_cards + (JOKER,) * extra)
    return tuple(found)


def _suit_runs(suit: int, mask: int, jokers: int, variant: Variant) -> tuple[tuple[Card, ...], ...]:
    """The runs of ``suit`` a hand can lay holding the run positions ``mask`` (bit p: position p)."""
    set_maximum = variant.set_maximum
    found: list[tuple[Card, ...]] = []
    for _, minimum, cards, held, reach in _reaches(_run_lines(suit, run_frame(variant)), mask, jokers):
        group = [card if held >> index & 1 else JOKER for index, card in enumerate(cards[:reach])]
        for length in range(minimum, reach + 1):
            window = held & ((1 << length) - 1)
            naturals = window.bit_count()
            # One natural and jokers in at most four cards reads as a set: not a run to list.
            if naturals == 0 or (naturals == 1 and length <= set_maximum):
                continue
            written = tuple(group[:length])
            found.append(written)
            spare = jokers - (length - naturals)
            if spare <= 0:
                continue
            # A joker may stand for a card the hand holds too, which then stays free for another meld
            # (TH JH JK beside QH KH AH): one held card of the frame at a time, then two...
            positions = [index for index in range(length) if window >> index & 1]
            for extra in range(1, min(spare, naturals) + 1):
                left = naturals - extra
                if left == 0 or (left == 1 and length <= set_maximum):
                    break
                for chosen in combinations(positions, extra):
                    replaced = list(written)
                    for index in chosen:
                        replaced[index] = JOKER
                    found.append(tuple(replaced))
    return tuple(found)


def _suit_near_bits(suit: int, ranks: int, jokers: int, variant: Variant, tables: SuitTables) -> int:
    """:func:`_near_bits` of :func:`_suit_runs` for ``suit`` holding ``ranks`` (bit 0 = ace) with
    ``jokers``, from the masks alone: from each low card, the longest run listed holds every shorter
    one's cards. The same ranks in the other suits are the same cards moved by a suit: all four are
    remembered in ``tables`` (a list per suit, by the ranks held)."""
    found = 0
    for low, _, _, held, reach in _reaches(_run_lines(0, run_frame(variant)), ranks << 1, jokers):
        held &= (1 << reach) - 1
        naturals = held.bit_count()
        if naturals < 2:
            continue
        # Positions low.. as rank indexes: position p is index p - 1, and p - 14 past the king.
        positions = held << low
        found |= ((positions >> 1) | (positions >> 14)) & 0x1FFF
        # A joker fills a missing card of the run, or else stands for one of its three or more naturals.
        if jokers:
            found |= 1 << JOKER
    joker = found & (1 << JOKER)
    naturals = found & 0x1FFF
    for other in range(4):
        tables[other][ranks] = naturals << (other * 13) | joker
    return naturals << (suit * 13) | joker


def _reaches(lines: _Lines, mask: int, jokers: int) -> Iterator[tuple[int, int, tuple[Card, ...], int, int]]:
    """For each low card of ``lines`` that starts a run: its position, the run minimum, the frame's cards, the
    positions held from the low card on (bit i: its i-th card) and how far a run reaches: up to the
    first missing card that the jokers cannot fill (each longer frame needs as many jokers, or more),
    within the longest frame allowed."""
    minimum, lows, by_low = lines
    line = _line(mask)
    if jokers < minimum:
        # A run starts only where the first ``minimum`` positions miss at most ``jokers`` cards: no
        # ``jokers + 1`` of them all missing, for every low card at once.
        missing = ~line
        for offsets in _offset_choices(minimum, jokers + 1):
            together = -1
            for offset in offsets:
                together &= missing >> offset
            lows &= ~together
    while lows:
        bit = lows & -lows
        lows ^= bit
        low = bit.bit_length() - 1
        cards = by_low[low]
        longest = len(cards)
        held = (line >> low) & ((1 << longest) - 1)
        missing = ~held
        for _ in range(jokers):
            missing &= missing - 1
        yield low, minimum, cards, held, min((missing & -missing).bit_length() - 1, longest)


@lru_cache(maxsize=64)
def _offset_choices(positions: int, count: int) -> tuple[tuple[int, ...], ...]:
    return tuple(combinations(range(positions), count))


def _line(mask: int) -> int:
    """A suit's run positions twice over (bit p: position p, 1 to 26), so that a run turning the
    corner (K-A-2) reads on past the king; without wrapping, position 14 is the high ace."""
    indexes = (mask >> 1) & 0x1FFF
    return (indexes | indexes << 13) << 1


_Lines = tuple[int, int, tuple[tuple[Card, ...], ...]]
"""A suit's run frames: the run minimum, the low cards a run may start at (bit p: position p) and,
by low card, the cards of the longest frame the run rules allow from it, in order."""


@lru_cache(maxsize=64)
def _run_lines(suit: int, frame: RunFrame) -> _Lines:
    """The run frames of ``suit`` (see :data:`_Lines`)."""
    lows = 0
    by_low: list[tuple[Card, ...]] = [()] * (RUN_MAX + 2)
    for low in frame.lows:
        # The rules refuse a frame from the first length on that they refuse (it only grows).
        longest = next(
            (length - 1 for length in range(frame.minimum, RUN_MAX + 1) if not frame.span_ok(low, length)),
            RUN_MAX,
        )
        if longest < frame.minimum:
            continue
        cards = []
        for index in range(longest):
            rank = low + index
            rank = rank if rank <= 14 else (rank - 1) % 13 + 1
            cards.append(make_card(1 if rank == 14 else rank, suit))
        lows |= 1 << low
        by_low[low] = tuple(cards)
    return frame.minimum, lows, tuple(by_low)
