"""Cheap necessary conditions that let bots skip the exact solver on most turns.

The solver answers exactly, but a call costs far more than a whole turn of the engine. Most
turns nothing can be laid, and that is visible from the cards alone: a natural card that sits
in no complete set or run window (jokers filling gaps) cannot be in any meld, and an opening's
melds are worth at most the points of such cards plus the jokers'. These checks may say "maybe"
when the answer is no, never "no" when it is yes, so a bot that skips the solver on "no" plays
exactly as if it had asked.

Runs are tested with bit masks: bit ``p`` of a suit's mask is set when the hand holds the card
at run position ``p`` (1 = ace low ... 13 = king, 14 = ace high), so a window of positions is a
shift and a mask, and a window's count is ``int.bit_count``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from kalooki.cards import JOKER, Card, card_points, rank_points
from kalooki.cardstate import (
    JOKER_AT,
    KEY_BITS,
    RUN_BITS,
    CardState,
    SuitTables,
    new_suit_tables,
    suit_ranks,
    suit_tables_union,
)
from kalooki.meld_memo import MeldMemo
from kalooki.melds import RUN_MAX, MeldError, RunEnd, TableMeld, build, set_room_suits
from kalooki.rules import RunFrame, most_ace_points, most_joker_points, opens, run_frame, suits_must_differ
from kalooki.solver import Plan, PlannedBuild, new_plan
from kalooki.variant import Variant
from kalooki.variant_memo import PerVariant


@lru_cache(maxsize=64)
def card_values(ace_value: int, joker_penalty: int) -> tuple[int, ...]:
    """What each card code (0-52) costs left in hand: a table, so hot loops skip the function calls."""
    return tuple(card_points(code, ace_value, joker_penalty) for code in range(JOKER + 1))


def meldable(hand: Sequence[Card] | CardState, variant: Variant) -> int:
    """The natural cards of ``hand`` that some new meld of this hand could hold, as a mask of card codes.

    Exact without jokers; with jokers a little generous (a window of one natural and jokers is
    counted although it reads as a set), which keeps it a safe filter. Test a card with
    ``mask >> card & 1``. Read from the hand's :class:`~kalooki.cardstate.CardState` (a view's
    ``hand_state``): a list is turned into one first.
    """
    state = hand if isinstance(hand, CardState) else CardState.of(hand)
    return meldable_with(state, tables_of(variant))


def meldable_with(state: CardState, entry: CountTables) -> int:
    """:func:`meldable` of a state, with the variant's :class:`CountTables`."""
    jokers = (state.key >> JOKER_AT) & 15
    runs = state.runs
    # Bit i of each suit's 13-bit mask: the hand holds rank index i (0 = ace) of that suit.
    clubs = (runs >> 1) & _RANKS
    diamonds = (runs >> (RUN_BITS + 1)) & _RANKS
    hearts = (runs >> (2 * RUN_BITS + 1)) & _RANKS
    spades = (runs >> (3 * RUN_BITS + 1)) & _RANKS
    # The ranks a set can use: held in 3 suits, or 2 with a joker, or 1 with two jokers.
    if jokers >= 2:
        ranks = _RANKS
    elif jokers:
        ranks = (clubs & (diamonds | hearts | spades)) | (diamonds & (hearts | spades)) | (hearts & spades)
    else:
        ranks = (clubs & diamonds & (hearts | spades)) | ((clubs | diamonds) & hearts & spades)
    if not entry.distinct:
        # Sets may repeat a suit (two packs: 7H 7H 7S): a rank counts by its copies, not its suits.
        ranks |= _repeat_ranks(state.key, jokers)
    found = (clubs & ranks) | (diamonds & ranks) << 13 | (hearts & ranks) << 26 | (spades & ranks) << 39
    return found | _in_runs(runs, jokers, entry)


def meldable_in_runs(hand: Sequence[Card] | CardState, variant: Variant) -> int:
    """The natural cards of ``hand`` that some new run of this hand could hold: :func:`meldable` less sets."""
    state = hand if isinstance(hand, CardState) else CardState.of(hand)
    return _in_runs(state.runs, state.jokers, tables_of(variant))


