"""A resolved variant written out as a rulebook a player can read, in Markdown.

Every knob becomes a plain sentence (the tests check that changing any knob changes
the text). This module also generates the knob reference table of ``docs/variants.md``
from the model, so the two cannot drift apart (``make docs`` runs the second)::

    python -m kalooki.rulebook --check-readme docs/variants.md   # exit 1 when stale
    python -m kalooki.rulebook --write-readme docs/variants.md   # rewrite the table
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

# The knob reference has its own module; its names are still read from here, where it began.
from kalooki.knob_reference import README_BEGIN as README_BEGIN
from kalooki.knob_reference import README_END as README_END
from kalooki.knob_reference import knob_choices as knob_choices
from kalooki.knob_reference import knob_reference_markdown as knob_reference_markdown
from kalooki.knob_reference import knob_values as knob_values
from kalooki.knob_reference import update_readme as update_readme
from kalooki.rulebook_jokers import joker_rules, jokers_in_melds
from kalooki.rules import (
    RUN_MAX,
    kalooki_charge,
    may_end_without_discard,
    may_ever_swap,
    most_players,
    own_joker_points,
)
from kalooki.text import markdown_literal
from kalooki.variant import AceInRuns, DiscardDraw, GoingOut, TurnDiscard, Variant
from kalooki.variant_changes import changes_note


def _points(value: int) -> str:
    return f"{value} point" if value == 1 else f"{value} points"


def _cards(value: int) -> str:
    return f"{value} card" if value == 1 else f"{value} cards"


def _players(variant: Variant) -> str:
    most = most_players(variant)
    if variant.min_players == most:
        count = f"Exactly {most} players play."
    else:
        count = f"From {variant.min_players} to {most} players can play."
    if most < variant.max_players:
        count += f" ({most + 1} would be dealt the whole pack, leaving no stock.)"
    side = "left" if variant.play_direction == "clockwise" else "right"
    way = variant.play_direction.replace("_", "-")
    return f"{count} Play passes {way}: after each turn it is the turn of the player on the {side}."


def _dealer(variant: Variant) -> str:
    if variant.first_dealer == "high_card":
        first = (
            "To choose the first dealer, each player draws a card from a shuffled pack: the highest rank "
            "deals (ace high), and tied players draw again."
        )
    else:
        # The engine's dealer is the seat play reaches just before the first listed: the last one listed
        # clockwise, the second counter-clockwise (play goes the reverse of the list).
        which = "last" if variant.play_direction == "clockwise" else "second"
        first = (
            f"The first hand is dealt by the {which} player listed, whose turn comes just before the first "
            "player listed."
        )
    if variant.deal_direction == "as_play":
        passes = "the way play goes"
    else:
        side = "left" if variant.deal_direction == "clockwise" else "right"
        passes = f"{variant.deal_direction.replace('_', '-')}, to the player on the dealer's {side}"
    # From the dealer, whoever played first: a dealer whose first player was put out still hands it on.
    past = " A player out of the game is passed over: the deal goes to the next one still in it."
    return (
        f"{first} The player after the dealer plays first. The deal passes {passes} with each new hand."
        + (past if variant.elimination else "")
    )


def _pack(variant: Variant) -> str:
    decks = "one standard 52-card deck" if variant.decks == 1 else f"{variant.decks} standard 52-card decks"
    if variant.jokers == 0:
        jokers = "no jokers"
    elif variant.jokers == 1:
        jokers = "1 joker"
    else:
        jokers = f"{variant.jokers} jokers"
    return (
        f"The pack is {decks} with {jokers}: {variant.pack_size} cards. "
        f"Each player is dealt {_cards(variant.hand_size)}. The rest form the face-down stock, "
        + (
            "and one card turned face up starts the discard pile."
            if variant.upcard
            else "and no card is turned up: the first player's discard starts the discard pile."
        )
    )


def _values(variant: Variant) -> str:
    if not variant.jokers:
        joker = f"(Were jokers added, one left in hand would count {_points(variant.joker_penalty)}.)"
    elif own_joker_points(variant) is None:
        joker = (
            f"A joker in a meld counts as the card it stands for; a joker left in your hand at the end of a "
            f"hand counts {_points(variant.joker_penalty)}."
        )
    else:
        joker = (
            f"A joker counts {_points(variant.joker_penalty)}: in a meld, whatever card it stands for, and "
            "left in your hand at the end of a hand."
        )
    low = (
        ""
        if variant.ace_low_value is None
        else f" An ace below the two of a run ({example_run(1, variant.run_minimum)}) counts "
        f"{_points(variant.ace_low_value)} in that meld."
    )
    return (
        "Twos to nines count their face value; tens, jacks, queens and kings count 10 points; "
        f"an ace counts {_points(variant.ace_value)}.{low} {joker}"
    )


@dataclass(frozen=True, slots=True)
class Wording:
    """One rule in words, in both registers: the rulebook's sentence (``kalooki rules``) and the short
    line the table shows during play (:func:`key_rules`). Kept side by side so the two cannot drift."""

    rulebook: str
    at_the_table: str


_TAKEN_BACK: Final = "(the card you take may be the card you discard at the end of that turn)"
"""No rule text forbids throwing back the discard just taken, as many rummy tables do: the rulebook says
that every variant that lets the discard be taken without laying it allows it."""

DRAW: Final[dict[DiscardDraw, Wording]] = {
    "always": Wording(
        "Start your turn by drawing one card: the top card of the stock or the top card of the discard pile "
        f"{_TAKEN_BACK}.",
        "You may always take the top discard.",
    ),
    "never": Wording(
        "Start your turn by drawing the top card of the stock; nobody ever takes a card from the discard "
        "pile.",
        "The discard pile may never be taken: always draw stock.",
    ),
    "after_opening": Wording(
        "Start your turn by drawing the top card of the stock; once you have opened, you may take the top "
        f"card of the discard pile instead {_TAKEN_BACK}.",
        "Only after opening may you take the top discard.",
    ),
    "before_opening": Wording(
        "Start your turn by drawing the top card of the stock; until you have opened, you may take the top "
        f"card of the discard pile instead {_TAKEN_BACK}.",
        "Only before opening may you take the top discard.",
    ),
    "meld_at_once": Wording(
        "Start your turn by drawing the top card of the stock; you may take the top card of the discard pile "
        "instead only to lay it in that same turn: in a meld, on a meld, or in a table joker's place.",
        "You may take the top discard only to lay it that same turn (meld, build or swap).",
    ),
}
"""discard_draw in words."""


_LAID_NO_SWAP = Wording(
    "Start your turn by drawing the top card of the stock; you may take the top card of the discard pile "
    "instead only to lay it in that same turn: in a meld or on one.",
    "You may take the top discard only to lay it that same turn (meld or build).",
)
"""meld_at_once where no joker can ever be taken (no jokers, or melds that never give them up): no table
joker's place to lay the discard in."""


