"""The builds and joker swaps a hand may make onto the table, worked out from the hand, the table and
the turn alone.

The engine's legal actions (:mod:`kalooki.legal`) list them from a game, and a seat's
:class:`~kalooki.view.LegalView` from its view, without building a stand-in game: a swap's legality
is read from :func:`kalooki.melds.swap` and the turn's debts (:func:`swap_verdict`), and only a swap
that leaves something owed is tried on a game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from kalooki.cards import JOKER, Card, make_card
from kalooki.cardstate import KEY_BITS, CardState
from kalooki.melds import MeldError, RunEnd, TableMeld, build, set_room_suits, swap
from kalooki.moves import Build, Swap
from kalooki.rules import run_frame, suits_must_differ
from kalooki.variant_memo import PerVariant

if TYPE_CHECKING:
    from kalooki.gamestate import TurnState
    from kalooki.variant import Variant

_MeldBuilds = tuple[tuple[tuple[Card, ...], RunEnd | None], ...]
"""The cards (and end) of each build of one table meld from one hand part."""


def legal_builds(
    hand: Sequence[Card], state: CardState, table: Sequence[TableMeld], variant: Variant, keep: int
) -> Iterator[Build]:
    """Every build of ``hand`` (its card state ``state``) onto ``table`` that keeps ``keep`` cards in hand,
    meld by meld.

    A meld's builds depend only on the meld and the hand's copies of the cards that could join it (its
    rank, or its suit) and jokers: they are remembered on those, as a table meld stays for many turns
    while the hand changes a card or two. Most turns the hand holds no card that could start a build
    onto a meld at all, which one AND of masks tells.
    """
    memo = _builds_memo(variant)
    key = state.key
    held = state.held
    size = state.size
    jokers = state.jokers
    counts: Counter[Card] | None = None
    for number, meld in enumerate(table, start=1):
        entry = memo.get(id(meld))
        if entry is None or entry[0] is not meld:
            entry = _meld_entry(memo, meld, variant)
        if not held & entry[1]:
            continue
        if meld.kind == "set":
            part = 0
            for shift in _RANK_SHIFTS[meld.rank - 1]:
                part = part << KEY_BITS | (key >> shift) & _COUNT
        else:
            part = (key >> (meld.suit * 13 * KEY_BITS)) & _SUIT_COUNTS
        part = part << KEY_BITS | jokers
        found = entry[2].get(part)
        if found is None:
            if counts is None:
                counts = Counter(hand)
            found = entry[2][part] = _meld_builds(meld, counts, variant)
        for cards, end in found:
            if size - len(cards) >= keep:
                yield Build(number, cards, end)


def _meld_entry(memo: dict[int, _MeldEntry], meld: TableMeld, variant: Variant) -> _MeldEntry:
    """What ``memo`` remembers of ``meld``, worked out on first sight."""
    entry = memo.get(id(meld))
    if entry is None or entry[0] is not meld:
        if len(memo) > _BUILDS_KEPT:
            memo.clear()
        wanted = _wanted(meld, variant)
        mask = 0
        for card in wanted:
            mask |= 1 << card
        entry = memo[id(meld)] = (meld, _first_pieces(meld, variant), {}, mask, wanted)
    return entry


def _first_pieces(meld: TableMeld, variant: Variant) -> int:
    """The cards (bit ``code``) that could start a build onto ``meld``: every build holds one of them."""
    if meld.kind == "set":
        if len(meld.cards) >= variant.set_maximum:
            return 0
        pieces = _set_offers(meld, _EVERY_CARD, variant)
    elif len(meld.cards) >= 14:
        # As _run_end: no step past the ends of a run of fourteen.
        return 0
    else:
        # The card one step past each end, where the run rules let the run go on.
        pieces = [card for end in _ENDS if (card := _next_natural(meld, variant, end, 1)) is not None]
    mask = 0
    for card in pieces:
        mask |= 1 << card
    # A joker may go wherever a natural card may.
    return mask | 1 << JOKER if mask else 0


_EVERY_CARD = Counter(range(JOKER + 1))
"""A hand holding one of every card: the first card of its builds is every card that could start one."""


def _meld_builds(meld: TableMeld, counts: Counter[Card], variant: Variant) -> _MeldBuilds:
    """The cards (and end) of each build of ``meld`` the rules allow from the hand's ``counts``, in order."""
    found = []
    for cards, end in _build_candidates(meld, counts, variant):
        try:
            build(meld, cards, variant, end)
        except MeldError:
            continue
        found.append((cards, end))
    return tuple(found)


_COUNT = (1 << KEY_BITS) - 1
_SUIT_COUNTS = (1 << (13 * KEY_BITS)) - 1
"""A suit's thirteen counts in a card state's key."""
_RANK_SHIFTS = tuple(tuple((suit * 13 + index) * KEY_BITS for suit in range(4)) for index in range(13))
"""By rank index, where each suit's count of that rank sits in a card state's key."""

_BUILDS_KEPT = 5_000
"""Melds :func:`legal_builds` and :func:`joker_swaps` remember per variant before they start afresh."""

_MeldEntry = tuple[TableMeld, int, dict[int, _MeldBuilds], int, tuple[Card, ...]]
"""A table meld, its :func:`_first_pieces`, its builds by the hand's part (its rank's or suit's counts
and the jokers), and the cards that could free its jokers (:func:`_wanted`) as a mask and in order."""
_builds_memo: PerVariant[dict[int, _MeldEntry]] = PerVariant(lambda variant: {})
"""The melds' builds found so far under a variant, by the meld's id (the entry holds the meld, so its
id is not reused while remembered)."""


