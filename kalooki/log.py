"""Game logs: every event of a game, one JSON object a line, and their replay through the engine.

The first record names the variant, the players and the seed. Deals and reshuffles
record every card's place, so a replay needs no random numbers; each action's last
event carries a digest of the state it led to, so a replay confirms every state.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kalooki.cards import parse_card, parse_cards
from kalooki.engine import DEFAULT_TURN_LIMIT, MAX_TURN_LIMIT, Event, FixedDeal, Game, IllegalMoveError
from kalooki.errors import KalookiError
from kalooki.events import meld_groups, read_as_of
from kalooki.file_kinds import LOG_FORMAT
from kalooki.jsonio import is_whole_number
from kalooki.moves import END_TURN, Action, Build, Discard, Draw, Swap, meld_of
from kalooki.saved_rules import SavedRulesError, read_saved_rules
from kalooki.statecheck import MAX_NAME
from kalooki.text import clipped, clipped_repr, escape_controls, name_key, name_lookalike
from kalooki.variant import LATER_KNOBS, variant_json

LOG_VERSION = 1
ACTION_EVENTS = ("draw", "meld", "build", "release", "discard", "end_turn")
LATER_RECORDS = ("deal", "reshuffle", "stock_out", "hand_end", "eliminated", "game_end")
"""The records of a log other than its first and the actions."""


class ReplayError(KalookiError):
    """A log that does not reproduce: the message names the first record that differs."""


def state_digest(game: Game) -> str:
    """A short fingerprint of everything the players' cards and scores depend on."""
    state = game.to_json()
    # The turn limit is not part of the position (and logs from before it was saved must still match).
    for private in ("rng", "undo", "seed", "turn_limit"):
        state.pop(private, None)
    # What older logs could not hold is left out while it plays as before, so they still replay.
    variant = state["variant"]
    for knob, before in LATER_KNOBS.items():
        if variant.get(knob) == before:
            variant.pop(knob, None)
    state["turn"].pop("laid", None)
    state.pop("dealer", None)
    for result in state["results"]:
        result.pop("dealer", None)
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def header_record(game: Game) -> dict[str, Any]:
    return {
        "type": "game",
        "format": LOG_FORMAT,
        "version": LOG_VERSION,
        "variant": variant_json(game.variant),
        "players": list(game.players),
        "seed": game.seed,
        # Only a game with another turn limit says so: a replay needs it to stop the hand where it stopped.
        **({"turn_limit": game.turn_limit} if game.turn_limit != DEFAULT_TURN_LIMIT else {}),
    }


class GameRecorder:
    """Collects a game's records: call :meth:`record` with the events of each action."""

    def __init__(self, game: Game) -> None:
        self.records: list[dict[str, Any]] = [header_record(game)]
        self.record(game, game.opening_events)

    def record(self, game: Game, events: Sequence[Event]) -> list[dict[str, Any]]:
        """Add ``events`` (what one call into the engine returned) and return the new records."""
        if not events:
            return []
        added = [dict(event) for event in events]
        added[-1]["state"] = state_digest(game)
        self.records.extend(added)
        return added


REFUSED = (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError)
"""What a record of the wrong shape makes the reading raise (a KalookiError is a ValueError too)."""


def _deal_from_event(players: Sequence[str], event: Mapping[str, Any]) -> FixedDeal:
    hands_by_name = event["hands"]
    if not isinstance(hands_by_name, Mapping):
        raise TypeError("a deal's hands must map each player to their cards")
    hands = {
        _seat(players, name, "the deal has a hand for"): parse_cards(cards)
        for name, cards in hands_by_name.items()
    }
    discard = event["discard"]
    dealer = event.get("dealer")  # logs from before the dealer was recorded leave it to the rules
    return FixedDeal(
        hands=hands,
        discard=None if discard is None else parse_card(discard),
        stock_top=parse_cards(event["stock"]),
        stock_complete=True,
        dealer=None if dealer is None else _seat(players, dealer, "the deal's dealer is"),
        drawn_for_dealer=_drawn(players, event.get("drawn_for_dealer") or {}, "drawn_for_dealer"),
        drawn_again=tuple(
            _drawn(players, again, "drawn_again") for again in _rounds(event.get("drawn_again"))
        ),
        no_upcard=discard is None,
    )


def _rounds(value: object) -> list[object]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise TypeError("the deal's drawn_again must be a list of rounds, each an object of cards by player")
    return value


