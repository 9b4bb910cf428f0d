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
from itertools import combinations

from kalooki.cards import JOKER, Card, card_points, rank_points
from kalooki.cardstate import KEY_BITS, RUN_BITS, CardState
from kalooki.melds import RUN_MAX, SET_MAX, MeldError, RunEnd, TableMeld, build, set_room_suits
from kalooki.rules import RunFrame, most_ace_points, opening_points, opens, run_frame, suits_must_differ
from kalooki.solver import Plan, PlannedBuild
from kalooki.variant import Variant


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
    entry = _FRAMES.get(id(variant))
    if entry is None or entry[0] is not variant:
        entry = _frame_entry(variant)
    jokers = state.jokers
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
    if not entry[3]:
        # Sets may repeat a suit (two packs: 7H 7H 7S): a rank counts by its copies, not its suits.
        ranks |= _repeat_ranks(state.key, jokers)
    found = (clubs & ranks) | (diamonds & ranks) << 13 | (hearts & ranks) << 26 | (spades & ranks) << 39
    return found | _in_runs(runs, jokers, entry)


def meldable_in_runs(hand: Sequence[Card] | CardState, variant: Variant) -> int:
    """The natural cards of ``hand`` that some new run of this hand could hold: :func:`meldable` less sets."""
    state = hand if isinstance(hand, CardState) else CardState.of(hand)
    entry = _FRAMES.get(id(variant))
    if entry is None or entry[0] is not variant:
        entry = _frame_entry(variant)
    return _in_runs(state.runs, state.jokers, entry)


def _in_runs(runs: int, jokers: int, entry: _FrameEntry) -> int:
    """The run part of :func:`meldable`, from the hand's run masks and jokers (``entry``: the variant's)."""
    frame, covered = entry[1], entry[2]
    found = 0
    extra = jokers << RUN_BITS
    # The suits' shifts written out: this runs two or three times a turn for every bot.
    for at, to in _SUIT_SHIFTS:
        mask = (runs >> at) & _RUN_MASK
        if mask:
            window = covered.get(mask | extra)
            if window is None:
                window = covered[mask | extra] = _covered(mask, jokers, frame)
            found |= window << to
    return found


_SUIT_SHIFTS = tuple((suit * RUN_BITS, suit * 13) for suit in range(4))
"""Each suit's place in a hand's ``runs`` and in a mask of card codes."""


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


_RUN_MASK = (1 << RUN_BITS) - 1


_FrameEntry = tuple[Variant, RunFrame, dict[int, int], bool]
_FRAMES: dict[int, _FrameEntry] = {}
"""Each variant's run frame, the frame's :func:`_coverage` and whether a set's suits must differ, by the
variant's id (the entry holds the variant, so the id is not reused while remembered): hashing a
variant, or its frame, costs more than the answer, and :func:`meldable` asks on every call."""


def _frame_entry(variant: Variant) -> _FrameEntry:
    if len(_FRAMES) > 32:
        _FRAMES.clear()
    frame = run_frame(variant)
    entry = _FRAMES[id(variant)] = (variant, frame, _coverage(frame), suits_must_differ(variant))
    return entry


@lru_cache(maxsize=64)
def _coverage(frame: RunFrame) -> dict[int, int]:
    """Memo of :func:`_covered` for one run frame, shared by the variants with that frame: a suit's
    mask and the jokers, packed."""
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
    ace = most_ace_points(variant)
    if not isinstance(hand, CardState):
        total = 0
        for card in hand:
            if card == JOKER:
                total += max(ace, 10)
            elif can_meld >> card & 1:
                total += rank_points(card % 13 + 1, ace)
        return total
    # From the state: walk the meldable cards' bits, each counted as often as the hand holds it.
    points = _meld_points(ace)
    total = hand.jokers * max(ace, 10)
    key = hand.key
    while can_meld:
        low = can_meld & -can_meld
        card = low.bit_length() - 1
        total += points[card] * ((key >> (card * KEY_BITS)) & 15)
        can_meld ^= low
    return total


@lru_cache(maxsize=16)
def _meld_points(ace: int) -> tuple[int, ...]:
    """What each natural card code adds to an opening, an ace counted at ``ace``."""
    return tuple(rank_points(code % 13 + 1, ace) for code in range(JOKER))


def may_open(hand: Sequence[Card] | CardState, variant: Variant) -> bool:
    """False when the hand surely has no opening (its meldable cards cannot reach the threshold)."""
    can_meld = meldable(hand, variant)
    if not can_meld:
        return False
    return opens(variant, opening_bound(hand, can_meld, variant))


def fits_table(card: Card, table: Sequence[TableMeld], variant: Variant) -> bool:
    """Whether ``card`` could start a build onto some table meld (a joker: whether any meld has room)."""
    return bool(fits_mask(table, variant) >> card & 1)


