"""Game scripts: a YAML file that sets up a game and lists its moves, and playing one through the engine.

A script names the variant (``variant`` and ``set``), the players in seat order
(a name, or ``{name, bot}`` for a seat the bot plays), a ``seed`` for every card
the script does not place, and ``hands``: for each hand an optional fixed ``deal``
and the ``moves``, each ``{player: command}`` in the move language (with ``refused:`` beside it where
the engine must refuse it: :mod:`kalooki.script_refusals`).

Loading checks everything that can be checked without playing, at its file
position: unknown keys, card notation, move syntax, player and bot names, and
the deal against the pack. Playing it (:func:`kalooki.script_run.run_script`) then reports the first
illegal move as ``hand H, move K (player: command): reason``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from os import PathLike
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from kalooki import rules
from kalooki.bots import BUILTIN_BOTS, BotProtocolError, bot_names, check_bot
from kalooki.cards import Card, CardError, full_pack, parse_card
from kalooki.engine import FixedDeal, SetupError, overused_cards
from kalooki.gamestate import LONGEST_SEED
from kalooki.loader import MappingOverrides, resolve_variant
from kalooki.moves import Action, MoveSyntaxError, parse_move
from kalooki.script_refusals import BOOLEAN_WORDS_PATTERN, REFUSED, take_refusals
from kalooki.set_options import head_count_noted
from kalooki.statecheck import check_player_name
from kalooki.text import clipped_repr, name_key, name_lookalike
from kalooki.textpatterns import CARD_PATTERN_MESSAGE, CARD_TEXT, MOVE_TEXT, card_pattern
from kalooki.variant import Variant
from kalooki.variant_changes import builtin_name_warning
from kalooki.wholenumbers import whole_floats_as_integers
from kalooki.yamlio import (
    Diagnostic,
    Location,
    YamlDocument,
    YamlError,
    load_yaml_file,
    load_yaml_text,
    merge_recovered,
    sort_diagnostics,
    suggest,
    text_lookalikes,
    validation_diagnostics,
)

MAX_BOT_HANDS = 1000
"""A bot-only game that has not ended after this many hands is stopped (a variant where nobody can win)."""


class ScriptError(YamlError):
    """A game script that cannot be played as written: positioned diagnostics."""


CardText = Annotated[
    str, Field(description="A card: rank A 2-9 T J Q K (or 10) and suit C D H S, or JK."), CARD_TEXT
]
MoveText = Annotated[str, MOVE_TEXT]


class PlayerSeat(BaseModel):
    """A seat given as a mapping: a name, and the bot that plays it (none: the script plays it)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="player")

    name: Annotated[str, Field(min_length=1, description="The player's name, as moves refer to it.")]
    bot: Annotated[
        str | None,
        Field(
            description="The bot that plays this seat's turns: random, greedy, expert, or a plug-in's name.",
            examples=list(BUILTIN_BOTS),
        ),
    ] = None


class DealSpec(BaseModel):
    """A fixed deal: each player's cards, the face-up card and the top of the stock; the rest is shuffled."""

    model_config = ConfigDict(
        extra="allow",
        strict=True,
        title="deal",
        json_schema_extra=lambda schema: schema.update(
            additionalProperties={
                "title": "a player's cards",
                "type": "array",
                "items": {
                    "type": "string",
                    "pattern": card_pattern(),
                    "patternErrorMessage": CARD_PATTERN_MESSAGE,
                },
                "description": "A player's hand: exactly hand_size cards.",
            }
        ),
    )

    discard: Annotated[
        CardText | None, Field(description="The card turned face up to start the discard pile.")
    ] = None
    stock: Annotated[
        list[CardText],
        Field(description="The top of the stock, in draw order; the rest is shuffled beneath."),
    ] = []


Move = Annotated[
    dict[str, MoveText],
    Field(
        min_length=1,
        max_length=1,
        description="One move: the player's name and a command (draw stock, meld 7H 8H 9H, discard KD, ...).",
    ),
]


class HandScript(BaseModel):
    """One hand of the script."""

    model_config = ConfigDict(extra="forbid", strict=True, title="hand")

    deal: Annotated[DealSpec | None, Field(description="A fixed deal for this hand (default: shuffled).")] = (
        None
    )
    moves: Annotated[
        list[Move], Field(description="The moves, in order; bots play their own turns between them.")
    ] = []