def _drawn(players: Sequence[str], value: object, field: str) -> dict[str, str]:
    """A round of cards drawn for the first deal, as the log gives it: each player's card, checked."""
    if not isinstance(value, Mapping):
        raise TypeError(f"the deal's {field} must be an object of cards by player")
    for name, card in value.items():
        _seat(players, name, f"the deal's {field} names")
        parse_card(card if isinstance(card, str) else repr(card))
    return {str(name): str(card) for name, card in value.items()}


def _seat(players: Sequence[str], name: object, saying: str) -> int:
    """The seat of a player a deal names; a ValueError, worded for the log's reader, for a stranger."""
    if name not in players:
        among = ", ".join(players) or "none"
        raise ValueError(f"{saying} {name!r}, who is not one of the log's players: {among}")
    return players.index(name)


def action_from_event(event: Mapping[str, Any]) -> Action:
    kind = event["type"]
    if kind == "draw":
        return Draw(event["source"])
    if kind == "meld":
        groups = tuple(tuple(parse_cards(group)) for group in meld_groups(event["melds"]))
        return meld_of(groups, read_as_of(event.get("read_as", ()), len(groups)))
    if kind == "build":
        return Build(_meld_number(event["meld"]), tuple(parse_cards(event["cards"])), event.get("end"))
    if kind == "release":
        return Swap(_meld_number(event["meld"]), tuple(parse_cards(event["cards"])))
    if kind == "end_turn":
        return END_TURN
    return Discard(parse_card(event["card"]))


def _meld_number(value: object) -> int:
    if not is_whole_number(value):
        raise TypeError(f"a meld number must be a whole number, not {value!r}")
    return value


_MISSING: Any = object()
"""A field one of two records has and the other lacks; said as nothing, not as the text "(nothing)"."""


def _said(value: object) -> str:
    return "nothing" if value is _MISSING else json.dumps(value)


def _same(logged: object, produced: object) -> bool:
    """Whether a logged value is what the engine produced, as JSON tells them apart: Python's ``==`` takes
    2.0 for the whole number 2 and true for 1, which the format writes only one way."""
    if isinstance(logged, bool) or isinstance(produced, bool):
        return type(logged) is type(produced) and logged == produced
    if isinstance(produced, int):
        return is_whole_number(logged) and logged == produced
    if isinstance(logged, dict) and isinstance(produced, dict):
        return logged.keys() == produced.keys() and all(_same(logged[key], produced[key]) for key in produced)
    if isinstance(logged, list) and isinstance(produced, list):
        return len(logged) == len(produced) and all(map(_same, logged, produced))
    return logged == produced


def _a_record(kind: object) -> str:
    """A record by its type, for a sentence: "a deal", "an end_turn"."""
    if kind is None:
        return "a record with no type"
    if not isinstance(kind, str):
        return f"a record of type {clipped(json.dumps(kind))}"
    return f"{'an' if kind[:1] in tuple('aeiou') else 'a'} {escape_controls(clipped(kind))}"


def _first_difference(logged: Any, produced: Any, where: str = "") -> tuple[str, Any, Any]:
    """The first place two records differ, as a dotted key path and the two values found there."""
    if isinstance(logged, dict) and isinstance(produced, dict):
        for key in sorted(set(logged) | set(produced), key=str):
            path = f"{where}.{key}" if where else str(key)
            if key not in logged or key not in produced:
                return path, logged.get(key, _MISSING), produced.get(key, _MISSING)
            if not _same(logged[key], produced[key]):
                return _first_difference(logged[key], produced[key], path)
    if isinstance(logged, list) and isinstance(produced, list) and len(logged) == len(produced):
        for index, (a, b) in enumerate(zip(logged, produced, strict=True)):
            if not _same(a, b):
                return _first_difference(a, b, f"{where}[{index}]")
    return where or "record", logged, produced


@dataclass(frozen=True, slots=True)
class ReplaySummary:
    records: int
    actions: int
    hands: int
    totals: dict[str, int]
    game_over: bool
    ends: str
    """Where the log stops: "game over", "between hands", or the hand and turn it stops in."""
    state: str = ""
    """The :func:`state_digest` of the game where the log stops, whatever its last records carry."""


