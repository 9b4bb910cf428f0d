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
from kalooki.melds import MeldError, RunEnd, TableMeld, build, set_room_suits, swap
from kalooki.moves import Build, Swap
from kalooki.rules import run_frame, suits_must_differ

if TYPE_CHECKING:
    from kalooki.gamestate import TurnState
    from kalooki.variant import Variant


def legal_builds(
    hand: Sequence[Card], table: Sequence[TableMeld], variant: Variant, keep: int
) -> Iterator[Build]:
    """Every build of ``hand`` onto ``table`` that keeps ``keep`` cards in hand, meld by meld."""
    counts = Counter(hand)
    for number, meld in enumerate(table, start=1):
        for cards, end in _build_candidates(meld, counts, variant):
            if len(hand) - len(cards) < keep:
                continue
            try:
                build(meld, cards, variant, end)
            except MeldError:
                continue
            yield Build(number, cards, end)


def joker_swaps(
    hand: Sequence[Card],
    table: Sequence[TableMeld],
    variant: Variant,
    seat: int,
    turn: TurnState,
    trial: Callable[[Swap], bool],
) -> list[Swap]:
    """Every joker release ``seat`` may make with ``hand`` now, meld by meld, fewest cards first.

    The caller has checked that it is the play and that the seat may release jokers at all.
    ``trial``: whether the game accepts a swap, asked only where :func:`swap_verdict` cannot tell.
    """
    counts = Counter(hand)
    found: list[Swap] = []
    anyone = variant.joker_taker == "anyone"
    for number, meld in enumerate(table, start=1):
        # The engine's Laying.may_take_joker_from: under other_players, not from one's own meld.
        if not meld.jokers or not (anyone or meld.owner != seat):
            continue
        if meld.kind == "run":
            wanted = sorted({meld.stands_for(i) for i, card in enumerate(meld.cards) if card == JOKER})
        else:
            wanted = [make_card(meld.rank, suit) for suit in set_room_suits(meld, variant)]
        offered = [card for card in wanted if counts[card]]
        for size in range(1, len(offered) + 1):
            for cards in combinations(offered, size):
                action = Swap(number, cards)
                verdict = swap_verdict(meld, cards, variant, counts, turn)
                if trial(action) if verdict is None else verdict:
                    found.append(action)
    return found


def swap_verdict(
    meld: TableMeld, cards: tuple[Card, ...], variant: Variant, counts: Counter[Card], turn: TurnState
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
        if counts[owed_card] - cards.count(owed_card) + joker > turn.must_use_limit + joker:
            return None
    return True


def _build_candidates(
    meld: TableMeld, counts: Counter[Card], variant: Variant
) -> Iterator[tuple[tuple[Card, ...], RunEnd | None]]:
    jokers = counts[JOKER]
    if meld.kind == "set":
        room = variant.set_maximum - len(meld.cards)
        offered = [
            make_card(meld.rank, suit)
            for suit in set_room_suits(meld, variant)
            for _ in range(counts[make_card(meld.rank, suit)] if not suits_must_differ(variant) else 1)
            if counts[make_card(meld.rank, suit)]
        ]
        offered += [JOKER] * min(jokers, room)
        seen: set[tuple[Card, ...]] = set()
        for size in range(1, room + 1):
            for chosen in combinations(offered, size):
                if chosen not in seen:
                    seen.add(chosen)
                    yield chosen, None
        return
    ends: tuple[RunEnd, ...] = ("high", "low")
    for end in ends:
        cards: list[Card] = []
        used_jokers = 0
        for step in range(1, 14 - len(meld.cards) + 1):
            rank = meld.high_rank() + step if end == "high" else meld.rank - step
            if run_frame(variant).wrap:
                rank = (rank - 1) % 13 + 1
            elif not 1 <= rank <= 14:
                break
            natural = make_card(1 if rank == 14 else rank, meld.suit)
            # Each position takes a natural card when the hand has a spare one, else a joker.
            if counts[natural] > cards.count(natural):
                piece = natural
            elif used_jokers < jokers:
                piece = JOKER
                used_jokers += 1
            else:
                break
            cards = [*cards, piece] if end == "high" else [piece, *cards]
            yield tuple(cards), end
