"""The solver's candidates: every way a meld can use the hand's natural cards, listed once.

Sets by rank and suit subset (by each suit's copies where a set may repeat a suit), runs by the
naturals they hold and their number of jokers (keeping the frame worth the most points: the other
objectives do not care where a joker sits); builds onto the table are :mod:`kalooki.solver_builds`.
A variant's lists are kept per suit's ranks that can be in a run (runs) and per rank's suits or
copies (sets), with the jokers, on its :class:`_Rules`: hands repeat those far more often than
whole hands, and a list depends on nothing else. :func:`_read_hand` tells a hand that holds
no new meld at all from a few bit operations, before anything is listed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, combinations
from typing import Final

from kalooki.cards import JOKER, Card, card_points, rank_points
from kalooki.melds import RUN_MAX
from kalooki.rules import (
    SMALLEST_MELD,
    most_ace_points,
    most_joker_points,
    own_joker_points,
    run_frame,
    suits_must_differ,
)
from kalooki.solver_lines import _line, _run_part_table, _stretch_table
from kalooki.variant import Variant

# ---------------------------------------------------------------- per-variant tables
#
# A run position is a rank on a line: 1 is the ace below the two, 14 the ace above the king.
# Wrap-around runs use the line unrolled three times (positions 1..39, rank (p - 1) % 13 + 1)
# so a frame never needs modular arithmetic.

_OFFSET: Final = 13
"""Index of position 0 in ``_Rules.position_points`` (wrap builds reach below position 1)."""

_SUITS_OF_MASK: Final = tuple(tuple(s for s in range(4) if mask >> s & 1) for mask in range(16))
_CARD_BIT: Final = {**{card: 1 << card for card in range(JOKER)}, JOKER: 0}
"""Each card code's bit in a hand's 52-bit mask of naturals (the joker has none); a code out of
range is no key, so reading a hand's bits also checks its codes."""
_SUIT: Final = (1 << 13) - 1
_NATURALS: Final = (1 << JOKER) - 1
_CARRY_BITS: Final = 4
_CARRIED: Final = 1 << _CARRY_BITS
"""Fewer cards than this, each's bit at most 1 << 51, add up below 1 << (51 + _CARRY_BITS)
whatever copies they hold."""
_VALUE_SHIFT: Final = JOKER - 1 + _CARRY_BITS
"""Where a card's value in hand sits in its :attr:`_Rules.card_key`: above the 52 natural bits and
the carries of a hand's copies, so one sum of a hand's keys holds its cards and its value. Low
enough that a hand worth under 256 sums within a machine word, which ``sum`` adds without making
an int object per card."""


@dataclass(frozen=True, slots=True)
class _Rules:
    """What the solver needs from a variant, as plain tuples and ints."""

    variant: Variant
    lowest: int
    highest: int
    wrap: bool
    run_min: int
    ace_value: int  # the most an ace is worth in a meld (high, or low in a run)
    hand_value: tuple[int, ...]  # card_points of each code, the joker at its penalty
    meld_value: tuple[int, ...]  # the most points each natural adds to a meld (hand_value but aces)
    position_points: tuple[int, ...]  # points of each run position, index position + _OFFSET
    points_below: tuple[int, ...]  # the sum of position_points before each index, and of all at the end
    set_points: tuple[int, ...]  # points of a card in a set of each rank (1-13), index rank
    # What a joker adds to a meld's points whatever it stands for (opening_joker_value: penalty), or
    # None where it counts as the card it stands for; and the most a joker adds either way.
    joker_points: int | None
    joker_most: int
    set_max: int  # most cards in a set (the variant's set_maximum)
    suits_repeat: bool  # whether a set may hold a suit twice (set_suits: may_repeat)
    run_part: tuple[int, ...]  # by a suit's ranks (bit r-1 for rank r), those in a run without jokers
    # Each code's _CARD_BIT plus its hand_value << _VALUE_SHIFT, as a bound look-up: a KeyError
    # on a code out of range, and no bound method made per hand.
    card_key: Callable[[Card], int]
    # Candidates already listed, by rank and suits (sets) or by suit and ranks (runs), with the jokers.
    set_cache: dict[int, list[_Cand]] = field(default_factory=dict)
    run_cache: dict[int, list[_Cand]] = field(default_factory=dict)
    # By a number of jokers below set_max: by a suit's ranks, the stretches that may hold a run.
    stretches: dict[int, tuple[tuple[int, ...], ...]] = field(default_factory=dict)
    # By a natural's code and the jokers (up to a set's most cards less one): its lone runs.
    lone_cache: dict[int, list[_Cand]] = field(default_factory=dict)
    # A rank's sets as set_cache keeps them, with the lone runs of its naturals in place of the sets
    # they beat (hands of two jokers or more).
    lone_set_cache: dict[int, list[_Cand]] = field(default_factory=dict)
    # Runs with jokers by their lowest and highest natural's positions, the naturals between, the
    # suit and the jokers (see _suit_runs).
    window_cache: dict[int, list[_Cand]] = field(default_factory=dict)
    # The search's score units met, each once, so that a candidate's worth is known by identity.
    units: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict)