class GameScript(BaseModel):
    """A scripted game of Kalooki."""

    model_config = ConfigDict(extra="forbid", strict=True, title="Kalooki game script")

    variant: Annotated[
        str, Field(description="A built-in variant's name, or a path relative to the script.")
    ] = "classic"
    set: Annotated[
        dict[str, Any],
        Field(description="Knob overrides on top of the variant, e.g. {opening_threshold: 40}."),
    ] = {}
    players: Annotated[
        list[Annotated[str, Field(min_length=1)] | PlayerSeat],
        Field(
            min_length=2,
            description=(
                "The players in seat order; the first plays first in hand 1 "
                "(under first_dealer: high_card, the seed's cut for the deal decides)."
            ),
        ),
    ]
    seed: Annotated[
        int | None,
        Field(
            ge=-LONGEST_SEED, le=LONGEST_SEED, description="Shuffles every card the script does not place."
        ),
    ] = None
    hands: Annotated[list[HandScript], Field(description="The hands, in order.")] = []

    @model_validator(mode="before")
    @classmethod
    def _whole_numbers(cls, data: Any) -> Any:
        return whole_floats_as_integers(cls, data)


@dataclass(frozen=True)
class ScriptMove:
    hand: int
    number: int
    player: str
    command: str
    action: Action
    where: Location
    """Where the script writes the command: a move the engine refuses is reported there."""
    refused: str | None = None
    """None: the move must be played. Else the script expects the engine to refuse it, with a message
    holding these words ("": any refusal); the run then goes on, the move changing nothing."""


@dataclass(frozen=True)
class LoadedScript:
    """A script checked against its variant: ready to play."""

    source: str
    variant: Variant
    players: tuple[str, ...]
    bots: dict[int, str]
    seed: int | None
    deals: tuple[FixedDeal | None, ...]
    moves: tuple[tuple[ScriptMove, ...], ...]
    deal_places: tuple[Location, ...] = ()
    """Where each hand's deal is written (its hand, when it gives none): a deal the engine refuses
    only when it deals (a discard the variant turns up no card for) is reported there."""
    players_place: Location | None = None
    """Where the players are written: the engine's refusal of them at the start is reported there."""
    warnings: tuple[Diagnostic, ...] = ()
    """What the script plays but should not go unsaid: a variant file named as a built-in with other rules
    (:func:`kalooki.variant_changes.builtin_name_warning`), whose games would read as the built-in's."""


def load_script(path: str | Path) -> LoadedScript:
    """Read and check a game script; raises :class:`ScriptError` (every problem, positioned)."""
    if not isinstance(path, str | PathLike):  # None or a number was a bare TypeError from open
        raise not_given("", f"a script is given by its path, not {clipped_repr(path)}")
    try:
        document = load_yaml_file(path)
    except YamlError as error:
        raise ScriptError(merge_recovered(error, _checker(Path(path).parent))) from None
    return check_script(document, Path(path).parent)


def load_script_text(text: str, source: str = "<script>", base_dir: str | Path = ".") -> LoadedScript:
    """Check a game script given as text (or UTF-8 bytes), named ``source``; its variant's path is relative
    to ``base_dir``. Raises :class:`ScriptError` (every problem, positioned)."""
    # As the loader's load_variant_text: None or a number for the text, or None for the folder, was a bare
    # TypeError (object of type 'NoneType' has no len()).
    if not isinstance(text, str | bytes):
        raise not_given(source, f"a script's text is a string or UTF-8 bytes, not {clipped_repr(text)}")
    if not isinstance(base_dir, str | PathLike):
        raise not_given(source, f"base_dir must be a folder's path, not {clipped_repr(base_dir)}")
    try:
        document = load_yaml_text(text, source)
    except YamlError as error:
        raise ScriptError(merge_recovered(error, _checker(Path(base_dir)))) from None
    return check_script(document, Path(base_dir))


def not_given(source: object, said: str) -> ScriptError:
    """The refusal of an argument given in code (no place in a file): ``said``, named by ``source``."""
    return ScriptError([Diagnostic(str(source), 0, 0, "", said)])


def _checker(base_dir: Path) -> Callable[[YamlDocument], list[Diagnostic]]:
    """What :func:`check_script` finds in a document, as a list (for data recovered from YAML errors)."""

    def check(document: YamlDocument) -> list[Diagnostic]:
        try:
            check_script(document, base_dir)
        except ScriptError as error:
            return list(error.diagnostics)
        return []

    return check


