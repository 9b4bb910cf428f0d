"""The rulebook's sentences on jokers: how one stands in a meld, and what frees it from a set or a run
(``kalooki rules`` gives them in its melds and jokers sections)."""

from __future__ import annotations

from kalooki.variant import Variant

_SET_RELEASE = {
    "three_card_set": (
        "A joker in a three-card set is freed by adding the cards of both missing suits of that rank; "
        "adding only one closes the set, and its joker stays there for good. A three-card set with two "
        "jokers gives up one of them when two of its missing suits are added, and is then closed. No other "
        "set gives up a joker: a four-card set keeps its jokers for good."
    ),
    "all_missing_suits": (
        "A joker in a three-card set is freed by adding the cards of both missing suits of that rank; "
        "adding only one closes the set, and its joker stays there for good. A three-card set with two "
        "jokers gives up one of them when two of its missing suits are added, and is then closed. Two or "
        "more cards of missing suits put in together free as many jokers as would take the set past four "
        "cards: a four-card set with two jokers gives up both for its two missing suits. One card alone "
        "frees nothing."
    ),
    "any_missing_suit": (
        "A joker in a set is freed by putting in its place a card of that rank in a suit the set lacks; "
        "a set already holding three suits and a joker is closed, and its joker stays there for good."
    ),
    "never": "A joker in a set stays there for good.",
}

_RUN_RELEASE = {
    "exact_card": "A joker in a run is freed by putting in its place the exact card it stands for.",
    "never": "A joker in a run stays there for good.",
}


def _set_release(variant: Variant) -> str:
    """How a joker leaves a set: the words above for sets of three or four suits, else said for the
    variant's own largest set (the engine frees what would take a set past ``set_maximum``)."""
    rule, most = variant.set_joker_release, variant.set_maximum
    if rule == "never" or (most == 4 and variant.set_suits == "distinct"):
        return _SET_RELEASE[rule]
    card = (
        "a card of that rank in a suit the set lacks"
        if variant.set_suits == "distinct"
        else "a card of that rank"
    )
    closed = f"A full set ({most} cards) with a single joker is closed, and its joker stays there for good."
    if rule == "any_missing_suit":
        return f"A joker in a set is freed by putting in its place {card}. {closed}"
    if rule == "three_card_set":
        if most <= 3:
            # A three-card set is full: there is no fourth place the two cards could make room in.
            return "A joker in a set stays there for good: a set holds at most three cards."
        two = "two cards of missing suits" if variant.set_suits == "distinct" else "two cards of that rank"
        return (
            f"A three-card set gives up one of its jokers for {two} put in together; one card alone frees "
            "nothing. No other set gives up a joker."
        )
    cards = "cards of missing suits" if variant.set_suits == "distinct" else "cards of that rank"
    return (
        f"Two or more {cards} put in together free as many of a set's jokers as would take it past {most} "
        f"cards; one card alone frees nothing. {closed}"
    )


def joker_rules(variant: Variant) -> list[str]:
    lines = [_set_release(variant), _RUN_RELEASE[variant.run_joker_release]]
    if variant.set_joker_release == "never" and variant.run_joker_release == "never":
        # Who may take a joker, and what becomes of it, would describe something that never happens.
        return [*lines, "Nobody ever takes a joker back from the table."]
    if variant.joker_taker == "other_players":
        lines.append("Nobody may take a joker from a meld they laid themselves: only another player may.")
    elif variant.joker_taker == "anyone_but_layer":
        lines.append(
            "Nobody may take back a joker they laid themselves, even one built onto another player's meld: "
            "any other player may take it, the meld's owner included."
        )
    else:
        lines.append("Any player may take a joker from any meld, their own included.")
    if variant.joker_release_requires_opening:
        lines.append("Only a player who has opened may take a joker from the table.")
    else:
        lines.append("Even a player who has not opened yet may take a joker from the table.")
    if variant.released_joker_must_be_melded:
        lines.append("A joker you take must go into a new meld in the same turn.")
    else:
        lines.append("A joker you take goes into your hand; you may keep it for later.")
    return lines


_RANKS_FROM_SIX = ("6", "7", "8", "9", "10", "J", "Q", "K")
_NUMBER_WORDS = dict(
    enumerate(("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"))
)
_NUMBER_WORDS |= {10: "ten", 11: "eleven", 12: "twelve"}


def jokers_in_melds(variant: Variant) -> str:
    """How jokers stand in melds, its examples as long as the shortest run (a run of three where runs
    are of four or more would show a meld the table refuses) and holding no more jokers than the pack."""
    what = "A joker can stand for any card in a meld, but a meld needs at least one card that is not a joker."
    jokers = variant.run_minimum - 1
    if variant.jokers < jokers:
        # One card and every joker of the pack is too short for a run: such a meld can only be a set (of
        # three at least: a card and one joker is no meld).
        if variant.jokers < 2:
            return what
        held = _NUMBER_WORDS.get(variant.jokers, str(variant.jokers))
        return (
            f"{what} One such card with jokers (a seven and {held} jokers) is a set, if a set holds so many."
        )
    examples = "."
    if 2 + jokers <= len(_RANKS_FROM_SIX):  # a run from the seven past the king: no example
        after = " ".join(["7H", *["JK"] * jokers])
        before = " ".join(["JK", "7H", *["JK"] * (jokers - 1)])
        up, down = "-".join(_RANKS_FROM_SIX[1 : 2 + jokers]), "-".join(_RANKS_FROM_SIX[: 1 + jokers])
        examples = f" (`meld {after} run` is {up}, `meld {before} run` {down})."
    count = _NUMBER_WORDS.get(jokers, str(jokers))
    return (
        f"{what} One such card with jokers (a seven and {count} jokers) is a set when a set may hold that "
        "many cards, and otherwise a run; its player may lay it as a run all the same by saying so, where a "
        f"run may be that short{examples}"
    )
