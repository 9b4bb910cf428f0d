"""The rules of one way of playing Kalooki, as a frozen pydantic model.

Every field is a rule that differs between the sources; its default is the
classic value, so this class is the one source of truth for the classic rules.
A variant file states only what differs from its base.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from kalooki.rules import RUN_MAX, SMALLEST_MELD
from kalooki.text import clipped_repr, control_class, first_control, space_class
from kalooki.variant_checks import cross_field_problems
from kalooki.wholenumbers import whole_floats_as_integers

AceInRuns = Literal["high_or_low", "high", "low", "wrap"]
DiscardDraw = Literal["always", "never", "after_opening", "before_opening", "meld_at_once"]
SetJokerRelease = Literal["three_card_set", "all_missing_suits", "any_missing_suit", "never"]
RunJokerRelease = Literal["exact_card", "never"]
GoingOut = Literal["discard_required", "discard_optional", "meld_required"]
TurnDiscard = Literal["required", "optional"]
Scoring = Literal["penalty", "winner_collects"]
StockExhausted = Literal["reshuffle_all", "reshuffle_keep_top", "end_hand"]
PlayDirection = Literal["clockwise", "counter_clockwise"]
DealDirection = Literal["as_play", "clockwise", "counter_clockwise"]
FirstDealer = Literal["seat_order", "high_card"]
JokerTaker = Literal["anyone", "other_players", "anyone_but_layer"]
SetSuits = Literal["distinct", "may_repeat"]
OpeningJokerValue = Literal["represented", "penalty"]

BaseName = Annotated[str, Field(min_length=1)]

PACK_SIZE = 52
MAX_HAND_SIZE = PACK_SIZE // 2
"""Most cards dealt to a hand: half a pack. Real tables deal 13 or so; past this size a hand's possible
melds grow too many for bots and hints to weigh in a moment (see ``bench/hostile_bench.py``)."""
MIN_PLAYERS = 2
MAX_PLAYERS = 8
"""Fewest and most players at any table: a variant's min_players and max_players lie within them, and so
does the list of players a save or a hosted table's view holds."""
MAX_POINTS = 1000
"""Upper bound of the point knobs (the ace's values, joker_penalty, kalooki_bonus, opening_threshold)."""
MAX_GOAL_SCORE = 1_000_000
"""Upper bound of goal_score: a game to more than this would never end."""
DEFER_CROSS_FIELD = "defer_cross_field"
SAVED_RULES = "saved_rules"
"""Validation context key: rules kalooki saved, read without the checks of values out of reach."""


def _schema_escape(code: int) -> str:
    return f"\\u{code:04x}"


PRINTABLE_LINE = f"^[^{control_class(_schema_escape)}]*$"
"""JSON Schema for one line of text without control characters or direction overrides: the class
the model's own validator refuses (:data:`kalooki.text.CONTROL_RANGES`), in JSON Schema's escapes."""

PRINTABLE_LINES = f"^[^{control_class(_schema_escape, line_breaks=True)}]*$"
"""The same for a text that may run over several lines (a quote written as a YAML block): line feeds
allowed, every other control character refused."""


def control_message(control: str | None = None, *, line_breaks: bool = False) -> str:
    """What is said of a text that holds a control character: by the loader, which names the character
    (``\\n``), and by an editor, whose schema pattern cannot. ``line_breaks``: the text may run over lines."""
    named = "" if control is None else f" ({control})"
    return f"holds a control character{named}: give plain text{'' if line_breaks else ' on one line'}"


PRINTABLE_LINE_SCHEMA: dict[str, Any] = {"pattern": PRINTABLE_LINE, "patternErrorMessage": control_message()}
"""A one-line text's pattern, with the words an editor shows when it does not match (not the regex)."""

BLANK_NAME = "is blank: give the variant a name"
NAME_LINE_SCHEMA: dict[str, Any] = {
    **PRINTABLE_LINE_SCHEMA,
    "allOf": [{"pattern": f"[^{space_class(_schema_escape)}]", "patternErrorMessage": BLANK_NAME}],
}
"""A name's patterns: one printable line, as :data:`PRINTABLE_LINE_SCHEMA`, and a character that is no
space. Two patterns, so that an editor says which of the two a name breaks, in the loader's words."""
PRINTABLE_LINES_SCHEMA: dict[str, Any] = {
    "pattern": PRINTABLE_LINES,
    "patternErrorMessage": control_message(line_breaks=True),
}


