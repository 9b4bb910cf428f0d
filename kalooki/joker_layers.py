"""Who laid each joker on the table, and who may take it (``joker_taker``).

A meld's jokers are laid by its owner when it is laid, and by any seat that builds one onto it. Only
``joker_taker: anyone_but_layer`` asks who laid a joker, so only there does a meld remember a joker
laid by another seat than its owner (:attr:`TableMeld.joker_layers`): elsewhere the field stays empty
and every joker reads as the owner's, as saves and logs from before it existed do, and the melds,
saves and game digests of the other rules are what they were.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kalooki.cards import JOKER, Card, format_card, format_cards

if TYPE_CHECKING:
    from kalooki.melds import TableMeld
    from kalooki.variant import Variant

BY_LAYER = "anyone_but_layer"
"""The ``joker_taker`` value under which a joker's layer, not its meld's owner, decides who may take it."""


def layers_of(meld: TableMeld) -> tuple[int, ...]:
    """The seat that laid each of the meld's jokers, in the order they lie."""
    return meld.joker_layers or (meld.owner,) * meld.jokers


def _placed(meld: TableMeld) -> list[tuple[int, int]]:
    """Each joker's layer with its place in the meld's cards."""
    places = [index for index, card in enumerate(meld.cards) if card == JOKER]
    return list(zip(layers_of(meld), places, strict=True))


def _kept(layers: tuple[int, ...], owner: int) -> tuple[int, ...]:
    """``layers`` as a meld keeps them: empty when the owner laid every joker."""
    return () if all(layer == owner for layer in layers) else layers


def built_layers(
    meld: TableMeld, cards: tuple[Card, ...], low_end: bool, by: int | None, variant: Variant
) -> tuple[int, ...]:
    """The layers after seat ``by`` (None: the owner) builds ``cards`` onto ``meld``: below a run's
    jokers at its low end, after them otherwise."""
    layer = by if by is not None and variant.joker_taker == BY_LAYER else meld.owner
    added = (layer,) * cards.count(JOKER)
    held = layers_of(meld)
    return _kept(added + held if low_end else held + added, meld.owner)


def swapped_layers(meld: TableMeld, laid: tuple[Card, ...], freed: int, by: int | None) -> tuple[int, ...]:
    """The layers of the jokers a swap leaves in ``meld`` (its cards now ``laid``).

    A run's jokers keep their places, so the freed ones are those a natural card replaced. A set's jokers
    stand for no card in particular: the taker ``by`` takes first the jokers another seat laid, which
    are all it may take under ``anyone_but_layer`` (:func:`swap_refusal` refuses the rest).
    """
    if meld.kind == "run":
        return _kept(tuple(layer for layer, at in _placed(meld) if laid[at] == JOKER), meld.owner)
    layers = layers_of(meld)
    order = sorted(range(len(layers)), key=lambda index: layers[index] == by)
    gone = set(order[:freed])
    return _kept(tuple(layer for index, layer in enumerate(layers) if index not in gone), meld.owner)


def may_take_from(meld: TableMeld, seat: int, variant: Variant) -> bool:
    """Whether ``joker_taker`` leaves ``seat`` some joker of ``meld`` to take (which one:
    :func:`swap_refusal`)."""
    taker = variant.joker_taker
    if taker == "anyone":
        return True
    if taker == "other_players" or not meld.joker_layers:
        return meld.owner != seat
    return any(layer != seat for layer in meld.joker_layers)


def taker_refusal(meld: TableMeld, seat: int, variant: Variant) -> str | None:
    """Why ``seat`` may take no joker of ``meld`` at all, or None (:func:`may_take_from`)."""
    if may_take_from(meld, seat, variant):
        return None
    if variant.joker_taker == BY_LAYER:
        return (
            "in this variant only another player may take a joker you laid: you laid every joker of "
            f"{format_cards(meld.cards)}"
        )
    return f"in this variant only another player may take a joker from your meld {format_cards(meld.cards)}"


def swap_refusal(meld: TableMeld, swapped: TableMeld, freed: int, seat: int) -> str | None:
    """Why ``seat``'s swap making ``meld`` into ``swapped`` would free a joker it laid, or None.

    Asked once :func:`may_take_from` allows the meld. Only a meld whose jokers were laid by different
    seats, ``seat`` among them, can still refuse: ``joker_layers`` is kept only under
    ``anyone_but_layer``, so under the other rules, and for every other meld, this is one membership test.
    """
    if seat not in meld.joker_layers:
        return None
    if meld.kind == "run":
        for layer, at in _placed(meld):
            if layer == seat and swapped.cards[at] != JOKER:
                return (
                    "in this variant only another player may take a joker you laid: you laid the joker "
                    f"standing for {format_card(meld.stands_for(at))} in {format_cards(meld.cards)}"
                )
        return None
    layers = layers_of(meld)
    others = sum(layer != seat for layer in layers)
    if freed <= others:
        return None
    mine = len(layers) - others
    return (
        f"in this variant only another player may take a joker you laid: you laid {mine} of the "
        f"{len(layers)} jokers in {format_cards(meld.cards)}, so you may take only {others}, not {freed}"
    )