def draw_words(variant: Variant) -> Wording:
    """discard_draw in words, as the variant's jokers allow."""
    if variant.discard_draw == "meld_at_once" and not may_ever_swap(variant):
        return _LAID_NO_SWAP
    return DRAW[variant.discard_draw]


_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K", 14: "A"}


def example_run(low: int, length: int) -> str:
    """A run of ``length`` ranks from ``low`` (1 and 14 are an ace, past 14 the ranks go round to the
    two), as the rules write one: ``A-2-3-4``, the middle left out of a long one (``A-2-3-...-7``)."""
    ranks = [
        _RANK_NAMES.get(rank, str(rank))
        for rank in (r if r <= 14 else r - 13 for r in range(low, low + length))
    ]
    return "-".join(ranks if length <= 5 else [*ranks[:3], "...", ranks[-1]])


ACE: Final[dict[AceInRuns, Wording]] = {
    "high_or_low": Wording(
        "An ace may end a run low ({low}) or high ({high}), but a run cannot turn the corner ({corner}).",
        "an ace may sit low ({low}) or high ({high})",
    ),
    "high": Wording(
        "An ace in a run can only be high ({high}), never low ({low}).", "an ace may only sit high ({high})"
    ),
    "low": Wording(
        "An ace in a run can only be low ({low}), never high ({high}).", "an ace may only sit low ({low})"
    ),
    "wrap": Wording(
        "An ace may sit low ({low}), high ({high}), or in a run that turns the corner ({corner}).",
        "runs may wrap round ({corner})",
    ),
}
"""ace_in_runs in words, with a place for each example run (:func:`ace_words` fills them in)."""


def _run_limit(variant: Variant) -> str:
    """The most a run holds, where an ace may sit at either end: a run holds each rank once (the engine
    refuses a second ace on A-2-...-K), which "an ace may end a run low or high" does not tell."""
    if variant.ace_in_runs == "wrap":
        return (
            f" A run holds each rank once, so {RUN_MAX} cards at most: it never goes all the way round to a "
            "rank it holds."
        )
    if variant.ace_in_runs == "high_or_low":
        whole = example_run(1, RUN_MAX)
        return (
            f" A run holds each rank once, so {RUN_MAX} cards at most: nothing goes on {whole}, not even an "
            "ace above the king."
        )
    return ""


