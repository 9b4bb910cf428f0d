"""The end of a hand: whether the table can still take a player's last cards.

A hand can shrink only by laying (every turn draws one card and discards one), so a player left
with one or two cards after discarding can go out only by building onto the table: those cards
are too few for a new meld. When every open place on the table wants a card that is already
used up, that player is stuck for good, and once every player is, nobody can ever go out and the
hand runs until the turn limit (a "dead table"). Bots used to lay down to one card on such tables.

Places are shared: two players down to one card each wait for the same few places, and a player
holding two cards must build both. So a bot lays down to such a hand only while the table has as
many places still to fill as every small hand at the table holds (its own and the others').
Players with more cards build too (once they have opened, which they may do later), and may fill a
set's places first: a run's end, once filled, opens the next place along, but a set's room only
shrinks. So while such a player is at the table, a set's places do not count. On a table of sets,
a bot that laid down to two cards used to watch the other player fill the last places (with
jokers too) and then hold its two cards for ever.

Everything here is judged from what a seat can see: its own hand, the table's melds, the discard
pile, the number of cards in each hand and the variant. Never another hand or the order of the
stock. A card is used up when every copy of it lies in a table meld (melds are never taken apart,
only extended), or in a discard pile that never becomes a stock again and is not the card on top.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import chain
from typing import TYPE_CHECKING

from kalooki import rules
from kalooki.cards import ACE, JOKER, Card, full_pack, make_card
from kalooki.meld_memo import MeldMemo
from kalooki.melds import MeldError, TableMeld, build, run_span_ok, set_room_suits
from kalooki.variant_memo import PerVariant

if TYPE_CHECKING:
    from kalooki.variant import Variant


def places(meld: TableMeld, variant: Variant) -> tuple[Card, ...]:
    """The natural cards that could join ``meld`` one at a time (a set's missing suits, a run's two ends).

    Remembered per variant and meld (:class:`~kalooki.meld_memo.MeldMemo`; melds are frozen, and a
    table meld stays on the table for many turns): the bots ask about every meld on the table on the
    turns they lay down to a small hand, and the melds a bot makes up to try a laying are new objects
    equal to old ones.
    """
    return _places_memo(variant).get(meld, _places, variant)


_places_memo: PerVariant[MeldMemo[tuple[Card, ...]]] = PerVariant(lambda variant: MeldMemo(_PLACES_LIMIT))
""":func:`places` as found so far under a variant."""

_PLACES_LIMIT = 50_000


def _places(meld: TableMeld, variant: Variant) -> tuple[Card, ...]:
    size = len(meld.cards)
    if meld.kind == "set":
        if size >= variant.set_maximum:
            return ()
        return tuple(make_card(meld.rank, suit) for suit in set_room_suits(meld, variant))
    found: list[Card] = []
    wrap = rules.run_frame(variant).wrap
    for low, position in ((meld.rank - 1, meld.rank - 1), (meld.rank, meld.high_rank() + 1)):
        if wrap:
            low, position = (low - 1) % 13 + 1, (position - 1) % 13 + 1
        if not run_span_ok(low, size + 1, variant) or not 1 <= position <= 14:
            continue
        card = make_card(ACE if position == 14 else position, meld.suit)
        if fits(meld, card, variant):
            found.append(card)
    return tuple(found)


def fits(meld: TableMeld, card: Card, variant: Variant) -> bool:
    """Whether the rules let ``card`` be built onto ``meld`` (the engine's own check)."""
    try:
        build(meld, (card,), variant)
    except MeldError:
        return False
    return True


def used_up(table: Iterable[TableMeld], discard_pile: Sequence[Card], variant: Variant) -> Counter[Card]:
    """Copies of each card that no player can ever hold again: in table melds, or in a pile never reused.

    Under ``stock_exhausted: end_hand`` the discard pile never becomes a stock: below its top card
    (which the next player may take, where the rules let them) its cards are gone for the hand.
    """
    # One count over every table card (Counter.update per meld costs more than the cards).
    gone: Counter[Card] = Counter(chain.from_iterable(meld.cards for meld in table))
    if not rules.reshuffles_discards(variant):
        buried = discard_pile[:-1] if rules.may_ever_take_discard(variant) else discard_pile
        gone.update(buried)
    return gone


def live_places(
    table: Sequence[TableMeld], discard_pile: Sequence[Card], variant: Variant, hand: Sequence[Card] = ()
) -> list[Card]:
    """The cards the table could still take of which a copy is out there (a joker, if any place is open).

    Out there: not used up (see :func:`used_up`) and not in ``hand``, so a card this player could
    still draw. Empty: the table is dead for this player.
    """
    pack = full_pack(variant.decks, variant.jokers)
    gone = used_up(table, discard_pile, variant)
    gone.update(hand)
    open_places = {card for meld in table for card in places(meld, variant)}
    live = sorted(card for card in open_places if pack[card] > gone[card])
    if open_places and pack[JOKER] > gone[JOKER]:
        live.append(JOKER)
    return live


def only_a_run_goes_out(
    cards: int, keep: int, table: Sequence[TableMeld], discard_pile: Sequence[Card], variant: Variant
) -> bool:
    """Whether a hand of ``cards`` (after its draw) can go out only by laying a run: never with a set.

    On a table with no place left to fill (:func:`live_places` is empty), nothing can be built: the
    hand goes out by laying all its cards but ``keep`` as new melds in one turn. Laying a meld
    first and the rest later leaves too few cards for another meld (with fewer than six to lay),
    so those cards would have to join that one meld. Fewer than six cards are one meld, and one
    meld of more cards than ``set_maximum`` is a run. On such a table a hand of five sets of
    twos (two packs, four to a set) can never go out, however long it waits for the sixth.
    """
    laid = cards - keep
    return variant.set_maximum < laid < 6 and not live_places(table, discard_pile, variant)


def too_few_for_a_meld(held: int, keep: int) -> bool:
    """Whether ``held`` cards after the discard are too few to go out by new melds alone.

    The next turn's draw makes ``held + 1``; going out by melds alone lays a meld of three, keeping
    ``keep`` cards to discard. None held (or fewer) is going out now.
    """
    return 0 < held < 3 - (1 - keep)


def live_slots(table: Sequence[TableMeld], discard_pile: Sequence[Card], variant: Variant) -> int:
    """How many cards the table can still take one by one, counting only cards not used up.

    A set takes at most its room (``set_maximum`` less its size) however many suits it lacks; a run
    takes one card at each open end (what lies beyond is not counted). A joker still in play fills
    a place whose cards are all used up.
    """
    in_sets, elsewhere = _live_slots(table, discard_pile, variant)
    return in_sets + elsewhere


def set_slots(table: Sequence[TableMeld], discard_pile: Sequence[Card], variant: Variant) -> int:
    """The places of :func:`live_slots` that natural cards fill in sets: once filled, they are gone."""
    return _live_slots(table, discard_pile, variant)[0]


def _live_slots(
    table: Sequence[TableMeld], discard_pile: Sequence[Card], variant: Variant
) -> tuple[int, int]:
    """:func:`live_slots` as (places in sets, the rest: run ends and places only a joker can fill)."""
    return slots_left(table, used_up(table, discard_pile, variant), variant)


def slots_left(table: Sequence[TableMeld], gone: Mapping[Card, int], variant: Variant) -> tuple[int, int]:
    """:func:`_live_slots` of ``table`` where ``gone`` is its :func:`used_up` (a bot trying many
    layings on one table counts the cards once and adds each laying's own)."""
    pack = _pack(variant.decks, variant.jokers)
    set_maximum = variant.set_maximum
    by_id = _places_memo(variant).melds
    in_sets = in_runs = dead = 0
    for meld in table:
        # The places of a meld on the table for many turns, by its id, without a call.
        known = by_id.get(id(meld))
        cards = known[1] if known is not None and known[0] is meld else places(meld, variant)
        if not cards:
            continue
        # Copies of each place's card still out there (plain loops: this runs for every laying tried).
        if meld.kind == "set":
            room = min(set_maximum - len(meld.cards), len(cards))
            out = 0
            for card in cards:
                out += pack[card] - gone.get(card, 0)
            filled = min(room, out)
            in_sets += filled
        else:
            room = len(cards)
            filled = 0
            for card in cards:
                if pack[card] > gone.get(card, 0):
                    filled += 1
            in_runs += filled
        dead += room - filled
    return in_sets, in_runs + min(dead, pack[JOKER] - gone.get(JOKER, 0))


@lru_cache(maxsize=16)
def _pack(decks: int, jokers: int) -> Counter[Card]:
    """:func:`kalooki.cards.full_pack`, made once (only read: callers must not change it)."""
    return full_pack(decks, jokers)


def strands(
    left: Sequence[Card],
    table_after: Sequence[TableMeld],
    discard_pile: Sequence[Card],
    variant: Variant,
    keep: int,
    others: Sequence[int] = (),
    contested: bool = False,
) -> bool:
    """Whether laying down to ``left`` (before this turn's discard) leaves a hand that may never go out.

    That is a hand too small for a new meld, which goes out only by building every card it holds
    after the discard, on a table with fewer places still to be filled (:func:`live_slots`) than
    such hands hold: this one, and the others' (``others``: their hand sizes) that are as small.
    ``contested``: another player holds enough cards to meld, and may fill the sets' places
    (:func:`set_slots`) first, now or once opened, so they do not count. ``discard_pile`` is the pile before
    this turn's discard.
    """
    held = len(left) - 1
    if not too_few_for_a_meld(held, keep):
        return False
    gone = used_up(table_after, discard_pile, variant)
    return short_of_places(held, table_after, gone, variant, keep, others, contested)


def short_of_places(
    held: int,
    table_after: Sequence[TableMeld],
    gone: Mapping[Card, int],
    variant: Variant,
    keep: int,
    others: Sequence[int],
    contested: bool,
) -> bool:
    """:func:`strands` of a hand ``held`` cards after the discard, too few for a meld, where ``gone`` is
    the :func:`used_up` of ``table_after`` (a bot trying many layings counts it once and adds each one's)."""
    return places_to_spare(table_after, gone, variant, keep, others, contested) < held


def places_to_spare(
    table: Sequence[TableMeld],
    gone: Mapping[Card, int],
    variant: Variant,
    keep: int,
    others: Sequence[int],
    contested: bool,
) -> int:
    """The places left on ``table`` (``gone``: its :func:`used_up`) beyond the cards the other hands too
    few for a meld want there: a hand of more cards than that is short of places. Sets' places do not
    count where another hand could fill them first (``contested``)."""
    waiting = sum(size for size in others if too_few_for_a_meld(size, keep))
    in_sets, elsewhere = slots_left(table, gone, variant)
    return (0 if contested else in_sets) + elsewhere - waiting