_RULES_CACHE: dict[int, _Rules] = {}
_LAST_RULES: list[_Rules | None] = [None]
"""The tables last looked up: a run of calls for one variant finds them without a dict look-up."""


def _rules(variant: Variant) -> _Rules:
    # Keyed by identity: hashing a pydantic model costs more than a whole easy solve.
    found = _RULES_CACHE.get(id(variant))
    if found is not None and found.variant is variant:
        _LAST_RULES[0] = found
        return found
    frame = run_frame(variant)
    hand_value = tuple(card_points(c, variant.ace_value, variant.joker_penalty) for c in range(53))
    ace_value = most_ace_points(variant)
    # Position 1 is an ace below the two (wrap runs count the ace of K-A-2 as the high one).
    position_points = tuple(
        variant.low_ace_value if p == 1 else rank_points((p - 1) % 13 + 1, variant.ace_value)
        for p in range(-_OFFSET, 60)
    )
    rules = _Rules(
        variant=variant,
        lowest=frame.lowest,
        # Wrapping runs walk the line unrolled three times.
        highest=39 if frame.wrap else frame.highest,
        wrap=frame.wrap,
        run_min=frame.minimum,
        ace_value=ace_value,
        hand_value=hand_value,
        # An ace low may be worth more than in hand (ace_low_value above ace_value).
        meld_value=hand_value
        if ace_value == variant.ace_value
        else tuple(ace_value if c != JOKER and c % 13 == 0 else hand_value[c] for c in range(53)),
        position_points=position_points,
        points_below=tuple(accumulate(position_points, initial=0)),
        set_points=tuple(rank_points(rank, variant.ace_value) for rank in range(14)),
        joker_points=own_joker_points(variant),
        joker_most=most_joker_points(variant),
        set_max=variant.set_maximum,
        suits_repeat=not suits_must_differ(variant),
        run_part=_run_part_table(
            frame.wrap, frame.lowest, 39 if frame.wrap else frame.highest, frame.minimum
        ),
        card_key={
            card: bit | hand_value[card] << _VALUE_SHIFT for card, bit in _CARD_BIT.items()
        }.__getitem__,
    )
    if len(_RULES_CACHE) > 256:
        _RULES_CACHE.clear()
    _RULES_CACHE[id(variant)] = rules
    _LAST_RULES[0] = rules
    return rules


# ---------------------------------------------------------------- candidates


_Worth = tuple[tuple[int, ...], int, int, int, int, int, int, int]
"""A candidate's part of its search entry that no hand changes (see :meth:`_Layout._entries`):
the units it was made for, its jokers, score, slack, share, opening points, points share and
table meld's bit (1 << index, 0 for a new meld)."""


