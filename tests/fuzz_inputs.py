"""Hostile inputs for fuzzing, shared by the suite's bounded fuzz test and the longer run (``bench/fuzz.py``).

Three surfaces take files from strangers: saves (``kalooki resume``), logs (``kalooki replay``) and
variant files (``validate``, ``play``, ``extends``). Each ``check_*`` function feeds one input to a
surface and asserts what must hold whatever the input: the only exception is a
:class:`~kalooki.errors.KalookiError` whose lines carry no control character, and what is accepted
plays on (a loaded save's bots take their turns; a loaded variant deals and lists its actions).
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from kalooki import jsonio
from kalooki.bots import make_bot
from kalooki.driver import ask_bot, play_turn
from kalooki.engine import Game
from kalooki.errors import KalookiError
from kalooki.loader import load_variant_text
from kalooki.log import GameRecorder, replay
from kalooki.resources import variants_dir
from kalooki.savegame import Session, load_save, rng_states, save_checksum, save_document, seat_rng
from kalooki.text import has_controls
from kalooki.variant import Variant

PathKey = list[str | int]

# Text that hits the checks: control characters, newlines, escapes, YAML and markup syntax, big numbers.
NASTY = "\x00\x07\x1b\n\r\t\x7f\x85\u2028[]{}:#&*!|>'\"%@`-,.\\ aZ9é♠"
nasty_text = st.text(alphabet=NASTY, max_size=12)
json_leaf = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**40), max_value=2**40)
    | st.sampled_from([0, -1, 1, 52, 53, 56, 99, 2**32, 2**63, -(2**31)])
    | st.floats(allow_nan=True, allow_infinity=True)
    | nasty_text
)
json_value = st.recursive(
    json_leaf,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(nasty_text, children, max_size=3),
    max_leaves=8,
)


def paths(value: Any, prefix: PathKey | None = None) -> list[PathKey]:
    """Every place in a JSON document (the document itself first)."""
    here: PathKey = list(prefix or [])
    found = [here]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, [*here, key])
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, [*here, index])
    return found


def replace_at(document: Any, path: PathKey, value: Any, delete: bool) -> Any:
    """``document`` with the value at ``path`` replaced (or deleted from its dict or list)."""
    if not path:
        return value
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return document


@st.composite
def mutated(draw: st.DrawFn, base: Any, edits: int = 3) -> Any:
    """A deep copy of ``base`` with a few places replaced by hostile values or deleted."""
    document = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(1, edits))):
        places = paths(document)
        path = draw(st.sampled_from(places))
        delete = bool(path) and draw(st.booleans())
        document = replace_at(document, path, draw(json_value), delete)
    return document


@st.composite
def mangled_text(draw: st.DrawFn, text: str) -> str:
    """``text`` cut, or with hostile characters spliced in."""
    if draw(st.booleans()):
        return text[: draw(st.integers(0, len(text)))]
    position = draw(st.integers(0, len(text)))
    return (
        text[:position]
        + draw(nasty_text | st.sampled_from(["[" * 3000, "9" * 5000, "NaN", "1e400"]))
        + text[position:]
    )


# ----------------------------------------------------------------------------- real inputs to mutate


def _play(game: Game, turns: int, seed: int) -> list[list[Any]]:
    bots = [make_bot("greedy", random.Random(seed + seat)) for seat in range(len(game.players))]
    steps: list[list[Any]] = []
    for _ in range(turns):
        if game.game_over:
            break
        if game.phase == "hand_over":
            steps.append(game.next_hand())
            continue
        steps.append(play_turn(game, bots[game.current]))
    return steps


@cache
def base_saves() -> tuple[dict[str, Any], ...]:
    """Real saves: mid-hand, after a draw (with an undo snapshot), between hands, a finished game."""
    saves = []
    quick = Variant(goal_score=40, elimination=True, max_players=3)
    for variant, turns, draw_only in ((Variant(), 9, False), (Variant(), 4, True), (quick, 400, False)):
        game = Game(variant, ["ann", "bob", "cid"], seed=11)
        _play(game, turns, 11)
        if draw_only and game.phase == "draw":
            game.apply(ask_bot(make_bot("greedy", random.Random(0)), game))
        rngs = {seat: seat_rng(11, seat) for seat in (1, 2)}
        session = Session(human_seat=0, bots={1: "greedy", 2: "random"}, bot_rngs=rng_states(rngs))
        saves.append(save_document(game, session))
    return tuple(saves)


@cache
def base_logs() -> tuple[list[dict[str, Any]], ...]:
    logs = []
    for turn_limit, turns in ((1000, 60), (5, 30)):
        game = Game(Variant(), ["ann", "bob"], seed=4, turn_limit=turn_limit)
        recorder = GameRecorder(game)
        for events in _play(game, turns, 4):
            recorder.record(game, events)
        logs.append(json.loads(json.dumps(recorder.records)))
    return tuple(logs)


@cache
def base_variants() -> tuple[str, ...]:
    return tuple(path.read_text(encoding="utf-8") for path in sorted(variants_dir().glob("*.yaml")))


def with_checksum(document: Any) -> str:
    """The save as text, its checksum recomputed when it has the parts to compute one (an editor's save)."""
    if (
        isinstance(document, dict)
        and isinstance(document.get("session"), dict)
        and isinstance(document.get("game"), dict)
    ):
        with contextlib.suppress(TypeError, ValueError):
            document["checksum"] = save_checksum(document["session"], document["game"])
    return json.dumps(document)


# ----------------------------------------------------------------------------- the properties


def _refused_cleanly(error: KalookiError, one_line: bool) -> None:
    message = str(error)
    lines = message.split("\n")
    assert not one_line or len(lines) == 1, message
    # A diagnostic or a refusal may quote the input, but escaped; other messages are escaped at the edge.
    assert not one_line or not has_controls(message), message


def check_save(text: str | bytes) -> str:
    """Load a save; if it loads, its bots play on. Returns what happened ('refused' or 'loaded')."""
    try:
        loaded = load_save(text)
    except KalookiError as error:
        _refused_cleanly(error, one_line=True)
        return "refused"
    game = loaded.game
    for _ in range(3):
        if game.game_over:
            break
        if game.phase == "hand_over":
            game.next_hand()
        else:
            play_turn(game, make_bot("greedy", random.Random(0)))
    Game.from_json(game.to_json())
    return "loaded"


def check_log(lines: list[str]) -> str:
    """Parse and replay a log, as ``kalooki replay`` does. Returns 'refused' or 'replayed'."""
    records = []
    try:
        for line in lines:
            if line.strip():
                record = jsonio.loads(line)
                if not isinstance(record, dict):
                    return "refused"
                records.append(record)
        replay(records)
    except KalookiError as error:
        _refused_cleanly(error, one_line=False)
        return "refused"
    return "replayed"


def check_variant(text: str, base_dir: Path) -> str:
    """Load a variant file; if it loads, deal a game and list the first player's actions."""
    try:
        variant = load_variant_text(text, "fuzz.yaml", base_dir=base_dir)
    except KalookiError as error:
        for line in str(error).split("\n"):
            assert not has_controls(line), line
        return "refused"
    players = [f"p{seat}" for seat in range(variant.min_players)]
    game = Game(variant, players, seed=1)
    game.legal_actions()
    play_turn(game, make_bot("greedy", random.Random(0)))
    return "loaded"


SURFACES: dict[str, Callable[..., str]] = {"save": check_save, "log": check_log, "variant": check_variant}
