"""The builds and joker swaps a hand may make onto the table, worked out from the hand, the table and
the turn alone, and every laying of a player who has opened (:func:`opened_layings`).

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

from kalooki.candidates import candidate_melds, lone_runs
from kalooki.cards import JOKER, Card, make_card
from kalooki.cardstate import KEY_BITS, CardState
from kalooki.joker_layers import may_take_from, swap_refusal
from kalooki.meld_memo import MeldMemo
from kalooki.melds import MeldError, RunEnd, TableMeld, build, set_room_suits, swap
from kalooki.moves import Build, Meld, Swap
from kalooki.rules import RUN_MAX, guards_last_card, run_frame, suits_must_differ
from kalooki.variant_memo import PerVariant

if TYPE_CHECKING:
    from kalooki.gamestate import TurnState
    from kalooki.variant import Variant

_MeldBuilds = tuple[tuple[tuple[Card, ...], RunEnd | None], ...]
"""The cards (and end) of each build of one table meld from one hand part."""
_Reaches = tuple[tuple[RunEnd, tuple[Card, ...]], ...]
"""A run's ends, each with the naturals past it as far as a build may reach, outward."""


def opened_layings(
    hand: Sequence[Card],
    state: CardState,
    table: Sequence[TableMeld],
    variant: Variant,
    keep: int,
    swaps: Callable[[], list[Swap]],
) -> Iterator[Meld | Build | Swap]:
    """The melds, builds and swaps of a player who has opened and owes nothing, in the order the legal
    actions list them: each candidate meld alone, the builds, then ``swaps()`` (asked only when reached).

    From the hand, the table and the variant alone, so that a seat's view lists them without a game.
    """
    for group in candidate_melds(state, variant):
        if len(hand) - len(group) >= keep:
            yield Meld((group,))
    for group in lone_runs(state, variant):
        if len(hand) - len(group) >= keep:
            yield Meld((group,), ("run",))
    yield from legal_builds(hand, state, table, variant, keep)
    yield from swaps()


def legal_builds(
    hand: Sequence[Card], state: CardState, table: Sequence[TableMeld], variant: Variant, keep: int
) -> Iterator[Build]:
    """Every build of ``hand`` (its card state ``state``) onto ``table`` that keeps ``keep`` cards in hand,
    meld by meld.

    A meld's builds depend only on its cards and the hand's copies of the cards that could join it
    (those a run's builds reach past its ends, a set's suits) and its jokers, up to as many as could
    go in: they are remembered on those (:class:`_Shape`), as a table meld stays for many turns while
    the hand changes a card or two, and the same melds come back hand after hand. Most turns the hand
    holds no card that could start a build onto a meld at all, which one AND of masks tells.
    """
    memo = _builds_memo(variant)
    key = state.key
    held = state.held
    size = state.size
    jokers = state.jokers
    for number, meld in enumerate(table, start=1):
        entry = memo.melds.get(id(meld))
        shape = entry[1] if entry is not None and entry[0] is meld else memo.learn(meld, _Shape, variant)
        if not held & shape.first:
            continue
        found = shape.builds_of(hand, key, held, jokers, meld, variant)
        for cards, end in found:
            if size - len(cards) >= keep:
                yield Build(number, cards, end)