_Lone = Callable[[list["_Cand"], int, _Rules], list["_Cand"]]
"""A rank's sets, listed with so many jokers, to the same with lone runs (see :func:`_set_candidates`)."""


@dataclass(slots=True)
class _Cand:
    """One way to lay some of the hand: a new meld, or one table meld's whole build."""

    naturals: tuple[Card, ...]  # ascending codes (a set build may name a card twice, two packs)
    jokers: int
    points: int
    table: int  # index of the table meld built on, -1 for a new meld
    written: tuple[Card, ...]  # the new meld, or a set build's cards / a run build's low-end cards
    high: tuple[Card, ...] = ()  # a run build's high-end cards
    run_build: bool = False
    lone_run: bool = False  # one natural and jokers laid as a run: the meld's move says "run"
    # What the search last made of this candidate for one set of score units (its _Rules.units
    # entry, compared by identity); the search's entry for it is this and the hand's card places.
    # Kept on the candidate: listed candidates are kept across hands (see _Rules).
    worth: _Worth | None = field(default=None, compare=False, repr=False)


def _set_candidates(
    suit_ranks: list[int],
    jokers: int,
    rules: _Rules,
    out: list[_Cand],
    counts: list[int] | None = None,
    lone: _Lone | None = None,
) -> None:
    """The sets of the hand whose ranks (bit r-1 for rank r) in each suit are ``suit_ranks``.

    ``counts`` (copies per card code) when the hand holds a card twice and a set may repeat a
    suit: then a set may name that card twice (9C 9C 9D), so the sets are listed by each suit's
    copies rather than by the suits held. ``lone``: what makes a rank's list with the lone runs of
    its naturals (:func:`kalooki.solver_lone_runs._with_lone_runs`), kept apart from the lists of sets.
    """
    if counts is not None:
        _copied_set_candidates(counts, min(jokers, rules.set_max), rules, out, lone)
        return
    clubs, diamonds, hearts, spades = suit_ranks
    # The ranks held in enough suits for a set, all thirteen at once: three suits, two, or one.
    if jokers == 0:
        ranks = (clubs & diamonds & (hearts | spades)) | (hearts & spades & (clubs | diamonds))
    elif jokers == 1:
        ranks = (clubs & (diamonds | hearts | spades)) | (diamonds & (hearts | spades)) | (hearts & spades)
    else:
        ranks = clubs | diamonds | hearts | spades
    # More jokers than a set holds list the same sets.
    jokers = min(jokers, rules.set_max)
    cache = rules.set_cache if lone is None else rules.lone_set_cache
    while ranks:
        index = (ranks & -ranks).bit_length() - 1
        ranks &= ranks - 1
        mask = (
            (clubs >> index & 1)
            | (diamonds >> index & 1) << 1
            | (hearts >> index & 1) << 2
            | (spades >> index & 1) << 3
        )
        key = (jokers << 4 | mask) << 4 | index
        found = cache.get(key)
        if found is None:
            found = _rank_sets(index, _SUITS_OF_MASK[mask], jokers, rules)
            found = cache[key] = found if lone is None else lone(found, jokers, rules)
        out.extend(found)


def _copied_set_candidates(
    counts: list[int], jokers: int, rules: _Rules, out: list[_Cand], lone: _Lone | None = None
) -> None:
    """The sets of a hand holding some card twice, where a set may repeat a suit: by rank and
    the copies of each suit (no set holds more than ``set_max`` of them)."""
    cap = rules.set_max
    cache = rules.set_cache if lone is None else rules.lone_set_cache
    for index in range(13):
        held = [min(counts[index], cap), min(counts[13 + index], cap)]
        held += [min(counts[26 + index], cap), min(counts[39 + index], cap)]
        total = sum(held)
        if not total or total + jokers < SMALLEST_MELD:
            continue
        copies = held[0] | held[1] << 8 | held[2] << 16 | held[3] << 24
        # Negative: apart from the keys of hands without copies, (jokers, suit mask, rank) >= 0.
        key = ~((jokers << 32 | copies) << 4 | index)
        found = cache.get(key)
        if found is None:
            suits = tuple(suit for suit in range(4) for _ in range(held[suit]))
            found = _rank_sets(index, suits, jokers, rules)
            found = cache[key] = found if lone is None else lone(found, jokers, rules)
        out.extend(found)