A_MOVE = "a move is one player's name and their command (ann: draw stock)"
_A_MOVE_KEY = re.compile(r"hands\[\d+\]\.moves\[\d+\]")


def _in_a_moves_words(problem: Diagnostic) -> Diagnostic:
    """A move of the wrong shape said what a move is: two players' moves under one '-' (an indent gone
    wrong) were told only "expected at most 1 item, got 2", and 'ann draw stock' "expected a mapping"."""
    if not _A_MOVE_KEY.fullmatch(problem.key):
        return problem
    if problem.message.startswith("expected at most 1 item, got "):
        count = problem.message.removeprefix("expected at most 1 item, got ")
        message = f"{A_MOVE}, this one holds {count}: write each move on its own '- ' line"
    elif problem.message.startswith("expected at least 1 item"):
        message = f"{A_MOVE}, this one is empty"
    elif problem.message.startswith("expected a mapping"):
        message = f"{problem.message}: {A_MOVE}, a colon after the name"
    else:
        return problem
    return replace(problem, message=message)


def check_script(document: YamlDocument, base_dir: Path) -> LoadedScript:
    """Validate a loaded document as a game script, resolving its variant relative to ``base_dir``."""
    data, refusals, refusal_problems = take_refusals(document)
    try:
        script = GameScript.model_validate(data)
    except ValidationError as error:
        # Report the variant's problems too (an unknown name, a bad knob in set:), as long as the
        # variant and set: keys are themselves the right kind of value.
        problems = [
            _in_a_moves_words(problem)
            for problem in validation_diagnostics(error, data, document, model=GameScript)
        ]
        problems += refusal_problems
        name = document.data.get("variant", "classic")
        overrides = document.data.get("set")
        if isinstance(name, str) and (overrides is None or isinstance(overrides, dict)):
            _load_script_variant(document, name, base_dir, problems)
        problems += text_lookalikes(document, problems)
        raise ScriptError(sort_diagnostics(problems)) from None
    problems = refusal_problems
    warnings: list[Diagnostic] = []
    variant = _load_script_variant(document, script.variant, base_dir, problems, warnings)
    names: list[str] = []
    bots: dict[int, str] = {}
    known_bots = bot_names()
    for seat, entry in enumerate(script.players):
        name = entry if isinstance(entry, str) else entry.name
        where = ("players", seat) if isinstance(entry, str) else ("players", seat, "name")
        try:  # the engine's own check, here so that it is placed: a name is shown on every screen
            check_player_name(name)
        except SetupError as error:
            problems.append(document.location(where).error(str(error)))
        keys = [name_key(other) for other in names]
        if name in names:
            problems.append(
                document.location(where).error(f"'{name}' is already seat {names.index(name) + 1}")
            )
        elif name_key(name) in keys:
            # "ann" and "ANN" both read "Ann" where a sentence begins ("Ann plays first"), as hot-seat
            # play and a hosted table refuse them.
            other = keys.index(name_key(name))
            problems.append(
                document.location(where).error(
                    f"'{name}' reads as seat {other + 1}'s '{names[other]}' on the screens"
                    f"{name_lookalike(name, 'its')}; give each player a different name"
                )
            )
        names.append(name)
        if isinstance(entry, PlayerSeat) and entry.bot is not None:
            if entry.bot not in known_bots:
                close = suggest(entry.bot, known_bots)
                hint = f"; did you mean '{close}'?" if close else f" (the bots are {', '.join(known_bots)})"
                problems.append(
                    document.location(("players", seat, "bot")).error(f"unknown bot '{entry.bot}'{hint}")
                )
            else:
                try:  # a plug-in still written as choose(game) is refused here, at its seat, before any play
                    check_bot(entry.bot)
                except BotProtocolError as error:
                    problems.append(document.location(("players", seat, "bot")).error(str(error)))
            bots[seat] = entry.bot
    if variant is not None and not problems and not rules.may_play(variant, len(names)):
        problems.append(
            document.location(("players",)).error(
                f"{len(names)} players: the variant '{variant.name}' is for {rules.player_counts(variant)}"
                f"{rules.seating_note(variant)}"
            )
        )
    deals: list[FixedDeal | None] = []
    moves: list[tuple[ScriptMove, ...]] = []
    for number, hand in enumerate(script.hands, start=1):
        path = ("hands", number - 1)
        deals.append(
            None if hand.deal is None else _check_deal(hand.deal, document, path, names, variant, problems)
        )
        checked = _check_moves(hand.moves, document, path, number, names, problems)
        moves.append(
            tuple(replace(move, refused=refusals.get((number - 1, move.number - 1))) for move in checked)
        )
    problems += text_lookalikes(document, problems)
    if problems or variant is None:
        raise ScriptError(sort_diagnostics(problems))
    return LoadedScript(
        source=document.source,
        variant=variant,
        players=tuple(names),
        bots=bots,
        seed=script.seed,
        deals=tuple(deals),
        moves=tuple(moves),
        deal_places=tuple(document.location(("hands", hand, "deal")) for hand in range(len(script.hands))),
        players_place=document.location(("players",)),
        warnings=tuple(warnings),
    )