def ace_words(variant: Variant) -> Wording:
    """ace_in_runs in words, each example run as long as the shortest run (run_minimum): A-2-3-4 where
    runs need four cards, since an A-2-3 could not be laid there."""
    length = variant.run_minimum
    # A run that turns the corner starts at the king: K-A-2.
    runs = {
        "low": example_run(1, length),
        "high": example_run(15 - length, length),
        "corner": example_run(13, length),
    }
    words = ACE[variant.ace_in_runs]
    return Wording(words.rulebook.format(**runs), words.at_the_table.format(**runs))


GOING_OUT: Final[dict[GoingOut, Wording]] = {
    "discard_required": Wording(
        "You go out by discarding your last card: you may not meld or build with every card and end "
        "your turn without a discard.",
        "Your last card must be discarded.",
    ),
    "discard_optional": Wording(
        "You go out as soon as you have no cards left, whether your last card is discarded, melded or "
        "built onto the table.",
        "You may go out by melding, building or discarding your last card.",
    ),
    "meld_required": Wording(
        "You go out by melding or building your last card onto the table: you may not discard your last "
        "card, so a turn that has laid down to one card it cannot lay is taken back (undo).",
        "You go out by melding or building your last card; you may not discard it.",
    ),
}
"""going_out in words."""

KEEPING_THE_LAST_CARD: Final = (
    "You go out by melding or building your last card onto the table: you may not discard your last "
    "card, but if your melds leave you one card you cannot lay, you may keep it and end your turn "
    "without a discard (`end`)."
)
"""meld_required's rulebook line where turn_discard is optional: the dead end it names is not one there."""


def going_out_rule(variant: Variant) -> str:
    """How a player goes out, in the rulebook's words: meld_required's line depends on turn_discard."""
    if variant.going_out == "meld_required" and variant.turn_discard == "optional":
        return KEEPING_THE_LAST_CARD
    return GOING_OUT[variant.going_out].rulebook


TURN_END: Final[dict[TurnDiscard, Wording]] = {
    "required": Wording(
        "Then meld and build if you wish, and end your turn by discarding a card.",
        "Every turn ends with a discard.",
    ),
    "optional": Wording(
        "Then meld and build if you wish, and end your turn by discarding a card if you wish: you may "
        "also end it without a discard (`end`), once you have laid any card the turn obliges you to lay.",
        "Your discard is optional: end your turn without one with end.",
    ),
}
"""turn_discard in words. The table's short line is shown only for optional: the rule everyone expects
goes without saying there."""

_STOCK = {
    "reshuffle_all": (
        "When the last card of the stock is drawn, the whole discard pile is shuffled to form a new stock, "
        "and that player's discard starts the new discard pile; if the pile was empty, that discard becomes "
        "the new stock when the next turn begins."
    ),
    "reshuffle_keep_top": (
        "When the last card of the stock is drawn, the discard pile except its top card is shuffled to form "
        "a new stock; the top card stays face up as the discard pile, and that player discards onto it. "
        "If that card is all the pile holds, the stock stays empty until the next turn begins, and then "
        "the whole pile except the discard just made becomes the stock. If the stock is empty with only "
        "one card on the pile, and the player to draw may not take it, the hand ends and nobody scores "
        "for it."
    ),
    "end_hand": (
        "When the stock runs out, the player who drew its last card finishes that turn, and then the hand "
        "ends: unless that player went out in it, nobody scores for the hand."
    ),
}


def _stock(variant: Variant) -> list[str]:
    """What happens when the stock runs out; where a turn may end without a discard, the pile may be
    empty too, and the hand ends with nothing to draw (the engine's ``blocked`` end)."""
    said = [_STOCK[variant.stock_exhausted]]
    if variant.stock_exhausted != "end_hand" and may_end_without_discard(variant):
        said.append(
            "A turn may end without a discard, so the stock and the discard pile can both run out: when "
            "the next player has no card to draw, the hand ends and nobody scores for it."
        )
    return said