def _rank_sets(index: int, suits: tuple[int, ...], jokers: int, rules: _Rules) -> list[_Cand]:
    """The sets of one rank (index rank - 1) held in ``suits`` (ascending, a suit once per copy),
    with up to ``jokers`` jokers."""
    out: list[_Cand] = []
    value = rules.set_points[index + 1]
    joker = value if rules.joker_points is None else rules.joker_points
    for size in range(max(1, SMALLEST_MELD - jokers), min(len(suits), rules.set_max) + 1):
        # Two copies of a card make the same choice twice: each multiset once, in first-seen order.
        for chosen in dict.fromkeys(combinations(suits, size)):
            naturals = tuple([suit * 13 + index for suit in chosen])
            # One natural with jokers reads as a set only up to four cards, which is all a set holds.
            for extra in range(max(0, SMALLEST_MELD - size), min(jokers, rules.set_max - size) + 1):
                out.append(
                    _Cand(naturals, extra, value * size + joker * extra, -1, naturals + (JOKER,) * extra)
                )
    return out


def _run_line(mask: int, rules: _Rules) -> int:
    """The positions a suit's ranks (bit r-1 for rank r) may take, as a bit per position."""
    return _line(mask, rules.wrap, rules.lowest, rules.highest)


_RUN_CACHE_MAX: Final = 1 << 14
"""Most run lists one variant keeps (then it starts again): the 10,000 dealt 14-card hands of the
solver bench (classic variant) leave about 1,200, holding 7,800 candidates (kept by stretch; by
whole suit they left 2,100 holding 11,500)."""
_RUN_CACHE_LIST: Final = 64
"""Longer lists (many jokers over long suits) are listed again each time rather than kept."""


def _run_candidates(suit_ranks: list[int], jokers: int, rules: _Rules, out: list[_Cand]) -> None:
    """The runs of the hand whose ranks (bit r-1 for rank r) in each suit are ``suit_ranks``."""
    cache = rules.run_cache
    if 0 < jokers < rules.set_max:
        stretches = rules.stretches.get(jokers, ())
        if not stretches:
            stretches = rules.stretches[jokers] = _stretch_table(
                rules.wrap, rules.lowest, rules.highest, jokers + 1, rules.run_min - jokers
            )
        for suit, mask in enumerate(suit_ranks):
            for part in stretches[mask]:
                key = (jokers << 13 | part) << 2 | suit
                found = cache.get(key)
                if found is None:
                    found = _listed_runs(key, part, suit, jokers, rules)
                out.extend(found)
        return
    run_part = rules.run_part
    # Fewer cards than a run's length, or no run without jokers: no run, and nothing to keep.
    short = rules.run_min - jokers
    for suit, mask in enumerate(suit_ranks):
        if not jokers:
            mask = run_part[mask]
            if not mask:
                continue
        elif not mask or mask.bit_count() < short:
            continue
        key = (jokers << 13 | mask) << 2 | suit
        found = cache.get(key)
        if found is None:
            found = _listed_runs(key, mask, suit, jokers, rules)
        out.extend(found)


def _listed_runs(key: int, mask: int, suit: int, jokers: int, rules: _Rules) -> list[_Cand]:
    """The runs of one suit's ranks, kept in the cache under ``key``: another suit's runs of the
    same ranks moved to this suit when the cache holds them (moving costs a fraction of listing)."""
    cache = rules.run_cache
    found = _from_other_suit(cache, key, suit)
    if found is None:
        found = []
        _suit_runs(mask, suit, jokers, rules, found)
    _keep(cache, key, found)
    return found