def _in_runs(runs: int, jokers: int, entry: CountTables) -> int:
    """The run part of :func:`meldable`, from the hand's run masks and jokers (``entry``: the variant's)."""
    by_suit = entry.covered.get(jokers)
    if by_suit is None:
        by_suit = entry.covered[jokers] = new_suit_tables()
    found = suit_tables_union(runs, by_suit)
    if found is not None:
        return found
    found = 0
    for suit in range(4):
        ranks = suit_ranks(runs, suit)
        window = by_suit[suit][ranks]
        if window is None:
            # The ranks as run positions: the ace at 1 and again at 14.
            window = _covered(ranks << 1 | (ranks & 1) << 14, jokers, entry.run_frame)
            for other in range(4):
                by_suit[other][ranks] = window << (other * 13)
            window <<= suit * 13
        found |= window
    return found


_RANKS = (1 << 13) - 1


def _repeat_ranks(key: int, jokers: int) -> int:
    """The ranks (bit 0 = ace) whose copies in a hand's count ``key``, with ``jokers``, make three cards."""
    ranks = 0
    # The four suits' counts of a rank lie 13 codes apart: four shifts, no generator per rank.
    step = 13 * KEY_BITS
    for index in range(13):
        at = index * KEY_BITS
        copies = (
            ((key >> at) & 15)
            + ((key >> (at + step)) & 15)
            + ((key >> (at + 2 * step)) & 15)
            + ((key >> (at + 3 * step)) & 15)
        )
        if copies and copies + jokers >= 3:
            ranks |= 1 << index
    return ranks


class CountTables:
    """What the count checks read of one variant on every call: its run frame, the frame's
    :func:`_coverage`, whether a set's suits must differ, the frame's :func:`_all_starts`, each
    natural card's most points in an opening (and by byte of a mask) and a joker's, and the table
    questions' answers."""

    __slots__ = (
        "byte_points",
        "covered",
        "distinct",
        "fits",
        "joker_points",
        "points",
        "run_frame",
        "starts",
        "swaps",
    )

    def __init__(self, variant: Variant) -> None:
        frame = run_frame(variant)
        ace = most_ace_points(variant)
        self.run_frame = frame
        self.covered = _coverage(frame)
        self.distinct = suits_must_differ(variant)
        self.starts = _all_starts(frame)
        self.points = _meld_points(ace)
        self.byte_points = _byte_points(ace)
        self.joker_points = most_joker_points(variant)
        self.fits = _TableAnswers()
        self.swaps = _TableAnswers()


tables_of: PerVariant[CountTables] = PerVariant(CountTables, limit=32)
"""Each variant's :class:`CountTables`, found by the variant object's identity."""


def _all_starts(frame: RunFrame) -> int:
    """The start positions of the frame's shortest runs, in every suit's part of a hand's ``runs``;
    0 for runs that wrap, which a shift cannot follow round the corner."""
    if frame.wrap:
        return 0
    starts = _starts_mask(frame.window_starts())
    return sum(starts << (suit * RUN_BITS) for suit in range(4))


def _holds_a_meld(state: CardState, entry: CountTables) -> bool:
    """Whether a hand without jokers holds a new meld: ``bool(meldable(state, variant))``, sooner.

    A rank held in three suits (or three times, where a set's suits may repeat) is a set; a suit
    holding a whole shortest run is a run. Runs are looked for in all four suits at once: a
    suit's part of ``runs`` has room around positions 1-14, so a window that starts where the
    frame lets a run start never reaches into the next suit's part.
    """
    runs = state.runs
    clubs = runs >> 1
    diamonds = runs >> (RUN_BITS + 1)
    hearts = runs >> (2 * RUN_BITS + 1)
    spades = runs >> (3 * RUN_BITS + 1)
    if ((clubs & diamonds & (hearts | spades)) | ((clubs | diamonds) & hearts & spades)) & _RANKS:
        return True
    if not entry.distinct and _repeat_ranks(state.key, 0):
        return True
    starts = entry.starts
    if not starts:
        return bool(_in_runs(runs, 0, entry))
    found = runs
    for step in range(1, entry.run_frame.minimum):
        found &= runs >> step
    return bool(found & starts)


@lru_cache(maxsize=64)
def _coverage(frame: RunFrame) -> dict[int, SuitTables]:
    """Memo of :func:`_covered` for one run frame, shared by the variants with that frame: by the jokers
    held, a list per suit by its ranks held (bit 0 = ace), of the cards covered (bit ``code``)."""
    return {}


