"""Knobs and their values as players name them in their own words: the "did you mean" an unknown key or
value gets where spelling alone would offer another rule or the opposite (:mod:`kalooki.validation`)."""

from __future__ import annotations

KNOB_IN_PLAYERS_WORDS: dict[str, tuple[frozenset[str], ...]] = {
    knob: tuple(frozenset(words.split()) for words in phrases)
    for knob, phrases in {
        "extends": ("variant", "base", "base variant", "based on", "inherit", "inherit from", "parent"),
        # Before joker_penalty, whose "joker value" a joker's opening value holds too.
        "opening_joker_value": ("opening joker value", "open joker value", "opening joker point"),
        "joker_penalty": (
            "joker cost",
            "joker value",
            "joker point",
            "joker worth",
            "joker score",
            "penalty joker",
        ),
        "ace_value": ("ace point", "ace worth", "ace score", "ace cost"),
        # A Kalooki's penalty is the bonus's other name (spelling alone offered joker_penalty, another rule).
        "kalooki_bonus": ("kalooki penalty", "kalooki point", "kalooki score", "kalooki value"),
        # Before goal_score, whose "first to", "play to" first_to_open, first_to_deal, play_to_left hold too.
        "first_dealer": ("to deal", "first deal", "deal first"),
        "play_direction": ("to left", "to right"),
        "opening_threshold": (
            "open point",
            "opening point",
            "open score",
            "open min",
            "open minimum",
            "to open",
            "open",
            "first meld",
            "initial meld",
            "opening meld",
            "open with",
        ),
        "goal_score": (
            "target",
            "target point",
            "first to",
            "play to",
            "game to",
            "out at",
            "score limit",
            "point limit",
            "game point",
            "point win",
            "score win",
            "winning score",
        ),
        "scoring": ("winner take all", "winner collect", "winner take"),
        "stock_exhausted": ("reshuffle", "stock run out", "stock empty", "empty stock"),
        "max_players": ("player", "player count", "number player", "num player"),
        "decks": ("pack",),
        "jokers": ("wild card",),
        "hand_size": ("card dealt", "card player", "card each"),
        "discard_draw": ("pick discard", "pickup discard", "take discard", "draw discard", "pickup rule"),
        "run_minimum": ("run length", "run size", "min run", "shortest run"),
        "set_maximum": ("set size", "max set", "biggest set", "largest set"),
    }.items()
}
"""The knobs as players name them in their own words (a knob's words, singular: ``joker_cost``,
``points_to_open``, ``pick_up_discard``), where spelling would offer another rule (``jokers``,
``joker_taker``, ``turn_discard``). A phrase of one word is the whole key (``open``), not a word of it."""

_YES_WORDS = frozenset(
    [
        "ja",
        "jawohl",
        "oui",
        "si",
        "sí",
        "sì",
        "sim",
        "da",
        "ano",
        "áno",
        "tak",
        "igen",
        "evet",
        "kyllä",
        "jah",
        "taip",
        "jā",
        "vrai",
        "wahr",
        "verdadero",
        "vero",
        "verdadeiro",
        "waar",
        "adevărat",
        "adevarat",
        "pravda",
        "sann",
        "sant",
        "да",
        "так",
        "ναι",
        "yep",
        "yup",
        "yeah",
        "sure",
        "ok",
        "okay",
        "t",
        "1",
    ]
)
_NO_WORDS = frozenset(
    [
        "nein",
        "non",
        "nee",
        "nej",
        "nei",
        "não",
        "nao",
        "nu",
        "ne",
        "nie",
        "nem",
        "hayır",
        "ei",
        "faux",
        "falsch",
        "falso",
        "onwaar",
        "fals",
        "nepravda",
        "usant",
        "нет",
        "ні",
        "όχι",
        "nope",
        "nah",
        "f",
        "0",
    ]
)
"""Yes and no (and true and false) in the languages of the tables Kalooki's families play at, and in
English as it is spoken (and as digits, 1 and 0): ``elimination: ja`` means true."""


def boolean_word_hint(text: str) -> str:
    """How to write the boolean a word for yes or no in another language (or in speech) means, or ``""``."""
    word = text.strip().lower()
    if word in _YES_WORDS or word in _NO_WORDS:
        return f"only true and false are booleans: write {'true' if word in _YES_WORDS else 'false'}"
    return ""


VALUE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "counter_clockwise": (
        "anticlockwise",
        "anti_clockwise",
        "anti-clockwise",
        "counterclockwise",
        "ccw",
        "right",
        "to_the_right",
        "to_right",
    ),
    "clockwise": ("cw", "left", "to_the_left", "to_left"),
    "meld_at_once": ("meld_immediately", "immediately", "meld_now", "lay_at_once", "lay_immediately"),
}
"""Other words for an allowed value, suggested for it wherever it is allowed (``play_direction``,
``deal_direction``, ``discard_draw``): spelling alone would offer ``clockwise`` for ``anticlockwise``, the
opposite, and nothing for ``meld_immediately``. Play that passes to the left is clockwise (the rulebook
says so): ``left`` and ``right`` are the directions as a table says them."""