def _from_other_suit(cache: dict[int, list[_Cand]], key: int, suit: int) -> list[_Cand] | None:
    """The runs kept under ``key`` (whose low two bits are ``suit``) for another suit, moved to this one."""
    for other in range(4):
        listed = cache.get(key - suit + other)
        if listed is not None:
            return _moved(listed, (suit - other) * 13)
    return None


def _moved(cands: list[_Cand], step: int) -> list[_Cand]:
    """New-meld runs moved ``step`` codes to another suit."""
    return [
        _Cand(
            tuple([code + step for code in cand.naturals]),
            cand.jokers,
            cand.points,
            -1,
            tuple([code if code == JOKER else code + step for code in cand.written]),
            # A rank is worth the same in every suit: so is the run.
            worth=cand.worth,
        )
        for cand in cands
    ]


def _keep(cache: dict[int, list[_Cand]], key: int, found: list[_Cand]) -> None:
    if len(found) <= _RUN_CACHE_LIST:
        if len(cache) >= _RUN_CACHE_MAX:
            cache.clear()
        cache[key] = found


def _suit_runs(mask: int, suit: int, jokers: int, rules: _Rules, out: list[_Cand]) -> None:
    """The runs of one suit's ranks ``mask`` with up to ``jokers`` jokers."""
    run_min = rules.run_min
    if mask.bit_count() + jokers < run_min:
        return
    line_mask = _run_line(mask, rules)
    if jokers == 0:
        if rules.run_part[mask]:
            _natural_runs(line_mask, suit * 13, rules, out)
        return
    line = [p for p in range(1, rules.highest + 1) if line_mask >> p & 1]
    if rules.wrap:
        starts = [i for i, position in enumerate(line) if 14 <= position <= 26]
    else:
        starts = list(range(len(line)))
    # The runs whose lowest natural sits at one position and highest at another depend only on the
    # naturals between (the window) and the jokers: a suit's list is its windows' lists one after
    # another, and windows repeat across hands far more than a suit's or a stretch's ranks (a
    # first-seen two-joker stretch found four in five of its windows met before). Two windows lay
    # the same naturals only where the ace is at both ends of the line (or the line wraps): there
    # the lists are merged as one listing would keep them, the first frame worth the most.
    direct = not rules.wrap and not (line_mask >> 1 & line_mask >> 14 & 1)
    best: dict[tuple[tuple[Card, ...], int], _Cand] = {}
    windows = rules.window_cache
    set_max = rules.set_max
    for first in starts:
        low = line[first]
        for last in range(first, len(line)):
            high = line[last]
            span = high - low + 1
            if span > RUN_MAX:
                break
            held = last - first + 1
            if span - held > jokers:
                break
            # Prune frames that cannot reach a legal length even with every joker.
            if held + jokers < run_min or (held == 1 and jokers < set_max):
                continue
            key = (((jokers << 6 | low) << RUN_MAX | (line_mask >> low) & ((1 << span) - 1)) << 2) | suit
            found = windows.get(key)
            if found is None:
                found = _window_runs(key, line[first : last + 1], suit, jokers, rules)
            if direct:
                out.extend(found)
                continue
            for cand in found:
                known = best.get((cand.naturals, cand.jokers))
                if known is None or known.points < cand.points:
                    best[cand.naturals, cand.jokers] = cand
    out.extend(best.values())


_WINDOW_CACHE_MAX: Final = 1 << 14
"""Most window lists one variant keeps (then it starts again): the solver bench's 10,000 hands meet
about 800."""