def _covered(mask: int, jokers: int, frame: RunFrame) -> int:
    """The ranks (bit i = rank index i) of the suit's run positions ``mask`` that some run window holds."""
    starts, size, wrap = frame.window_starts(), frame.minimum, frame.wrap
    if wrap:
        # Unroll the circle: positions 1-13 then 14-26 again, so a window never needs a modulus.
        core = mask & _ONE_TO_THIRTEEN
        mask = core | (core << 13)
    if jokers:
        covered = 0
        full = (1 << size) - 1
        for start in starts:
            window = (mask >> start) & full
            have = window.bit_count()
            if have and size - have <= jokers:
                covered |= window << start
    else:
        # Without jokers a window must be full: AND the shifted masks, then spread the starts back.
        first = mask
        for step in range(1, size):
            first &= mask >> step
        first &= _starts_mask(starts)
        covered = first
        for step in range(1, size):
            covered |= first << step
    if wrap:
        covered = (covered | (covered >> 13)) & _ONE_TO_THIRTEEN
    found = 0
    if covered:
        found = (covered & _ONE_TO_THIRTEEN) >> 1
        if covered >> 14 & 1:
            found |= 1
    return found


_ONE_TO_THIRTEEN = (1 << 14) - 2


@lru_cache(maxsize=64)
def _starts_mask(starts: tuple[int, ...]) -> int:
    mask = 0
    for start in starts:
        mask |= 1 << start
    return mask


def opening_bound(hand: Sequence[Card] | CardState, can_meld: int, variant: Variant) -> int:
    """An upper bound on the points of new melds the hand could lay (every meldable card, jokers at most)."""
    if not isinstance(hand, CardState):
        ace = most_ace_points(variant)
        joker = most_joker_points(variant)
        total = 0
        for card in hand:
            if card == JOKER:
                total += joker
            elif can_meld >> card & 1:
                total += rank_points(card % 13 + 1, ace)
        return total
    return bound_with(hand, can_meld, tables_of(variant))


def bound_with(state: CardState, can_meld: int, entry: CountTables) -> int:
    """:func:`opening_bound` of a state: each meldable card's points once, a byte of the mask at a time,
    then again for each copy past the first (a count's nibble of 2 or more has bit 1, 2 or 3 set)."""
    key = state.key
    one, two, three, four, five, six, seven = entry.byte_points
    b1, b2, b3, b4, b5, b6, b7 = can_meld.to_bytes(7, "little")
    total = one[b1] + two[b2] + three[b3] + four[b4] + five[b5] + six[b6] + seven[b7]
    total += ((key >> JOKER_AT) & 15) * entry.joker_points
    twice = (key >> 1 | key >> 2 | key >> 3) & _NIBBLE_ONES
    if twice:
        points = entry.points
        while twice:
            low = twice & -twice
            card = (low.bit_length() - 1) >> 2
            if can_meld >> card & 1:
                total += points[card] * (((key >> (card * KEY_BITS)) & 15) - 1)
            twice ^= low
    return total


_NIBBLE_ONES = sum(1 << (code * KEY_BITS) for code in range(JOKER))
"""Bit 0 of each natural card's count in a hand's ``key``."""


@lru_cache(maxsize=16)
def _byte_points(ace: int) -> tuple[tuple[int, ...], ...]:
    """For each byte of a mask of card codes, the points of the natural cards its bits stand for."""
    points = _meld_points(ace)
    return tuple(
        tuple(
            sum(points[place * 8 + bit] for bit in range(8) if byte >> bit & 1 and place * 8 + bit < JOKER)
            for byte in range(256)
        )
        for place in range(7)
    )


@lru_cache(maxsize=16)
def _meld_points(ace: int) -> tuple[int, ...]:
    """What each natural card code adds to an opening, an ace counted at ``ace``."""
    return tuple(rank_points(code % 13 + 1, ace) for code in range(JOKER))


def may_open(hand: Sequence[Card] | CardState, variant: Variant) -> bool:
    """False when the hand surely has no opening (its meldable cards cannot reach the threshold)."""
    state = hand if isinstance(hand, CardState) else CardState.of(hand)
    entry = tables_of(variant)
    can_meld = meldable_with(state, entry)
    if not can_meld:
        return False
    return opens(variant, bound_with(state, can_meld, entry))


