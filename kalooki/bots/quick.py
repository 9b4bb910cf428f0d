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

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from kalooki.cards import JOKER, Card, card_points, rank_points
from kalooki.melds import RUN_MAX, SET_MAX, MeldError, RunEnd, TableMeld, build, set_room_suits
from kalooki.rules import most_ace_points, run_frame
from kalooki.solver import Plan, PlannedBuild
from kalooki.variant import Variant


@lru_cache(maxsize=64)
def card_values(ace_value: int, joker_penalty: int) -> tuple[int, ...]:
    """What each card code (0-52) costs left in hand: a table, so hot loops skip the function calls."""
    return tuple(card_points(code, ace_value, joker_penalty) for code in range(JOKER + 1))


@lru_cache(maxsize=64)
def _frame(variant: Variant) -> tuple[tuple[int, ...], int, bool]:
    """The window start positions a run may use, the window width, and whether positions wrap."""
    frame = run_frame(variant)
    return frame.window_starts(), frame.minimum, frame.wrap


def meldable(hand: Sequence[Card], variant: Variant) -> int:
    """The natural cards of ``hand`` that some new meld of this hand could hold, as a mask of card codes.

    Exact without jokers; with jokers a little generous (a window of one natural and jokers is
    counted although it reads as a set), which keeps it a safe filter. Test a card with
    ``mask >> card & 1``.
    """
    jokers = 0
    suits_of_rank = [0] * 13
    masks = [0, 0, 0, 0]
    for card in hand:
        if card == JOKER:
            jokers += 1
            continue
        index, suit = card % 13, card // 13
        suits_of_rank[index] |= 1 << suit
        masks[suit] |= _POSITION_BITS[index]
    found = 0
    for index, suits in enumerate(suits_of_rank):
        if suits and _SUIT_COUNT[suits] + jokers >= 3:
            for suit in range(4):
                if suits >> suit & 1:
                    found |= 1 << (suit * 13 + index)
    starts, size, wrap = _frame(variant)
    for suit, mask in enumerate(masks):
        if not mask:
            continue
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
        if covered:
            found |= ((covered & _ONE_TO_THIRTEEN) >> 1) << (suit * 13)
            if covered >> 14 & 1:
                found |= 1 << (suit * 13)
    return found


_ONE_TO_THIRTEEN = (1 << 14) - 2
_POSITION_BITS = [(1 << 1) | (1 << 14) if index == 0 else 1 << (index + 1) for index in range(13)]
_SUIT_COUNT = [suits.bit_count() for suits in range(16)]


@lru_cache(maxsize=64)
def _starts_mask(starts: tuple[int, ...]) -> int:
    mask = 0
    for start in starts:
        mask |= 1 << start
    return mask


def opening_bound(hand: Sequence[Card], can_meld: int, variant: Variant) -> int:
    """An upper bound on the points of new melds the hand could lay (every meldable card, jokers at most)."""
    ace = most_ace_points(variant)
    total = 0
    for card in hand:
        if card == JOKER:
            total += max(ace, 10)
        elif can_meld >> card & 1:
            total += rank_points(card % 13 + 1, ace)
    return total


def may_open(hand: Sequence[Card], variant: Variant) -> bool:
    """False when the hand surely has no opening (its meldable cards cannot reach the threshold)."""
    can_meld = meldable(hand, variant)
    if not can_meld:
        return False
    return opening_bound(hand, can_meld, variant) >= max(variant.opening_threshold, 1)


def fits_table(card: Card, table: Sequence[TableMeld], variant: Variant) -> bool:
    """Whether ``card`` could start a build onto some table meld (a joker: whether any meld has room)."""
    if card == JOKER:
        return any(
            len(meld.cards) < (variant.set_maximum if meld.kind == "set" else RUN_MAX) for meld in table
        )
    rank, suit = card % 13 + 1, card // 13
    wrap = run_frame(variant).wrap
    for meld in table:
        if meld.kind == "set":
            if (
                meld.rank == rank
                and len(meld.cards) < variant.set_maximum
                and suit in set_room_suits(meld, variant)
            ):
                return True
            continue
        if meld.suit != suit or len(meld.cards) >= RUN_MAX:
            continue
        below, above = meld.rank - 1, meld.high_rank() + 1
        if wrap:
            below, above = (below - 1) % 13 + 1, (above - 1) % 13 + 1
        if rank in (below, above) or (rank == 1 and 14 in (below, above)):
            return True
    return False


def may_lay(
    hand: Sequence[Card], table: Sequence[TableMeld], variant: Variant, can_meld: int | None = None
) -> bool:
    """For a player who has opened: False when nothing in hand can be melded or built.

    ``can_meld``: the hand's :func:`meldable` mask, when the caller has it already.
    """
    if JOKER in hand:
        return True
    if meldable(hand, variant) if can_meld is None else can_meld:
        return True
    return any(fits_table(card, table, variant) for card in set(hand))


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
    left = sorted(hand, key=lambda card: (-values[card], card))
    builds: list[PlannedBuild] = []
    points = 0
    progress = True
    while progress and len(left) > keep:
        progress = False
        for card in left:
            places = _places(card, melds, variant)
            if not places:
                continue
            if len(places) > 1:
                return None
            index, end, built = places[0]
            melds[index] = built
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
    card: Card, melds: Sequence[TableMeld], variant: Variant
) -> list[tuple[int, RunEnd | None, TableMeld]]:
    """Every table meld (index, end, and the meld after) that ``card`` can be built onto."""
    places: list[tuple[int, RunEnd | None, TableMeld]] = []
    for index, meld in enumerate(melds):
        if not fits_table(card, (meld,), variant):
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
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    found: list[tuple[tuple[Card, ...], int]] = []
    points = _position_points(variant.ace_value, variant.low_ace_value)
    for index in range(13):
        suits = [suit for suit in range(4) if suit * 13 + index in counts]
        if len(suits) < 3:
            continue
        value = rank_points(index + 1, variant.ace_value)
        for size in range(3, min(len(suits), SET_MAX, variant.set_maximum) + 1):
            for chosen in combinations(suits, size):
                found.append((tuple(suit * 13 + index for suit in chosen), value * size))
    starts, size, _ = _frame(variant)
    lowest, highest = starts[0], starts[-1] + size - 1
    for suit in range(4):
        base = suit * 13
        run: list[int] = []  # the positions of the current stretch of consecutive cards
        for position in range(lowest, highest + 2):
            if position <= highest and base + (position - 1) % 13 in counts:
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
    threshold = max(variant.opening_threshold, 1)
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
        if points > best_points:
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
