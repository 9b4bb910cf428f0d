"""The rules among several knobs that a variant must keep, each with the knobs it involves.

JSON Schema cannot express these. :class:`~kalooki.variant.Variant` checks them when it is built
(the first one broken is its error); the loader defers them and reports each at the knob the most
specific source set (:data:`CROSS_FIELD_INVOLVES`). What a knob means for play is asked of
:mod:`kalooki.rules`, as the engine asks it, so a check and the play it guards cannot disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from kalooki.opening_bound import most_opening_points
from kalooki.rules import (
    RUN_MAX,
    SMALLEST_MELD,
    dealt,
    keep,
    may_end_without_discard,
    may_ever_meld,
    meld_sizes,
    most_players,
    own_joker_points,
)

if TYPE_CHECKING:
    from kalooki.variant import Variant


class CrossFieldProblem(NamedTuple):
    """A rule among several fields that a variant breaks."""

    field: str
    """The field the rule is named after, pointed at unless another involved one was set more specifically."""
    message: str
    involves: tuple[str, ...]
    """Every field the rule involves, ``field`` first (:data:`CROSS_FIELD_INVOLVES`, but for a rule
    named after a field that another rule is named after too)."""
    out_of_reach: bool = False
    """A value that can never be reached, or a hand that can never end: play stays well defined, and
    rules kalooki itself saved are read without it (:mod:`kalooki.saved_rules`)."""


def cross_field_problems(variant: Variant) -> list[CrossFieldProblem]:
    """Rules that involve several fields that ``variant`` breaks.

    JSON Schema cannot express these; the loader reports them at the field named.
    """
    problems: list[tuple[str, str]] = []
    # Fields of the problems below that say a value can never be reached.
    out_of_reach: set[str] = set()
    if variant.min_players > variant.max_players:
        problems.append(
            (
                "min_players",
                f"min_players ({variant.min_players}) is more than max_players ({variant.max_players}): "
                f"raise max_players to {variant.min_players} or lower min_players to {variant.max_players}",
            )
        )
    plus = " + 1" if variant.upcard else ""
    pack = f"the pack of decks * 52 + jokers = {variant.decks} * 52 + {variant.jokers} = {variant.pack_size}"
    needed, fewest = dealt(variant, variant.max_players), dealt(variant, variant.min_players)
    if needed > variant.pack_size:
        # The table the pack does seat, if any: the fix a reader most often wants (kalooki play --players 3
        # on one pack is refused for the variant's 4).
        most = most_players(variant)
        fewer = (
            f" ({most} players fit: max_players: {most})" if dealt(variant, most) < variant.pack_size else ""
        )
        problems.append(
            (
                "hand_size",
                f"max_players * hand_size{plus} = {variant.max_players} * {variant.hand_size}{plus} = "
                f"{needed} cards do not fit in {pack}{fewer}",
            )
        )
    elif fewest >= variant.pack_size:
        # A deal that takes the whole pack leaves no stock: every hand ended at its deal, blocked. Fewer
        # players than max_players may still have one (a table the pack cannot seat is refused at the
        # game's start, rules.may_play); where even min_players would not, no game can be played.
        problems.append(
            (
                "hand_size",
                f"min_players * hand_size{plus} = {variant.min_players} * {variant.hand_size}{plus} = "
                f"{fewest} cards take all of {pack}, leaving no stock",
            )
        )
    if variant.elimination and variant.scoring != "penalty":
        problems.append(
            (
                "elimination",
                "elimination needs scoring: penalty (with winner_collects the first to goal_score wins)",
            )
        )
    no_meld = _no_meld_problem(variant)
    # A first meld uses at most the hand plus the card drawn, less the discard when one is required
    # (a hand may be laid whole where the last card may, or must, be melded); a joker counts as the card
    # it stands for or its own points, so no card is worth more than an ace, a ten or those. Where no
    # meld fits at all, that is the one thing to say. Where a turn may end without a discard, a hand
    # grows by every card drawn and kept, up to the whole pack.
    if may_end_without_discard(variant):
        meldable, why = (
            variant.pack_size,
            "the whole pack: under turn_discard: optional a hand keeps what it draws",
        )
    else:
        meldable = variant.hand_size + (0 if variant.going_out == "discard_required" else 1)
        why = f"hand_size {variant.hand_size}"
    own_joker = own_joker_points(variant) if variant.jokers else None
    best_card = max(10, variant.ace_value, variant.ace_low_value or 0, own_joker or 0)
    threshold = variant.opening_threshold
    if no_meld is None and threshold > meldable * best_card:
        out_of_reach.add("opening_threshold")
        problems.append(
            (
                "opening_threshold",
                f"opening_threshold ({threshold}) can never be reached: a first "
                f"meld holds at most {meldable} cards ({why}) worth at "
                f"most {best_card} each",
            )
        )
    elif no_meld is None and threshold > (most := most_opening_points(variant, meldable)):
        # Under the cards' bound, the melds' own: seven cards in sets of three and runs are 74, not 77.
        out_of_reach.add("opening_threshold")
        problems.append(
            (
                "opening_threshold",
                f"opening_threshold ({threshold}) can never be reached: first melds of at most "
                f"{meldable} cards ({why}) are worth at most {most}, {_meld_shapes(variant)}",
            )
        )
    if variant.ace_low_value is not None and variant.ace_in_runs not in ("high_or_low", "low"):
        # Under wrap an A-2-3 is laid, but the solver and the bots value a run's ace by its place on
        # the wrapped line, where it is the king's neighbour as much as the two's: one value only.
        why = (
            "no run holds an ace below the two"
            if variant.ace_in_runs == "high"
            else "an ace counts ace_value wherever it sits in a run (A-2-3, K-A-2 or Q-K-A)"
        )
        problems.append(
            (
                "ace_low_value",
                "ace_low_value is for an ace below the two (A-2-3) under ace_in_runs: high_or_low or low, "
                f"but with ace_in_runs: {variant.ace_in_runs} {why}: leave it out (null)",
            )
        )
    if variant.set_suits == "distinct" and variant.set_maximum > 4:
        problems.append(
            (
                "set_maximum",
                f"set_maximum ({variant.set_maximum}) needs set_suits: may_repeat: a set of distinct "
                "suits holds at most 4 cards",
            )
        )
    found = [
        CrossFieldProblem(field, message, CROSS_FIELD_INVOLVES[field], field in out_of_reach)
        for field, message in problems
    ]
    if no_meld is not None:
        found.append(CrossFieldProblem("hand_size", no_meld, MELD_ROOM_INVOLVES, out_of_reach=True))
    elif (never_out := _no_going_out_problem(variant)) is not None:
        found.append(CrossFieldProblem("hand_size", never_out, MELD_ROOM_INVOLVES, out_of_reach=True))
    largest_set = 4 * variant.decks + variant.jokers  # every card of one rank in the pack, and every joker
    if variant.set_suits == "may_repeat" and variant.set_maximum > largest_set:
        # Not only pointless: where a set's jokers are freed only past set_maximum, they never would be.
        message = (
            f"set_maximum ({variant.set_maximum}) can never be reached: with set_suits: may_repeat, "
            f"{variant.decks} {'deck' if variant.decks == 1 else 'decks'} and {variant.jokers} "
            f"{'joker' if variant.jokers == 1 else 'jokers'} a set holds at most {largest_set} cards"
        )
        found.append(CrossFieldProblem("set_maximum", message, SET_ROOM_INVOLVES, out_of_reach=True))
    return found


def _no_meld_problem(variant: Variant) -> str | None:
    """Why no player can ever lay a meld (every hand would run to the stock's end), or None."""
    if may_ever_meld(variant):
        return None
    cards = variant.hand_size + 1
    holds = (
        f"hand_size ({variant.hand_size}) leaves no meld to lay: "
        f"with the card drawn a hand holds {cards} cards"
    )
    if keep(variant):
        return f"{holds}, one of them kept to discard, and a meld needs at least {SMALLEST_MELD}"
    if cards < SMALLEST_MELD:
        return f"{holds}, and a meld needs at least {SMALLEST_MELD}"
    # Only under meld_required: a meld of three leaves one card, which may not be discarded.
    return (
        f"{holds}, and under going_out: meld_required a meld may not leave one card (it could not be "
        f"discarded), so it must hold all {cards}; but a set holds at most {variant.set_maximum} "
        f"(set_maximum) and a run at least {variant.run_minimum} (run_minimum)"
    )


def _no_going_out_problem(variant: Variant) -> str | None:
    """Why no hand can ever be laid out (every hand would run to the turn limit), or None.

    Over a hand every card drawn is discarded again but, maybe, the last turn's: going out lays
    hand_size cards in all where the last card is discarded, one more where it is laid. Where no
    meld can take a card once laid (sets of exactly three, runs of all thirteen) and the hand cannot
    grow, those are sums of whole melds' sizes, or no hand goes out."""
    if (
        may_end_without_discard(variant)
        or variant.set_maximum > SMALLEST_MELD
        or variant.run_minimum < RUN_MAX
    ):
        return None  # a meld on the table takes more cards, or the hand grows: any count may be laid
    laid = {
        "discard_required": (variant.hand_size,),
        "discard_optional": (variant.hand_size, variant.hand_size + 1),
        "meld_required": (variant.hand_size + 1,),
    }[variant.going_out]
    sizes = meld_sizes(variant)
    reachable = {0}
    for total in range(1, max(laid) + 1):
        if any(total - size in reachable for size in sizes):
            reachable.add(total)
    if any(total in reachable for total in laid):
        return None
    counts = " or ".join(map(str, laid))
    return (
        f"hand_size ({variant.hand_size}) can never be laid out: with sets of exactly {SMALLEST_MELD} cards "
        f"(set_maximum {variant.set_maximum}) and runs of all {RUN_MAX} (run_minimum {variant.run_minimum}) "
        f"no meld can take another card, so a hand lays whole melds of "
        f"{' and '.join(map(str, sizes))} cards, and going out (going_out: {variant.going_out}) lays "
        f"{counts}, no sum of them"
    )


CROSS_FIELD_INVOLVES: dict[str, tuple[str, ...]] = {
    "min_players": ("min_players", "max_players"),
    "hand_size": ("hand_size", "max_players", "decks", "jokers", "upcard"),
    "elimination": ("elimination", "scoring"),
    "opening_threshold": (
        "opening_threshold",
        "hand_size",
        "ace_value",
        "ace_low_value",
        "set_maximum",
        "run_minimum",
        "ace_in_runs",
        "decks",
        "jokers",
        "going_out",
        "turn_discard",
        "opening_joker_value",
        "joker_penalty",
    ),
    "ace_low_value": ("ace_low_value", "ace_in_runs"),
    "set_maximum": ("set_maximum", "set_suits"),
}
"""For each field :func:`cross_field_problems` names, every field its rule involves (the named one first).

The loader points at whichever of them the most specific source (a ``--set``, the file itself) set.
"""

SET_ROOM_INVOLVES = ("set_maximum", "set_suits", "decks", "jokers")
"""Every field the rule that the pack can fill a set of set_maximum cards involves (``may_repeat``'s: the
other rule named after set_maximum, distinct suits' four, involves only set_suits)."""

MELD_ROOM_INVOLVES = ("hand_size", "going_out", "turn_discard", "set_maximum", "run_minimum")
"""Every field the rule that a meld must fit in a hand involves. It is named after hand_size, as the
rule that the deal fits in the pack is, which involves others (:data:`CROSS_FIELD_INVOLVES`)."""


def _meld_shapes(variant: Variant) -> str:
    """The knobs that bound what a first meld holds, as the refusal of an unreachable threshold says them."""
    ace = {
        "high": "an ace only above the king",
        "low": "an ace only below the two",
        "high_or_low": "an ace at either end",
        "wrap": "runs turning the corner",
    }[variant.ace_in_runs]
    low = "" if variant.ace_low_value is None else f" ({variant.ace_low_value} below the two)"
    own = own_joker_points(variant) if variant.jokers else None
    joker = "" if own is None else f", a joker {own}"
    return (
        f"in sets of at most {variant.set_maximum} cards and runs of at least {variant.run_minimum} "
        f"({ace}), an ace worth {variant.ace_value}{low}{joker}"
    )