def fits_table(card: Card, table: Sequence[TableMeld], variant: Variant) -> bool:
    """Whether ``card`` could start a build onto some table meld (a joker: whether any meld has room)."""
    return bool(fits_mask(table, variant) >> card & 1)


def fits_mask(table: Sequence[TableMeld], variant: Variant) -> int:
    """The cards that :func:`fits_table` says fit ``table``, as a mask of card codes (bit 52: a joker)."""
    return _table_mask(table, variant, tables_of(variant).fits, _meld_fits)


def swap_mask(table: Sequence[TableMeld], variant: Variant) -> int:
    """The natural cards a joker on ``table`` stands for, as a mask of card codes: no release without one."""
    return _table_mask(table, variant, tables_of(variant).swaps, _meld_swaps)


def _table_mask(
    table: Sequence[TableMeld],
    variant: Variant,
    entry: _TableAnswers,
    of_meld: Callable[[TableMeld, Variant], int],
) -> int:
    """The OR of ``of_meld`` over the table's melds (``entry``: its answers so far under ``variant``).

    Each meld's part is worked out once and remembered for as long as the meld is on the table:
    a table changes only when something is laid, and the bots ask about it on every turn. The
    last table's answer is kept whole: each view brings a new tuple of the same (shared, frozen)
    melds, which ``==`` matches by identity before it would compare a meld's fields.
    """
    if table == entry.table:
        return entry.mask
    answers = entry.answers
    memo = answers.melds
    mask = 0
    for meld in table:
        found = memo.get(id(meld))
        mask |= found[1] if found is not None and found[0] is meld else answers.learn(meld, of_meld, variant)
    if type(table) is tuple:  # a list could change under the remembered answer
        entry.table, entry.mask = table, mask
    return mask


def _meld_swaps(meld: TableMeld, variant: Variant) -> int:
    """The natural cards that a joker in ``meld`` stands for (in a set: the suits it may take)."""
    if not meld.jokers:
        return 0
    mask = 0
    if meld.kind == "run":
        for index, card in enumerate(meld.cards):
            if card == JOKER:
                mask |= 1 << meld.stands_for(index)
    else:
        for suit in set_room_suits(meld, variant):
            mask |= 1 << (meld.rank - 1 + 13 * suit)
    return mask


def _meld_fits(meld: TableMeld, variant: Variant) -> int:
    """The cards that could start a build onto ``meld``, as a mask of card codes (bit 52: a joker)."""
    if meld.kind == "set":
        if len(meld.cards) >= variant.set_maximum:
            return 0
        mask = 1 << JOKER
        for suit in set_room_suits(meld, variant):
            mask |= 1 << (suit * 13 + meld.rank - 1)
        return mask
    if len(meld.cards) >= RUN_MAX:
        return 0
    mask = 1 << JOKER
    below, above = meld.rank - 1, meld.high_rank() + 1
    if run_frame(variant).wrap:
        below, above = (below - 1) % 13 + 1, (above - 1) % 13 + 1
    base = meld.suit * 13
    for end in (below, above):
        # Positions 1-13 are ranks; 14 is the ace above the king; 0 and 15 lie off the frame.
        if 1 <= end <= 14:
            mask |= 1 << (base + (end - 1) % 13)
    return mask


_MELDS_KEPT = 4096
"""Melds :func:`_table_mask` remembers per variant and question before it starts afresh."""


class _TableAnswers:
    """One question's answers under one variant (kept in its :class:`CountTables`): per meld
    (:class:`~kalooki.meld_memo.MeldMemo`), and the last whole table's."""

    __slots__ = ("answers", "mask", "table")

    def __init__(self) -> None:
        self.answers: MeldMemo[int] = MeldMemo(_MELDS_KEPT)
        self.table: Sequence[TableMeld] = ()
        self.mask = 0


def may_lay(
    hand: Sequence[Card] | CardState,
    table: Sequence[TableMeld],
    variant: Variant,
    can_meld: int | None = None,
) -> bool:
    """For a player who has opened: False when nothing in hand can be melded or built.

    ``can_meld``: the hand's :func:`meldable` mask, when the caller has it already.
    """
    state = hand if isinstance(hand, CardState) else CardState.of(hand)
    held = state.held
    if held >> JOKER & 1:
        return True
    if can_meld is None:
        if _holds_a_meld(state, tables_of(variant)):
            return True
    elif can_meld:
        return True
    return bool(held & fits_mask(table, variant))