def _window_runs(key: int, positions: list[int], suit: int, jokers: int, rules: _Rules) -> list[_Cand]:
    """The runs with jokers whose lowest natural is at ``positions[0]`` and highest at ``positions[-1]``,
    the naturals between at the other ``positions`` (each laid or a joker's place), best frame each;
    kept under ``key``, or moved from another suit's runs of the same window."""
    cache = rules.window_cache
    found = _from_other_suit(cache, key, suit)
    if found is None:
        best: dict[tuple[tuple[Card, ...], int], _Cand] = {}
        low, high = positions[0], positions[-1]
        gaps = high - low + 1 - len(positions)
        inner = positions[1:-1]
        base = suit * 13
        for dropped_count in range(min(len(inner), jokers - gaps) + 1):
            for dropped in combinations(inner, dropped_count):
                kept = [low, *[p for p in inner if p not in dropped]] if dropped else [low, *inner]
                if high != low:
                    kept.append(high)
                _add_run_frames(kept, gaps + dropped_count, jokers, rules, base, best)
        found = list(best.values())
    if len(cache) >= _WINDOW_CACHE_MAX:
        cache.clear()
    cache[key] = found
    return found


def _natural_runs(line_mask: int, base: int, rules: _Rules, out: list[_Cand]) -> None:
    """Every run of the hand's naturals alone (no jokers): each stretch of consecutive positions.

    Listed as the general search over frames would list them: by lowest position, then by length,
    each set of naturals once, in its frame worth the most (the first of equals).
    """
    run_min = rules.run_min
    points = rules.position_points
    best: dict[tuple[Card, ...], _Cand] = {}
    first = 14 if rules.wrap else 1
    last = 26 if rules.wrap else 14
    for low in range(first, last + 1):
        if not (line_mask >> low) & 1:
            continue
        high = low
        while high - low + 1 < RUN_MAX and (line_mask >> (high + 1)) & 1:
            high += 1
        if high - low + 1 < run_min:
            continue
        written = [base + (p - 1) % 13 for p in range(low, high + 1)]
        value = sum(points[_OFFSET + low : _OFFSET + low + run_min - 1])
        for end in range(low + run_min - 1, high + 1):
            value += points[_OFFSET + end]
            meld = tuple(written[: end - low + 1])
            naturals = tuple(sorted(meld))
            known = best.get(naturals)
            if known is None:
                best[naturals] = _Cand(naturals, 0, value, -1, meld)
            elif known.points < value:
                known.points, known.written = value, meld
    out.extend(best.values())


def _own_joker_run_points(held: Iterable[int], jokers: int, own: int, rules: _Rules) -> int:
    """A run's (or a run build's) points where a joker counts ``own`` whatever it stands for
    (``opening_joker_value: penalty``): the naturals at positions ``held`` at theirs, each joker ``own``."""
    total = jokers * own
    for p in held:
        total += rules.position_points[_OFFSET + p]
    return total


def _add_run_frames(
    held: list[int],
    min_jokers: int,
    jokers: int,
    rules: _Rules,
    base: int,
    best: dict[tuple[tuple[Card, ...], int], _Cand],
) -> None:
    """Record the runs holding exactly the naturals at ``held`` with each joker count, best frame each."""
    low, high = held[0], held[-1]
    size = len(held)
    # One natural with up to three jokers is read as a set, so such a run cannot be laid.
    shortest = max(rules.run_min, rules.set_max + 1) if size == 1 else rules.run_min
    # Conditional expressions rather than min and max: this runs for every frame of every suit listed.
    most = RUN_MAX - size if RUN_MAX - size < jokers else jokers
    fewest = shortest - size if shortest - size > min_jokers else min_jokers
    if fewest > most:
        return
    # Positions below the ace high are ranks in order; an ace high or a wrap reorders the codes.
    if high < 14:
        naturals = tuple([base - 1 + p for p in held])
    else:
        naturals = tuple(sorted([base + (p - 1) % 13 for p in held]))
    below_sum = rules.points_below
    wrap, lowest, highest = rules.wrap, rules.lowest, rules.highest
    for used in range(fewest, most + 1):
        extra = used - min_jokers
        # The frames from the most jokers below the naturals to the most above, the first of the
        # dearest kept; without wrap, only those inside the line.
        if wrap:
            fewest_below, most_below = 0, extra
        else:
            fewest_below = high + extra - highest if high + extra > highest else 0
            most_below = extra if extra < low - lowest else low - lowest
        start = -1
        frame_points = -1
        for below in range(fewest_below, most_below + 1):
            value = below_sum[_OFFSET + high + extra - below + 1] - below_sum[_OFFSET + low - below]
            if value > frame_points:
                start, frame_points = low - below, value
        if frame_points < 0:
            continue
        if rules.joker_points is not None:
            # The jokers' own points in place of the cards they stand for: the frame then changes only
            # which cards the jokers stand for, and the dearest frame is kept as the other rule keeps it.
            frame_points = _own_joker_run_points(held, used, rules.joker_points, rules)
        key = (naturals, used)
        known = best.get(key)
        if known is not None and known.points >= frame_points:
            continue
        written = [JOKER] * (high - low + 1 + extra)
        for p in held:
            written[p - start] = base + (p - 1) % 13
        best[key] = _Cand(naturals, used, frame_points, -1, tuple(written))