def opening_words(variant: Variant) -> Wording:
    """opening_threshold in words."""
    if variant.opening_threshold == 0:
        return Wording("There is no minimum for your first meld.", "Any meld may open.")
    own = own_joker_points(variant) if variant.jokers else None
    if not variant.jokers:
        joker, short = ".", ""
    elif own is None:
        joker, short = ", a joker counting as the card it stands for.", ""
    else:
        joker, short = f", a joker counting {_points(own)} whatever card it stands for.", f", a joker {own}"
    return Wording(
        f"The meld(s) you lay down the first time you meld must together be worth at least "
        f"{_points(variant.opening_threshold)}{joker}",
        f"Your first melds must total at least {variant.opening_threshold} points{short} "
        "(lay them together).",
    )


def _opening(variant: Variant) -> str:
    return f"{opening_words(variant).rulebook} Until you have opened, you may not build on the table."


def set_words(variant: Variant) -> Wording:
    """set_suits and set_maximum in words."""
    most = variant.set_maximum
    if variant.set_suits == "may_repeat":
        if most == 3:  # not "3 to 3 cards"
            return Wording(
                f"A set is three cards of one rank; its suits may repeat {_repeats(variant)}.",
                "Sets: 3 cards of one rank, suits may repeat.",
            )
        return Wording(
            f"A set is 3 to {most} cards of one rank; its suits may repeat {_repeats(variant)}.",
            f"Sets: 3-{most} cards of one rank, suits may repeat.",
        )
    if most == 3:
        return Wording(
            "A set is three cards of one rank, all of different suits.",
            "Sets: 3 cards of one rank, all suits different.",
        )
    if most == 4:
        return Wording(
            "A set is three or four cards of one rank, all of different suits.",
            "Sets: 3-4 cards of one rank, all suits different.",
        )
    return Wording(
        f"A set is 3 to {most} cards of one rank, its natural cards all of different suits.",
        f"Sets: 3-{most} cards of one rank, naturals all of different suits.",
    )


def _repeats(variant: Variant) -> str:
    """How a set's suit repeats: from the packs' copies of each card, or (one pack) a joker's alone."""
    if variant.decks == 1 and not variant.jokers:
        return "(though one pack without jokers holds no card twice, so none ever does)"
    if variant.decks == 1:
        return "(one pack holds one of each card: only a joker can stand for a card the set holds)"
    copies = "two" if variant.decks == 2 else str(variant.decks)
    return f"({copies} packs hold {copies} of each card)"


def _sets(variant: Variant) -> str:
    return set_words(variant).rulebook


def _kalooki(variant: Variant) -> list[str]:
    # Without jokers there is none to take from the table: the sentence does not speak of one.
    took, taking = (
        (" or took a joker from it", " or taking a joker from them") if may_ever_swap(variant) else ("", "")
    )
    if variant.kalooki_allows_building:
        what = (
            "Going out in a single turn, having melded nothing before, is going Kalooki, even if you "
            f"also built on the table{took} in that turn."
        )
    else:
        what = (
            "Going out by laying down your whole hand in a single turn, having melded nothing before and "
            f"without building on melds that were on the table before that turn{taking}, is going Kalooki "
            "(building onto your own melds of that turn is part of laying down)."
        )
    charge = kalooki_charge(variant)
    if charge == 0:
        cost = "Going Kalooki earns nothing extra."
    elif charge > 0:
        cost = f"Going Kalooki adds {_points(charge)} to every other player's penalty."
    else:
        cost = (
            f"Going Kalooki takes {_points(variant.kalooki_bonus)} from every other player's score, "
            "even below zero."
        )
    return [what, cost]


def _scoring(variant: Variant) -> str:
    if variant.scoring == "winner_collects":
        text = (
            "When a player goes out, the others count the cards left in their hands, and the player who "
            f"went out adds the sum to their score. The first player to reach {_points(variant.goal_score)} "
            "wins."
        )
        if variant.elimination:
            text += " (Elimination applies only to penalty scoring.)"
        return text
    text = (
        "When a player goes out, every other player adds the value of the cards left in their hand to "
        "their penalty total."
    )
    if variant.elimination:
        return (
            f"{text} A player whose total reaches {_points(variant.goal_score)} is out of the game; the last "
            "player left wins."
        )
    return (
        f"{text} The game ends when a player's total reaches {_points(variant.goal_score)}; the player with "
        "the lowest total wins, and players tied on it share the win."
    )


def scoring_line(variant: Variant) -> str:
    """scoring, goal_score and elimination in a short line (the rulebook's sentence is :func:`_scoring`)."""
    goal = variant.goal_score
    if variant.scoring == "winner_collects":
        return f"the winner scores the others' cards; first to {goal} wins"
    if variant.elimination:
        return f"losers add their cards' value; out at {goal}; the last one left wins"
    return f"losers add their cards' value; the game ends at {goal}; lowest total wins"