def _load_script_variant(
    document: YamlDocument,
    name: str,
    base_dir: Path,
    problems: list[Diagnostic],
    warnings: list[Diagnostic] | None = None,
) -> Variant | None:
    """The script's variant with its ``set:`` applied; on errors, adds them to ``problems`` (None).
    A variant file named as a built-in with other rules adds validate's warning to ``warnings``.

    None, not classic: the deals are then checked for their cards alone, since a deal's size and
    pack measured against another variant's would be errors of their own (14 cards where classic
    deals 13), naming a variant the script never asked for."""
    try:
        resolved = resolve_variant(
            name,
            base_dir=base_dir,
            mapping_overrides=MappingOverrides(document, ("set",)),
            reference=document.location(("variant",)),
        )
        if warnings is not None and (warning := builtin_name_warning(resolved)) is not None:
            warnings.append(warning)
        return resolved.variant
    except YamlError as error:
        problems.extend(head_count_noted(item, SEATED_BY_SCRIPT, "set.") for item in error.diagnostics)
        return None


SEATED_BY_SCRIPT = "a script seats one player for each entry of its players: list"
"""Where a game script's number of players comes from (its ``set: {players: 3}`` asks for it)."""


def _card_at(
    document: YamlDocument, path: tuple[str | int, ...], text: str, problems: list[Diagnostic]
) -> Card:
    try:
        return parse_card(text)
    except CardError as error:
        problems.append(document.location(path).error(str(error)))
        return -1


def _check_deal(
    deal: DealSpec,
    document: YamlDocument,
    path: tuple[str | int, ...],
    names: list[str],
    variant: Variant | None,
    problems: list[Diagnostic],
) -> FixedDeal:
    where = (*path, "deal")
    before = len(problems)
    hands: dict[int, list[Card]] = {}
    # Every placed card with where it is written, in file order, to point at the one too many.
    placed: list[tuple[Card, tuple[str | int, ...]]] = []
    for name, cards in (deal.model_extra or {}).items():
        if name not in names:
            close = suggest(name, names)
            hint = f"; did you mean '{close}'?" if close else f" (the players are {', '.join(names)})"
            if name == "moves":  # indented one step too far, under deal: as its players' cards are
                hint += ": a hand's moves go beside its deal, not in it (write 'moves:' as far in as 'deal:')"
            problems.append(document.key_location((*where, name)).error(f"'{name}' is not a player{hint}"))
            continue
        if not isinstance(cards, list) or not all(isinstance(card, str) for card in cards):
            problems.append(
                document.location((*where, name)).error("expected a list of cards, e.g. [7H, 8H, JK]")
            )
            continue
        parsed = [_card_at(document, (*where, name, i), text, problems) for i, text in enumerate(cards)]
        if variant is not None and len(parsed) != variant.hand_size:
            problems.append(
                document.location((*where, name)).error(
                    f"{name} is dealt {len(parsed)} cards; "
                    f"the variant '{variant.name}' deals {variant.hand_size}"
                )
            )
        hands[names.index(name)] = parsed
        placed += [(card, (*where, name, i)) for i, card in enumerate(parsed)]
    discard = (
        None if deal.discard is None else _card_at(document, (*where, "discard"), deal.discard, problems)
    )
    if discard is not None:
        placed.append((discard, (*where, "discard")))
    stock = [_card_at(document, (*where, "stock", i), text, problems) for i, text in enumerate(deal.stock)]
    placed += [(card, (*where, "stock", i)) for i, card in enumerate(stock)]
    if len(problems) > before or variant is None:
        return FixedDeal()
    pack = full_pack(variant.decks, variant.jokers)
    overused = overused_cards(Counter(card for card, _ in placed), pack)
    used: Counter[Card] = Counter()
    located = sorted(
        ((document.location(where), card) for card, where in placed),
        key=lambda item: (item[0].line, item[0].column),
    )
    for location, card in located:
        used[card] += 1
        if card in overused and used[card] == pack[card] + 1:  # said where the copy the pack lacks is
            problems.append(location.error(overused[card]))
    return FixedDeal(hands=hands, discard=discard, stock_top=stock)