def replay(
    records: Iterable[Mapping[str, Any]],
    on_events: Callable[[Game, Sequence[Event]], None] | None = None,
) -> ReplaySummary:
    """Play a log's actions through the engine, checking every event and state against the log.

    Raises :class:`ReplayError` naming the first record (numbered from 1, as lines of the file) that
    does not reproduce. ``on_events(game, events)`` sees each confirmed step (to show the game back).
    """
    # None was a bare TypeError (not iterable), an on_events of 5 one at the first step confirmed.
    if isinstance(records, str | bytes | Mapping) or not isinstance(records, Iterable):
        shown = clipped_repr(records)
        raise ReplayError(f"replay reads a log's records, each json.loads of a line, not {shown}")
    if on_events is not None and not callable(on_events):
        raise ReplayError(f"on_events must be a function of (game, events), not {clipped_repr(on_events)}")
    items = _Records(records)
    game = _start_game(items)
    index = _confirm(game, items, game.opening_events, 1, on_events)
    actions = 0
    while (record := items.get(index)) is not None:
        produced = _replay_record(game, items, index, record)
        if record.get("type") in ACTION_EVENTS:
            actions += 1
        index = _confirm(game, items, produced, index, on_events)
    return ReplaySummary(
        records=index,
        actions=actions,
        hands=len(game.results),
        totals=dict(zip(game.players, game.totals, strict=True)),
        game_over=game.game_over,
        ends=_where_it_ends(game),
        state=state_digest(game),
    )


class _Records:
    """A log's records as a replay reads them: each taken from the source when it is first asked for, and
    let go of once the move it belongs to is confirmed. A log is checked as it is read, so the first bad
    record stops the read, and a file of millions of lines is never held whole."""

    def __init__(self, source: Iterable[Mapping[str, Any]]) -> None:
        self._source = iter(source)
        self._held: deque[Mapping[str, Any]] = deque()
        self._first = 0
        """The index of the first record held."""
        self._ended = False

    def get(self, index: int) -> Mapping[str, Any] | None:
        """Record ``index`` (from 0; never one let go of), or None past the log's end."""
        while not self._ended and index >= self._first + len(self._held):
            try:
                record = next(self._source)
            except StopIteration:
                self._ended = True
                break
            # A line of text (replay(open(path))) was an AttributeError: 'str' object has no attribute 'get'.
            if type(record) is not dict and not isinstance(record, Mapping):
                number = self._first + len(self._held) + 1
                shown = clipped_repr(record)
                raise ReplayError(
                    f"record {number}: a record is read from its line by json.loads, not {shown}"
                )
            self._held.append(record)
        offset = index - self._first
        return self._held[offset] if offset < len(self._held) else None

    def let_go(self, before: int) -> None:
        """Forget the records before index ``before``: the replay has confirmed them."""
        while self._held and self._first < before:
            self._held.popleft()
            self._first += 1


def _start_game(items: _Records) -> Game:
    """The game a log's first two records (its header and first deal) describe."""
    header = items.get(0)
    if header is None:
        raise ReplayError("the log is empty: a log begins with its 'game' record (the rules and the players)")
    kind = header.get("type")
    if kind in (*ACTION_EVENTS, *LATER_RECORDS) and "format" not in header:
        # A log whose first lines were cut away or moved was said to be "not a kalooki game log".
        raise ReplayError(
            f"record 1: {_a_record(kind)} record, where a log begins with its 'game' record (the rules and "
            "the players): its first lines are missing or out of order"
        )
    if kind != "game" or header.get("format") != LOG_FORMAT:
        raise ReplayError("record 1: not a kalooki game log (the first line must be the 'game' record)")
    if not _same(header.get("version"), LOG_VERSION):
        # In JSON's words, as the log writes it ("true", "\"1\""), not Python's (True, '1').
        version = header.get("version")
        written = clipped(json.dumps(version))
        if is_whole_number(version) and version > LOG_VERSION:
            raise ReplayError(
                f"record 1: the log was written by a newer kalooki (log version {written}; this kalooki "
                f"reads {LOG_VERSION}): upgrade kalooki to read it"
            )
        raise ReplayError(f"record 1: log version {written}; this kalooki reads {LOG_VERSION}")
    if "variant" not in header:
        raise ReplayError("record 1: the log's rules are missing: the 'game' record has no 'variant'")
    rules = header["variant"]
    try:
        variant = read_saved_rules(
            rules, "the log's rules", upgrade="upgrade kalooki to read it", editable=True
        )
    except SavedRulesError as error:
        raise ReplayError(f"record 1: {error}") from None
    players, seed, limit = (
        header.get("players"),
        header.get("seed"),
        header.get("turn_limit", DEFAULT_TURN_LIMIT),
    )
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise ReplayError("record 1: the log's players are not a list of names")
    _refuse_lookalikes(players)
    if not is_whole_number(limit) or not 1 <= limit <= MAX_TURN_LIMIT:
        raise ReplayError(
            f"record 1: the log's turn limit is {_shown(limit)}: it must be a whole number, "
            f"1 to {MAX_TURN_LIMIT:,}"
        )
    if not (seed is None or is_whole_number(seed)):
        raise ReplayError(
            f"record 1: the log's seed is {_shown(seed)}: it must be a whole number (or null, for none)"
        )
    deal = items.get(1)
    if deal is None or deal.get("type") != "deal":
        raise ReplayError("record 2: the log must continue with the first hand's deal")
    try:
        return Game(variant, players, seed=seed, deal=_deal_from_event(players, deal), turn_limit=limit)
    except REFUSED as error:
        raise ReplayError(f"record 2: the log's game and first deal cannot start a game ({error})") from None