def fits_mask(table: Sequence[TableMeld], variant: Variant) -> int:
    """The cards that :func:`fits_table` says fit ``table``, as a mask of card codes (bit 52: a joker)."""
    return _table_mask(table, variant, _meld_fits)


def swap_mask(table: Sequence[TableMeld], variant: Variant) -> int:
    """The natural cards a joker on ``table`` stands for, as a mask of card codes: no release without one."""
    return _table_mask(table, variant, _meld_swaps)


def _table_mask(
    table: Sequence[TableMeld], variant: Variant, of_meld: Callable[[TableMeld, Variant], int]
) -> int:
    """The OR of ``of_meld`` over the table's melds.

    Each meld's part is worked out once and remembered for as long as the meld is on the table:
    a table changes only when something is laid, and the bots ask about it on every turn. The
    last table's answer is kept whole: each view brings a new tuple of the same (shared, frozen)
    melds, which ``==`` matches by identity before it would compare a meld's fields.
    """
    entry = _meld_memo(of_meld, variant)
    if table == entry.table:
        return entry.mask
    memo = entry.melds
    mask = 0
    for meld in table:
        found = memo.get(id(meld))
        if found is None or found[0] is not meld:
            found = _remember(memo, meld, of_meld(meld, variant))
        mask |= found[1]
    if type(table) is tuple:  # a list could change under the remembered answer
        entry.table, entry.mask = table, mask
    return mask


def _remember(memo: dict[int, tuple[TableMeld, int]], meld: TableMeld, answer: int) -> tuple[TableMeld, int]:
    if len(memo) > _MELDS_KEPT:
        memo.clear()
    found = memo[id(meld)] = (meld, answer)
    return found


def _fits_one(meld: TableMeld, variant: Variant) -> int:
    """:func:`fits_mask` of a table of ``meld`` alone, leaving the last whole table's answer in place."""
    memo = _meld_memo(_meld_fits, variant).melds
    found = memo.get(id(meld))
    if found is None or found[0] is not meld:
        found = _remember(memo, meld, _meld_fits(meld, variant))
    return found[1]


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
    # Rank 1 is the ace, which also fits a run that reaches up to the king (position 14).
    for rank in range(1, 14):
        if rank in (below, above) or (rank == 1 and 14 in (below, above)):
            mask |= 1 << (meld.suit * 13 + rank - 1)
    return mask


_MELDS_KEPT = 4096
"""Melds :func:`_table_mask` remembers per variant and question before it starts afresh."""


class _MeldMemo:
    """One question's answers under one variant: per meld by its id, and the last whole table's."""

    __slots__ = ("mask", "melds", "table", "variant")

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.melds: dict[int, tuple[TableMeld, int]] = {}
        self.table: Sequence[TableMeld] = ()
        self.mask = 0


_MELD_MEMOS: dict[tuple[object, int], _MeldMemo] = {}


def _meld_memo(of_meld: Callable[[TableMeld, Variant], int], variant: Variant) -> _MeldMemo:
    """The answers of ``of_meld`` under ``variant``, keyed by the meld's id (the meld is held, so its id
    is never reused while remembered) and the variant's (a variant's hash costs more than the answer)."""
    entry = _MELD_MEMOS.get((of_meld, id(variant)))
    if entry is None or entry.variant is not variant:
        if len(_MELD_MEMOS) > 32:
            _MELD_MEMOS.clear()
        entry = _MELD_MEMOS[(of_meld, id(variant))] = _MeldMemo(variant)
    return entry


def may_lay(
    hand: Sequence[Card] | CardState,
    table: Sequence[TableMeld],
    variant: Variant,
    can_meld: int | None = None,
) -> bool:
    """For a player who has opened: False when nothing in hand can be melded or built.

    ``can_meld``: the hand's :func:`meldable` mask, when the caller has it already.
    """
    if JOKER in hand:
        return True
    if meldable(hand, variant) if can_meld is None else can_meld:
        return True
    held = hand.held if isinstance(hand, CardState) else CardState.of(hand).held
    return bool(held & fits_mask(table, variant))


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
    masks = [_fits_one(meld, variant) for meld in melds]
    left = sorted(hand, key=lambda card: (-values[card], card))
    builds: list[PlannedBuild] = []
    points = 0
    progress = True
    while progress and len(left) > keep:
        progress = False
        for card in left:
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
    return Plan(
        melds=(),
        builds=tuple(builds),
        points=points,
        cards_laid=len(builds),
        value_left=sum(values[card] for card in left),
        remaining=tuple(sorted(left)),
    )


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