class _Shape:
    """What the builds and swaps of one table meld depend on, worked out once per meld's cards.

    ``first``: the cards (bit ``code``) that could start a build (:func:`_first_pieces`). ``naturals``:
    the natural cards that could join it (bit ``code``); ``shifts``: where a set's copies sit in a card
    state's key, where copies beyond the first count (books), else None; ``most_jokers``: the most
    jokers one build could hold. ``reaches``: for a run, each end and the naturals past it as far as a
    build may reach (:func:`_run_reaches`), or None where the builds are found by trying each candidate
    with :func:`kalooki.melds.build`; these four are worked out when a hand first could build.
    ``builds``: the builds found, by the hand's part. ``wanted``: the cards that could free its jokers
    (:func:`_wanted`), in order and as a mask.
    """

    __slots__ = ("builds", "first", "most_jokers", "naturals", "reaches", "shifts", "wanted", "wanted_mask")

    def __init__(self, meld: TableMeld, variant: Variant) -> None:
        self.first = _first_pieces(meld, variant)
        self.builds: dict[int, _MeldBuilds] = {}
        # Worked out by _prepare when a hand first could build (naturals -1 until then).
        self.naturals = -1
        self.shifts: tuple[int, ...] | None = None
        self.most_jokers = 0
        self.reaches: _Reaches | None = None
        self.wanted = _wanted(meld, variant)
        self.wanted_mask = 0
        for card in self.wanted:
            self.wanted_mask |= 1 << card

    def _prepare(self, meld: TableMeld, variant: Variant) -> None:
        self.reaches = _run_reaches(meld, variant) if meld.kind == "run" else None
        if self.reaches is not None:
            pieces = [card for _, naturals in self.reaches for card in naturals]
            self.most_jokers = max(len(naturals) for _, naturals in self.reaches)
        elif meld.kind == "set":
            pieces = [make_card(meld.rank, suit) for suit in set_room_suits(meld, variant)]
            self.most_jokers = max(0, variant.set_maximum - len(meld.cards))
            if not suits_must_differ(variant):
                self.shifts = tuple(card * KEY_BITS for card in pieces)
        else:
            # A run the shortcut cannot vouch for (see _run_reaches): every card of its suit counts.
            pieces = [make_card(rank, meld.suit) for rank in range(1, 14)]
            self.shifts = tuple(card * KEY_BITS for card in pieces)
            self.most_jokers = RUN_MAX
        naturals = 0
        for card in pieces:
            naturals |= 1 << card
        self.naturals = naturals

    def builds_of(
        self, hand: Sequence[Card], key: int, held: int, jokers: int, meld: TableMeld, variant: Variant
    ) -> _MeldBuilds:
        """The builds of ``meld`` (of this shape) from a hand (its cards, key, held mask and jokers)."""
        if self.naturals < 0:
            self._prepare(meld, variant)
        jokers = min(jokers, self.most_jokers)
        shifts = self.shifts
        if shifts is None:
            part = held & self.naturals
        else:
            part = 0
            for shift in shifts:
                part = part << KEY_BITS | (key >> shift) & _COUNT
        part = part << KEY_BITS | jokers
        found = self.builds.get(part)
        if found is None:
            if len(self.builds) > _BUILDS_KEPT:
                self.builds.clear()
            reaches = self.reaches
            if reaches is not None:
                found = _reached_builds(reaches, held, jokers)
            else:
                # The hand's copies of the cards that count, and its jokers up to the room: all that
                # _build_candidates reads.
                counts = Counter(
                    {card: count for card, count in Counter(hand).items() if self.naturals >> card & 1}
                )
                counts[JOKER] = jokers
                found = _meld_builds(meld, counts, variant)
            self.builds[part] = found
        return found


def _run_reaches(meld: TableMeld, variant: Variant) -> _Reaches | None:
    """For each end of a run, the naturals past it (outward) as far as a build may reach, or None where
    the builds cannot be read off them.

    :func:`_run_end` offers, at each place past an end, its natural card or a joker, and
    :func:`kalooki.melds.build` keeps a candidate when the run frame allows its length there, the meld's
    own cards fit, and each natural it adds fits its place. So a candidate of ``m`` cards is kept when
    ``m`` jokers are (the same frame and meld) and its naturals fit, as they do wherever the naturals
    up to the reach are kept together; and none is kept where ``m`` jokers are not. Asked of ``build``
    here, once per meld: where the lengths at which jokers are kept run from one up to a reach, the
    naturals up to it are kept and are distinct, the builds are every candidate up to the reach, a
    place's natural offered whenever the hand holds one. Otherwise None: each candidate is tried.
    """
    reaches = []
    for end in _ENDS:
        naturals = _naturals_past(meld, variant, end)
        reach = 0
        for length in range(1, len(naturals) + 1):
            if not _builds(meld, (JOKER,) * length, variant, end):
                continue
            if reach != length - 1:
                return None
            reach = length
        outward = naturals[:reach]
        if len(set(outward)) != len(outward) or (reach and not _builds(meld, outward, variant, end)):
            return None
        reaches.append((end, outward))
    return tuple(reaches)


def _builds(meld: TableMeld, outward: tuple[Card, ...], variant: Variant, end: RunEnd) -> bool:
    """Whether :func:`kalooki.melds.build` accepts ``outward`` (written outward from ``end``) there."""
    try:
        build(meld, outward if end == "high" else outward[::-1], variant, end)
    except MeldError:
        return False
    return True


def _reached_builds(reaches: _Reaches, held: int, jokers: int) -> _MeldBuilds:
    """:func:`_meld_builds` of a run from its :func:`_run_reaches`: :func:`_run_end`'s candidates in its
    order, cut at the reach (``held``: the naturals held, bit ``code``)."""
    found: list[tuple[tuple[Card, ...], RunEnd | None]] = []
    for end, naturals in reaches:
        _extend(naturals, end, held, jokers, (), 0, found)
    return tuple(found)


def _extend(
    naturals: tuple[Card, ...],
    end: RunEnd,
    held: int,
    jokers: int,
    cards: tuple[Card, ...],
    used: int,
    found: list[tuple[tuple[Card, ...], RunEnd | None]],
) -> None:
    """Append to ``found`` the builds onto ``end`` that go on from ``cards`` (``used`` jokers): the
    next place's natural first, where held, then a joker, each followed by its longer ones."""
    place = len(cards)
    if place == len(naturals):
        return
    natural = naturals[place]
    high = end == "high"
    if held >> natural & 1:
        longer = (*cards, natural) if high else (natural, *cards)
        found.append((longer, end))
        _extend(naturals, end, held, jokers, longer, used, found)
    if used < jokers:
        longer = (*cards, JOKER) if high else (JOKER, *cards)
        found.append((longer, end))
        _extend(naturals, end, held, jokers, longer, used + 1, found)


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