class Variant(BaseModel):
    """A complete, validated set of house rules.

    ``Variant(jokers=4)`` makes one in code; knobs it cannot take raise
    :class:`kalooki.knob_errors.KnobError`, a :class:`~kalooki.loader_refs.VariantError` in the loader's
    words (``Variant: jokers: expected a whole number, got 'x'``), still pydantic's ``ValidationError``.
    """

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        strict=True,
        title="Kalooki variant",
        json_schema_extra={
            "description": (
                "House rules for the rummy game Kalooki. A variant file states only what differs "
                "from its base: the variants named in `extends`, or the classic rules."
            ),
        },
    )

    name: Annotated[
        str,
        Field(
            min_length=1,
            description="The variant's name; defaults to the file's stem.",
            json_schema_extra=NAME_LINE_SCHEMA,
        ),
    ] = "classic"
    description: Annotated[
        str,
        Field(
            description="One line shown by `kalooki variants list`.",
            json_schema_extra=PRINTABLE_LINE_SCHEMA,
        ),
    ] = ""
    extends: Annotated[
        BaseName | list[BaseName] | None,
        Field(
            description=(
                "Base variant(s): a built-in name or a path relative to this file. "
                "With a list, later entries win."
            ),
        ),
    ] = None

    decks: Annotated[int, Field(ge=1, le=4, description="Standard 52-card packs shuffled together.")] = 2
    jokers: Annotated[int, Field(ge=0, le=8, description="Jokers added to the pack.")] = 2
    hand_size: Annotated[int, Field(ge=1, le=MAX_HAND_SIZE, description="Cards dealt to each player.")] = 13
    min_players: Annotated[
        int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS, description="Fewest players at the table.")
    ] = 2
    max_players: Annotated[
        int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS, description="Most players at the table.")
    ] = 4
    play_direction: Annotated[
        PlayDirection,
        Field(
            description=(
                "Which way play passes: clockwise is the order the players are listed in, "
                "counter_clockwise the reverse."
            ),
        ),
    ] = "clockwise"
    first_dealer: Annotated[
        FirstDealer,
        Field(
            description=(
                "Who deals the first hand: seat_order (the player whose turn comes just before the first "
                "one listed's: the last listed in clockwise play, the second counter-clockwise), high_card "
                "(each player draws a card from a shuffled pack, the highest rank deals, ace high; tied "
                "players draw again). The player after the dealer plays first."
            ),
        ),
    ] = "seat_order"
    deal_direction: Annotated[
        DealDirection,
        Field(
            description=(
                "Which way the deal passes from hand to hand: as_play (the way play goes), clockwise "
                "(to the next player listed), counter_clockwise (to the previous one)."
            ),
        ),
    ] = "as_play"
    upcard: Annotated[
        bool,
        Field(
            description=(
                "One card is turned face up at the deal to start the discard pile; false: the pile "
                "starts empty, with the first player's discard."
            ),
        ),
    ] = True

    ace_value: Annotated[
        int, Field(ge=0, le=MAX_POINTS, description="Points of an ace, in hand and in a meld.")
    ] = 11
    ace_low_value: Annotated[
        int | None,
        Field(
            ge=0,
            le=MAX_POINTS,
            description=(
                "Points of an ace that plays low in a run (A-2-3), in the meld's worth and so toward the "
                "opening; null: ace_value. In hand and in sets an ace always counts ace_value. Only with "
                "ace_in_runs: high_or_low or low (under wrap a run's ace counts ace_value wherever it sits)."
            ),
        ),
    ] = None
    joker_penalty: Annotated[
        int, Field(ge=0, le=MAX_POINTS, description="Points of a joker left in hand at the end of a hand.")
    ] = 25

    set_suits: Annotated[
        SetSuits,
        Field(
            description=(
                "distinct: a set's cards are all of different suits (so at most four naturals); "
                "may_repeat: a set may hold two cards of one suit (books, with two or more packs)."
            ),
        ),
    ] = "distinct"
    set_maximum: Annotated[
        int,
        Field(ge=SMALLEST_MELD, le=MAX_HAND_SIZE, description="Most cards a set may hold, jokers included."),
    ] = 4
    run_minimum: Annotated[int, Field(ge=SMALLEST_MELD, le=RUN_MAX, description="Fewest cards in a run.")] = 3
    ace_in_runs: Annotated[
        AceInRuns,
        Field(
            description=(
                "Where an ace may sit in a run: high_or_low (A-2-3 or Q-K-A), high (Q-K-A only), "
                "low (A-2-3 only), wrap (also K-A-2)."
            ),
        ),
    ] = "high_or_low"

    opening_threshold: Annotated[
        int,
        Field(
            ge=0,
            le=MAX_POINTS,
            description=(
                "Points a player's first meld action must total; what a joker counts toward it is "
                "opening_joker_value. 0 means no minimum."
            ),
        ),
    ] = 51
    opening_joker_value: Annotated[
        OpeningJokerValue,
        Field(
            description=(
                "What a joker in a meld is worth, and so counts toward the opening: represented (the card "
                "it stands for), penalty (joker_penalty points, whatever card it stands for)."
            ),
        ),
    ] = "represented"
    discard_draw: Annotated[
        DiscardDraw,
        Field(
            description=(
                "When the top discard may be taken: always, never, after_opening, before_opening, "
                "or meld_at_once (only to lay it in the same turn: meld, build or swap it for a table joker)."
            ),
        ),
    ] = "always"

    set_joker_release: Annotated[
        SetJokerRelease,
        Field(
            description=(
                "What frees a joker from a set: three_card_set (only a three-card set gives up a joker: "
                "one for two of its missing suits added together; adding one closes it for good), "
                "all_missing_suits (also cards added to a larger set that take it past its maximum, a "
                "joker for each), any_missing_suit (one card of a missing suit takes the joker's place), "
                "never."
            ),
        ),
    ] = "three_card_set"
    run_joker_release: Annotated[
        RunJokerRelease,
        Field(description="What frees a joker from a run: exact_card (the card it stands for), never."),
    ] = "exact_card"
    joker_release_requires_opening: Annotated[
        bool, Field(description="Only a player who has opened may take a joker from the table.")
    ] = True
    joker_taker: Annotated[
        JokerTaker,
        Field(
            description=(
                "Who may take a joker from a table meld: anyone, other_players (only from melds "
                "another player laid), or anyone_but_layer (anyone but the player who laid that joker, "
                "who may have built it onto another player's meld)."
            ),
        ),
    ] = "anyone"
    released_joker_must_be_melded: Annotated[
        bool, Field(description="A freed joker must go into a new meld in the same turn.")
    ] = False

    going_out: Annotated[
        GoingOut,
        Field(
            description=(
                "discard_required: the last card must be discarded; discard_optional: a player may "
                "also go out by melding or building their last card; meld_required: the last card must "
                "be melded or built, and a discard that would empty the hand is refused."
            ),
        ),
    ] = "discard_required"
    turn_discard: Annotated[
        TurnDiscard,
        Field(
            description=(
                "required: every turn ends with a discard (or by going out); optional: a player who has "
                "drawn and owes the turn nothing may end it without discarding (end)."
            ),
        ),
    ] = "required"
    kalooki_bonus: Annotated[
        int,
        Field(
            ge=0,
            le=MAX_POINTS,
            description=(
                "What going Kalooki costs every loser: added to their penalty (penalty scoring) "
                "or taken from their score (winner_collects)."
            ),
        ),
    ] = 25
    kalooki_allows_building: Annotated[
        bool,
        Field(
            description=(
                "Whether building on (or taking a joker from) a meld that was on the table before the "
                "going-out turn still counts as going Kalooki; melds laid in that turn, and built on, are "
                "part of laying the hand down either way."
            ),
        ),
    ] = False

    scoring: Annotated[
        Scoring,
        Field(
            description=(
                "penalty: losers add their hand value, lowest total wins; winner_collects: the winner "
                "adds the sum of the losers' hands, first to the goal wins."
            ),
        ),
    ] = "penalty"
    goal_score: Annotated[
        int,
        Field(
            ge=1,
            le=MAX_GOAL_SCORE,
            description=(
                "penalty: the total that ends the game (or eliminates a player, with elimination), "
                "reached, not passed: a table where a player is out over 150 writes 151; "
                "winner_collects: the score that wins."
            ),
        ),
    ] = 150
    elimination: Annotated[
        bool,
        Field(
            description=(
                "Penalty scoring: a player reaching goal_score is out and the last one left wins, "
                "instead of the game ending."
            ),
        ),
    ] = False
    stock_exhausted: Annotated[
        StockExhausted,
        Field(
            description=(
                "When the last stock card is drawn: reshuffle_all (the whole discard pile becomes the "
                "stock), reshuffle_keep_top (all but its top card), end_hand (the hand ends when the "
                "drawer's turn does, unscored unless they went out in it)."
            ),
        ),
    ] = "reshuffle_all"

    if not TYPE_CHECKING:  # mypy reads the keywords from the fields (pydantic's plugin), as before

        def __init__(self, /, **knobs: Any) -> None:
            try:
                super().__init__(**knobs)
            except ValidationError as error:
                # Loaded only to refuse: the loader's modules import this one.
                from kalooki.knob_errors import knob_error

                raise knob_error(error, knobs) from None

        # Pydantic's own mark of its __init__: validation that makes a variant without calling it (the
        # loader's model_validate, with its context) stays as it was, not routed through this one.
        __init__.__pydantic_base_init__ = True

    def __hash__(self) -> int:
        # Pydantic's frozen hash takes the fields as they are, and ``extends`` may be a list: a variant with
        # several bases is a key of simulate's plans and memos too (its list hashed as a tuple; the list is
        # looked for only where it is, as a hash is asked for often).
        values = tuple(self.__dict__.values())
        if isinstance(self.extends, list):
            values = tuple(tuple(value) if isinstance(value, list) else value for value in values)
        return hash(values)

    @field_validator("name", "description")
    @classmethod
    def _one_printable_line(cls, value: str) -> str:
        # Both are shown on the terminal: a control character there could retitle it or clear it.
        control = first_control(value)
        if control is not None:
            raise ValueError(control_message(control))
        return value

    @field_validator("name")
    @classmethod
    def _not_blank(cls, value: str, info: ValidationInfo) -> str:
        # A name of spaces titles the game and the variants list with nothing. A save keeps the name its
        # variant had: one made before blank names were refused still resumes.
        saved = isinstance(info.context, dict) and info.context.get(SAVED_RULES)
        if not saved and not value.strip():
            raise ValueError(BLANK_NAME)
        return value

    @model_validator(mode="before")
    @classmethod
    def _whole_numbers(cls, data: Any) -> Any:
        return whole_floats_as_integers(cls, data)

    @model_validator(mode="after")
    def _check_consistency(self, info: ValidationInfo) -> Variant:
        # The loader asks to defer these so it can report each one at its own key.
        if isinstance(info.context, dict) and info.context.get(DEFER_CROSS_FIELD):
            return self
        problems = cross_field_problems(self)
        if isinstance(info.context, dict) and info.context.get(SAVED_RULES):
            problems = [problem for problem in problems if not problem.out_of_reach]
        if problems:
            raise ValueError(problems[0][1])
        return self

    @property
    def pack_size(self) -> int:
        return self.decks * PACK_SIZE + self.jokers

    @property
    def low_ace_value(self) -> int:
        """What an ace at the low end of a run (A-2-3) is worth in a meld."""
        return self.ace_value if self.ace_low_value is None else self.ace_low_value