def joker_swaps(
    state: CardState,
    table: Sequence[TableMeld],
    variant: Variant,
    seat: int,
    turn: TurnState,
    trial: Callable[[Swap], bool],
) -> list[Swap]:
    """Every joker release ``seat`` may make with the hand ``state`` now, meld by meld, fewest cards first.

    The caller has checked that it is the play and that the seat may release jokers at all.
    ``trial``: whether the game accepts a swap, asked only where :func:`swap_verdict` cannot tell.
    """
    memo = _builds_memo(variant)
    held = state.held
    found: list[Swap] = []
    anyone = variant.joker_taker == "anyone"
    for number, meld in enumerate(table, start=1):
        entry = _meld_entry(memo, meld, variant)
        # The engine's Laying.may_take_joker_from: under other_players, not from one's own meld.
        if not held & entry[3] or not (anyone or meld.owner != seat):
            continue
        offered = [card for card in entry[4] if held >> card & 1]
        for size in range(1, len(offered) + 1):
            for cards in combinations(offered, size):
                action = Swap(number, cards)
                verdict = swap_verdict(meld, cards, variant, state, turn)
                if trial(action) if verdict is None else verdict:
                    found.append(action)
    return found


def _wanted(meld: TableMeld, variant: Variant) -> tuple[Card, ...]:
    """The natural cards that could free a joker of ``meld``: what a run's jokers stand for, a set's
    suits it may take (none without a joker)."""
    if not meld.jokers:
        return ()
    if meld.kind == "run":
        return tuple(sorted({meld.stands_for(i) for i, card in enumerate(meld.cards) if card == JOKER}))
    return tuple(make_card(meld.rank, suit) for suit in set_room_suits(meld, variant))


def swap_verdict(
    meld: TableMeld, cards: tuple[Card, ...], variant: Variant, state: CardState, turn: TurnState
) -> bool | None:
    """Whether the engine accepts swapping ``cards`` (held, distinct naturals) into ``meld``, or None
    when only trying it can tell.

    The seat may take from this meld and release jokers at all (the caller checked). The engine then
    refuses a swap only when :func:`kalooki.melds.swap` does, or when the hand it leaves cannot pay
    what the turn owes (``Laying._unpayable_debt``, a solver question): with nothing owed after the
    swap there is nothing to pay, and that is every swap of a turn that owes nothing under
    ``released_joker_must_be_melded: false``.
    """
    try:
        _, freed = swap(meld, cards, variant)
    except MeldError:
        return False
    if variant.released_joker_must_be_melded or turn.jokers_owed:
        return None
    owed_card = turn.must_use_card
    if owed_card is not None:
        # A joker taken under meld_at_once: the freed ones raise its limit as they join the hand.
        joker = freed if owed_card == JOKER else 0
        if state.count(owed_card) - cards.count(owed_card) + joker > turn.must_use_limit + joker:
            return None
    return True


def _build_candidates(
    meld: TableMeld, counts: Counter[Card], variant: Variant
) -> Iterator[tuple[tuple[Card, ...], RunEnd | None]]:
    if meld.kind == "set":
        room = variant.set_maximum - len(meld.cards)
        offered = _set_offers(meld, counts, variant)
        seen: set[tuple[Card, ...]] = set()
        for size in range(1, room + 1):
            for chosen in combinations(offered, size):
                if chosen not in seen:
                    seen.add(chosen)
                    yield chosen, None
        return
    for end in _ENDS:
        yield from _run_end(meld, counts, variant, end)


def _set_offers(meld: TableMeld, counts: Counter[Card], variant: Variant) -> list[Card]:
    """The cards of the hand a set could take: each copy of a suit it may take, and jokers to its room."""
    room = variant.set_maximum - len(meld.cards)
    offered = [
        make_card(meld.rank, suit)
        for suit in set_room_suits(meld, variant)
        for _ in range(counts[make_card(meld.rank, suit)] if not suits_must_differ(variant) else 1)
        if counts[make_card(meld.rank, suit)]
    ]
    return offered + [JOKER] * min(counts[JOKER], room)


def _run_end(
    meld: TableMeld, counts: Counter[Card], variant: Variant, end: RunEnd
) -> Iterator[tuple[tuple[Card, ...], RunEnd | None]]:
    """The builds onto one end of a run, outward from the end: each place takes a natural card the hand
    holds a spare copy of, or a joker, which may stand for a card the hand holds (that card stays free
    for another meld). The natural first, then the joker, each build followed by its longer ones."""
    naturals: list[Card] = []
    for step in range(1, 14 - len(meld.cards) + 1):
        natural = _next_natural(meld, variant, end, step)
        if natural is None:
            break
        naturals.append(natural)
    jokers = counts[JOKER]

    def extend(cards: list[Card], used_jokers: int) -> Iterator[tuple[tuple[Card, ...], RunEnd | None]]:
        if len(cards) == len(naturals):
            return
        natural = naturals[len(cards)]
        pieces = [natural] if counts[natural] > cards.count(natural) else []
        if used_jokers < jokers:
            pieces.append(JOKER)
        for piece in pieces:
            longer = [*cards, piece]
            yield tuple(longer) if end == "high" else tuple(reversed(longer)), end
            yield from extend(longer, used_jokers + (piece == JOKER))

    yield from extend([], 0)


def _next_natural(meld: TableMeld, variant: Variant, end: RunEnd, step: int) -> Card | None:
    """The card ``step`` places past the ``end`` of a run, or None past the last rank."""
    rank = meld.high_rank() + step if end == "high" else meld.rank - step
    if run_frame(variant).wrap:
        rank = (rank - 1) % 13 + 1
    elif not 1 <= rank <= 14:
        return None
    return make_card(1 if rank == 14 else rank, meld.suit)


_ENDS: tuple[RunEnd, ...] = ("high", "low")