def lay_or_release(state: CardState, table: Sequence[TableMeld], variant: Variant) -> tuple[bool, bool]:
    """For a player who has opened: :func:`may_lay` of the hand, and whether it holds a card that a joker
    on the table stands for (:func:`swap_mask`; no joker release without one).

    The random bot asks both on every action after opening: read with one look-up of the variant's
    tables, the last table's masks taken straight from their memos.
    """
    entry = tables_of(variant)
    held = state.held
    swaps = entry.swaps
    stands_for = swaps.mask if table == swaps.table else _table_mask(table, variant, swaps, _meld_swaps)
    releases = bool(held & stands_for)
    if held >> JOKER & 1 or _holds_a_meld(state, entry):
        return True, releases
    fits = entry.fits
    fitting = fits.mask if table == fits.table else _table_mask(table, variant, fits, _meld_fits)
    return bool(held & fitting), releases


def build_plan(hand: Sequence[Card], table: Sequence[TableMeld], variant: Variant, keep: int) -> Plan | None:
    """The plan for a hand that can only build (no jokers, no new meld), or None if placing is a choice.

    Without jokers and new melds, what goes down is each natural card that extends a table meld,
    one after another (a run grows card by card, so 8H then 9H both go onto ...7H). While every
    card that fits fits exactly one place, laying them all is the solver's least-value-left plan;
    when a card could go to two places (4D onto a set of fours or a run 5D-8D) the choice can
    strand another card, so None hands the question back to the solver. The most costly cards
    go first, so that a ``keep`` card left over is the cheapest one.
    """
    ace = variant.ace_value
    values = card_values(ace, variant.joker_penalty)
    melds = list(table)
    # What fits each meld, kept beside it (only a meld built onto changes).
    answers = tables_of(variant).fits.answers
    masks = [answers.get(meld, _meld_fits, variant) for meld in melds]
    left = sorted(hand, key=_dearest_first(ace, variant.joker_penalty).__getitem__)
    builds: list[PlannedBuild] = []
    points = 0
    progress = True
    while progress and len(left) > keep:
        progress = False
        # A card outside every meld's mask fits nowhere: skipped without asking each meld.
        fitting = 0
        for mask in masks:
            fitting |= mask
        for card in left:
            if not fitting >> card & 1:
                continue
            places = _places(card, melds, masks, variant)
            if not places:
                continue
            if len(places) > 1:
                return None
            index, end, built = places[0]
            melds[index] = built
            masks[index] = _meld_fits(built, variant)
            builds.append((index, (card,), end))
            points += rank_points(card % 13 + 1, ace)
            left.remove(card)
            progress = True
            break
    return new_plan(
        melds=(),
        builds=tuple(builds),
        points=points,
        cards_laid=len(builds),
        value_left=sum(values[card] for card in left),
        remaining=tuple(sorted(left)),
    )


@lru_cache(maxsize=64)
def _dearest_first(ace_value: int, joker_penalty: int) -> tuple[int, ...]:
    """Per card code, a key that sorts the costliest cards first, ties by code: ``(-value, code)`` as one
    int (codes are below 64), read by index where a key function made a tuple per card."""
    values = card_values(ace_value, joker_penalty)
    return tuple(-values[code] * 64 + code for code in range(JOKER + 1))


def _places(
    card: Card, melds: Sequence[TableMeld], masks: Sequence[int], variant: Variant
) -> list[tuple[int, RunEnd | None, TableMeld]]:
    """Every table meld (index, end, and the meld after) that ``card`` can be built onto.

    ``masks``: each meld's :func:`fits_mask`, in the same order.
    """
    places: list[tuple[int, RunEnd | None, TableMeld]] = []
    for index, meld in enumerate(melds):
        if not masks[index] >> card & 1:
            continue
        ends: tuple[RunEnd | None, ...] = (None,) if meld.kind == "set" else ("high", "low")
        for end in ends:
            try:
                places.append((index, end, build(meld, (card,), variant, end)))
            except MeldError:
                continue
    return places