def _check_moves(
    entries: list[dict[str, str]],
    document: YamlDocument,
    path: tuple[str | int, ...],
    hand: int,
    names: list[str],
    problems: list[Diagnostic],
) -> list[ScriptMove]:
    moves: list[ScriptMove] = []
    for index, entry in enumerate(entries):
        ((player, command),) = entry.items()
        where = (*path, "moves", index, player)
        if player == REFUSED and player not in names:
            continue  # told by take_refusals
        if player not in names:
            close = suggest(player, names)
            hint = f"; did you mean '{close}'?" if close else f" (the players are {', '.join(names)})"
            problems.append(document.key_location(where).error(f"'{player}' is not a player{hint}"))
            continue
        location = document.location(where)
        try:
            action = parse_move(command)
        except MoveSyntaxError as error:
            problems.append(location.error(str(error)))
            continue
        moves.append(ScriptMove(hand, index + 1, player, command, action, location))
    return moves


def game_script_schema() -> dict[str, Any]:
    """The JSON Schema of a game script (``schemas/game-script.schema.json``), draft-07 for editors."""
    from kalooki.loader import builtin_variant_names
    from kalooki.provenance import KEYS as PROVENANCE_KEYS
    from kalooki.schema import labelled, variant_reference, variant_schema

    schema = GameScript.model_json_schema(mode="validation")
    properties = schema["properties"]
    # Read as extends is (a file named without a slash or .yaml, in any case, is refused): the names
    # complete, and a misspelt one is flagged.
    properties["variant"].update(variant_reference(any_case=True), examples=builtin_variant_names())
    knobs = variant_schema()["properties"]
    # The ``set`` mapping takes the variant's knobs, so editors complete and explain them there too.
    properties["set"] = {
        "description": properties["set"]["description"],
        "type": "object",
        "properties": {
            name: knob for name, knob in knobs.items() if name not in ("extends", *PROVENANCE_KEYS)
        },
        "additionalProperties": False,
    }
    # A move that is no mapping was told 'Incorrect type. Expected "object(moves)"' in the editor. It has no
    # key of its own to refuse (its command is checked by its own pattern), whose words this would replace.
    move = schema["$defs"]["HandScript"]["properties"]["moves"]["items"]
    move["errorMessage"] = "a move is one player's name and their command (ann: draw stock)"
    # Beside a move, 'refused' (taken out before the model reads the move, take_refusals): one key more,
    # and still one player's move.
    del move["maxProperties"]
    move["if"] = {"required": [REFUSED]}
    move["then"] = {"maxProperties": 2}
    move["else"] = {"maxProperties": 1}
    move["properties"] = {
        REFUSED: {
            "type": ["boolean", "string"],
            "pattern": r"\S",  # words, not spaces
            "patternErrorMessage": "write true, or the words the refusal must hold",
            # yes, no, "true"...: text meant as a boolean, which the loader refuses too (BOOLEAN_WORDS).
            "not": {
                "type": "string",
                "pattern": BOOLEAN_WORDS_PATTERN,
                "patternErrorMessage": "write true or false without quotes",
            },
            "errorMessage": "write true, or the words the refusal must hold (true and false without quotes)",
            "description": "The script expects this move refused, and goes on: true for any refusal, or "
            "words the refusal must hold (any case).",
            "examples": [True, "worth 21 points"],
        }
    }
    # A deal that is no mapping was told 'Incorrect type. Expected "deal | null"' (its anyOf's two
    # branches): one mapping-or-null, whose own words the editor says.
    hand = schema["$defs"]["HandScript"]["properties"]
    spec = schema["$defs"].pop("DealSpec")
    hand["deal"] = {
        **{key: value for key, value in spec.items() if key not in ("title", "type", "description")},
        **{key: value for key, value in hand["deal"].items() if key != "anyOf"},
        "type": ["object", "null"],
        "errorMessage": "expected a mapping: each player's cards (ann: [7H, 8H, JK]), discard and stock",
    }
    return labelled("game-script", schema)