LATER_KNOBS: dict[str, object] = {
    "first_dealer": "seat_order",
    "deal_direction": "as_play",
    "upcard": True,
    "ace_low_value": None,
    "set_suits": "distinct",
    "set_maximum": 4,
    "joker_taker": "anyone",
    "turn_discard": "required",
    "opening_joker_value": "represented",
}
"""Knobs added after the first save and log formats, with the value that plays as before they existed.

A state digest leaves them out at that value, so logs written before they existed still replay.
"""

UNWRITTEN_DEFAULTS: dict[str, object] = {"turn_discard": "required", "opening_joker_value": "represented"}
"""Knobs a saved state, a log's header or a sweep's folder leaves out at this value, their default: a
save, log or sweep of a variant that does not use them reads exactly as one written before they existed."""


def variant_json(variant: Variant) -> dict[str, Any]:
    """The rules as a save, a log's header, a game's state or a sweep's folder writes them
    (:data:`UNWRITTEN_DEFAULTS`)."""
    data = variant.model_dump(mode="json", exclude={"extends"})
    for knob, default in UNWRITTEN_DEFAULTS.items():
        if data.get(knob) == default:
            del data[knob]
    return data


KNOB_NAMES: tuple[str, ...] = tuple(
    name for name in Variant.model_fields if name not in ("name", "description", "extends")
)
"""The fields that are rules (everything but the variant's name, description and bases)."""


CLASSIC = Variant()
"""The classic rules: every knob at its default."""


def not_a_variant(value: object) -> str | None:
    """Why ``value`` is no :class:`Variant` for a game, a simulation or the solver, or None: a variant's
    name given for the variant is the likely slip (it failed deep inside, as an AttributeError)."""
    if isinstance(value, Variant):
        return None
    shown = clipped_repr(value)
    return f"the variant must be a Variant (kalooki.loader.load_variant gives one), not {shown}"