def move_rules(variant: Variant) -> dict[str, list[str]]:
    """The key rules of each move, keyed by its verb (draw, meld, build, discard): ``help meld`` at the
    play prompt gives its own under the command."""
    return {
        "meld": [
            opening_words(variant).at_the_table,
            f"{set_words(variant).at_the_table} "
            f"Runs: {variant.run_minimum}+ cards of a suit; {ace_words(variant).at_the_table}.",
        ],
        "draw": [draw_words(variant).at_the_table],
        "build": ["Build on any meld only after you have opened; melds are numbered as shown on the table."],
        "discard": [
            GOING_OUT[variant.going_out].at_the_table,
            *([TURN_END["optional"].at_the_table] if variant.turn_discard == "optional" else []),
        ],
    }


def key_rules(variant: Variant) -> list[str]:
    """The handful of rules a player needs at the table, in plain words: the rulebook's short register."""
    rules = [
        *(rule for move in move_rules(variant).values() for rule in move),
        f"Values: 2-9 as marked, 10/J/Q/K 10, ace {variant.ace_value}{_low_ace(variant)}"
        + (f", a joker left in hand {variant.joker_penalty}." if variant.jokers else "."),
    ]
    if variant.kalooki_bonus:
        # As the full rule says (_kalooki): taking a table joker spoils it too, where there are jokers.
        joker = " nor taking a joker from one" if may_ever_swap(variant) else ""
        building = (
            "" if variant.kalooki_allows_building else f", building on no meld already on the table{joker}"
        )
        rules.append(
            f"Going Kalooki (laying your whole hand in one turn, having laid nothing before{building}) "
            f"costs every other player {variant.kalooki_bonus}."
        )
    rules.append(f"Scoring: {scoring_line(variant)}.")
    return rules


def _low_ace(variant: Variant) -> str:
    """The low ace's own value for the key rules, where it has one: it counts toward an opening."""
    if variant.ace_low_value is None:
        return ""
    return f" ({variant.ace_low_value} below the two of a run: {example_run(1, variant.run_minimum)})"


def render_rulebook(variant: Variant) -> str:
    """The rules of ``variant`` as a Markdown document."""
    sections: list[tuple[str, list[str]]] = [
        ("Players and cards", [_players(variant), _dealer(variant), _pack(variant)]),
        ("Card values", [_values(variant)]),
        (
            "A turn",
            [
                draw_words(variant).rulebook,
                TURN_END[variant.turn_discard].rulebook,
            ],
        ),
        (
            "Melds",
            [
                _sets(variant),
                f"A run is {variant.run_minimum} or more consecutive cards of one suit.",
                ace_words(variant).rulebook + _run_limit(variant),
                *([jokers_in_melds(variant)] if variant.jokers else []),
                "Melds on the table are never rearranged, only extended"
                + (", except when a joker is freed." if may_ever_swap(variant) else "."),
            ],
        ),
        (
            "Opening and building",
            [
                _opening(variant),
                "Once you have opened, you may add cards from your hand "
                "to any meld on the table, yours or another player's.",
            ],
        ),
        # A pack without jokers has none to lay or to free: the section would tell of none.
        *([("Jokers on the table", joker_rules(variant))] if variant.jokers else []),
        (
            "Going out",
            [
                going_out_rule(variant),
                "The hand ends at once: the others cannot lay off any cards.",
                *_kalooki(variant),
            ],
        ),
        ("Scoring", [_scoring(variant)]),
        ("The stock", _stock(variant)),
    ]
    # The name and the description are the file's text, not Markdown: a link in them shows its address.
    lines = [f"# {markdown_literal(variant.name)}", ""]
    if variant.description:
        lines += [markdown_literal(variant.description, opens_line=True), ""]
        # Under a built-in's own words, what the game changed of its knobs ("40 to open" above no minimum).
        changed = changes_note(variant)
        if changed:
            lines += [markdown_literal(changed, opens_line=True), ""]
    for title, paragraphs in sections:
        lines += [f"## {title}", ""]
        lines += [f"- {paragraph}" for paragraph in paragraphs]
        lines.append("")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m kalooki.rulebook``: the knob reference table's check and rewrite, which began here.
    The command reads and writes files and speaks to the terminal, so its body is the CLI package's
    (``kalooki_cli.knob_docs``), imported only when run: the library does not depend on the CLI."""
    knob_docs = importlib.import_module("kalooki_cli.knob_docs")
    status: int = knob_docs.main(argv)
    return status


if __name__ == "__main__":
    sys.exit(main())
