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
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from kalooki.cards import JOKER, Card, card_points, rank_points
from kalooki.melds import RUN_MAX, SET_MAX, MeldError, RunEnd, TableMeld, build
from kalooki.solver import Plan, PlannedBuild
from kalooki.variant import Variant


@lru_cache(maxsize=64)
def card_values(ace_value: int, joker_penalty: int) -> tuple[int, ...]:
    """What each card code (0-52) costs left in hand: a table, so hot loops skip the function calls."""
    return tuple(card_points(code, ace_value, joker_penalty) for code in range(JOKER + 1))


@lru_cache(maxsize=64)
def _frame(variant: Variant) -> tuple[tuple[int, ...], int, bool]:
    """The window start positions a run may use, the window width, and whether positions wrap."""
    size = variant.run_minimum
    mode = variant.ace_in_runs
    if mode == "wrap":
        return tuple(range(1, 14)), size, True
    lowest = 2 if mode == "high" else 1
    highest = 13 if mode == "low" else 14
    return tuple(range(lowest, highest - size + 2)), size, False


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
    ace = variant.ace_value
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
        return any(len(meld.cards) < (SET_MAX if meld.kind == "set" else RUN_MAX) for meld in table)
    rank, suit = card % 13 + 1, card // 13
    wrap = variant.ace_in_runs == "wrap"
    for meld in table:
        if meld.kind == "set":
            if meld.rank == rank and len(meld.cards) < SET_MAX and suit in meld.missing_suits():
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


@dataclass(frozen=True, slots=True)
class _Candidate:
    """A new meld the hand can lay: as written, the cards it takes, its points and the value it sheds."""

    written: tuple[Card, ...]
    need: tuple[tuple[Card, int], ...]
    points: int
    shed: int


def _candidate(written: tuple[Card, ...], points: int, variant: Variant) -> _Candidate:
    need: dict[Card, int] = {}
    for card in written:
        need[card] = need.get(card, 0) + 1
    values = card_values(variant.ace_value, variant.joker_penalty)
    shed = sum(values[card] for card in written)
    return _Candidate(written, tuple(need.items()), points, shed)


def _opening_candidates(hand: Sequence[Card], variant: Variant) -> tuple[dict[Card, int], list[_Candidate]]:
    """The hand's card counts and every new meld it can lay, most value shed first.

    A joker fills a missing card of a set or a gap or end of a run; a natural card is never
    left out of a run window in favour of a joker (that only sheds less). Runs of one natural
    in at most four cards are left out: they read as sets.
    """
    ace = variant.ace_value
    counts: dict[Card, int] = {JOKER: 0}
    for card in hand:
        counts[card] = counts.get(card, 0) + 1
    jokers = counts[JOKER]
    found: list[_Candidate] = []
    for index in range(13):
        suits = [suit for suit in range(4) if counts.get(suit * 13 + index)]
        if not suits or len(suits) + jokers < 3:
            continue
        value = rank_points(index + 1, ace)
        for size in range(1, min(len(suits), SET_MAX) + 1):
            for chosen in combinations(suits, size):
                naturals = tuple(suit * 13 + index for suit in chosen)
                for extra in range(max(0, 3 - size), min(jokers, SET_MAX - size) + 1):
                    found.append(_candidate(naturals + (JOKER,) * extra, value * (size + extra), variant))
    starts, size, _ = _frame(variant)
    lowest, highest = starts[0], starts[-1] + size - 1
    for suit in range(4):
        base = suit * 13
        held = [counts.get(base + (position - 1) % 13, 0) > 0 for position in range(lowest, highest + 1)]
        if sum(held) + jokers < size or not any(held):
            continue
        for first in range(len(held)):
            gaps = naturals_in = 0
            for last in range(first, min(len(held), first + RUN_MAX)):
                if held[last]:
                    naturals_in += 1
                else:
                    gaps += 1
                    if gaps > jokers:
                        break
                length = last - first + 1
                if length < size or not naturals_in or (naturals_in == 1 and length <= SET_MAX):
                    continue
                positions = range(lowest + first, lowest + last + 1)
                # Written low to high, an ace above the king last: as make_meld reads a run.
                written = tuple(
                    base + (position - 1) % 13 if held[position - lowest] else JOKER for position in positions
                )
                points = sum(rank_points((position - 1) % 13 + 1, ace) for position in positions)
                found.append(_candidate(written, points, variant))
    found.sort(key=lambda candidate: (-candidate.shed, -candidate.points))
    return counts, found


def best_opening(
    hand: Sequence[Card], variant: Variant, keep: int
) -> tuple[tuple[tuple[Card, ...], ...], int] | None:
    """The new melds that open the hand shedding the most value, and their points.

    ``((), 0)`` when there is no opening; None when the hand holds a joker or runs wrap (ask the
    solver: with jokers the candidates multiply and its memoised search is the faster). Shedding
    the most value is the solver's least value left among plans of new melds alone (builds
    onto the table come after, the player having opened). Without jokers the candidates are
    few, so a depth-first search over them, pruned on the value and the points still
    available, answers in a fraction of the general solver's time.
    """
    if JOKER in hand or variant.ace_in_runs == "wrap":
        return None
    threshold = max(variant.opening_threshold, 1)
    counts, candidates = _opening_candidates(hand, variant)
    if not candidates:
        return ((), 0)
    # Bounds on what the candidates from i on can add, ignoring overlaps; with two packs a meld can
    # go down twice (8C 9C TC and 8C 9C TC), so each counts as often as the hand's cards allow.
    shed_tails = [0] * (len(candidates) + 1)
    point_tails = [0] * (len(candidates) + 1)
    for position in range(len(candidates) - 1, -1, -1):
        candidate = candidates[position]
        uses = min(counts[card] // count for card, count in candidate.need)
        shed_tails[position] = shed_tails[position + 1] + candidate.shed * uses
        point_tails[position] = point_tails[position + 1] + candidate.points * uses
    most = len(hand) - keep
    chosen: list[tuple[Card, ...]] = []
    best: list[tuple[Card, ...]] = []
    best_points = 0
    best_shed = -1

    def search(start: int, points: int, shed: int, laid: int) -> None:
        nonlocal best, best_points, best_shed
        if points >= threshold and shed > best_shed:
            best, best_points, best_shed = list(chosen), points, shed
        for position in range(start, len(candidates)):
            if shed + shed_tails[position] <= best_shed or points + point_tails[position] < threshold:
                return
            candidate = candidates[position]
            if laid + len(candidate.written) > most:
                continue
            if any(counts[card] < count for card, count in candidate.need):
                continue
            for card, count in candidate.need:
                counts[card] -= count
            chosen.append(candidate.written)
            # The same meld may go down again from the second pack: stay at this position.
            search(position, points + candidate.points, shed + candidate.shed, laid + len(candidate.written))
            chosen.pop()
            for card, count in candidate.need:
                counts[card] += count

    search(0, 0, 0, 0)
    return (tuple(best), best_points) if best else ((), 0)