def _opening_candidates(
    hand: Sequence[Card], variant: Variant
) -> tuple[dict[Card, int], list[tuple[tuple[Card, ...], int]]]:
    """A joker-free hand's card counts and every new meld it can lay with its points, best first.

    Sets of three or four suits of a rank, and every window of at least ``run_minimum`` along a
    suit's consecutive cards, written as make_meld reads them (runs low to high, an ace above
    the king last).
    """
    counts: dict[Card, int] = {}
    # Beside the counts, the suits held of each rank and the run positions held of each suit
    # (an ace at both ends): the loops below then test bits, not the dict, and skip what holds nothing.
    rank_suits = [0] * 13
    suit_runs = [0] * 4
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
        rank_suits[card % 13] |= _SUIT_BIT[card]
        suit_runs[card // 13] |= _POSITION_BITS[card]
    found: list[tuple[tuple[Card, ...], int]] = []
    points = _position_points(variant.ace_value, variant.low_ace_value)
    for index in range(13):
        held = rank_suits[index]
        if _SUITS_HELD[held] < 3:
            continue
        suits = _SUITS_OF[held]
        value = rank_points(index + 1, variant.ace_value)
        for size in range(3, min(len(suits), SET_MAX, variant.set_maximum) + 1):
            for chosen in combinations(suits, size):
                found.append((tuple(suit * 13 + index for suit in chosen), value * size))
    frame = run_frame(variant)
    starts, size = frame.window_starts(), frame.minimum
    lowest, highest = starts[0], starts[-1] + size - 1
    span = ((1 << (highest + 1)) - 1) ^ ((1 << lowest) - 1)
    for suit in range(4):
        positions = suit_runs[suit] & span
        if positions.bit_count() < size:
            continue  # no stretch of ``size`` consecutive cards fits
        base = suit * 13
        run: list[int] = []  # the positions of the current stretch of consecutive cards
        for position in range(lowest, highest + 2):
            if positions >> position & 1:
                run.append(position)
                continue
            for first in range(len(run) - size + 1):
                for last in range(first + size, min(len(run), first + RUN_MAX) + 1):
                    window = run[first:last]
                    cards = tuple(base + (spot - 1) % 13 for spot in window)
                    found.append((cards, sum(points[spot] for spot in window)))
            run = []
    found.sort(key=lambda candidate: -candidate[1])
    return counts, found


_SUIT_BIT = tuple(1 << (code // 13) for code in range(JOKER))
_POSITION_BITS = tuple(
    (1 << 1) | (1 << 14) if code % 13 == 0 else 1 << (code % 13 + 1) for code in range(JOKER)
)
"""Each natural card's run positions (1-14: an ace is 1 and 14) as bits."""
_SUITS_OF = tuple(tuple(suit for suit in range(4) if held >> suit & 1) for held in range(16))
_SUITS_HELD = tuple(len(suits) for suits in _SUITS_OF)


@lru_cache(maxsize=16)
def _position_points(ace_value: int, low_ace_value: int) -> tuple[int, ...]:
    """Points of each run position (index 1-14: 1 the ace below the two, 14 the ace above the king)."""
    return (0, low_ace_value, *(rank_points(position, ace_value) for position in range(2, 15)))


def best_opening(
    hand: Sequence[Card], variant: Variant, keep: int
) -> tuple[tuple[tuple[Card, ...], ...], int] | None:
    """The new melds worth the most points that open a joker-free hand, and their points.

    ``((), 0)`` when there is no opening; None when the hand holds a joker or runs wrap (ask the
    solver: with jokers the candidates multiply and its memoised search is the faster). Without
    jokers the points laid are the value taken out of the hand, so the most points is the
    solver's least value left among plans of new melds alone (builds onto the table come after,
    the player having opened). The candidates are few, so a depth-first search over them,
    pruned on the points still available, answers in a fraction of the general solver's time.
    """
    if JOKER in hand or run_frame(variant).wrap:
        return None
    threshold = opening_points(variant)
    counts, candidates = _opening_candidates(hand, variant)
    if not candidates:
        return ((), 0)
    # What the candidates from i on could add at most, ignoring overlaps: the pruning bound. With two
    # packs a meld can go down twice (8C 9C TC and 8C 9C TC), so each counts as often as its cards allow.
    tails = [0] * (len(candidates) + 1)
    for position in range(len(candidates) - 1, -1, -1):
        cards, value = candidates[position]
        tails[position] = tails[position + 1] + value * min(counts[card] for card in cards)
    most = len(hand) - keep
    chosen: list[tuple[Card, ...]] = []
    best: list[tuple[Card, ...]] = []
    best_points = threshold - 1

    def search(start: int, points: int, laid: int) -> None:
        nonlocal best, best_points
        if points > best_points and chosen:  # an opening is one meld at least, even where 0 points open
            best, best_points = list(chosen), points
        for position in range(start, len(candidates)):
            if points + tails[position] <= best_points:
                return
            cards, value = candidates[position]
            if laid + len(cards) > most or any(counts[card] == 0 for card in cards):
                continue
            for card in cards:
                counts[card] -= 1
            chosen.append(cards)
            # The same meld may go down again from the second pack: stay at this position.
            search(position, points + value, laid + len(cards))
            chosen.pop()
            for card in cards:
                counts[card] += 1

    search(0, 0, 0)
    return (tuple(best), best_points) if best else ((), 0)