def _refuse_lookalikes(players: Sequence[str]) -> None:
    """Refuse two players whose names read as one on the screens ('ann' and 'ANN', or 'аnn' with a
    Cyrillic а), as a script's and a table's are: a replay would show both as one player."""
    if any(len(name) > MAX_NAME for name in players):
        return  # the engine refuses it as before, and name_lookalike is not run over a name of a megabyte
    keys = [name_key(name) for name in players]
    for seat, (name, key) in enumerate(zip(players, keys, strict=True)):
        other = keys.index(key)
        if other < seat and players[other] != name:  # the same name twice is the engine's to refuse
            raise ReplayError(
                f"record 1: the log's player '{escape_controls(name)}' reads as seat {other + 1}'s "
                f"'{escape_controls(players[other])}' on the screens{name_lookalike(name, 'its')}; "
                "give each player a different name"
            )


def _replay_record(game: Game, items: _Records, index: int, record: Mapping[str, Any]) -> Sequence[Event]:
    """Make the engine do what ``record``, record ``index`` (an action, a deal or an abandoned hand), says."""
    kind = record.get("type")
    # Read before the try: a line of the file that is no record is a ReplayError of its own, said as it is.
    following = [item for item in (items.get(index + 1), items.get(index + 2)) if item is not None]
    if kind in ACTION_EVENTS:
        _refuse_a_player_not_playing(game, index, record)
    try:
        if kind in ACTION_EVENTS:
            # Logs write the stock top first; the engine keeps its top at the end of the list.
            game.forced_reshuffles = [
                parse_cards(item["stock"])[::-1] for item in following if item.get("type") == "reshuffle"
            ][:1]
            return game.apply(action_from_event(record))
        if kind == "deal":
            return game.next_hand(_deal_from_event(game.players, record))
        if kind == "hand_end" and record.get("end") == "abandoned":
            return game.abandon_hand()
    except KeyError as error:
        raise ReplayError(f"record {index + 1}: does not reproduce: it lacks {error}") from None
    except IllegalMoveError as error:
        if error.player is not None:  # worded about the player already: "ann must draw first: ..."
            raise ReplayError(f"record {index + 1}: does not reproduce: {error}") from None
        # Worded to the player ("you have no KH ..."): it would read as said to whoever replays the log.
        # Named as the record names them: once a hand is over, the engine's player is the last to play.
        raise ReplayError(
            f"record {index + 1}: does not reproduce: {_whose(game, record)} {kind} is refused: {error}"
        ) from None
    except REFUSED as error:
        raise ReplayError(f"record {index + 1}: does not reproduce: {error}") from None
    if kind == "game":  # said as "a 'game' record where an action or deal was expected"
        raise ReplayError(
            f"record {index + 1}: a second 'game' record, the start of another game: a log holds one game "
            "(two logs joined into one file?)"
        )
    raise ReplayError(f"record {index + 1}: a '{kind}' record where an action or deal was expected")