_BUILDS_KEPT = 5_000
"""Melds (and meld shapes, and builds of one shape) remembered per variant before they start afresh."""

_builds_memo: PerVariant[MeldMemo[_Shape]] = PerVariant(lambda variant: MeldMemo(_BUILDS_KEPT))
"""The shapes of the melds :func:`legal_builds` and :func:`joker_swaps` have seen under a variant."""


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
        shape = memo.get(meld, _Shape, variant)
        # The engine's Laying.may_take_joker_from: under other_players, not from one's own meld; under
        # anyone_but_layer, not from a meld whose jokers this seat laid every one of.
        if not held & shape.wanted_mask or not (anyone or may_take_from(meld, seat, variant)):
            continue
        offered = [card for card in shape.wanted if held >> card & 1]
        for size in range(1, len(offered) + 1):
            for cards in combinations(offered, size):
                verdict = swap_verdict(meld, cards, variant, state, turn, seat)
                if verdict is False:  # most combinations: no action made for them
                    continue
                action = Swap(number, cards)
                if verdict or trial(action):
                    found.append(action)
    return found


def swap_cards(table: Sequence[TableMeld], variant: Variant, seat: int) -> int:
    """The natural cards (bit ``code``) that could free a joker ``seat`` may take from ``table`` (by
    joker_taker): a hand holding none can make no swap (:func:`joker_swaps` skips such melds alike)."""
    memo = _builds_memo(variant)
    anyone = variant.joker_taker == "anyone"
    mask = 0
    for meld in table:
        if meld.jokers and (anyone or may_take_from(meld, seat, variant)):
            mask |= memo.get(meld, _Shape, variant).wanted_mask
    return mask


def _wanted(meld: TableMeld, variant: Variant) -> tuple[Card, ...]:
    """The natural cards that could free a joker of ``meld``: what a run's jokers stand for, a set's
    suits it may take (none without a joker)."""
    if not meld.jokers:
        return ()
    if meld.kind == "run":
        return tuple(sorted({meld.stands_for(i) for i, card in enumerate(meld.cards) if card == JOKER}))
    return tuple(make_card(meld.rank, suit) for suit in set_room_suits(meld, variant))


def swap_verdict(
    meld: TableMeld, cards: tuple[Card, ...], variant: Variant, state: CardState, turn: TurnState, seat: int
) -> bool | None:
    """Whether the engine accepts ``seat`` swapping ``cards`` (held, distinct naturals) into ``meld``, or
    None when only trying it can tell.

    The seat may take from this meld and release jokers at all (the caller checked). The engine then
    refuses a swap only when :func:`kalooki.melds.swap` does, when it would free a joker the seat laid
    itself (:func:`kalooki.joker_layers.swap_refusal`), or when the hand it leaves cannot pay
    what the turn owes (``Laying._unpayable_debt``, a solver question): with nothing owed after the
    swap there is nothing to pay, and that is every swap of a turn that owes nothing under
    ``released_joker_must_be_melded: false``, but for a swap of the last card where the engine guards
    it (a joker left that may have nowhere to go). ``Laying._lay`` trusts this list: a laying the
    solver cannot pay for stands while some swap listed here leads on.
    """
    try:
        swapped, freed = swap(meld, cards, variant, seat)
    except MeldError:
        return False
    # Jokers laid by this seat and by others: the swap may free one of its own.
    if swap_refusal(meld, swapped, freed, seat) is not None:
        return False
    if variant.released_joker_must_be_melded or turn.jokers_owed:
        return None
    # A last card swapped leaves a last joker, which the engine may find it can neither lay nor discard.
    if state.size == 1 and guards_last_card(variant, turn.must_use_card is not None, turn.jokers_owed):
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
    naturals = _naturals_past(meld, variant, end)
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


def _naturals_past(meld: TableMeld, variant: Variant, end: RunEnd) -> tuple[Card, ...]:
    """The natural cards past the ``end`` of a run, outward, up to the last rank or fourteen cards in all."""
    naturals: list[Card] = []
    for step in range(1, 14 - len(meld.cards) + 1):
        natural = _next_natural(meld, variant, end, step)
        if natural is None:
            break
        naturals.append(natural)
    return tuple(naturals)


def _next_natural(meld: TableMeld, variant: Variant, end: RunEnd, step: int) -> Card | None:
    """The card ``step`` places past the ``end`` of a run, or None past the last rank."""
    rank = meld.high_rank() + step if end == "high" else meld.rank - step
    if run_frame(variant).wrap:
        rank = (rank - 1) % 13 + 1
    elif not 1 <= rank <= 14:
        return None
    return make_card(1 if rank == 14 else rank, meld.suit)


_ENDS: tuple[RunEnd, ...] = ("high", "low")