def _free_naturals(suit_ranks: list[int], rules: _Rules) -> int:
    """The naturals (bit ``code``) some set or run without jokers holds, for a hand that holds
    each card once and whose ranks (bit r-1 for rank r) in each suit are ``suit_ranks``: the ranks
    held in three suits or more, and each suit's ranks in a run without jokers."""
    clubs, diamonds, hearts, spades = suit_ranks
    sets = (clubs & diamonds & (hearts | spades)) | (hearts & spades & (clubs | diamonds))
    runs = rules.run_part
    return (
        (sets & clubs | runs[clubs])
        | (sets & diamonds | runs[diamonds]) << 13
        | (sets & hearts | runs[hearts]) << 26
        | (sets & spades | runs[spades]) << 39
    )


def _read_hand(hand: Sequence[Card], rules: _Rules, key: int | None = None) -> tuple[int, int, bool]:
    """The hand's natural cards as a mask (bit ``code``, each card once), its value in hand, and
    whether it surely holds no new meld, found without listing any: no joker, no rank in three
    suits (or three cards, where a set may repeat a suit), no suit with a run (False may still
    mean none: then the candidates say so). Raises KeyError on a card code out of range. A bool is read
    as the int it is (True as card 1): a look at every card's type cost half a microsecond a call, a
    tenth of a hand's whole answer under gin's rules (issue 13's bench times it). ``key``: the sum of
    the hand's :attr:`_Rules.card_key`, where the caller has it (:func:`kalooki.solver.solve`)."""
    if key is None:
        key = sum(map(rules.card_key, hand))
    held = key & _NATURALS
    value = key >> _VALUE_SHIFT
    # Distinct natural cards add up without a carry, so the sum has a bit per card; a joker or a
    # second copy leaves fewer bits, and then the hand is read again as a set of cards.
    if held.bit_count() != len(hand):
        if len(hand) >= _CARRIED:  # copies may have carried into the value
            value = sum(map(rules.hand_value.__getitem__, hand))
        cards = set(hand)
        held = sum(map(_CARD_BIT.__getitem__, cards))
        if JOKER in cards:
            return held, value, False
        if rules.suits_repeat:
            # A set may name a card twice: any three naturals of one rank make one.
            ranks = [0] * 13
            for card in hand:
                ranks[card % 13] += 1
            if max(ranks) >= SMALLEST_MELD:
                return held, value, False
    return held, value, _holds_no_meld(held, rules)


def _holds_no_meld(held: int, rules: _Rules) -> bool:
    """Whether the naturals ``held`` (bit ``code``), each held once, make no new meld: no rank in
    three suits, no suit with a run."""
    clubs, diamonds, hearts, spades = held & _SUIT, held >> 13 & _SUIT, held >> 26 & _SUIT, held >> 39
    if (clubs & diamonds & (hearts | spades)) | (hearts & spades & (clubs | diamonds)):
        return False
    runs = rules.run_part
    return not (runs[clubs] or runs[diamonds] or runs[hearts] or runs[spades])