def _refuse_a_player_not_playing(game: Game, index: int, record: Mapping[str, Any]) -> None:
    """Refuse an action record whose player is not at the table, or (while a hand is played) is not the
    one whose turn it is: the engine would try it as the turn's player's and blame them for it."""
    if "player" not in record:
        return  # said by the record's comparison with the event the engine produces
    player = record["player"]
    if player not in game.players:
        players = ", ".join(escape_controls(name) for name in game.players)
        raise ReplayError(
            f"record {index + 1}: does not reproduce: the record's player {_shown(player)} is not at this "
            f"table (its players are {players})"
        )
    if game.phase in ("draw", "play") and player != game.player:
        raise ReplayError(
            f"record {index + 1} ({record.get('type')}): player: the log says {_shown(player)}, "
            f"the engine produced {json.dumps(game.player)}"
        )


def _shown(value: object) -> str:
    """A record's value in JSON's words (which spell out control characters), clipped to fit a line."""
    return clipped(json.dumps(value, default=repr))


def _whose(game: Game, record: Mapping[str, Any]) -> str:
    player = record.get("player")
    return f"{player}'s" if isinstance(player, str) and player in game.players else f"{game.player}'s"


def _confirm(
    game: Game,
    items: _Records,
    produced: Sequence[Event],
    start: int,
    on_events: Callable[[Game, Sequence[Event]], None] | None,
) -> int:
    """Check the engine's events against the log's from record ``start``; the next record's index."""
    for offset, event in enumerate(produced):
        number = start + offset
        record = items.get(number)
        if record is None:
            # Every event of an action is written with it: only a game stopped while writing them ends here.
            raise ReplayError(
                f"record {number + 1}: the log stops partway through what record {start + 1} "
                f"({(items.get(start) or {}).get('type')}) led to: "
                f"its {event['type']} record is missing (the game was stopped while writing it)"
            )
        logged = {key: value for key, value in record.items() if key != "state"}
        written = event.to_json()
        if written["type"] == "deal" and "dealer" not in logged:
            del written["dealer"]  # an older log
        if not _same(logged, written):
            if logged.get("type") != written["type"]:
                # A record missing or added puts every field after it out of step: the type says which.
                raise ReplayError(
                    f"record {number + 1}: the log has {_a_record(logged.get('type'))} "
                    f"where the game produced {written['type']}"
                )
            where, said, produced_value = _first_difference(logged, written)
            if said == produced_value:  # 2.0 for 2, or 1 for true: one value to Python, not in the format
                wanted = "true or false" if isinstance(produced_value, bool) else "a whole number"
                raise ReplayError(
                    f"record {number + 1} ({written['type']}): {where}: "
                    f"must be {wanted}, not {json.dumps(said)}"
                )
            raise ReplayError(
                f"record {number + 1} ({written['type']}): {where}: the log says {_said(said)}, "
                f"the engine produced {_said(produced_value)}"
            )
    last = start + len(produced) - 1
    last_record = items.get(last) if produced else None
    digest = last_record.get("state") if last_record is not None else None
    if digest is not None and digest != state_digest(game):
        if last_record is not None and last_record.get("type") == "deal":
            # The engine deals what the record says, so its cards are what most likely changed: two swapped
            # were told only that the state did not match. (Its checksum, or for the first deal the game's
            # record before it, may have been edited instead.)
            if last == 1 and _dealt_as_seeded(game):
                # The cards are the seed's, so what changed is what the checksum is of besides them: the
                # rules or the players in the first record (a header edited was blamed on the deal's cards).
                raise ReplayError(
                    "record 2 (deal): the state it deals does not match the log's checksum, and its cards "
                    "are those the log's seed deals: the game's first record (its rules or players) or the "
                    "deal's checksum was changed since the log was written"
                )
            first = " or the game's first record" if last == 1 else ""
            raise ReplayError(
                f"record {last + 1} (deal): the state it deals does not match the log's checksum: a card in "
                f"it was changed, moved or swapped since the log was written (the order of each hand and of "
                f"the stock counts), or its checksum{first} was"
            )
        raise ReplayError(f"record {last + 1}: the state after this event does not match the log's")
    if on_events is not None:
        on_events(game, produced)
    items.let_go(start + len(produced))
    return start + len(produced)


def _dealt_as_seeded(game: Game) -> bool:
    """Whether ``game``, just dealt from a log's first deal, holds the cards its seed deals."""
    if game.seed is None:
        return False
    return state_digest(Game(game.variant, game.players, seed=game.seed)) == state_digest(game)


def _where_it_ends(game: Game) -> str:
    if game.game_over:
        return "game over"
    if game.phase == "hand_over":
        return "between hands"
    return f"in hand {game.hand_number}, turn {game.turn_number} ({game.player} to {game.phase})"
