"""Simulating many games between bots, to see what a rule change does to the game.

:func:`simulate` plays ``games`` whole games of one variant with a bot in every seat and
returns a :class:`SimulationResult`: win rates per seat and per bot with 95% Wilson intervals,
how long hands and games last, how often a hand ends in Kalooki, how often the stock runs out,
when players open, how many points losers are left holding, and how far apart final scores
end. :func:`compare` plays two variants on the same seeds and tests each difference.

Determinism. Game ``i`` is dealt from a seed derived from the master seed and ``i`` alone
(:func:`game_seed`), and its bots draw from seeds derived from that, so a game's result does
not depend on which process plays it or when. Workers (local processes or a Dask cluster, see
:mod:`kalooki.executors`) play chunks of game indices and the records are put back in index
order before anything is counted: the same seed gives the same result, to the last digit, with
any number of workers. With duplicate deals (:class:`GamePlan`) each deal is played once per
seat rotation.

Endless play is cut off: a hand that passes ``max_turns`` turns is abandoned (unscored, and
counted), and a game still going after ``max_hands`` hands is stopped and counted unfinished.

The statistics are :mod:`kalooki.simulation_stats`; :func:`compare` is
:mod:`kalooki.simulation_comparison`.

This module prints nothing and writes no files: the CLI (``kalooki simulate``) does that.
"""

from __future__ import annotations

import csv
import gc
import hashlib
import io
import random
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Final

from kalooki import rules
from kalooki.bots import Bot, check_bot, make_bot
from kalooki.driver import BotFault, BotFaults, play_turn, warn_fault
from kalooki.engine import MAX_TURN_LIMIT, Game
from kalooki.errors import KalookiError
from kalooki.events import BuildEvent, MeldEvent, ReleaseEvent, ReshuffleEvent, StockOutEvent
from kalooki.executors import Pool, given_or_opened, run_tasks
from kalooki.jsonio import is_whole_number
from kalooki.simulation_comparison import Comparison, compare
from kalooki.simulation_stats import DEFAULT_MAX_HANDS, DEFAULT_MAX_TURNS, SimulationResult, summarise
from kalooki.stalls import Stall, stall_of
from kalooki.text import clipped_repr
from kalooki.variant import Variant, not_a_variant

__all__ = [
    "CSV_FIELDS",
    "DEFAULT_MAX_HANDS",
    "DEFAULT_MAX_TURNS",
    "PLANS_KEPT",
    "Comparison",
    "GameFailure",
    "GamePlan",
    "GameRecord",
    "HandRecord",
    "Progress",
    "SimulationError",
    "SimulationResult",
    "bot_list",
    "check_setup",
    "compare",
    "derive_seed",
    "duplicate_refusal",
    "game_rows",
    "game_seed",
    "play_chunk",
    "play_game",
    "play_plans",
    "rotations",
    "rows_to_csv",
    "simulate",
]

Progress = Callable[[int, int], None]
"""Called with (games done, games in all) as games finish."""


class SimulationError(KalookiError):
    """A simulation that cannot be run as asked (no games, a bot list that does not fit the table...)."""


class GameFailure(KalookiError):
    """The engine refused to go on in one game of a simulation (no legal action for the player on turn):
    a fault of kalooki, not of the variant or the bots. Names the game and its deal seed, with which
    :func:`play_game` plays it again, and carries the ``variant`` so the caller can name its file."""

    def __init__(self, message: str, variant: Variant) -> None:
        super().__init__(message)
        self.variant = variant

    def __reduce__(self) -> tuple[type[GameFailure], tuple[str, Variant]]:
        # Raised in a worker process, it is pickled back to the caller: the variant goes with it.
        return type(self), (str(self), self.variant)


# ---------------------------------------------------------------- seeds


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from the parts' text: stable across runs, processes and Python versions."""
    text = ":".join(str(part) for part in parts)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def game_seed(master: int, index: int) -> int:
    """The deal seed of game ``index`` of a run with master seed ``master``."""
    return derive_seed("kalooki-simulate", master, index)


# ---------------------------------------------------------------- what one game leaves behind


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand: how it ended, and what each seat (indexed by seat) opened on, held and scored."""

    winner: int | None
    kalooki: bool
    end: str
    turns: int
    seats: tuple[int, ...]
    hand_points: tuple[int, ...]
    scores: tuple[int, ...]
    opened_on: tuple[int | None, ...]
    """Each seat's own turn (1 = their first) on which they opened; None if they never did."""
    reshuffles: int
    stock_outs: int
    stall: Stall | None = None
    """A hand stopped at the turn limit: what held it up (see :mod:`kalooki.stalls`)."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game: its seed, its hands, the final totals and winners (seats), and whether it ended."""

    index: int
    seed: int
    hands: tuple[HandRecord, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    finished: bool
    rotation: int = 0
    """Duplicate deals: seat ``s`` held bot ``bots[(s + rotation) % seats]`` (0: the bots as listed)."""
    faults: tuple[BotFault, ...] = ()
    """The bots that raised or chose what is no action in this game (played safely instead), once each."""

    def bot(self, bots: Sequence[str], seat: int) -> str:
        """The bot that sat in ``seat`` in this game."""
        return bots[(seat + self.rotation) % len(bots)]


def play_game(
    variant: Variant,
    bots: Sequence[str],
    seed: int,
    index: int = 0,
    max_turns: int = DEFAULT_MAX_TURNS,
    max_hands: int = DEFAULT_MAX_HANDS,
    rotation: int = 0,
) -> GameRecord:
    """Play one whole game with the named bots in seats 0, 1, ... (turned by ``rotation``) and record it."""
    players = [f"P{seat + 1}" for seat in range(len(bots))]
    game = Game(variant, players, seed=seed, turn_limit=max_turns)
    seated = [bots[(seat + rotation) % len(bots)] for seat in range(len(bots))]
    seats = {
        seat: make_bot(name, random.Random(derive_seed(seed, "bot", seat)))
        for seat, name in enumerate(seated)
    }
    hands: list[HandRecord] = []
    faults = BotFaults()
    try:
        while not game.game_over and len(hands) < max_hands:
            if game.phase == "hand_over":
                game.next_hand()
            hands.append(_play_hand(game, seats, faults))
    except Exception as error:
        # The bots' faults are caught in play_turn: what reaches here is the engine's, and ended the whole
        # run with no word of which game, so it could not be played again to report it.
        # Numbered as the CSV's "game" column; the deal seed (and any turn of the bots) plays it again.
        turned = f", bots turned {rotation} seats" if rotation else ""
        where = f"{variant.name}, game {index} (deal seed {seed}{turned})"
        where += f", hand {game.hand_number}, turn {game.turn_number}"
        if isinstance(error, KalookiError):  # the CLI shows its message alone: it must say where
            raise GameFailure(f"{where}: {error} (a fault of kalooki's engine)", variant) from error
        error.add_note(f"in {where}")
        raise
    return GameRecord(
        index=index,
        seed=seed,
        hands=tuple(hands),
        totals=tuple(game.totals),
        winners=tuple(game.winners),
        finished=game.game_over,
        rotation=rotation,
        faults=tuple(faults.found),
    )


_LAYING: Final = frozenset((MeldEvent, BuildEvent, ReleaseEvent))
"""The events of something laid on the table."""

MAX_GAMES: Final = 1_000_000
"""The most games one run plays (a sweep's cells together). Every game's record is kept, for the
paired tests and ``--csv``: some 2 KB each, so a million games hold about 2 GB (twice that in a
comparison); a mistyped ``--games 10000000000`` is refused rather than fill the memory."""

CHUNK_MOST: Final = 25
"""The most games a worker is sent at once: its results come back (and progress moves) at least
this often."""


def _play_hand(game: Game, bots: Mapping[int, Bot], faults: BotFaults | None = None) -> HandRecord:
    count = len(game.players)
    own_turns = [0] * count
    opened_on: list[int | None] = [None] * count
    reshuffles = stock_outs = 0
    last_laid = 0
    # The game's turn limit (``max_turns``) ends a hand that goes on too long: the engine stops it.
    while game.phase in ("draw", "play"):
        seat = game.current
        own_turns[seat] += 1
        was_open = game.opened[seat]
        turn = game.turn_number
        for event in play_turn(game, bots[seat], faults):
            # By exact type: events are Mappings, and an isinstance check of an ABC costs a call.
            kind = type(event)
            if kind in _LAYING:
                last_laid = turn
            elif kind is ReshuffleEvent:
                reshuffles += 1
            elif kind is StockOutEvent:
                stock_outs += 1
        if not was_open and game.opened[seat]:
            opened_on[seat] = own_turns[seat]
    result = game.results[-1]
    capped = result.end == "turn_limit"
    return HandRecord(
        winner=result.winner,
        kalooki=result.kalooki,
        # A simulation's reports have always called a hand stopped at the turn cap "abandoned".
        end="abandoned" if result.end == "turn_limit" else result.end,
        turns=result.turns,
        seats=result.seats,
        hand_points=result.hand_points,
        scores=result.scores,
        opened_on=tuple(opened_on),
        reshuffles=reshuffles,
        stock_outs=stock_outs,
        stall=stall_of(game, result.turns - last_laid, reshuffles) if capped else None,
    )


# ---------------------------------------------------------------- running


@dataclass(frozen=True)
class GamePlan:
    """The games of one run: which variant, which bots, how many games from which seed.

    With ``duplicate``, game ``i`` is deal ``i // r`` played with the bots turned by ``i % r``
    seats, ``r`` being the number of distinct rotations of the bots (:func:`rotations`), so each
    deal is played once at every table the rotations make, and never twice at the same one.
    """

    variant: Variant
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    duplicate: bool = False
    max_turns: int = DEFAULT_MAX_TURNS
    max_hands: int = DEFAULT_MAX_HANDS

    @property
    def deal_size(self) -> int:
        """Games per deal: 1, or with duplicate deals the number of distinct rotations of the bots."""
        return rotations(self.bots) if self.duplicate else 1

    def check(self) -> None:
        """Raise :class:`SimulationError` (or the registry's error for an unknown bot) before playing."""
        check_setup(self.variant, self.bots, self.games)
        # The command line's options refuse them (--max-hands 0); from the library max_hands=0 played no
        # hand of any game and returned the games as played, unfinished.
        if not is_whole_number(self.seed):  # "x" or 1.5 was taken, its text hashed, and reported as the seed
            raise SimulationError(f"seed must be a whole number, not {clipped_repr(self.seed)}")
        for name, value in (("max_turns", self.max_turns), ("max_hands", self.max_hands)):
            if not is_whole_number(value) or value < 1:
                raise SimulationError(f"{name} must be a whole number, at least 1, not {clipped_repr(value)}")
        if self.max_turns > MAX_TURN_LIMIT:  # the engine's refusal came from a game, in a worker
            raise SimulationError(f"max_turns must be at most {MAX_TURN_LIMIT:,}, not {self.max_turns:,}")
        if self.duplicate is not True and self.duplicate is not False:  # "no" was taken as true
            raise SimulationError(f"duplicate must be True or False, not {clipped_repr(self.duplicate)}")
        refusal = duplicate_refusal(self.bots, self.games) if self.duplicate else None
        if refusal is not None:
            raise SimulationError(refusal)

    def jobs(self) -> list[tuple[int, int, int]]:
        """Every game as (index, deal seed, rotation), in index order."""
        size = self.deal_size
        return [(index, game_seed(self.seed, index // size), index % size) for index in range(self.games)]

    def chunks(self, workers: int) -> list[list[tuple[int, int, int]]]:
        """The jobs in slices, each a quarter of a worker's share of what is left (at most
        :data:`CHUNK_MOST` games): the slices shrink towards the end, down to one game, so the
        workers finish together instead of one playing a last long slice alone, and progress
        keeps moving."""
        jobs = self.jobs()
        found: list[list[tuple[int, int, int]]] = []
        start = 0
        while start < len(jobs):
            size = min(CHUNK_MOST, -(-(len(jobs) - start) // (workers * 4)))
            found.append(jobs[start : start + size])
            start += size
        return found

    def play(self, jobs: Sequence[tuple[int, int, int]]) -> list[GameRecord]:
        """Play the given games (this runs in a worker: a pure function of the plan and the jobs)."""
        with long_lived_left_out():
            return [
                play_game(self.variant, self.bots, seed, index, self.max_turns, self.max_hands, rotation)
                for index, seed, rotation in jobs
            ]

    def summarise(self, records: Sequence[GameRecord]) -> SimulationResult:
        """The result of the plan's games (in index order)."""
        result = summarise(
            self.variant, self.bots, self.seed, records, self.max_turns, self.max_hands, self.duplicate
        )
        # The copies of one deal are not independent, nor are the players of one hand: intervals are
        # taken over deals, or each mean's over games.
        from kalooki.figures import with_unit_intervals

        return with_unit_intervals(result)


@contextmanager
def long_lived_left_out() -> Iterator[None]:
    """Leave the objects alive now out of the garbage collector's passes while games are played.

    They are most of the heap (the modules, the variant, and the memos that the engine and the bots
    fill as they play) and none of them becomes garbage during a game; yet each of the collector's
    full passes (about one per hundred random games) walked them all: in 300 classic random games
    the collector took 232 ms of 3.4 s, 59 ms with them set aside. :func:`gc.freeze` sets them aside
    until :func:`gc.unfreeze` puts them back; nothing that a game does depends on when the collector
    runs. The setting is the process's: it holds only while a plan's games are played, and where
    objects are frozen already, their owner decides (nothing changes). Python 3.12 starts with some
    static objects of its own frozen (375 tuples in 3.12.1): there too nothing changes, since thawing
    everything after the games would thaw those, and the games are played with the collector as it is.
    """
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def rotations(bots: Sequence[str]) -> int:
    """How many distinct tables turning the bots round gives: 4 for four different bots, 2 for
    ``greedy,random,greedy,random``, 1 for one bot in every seat (turning it changes nothing)."""
    count = len(bots)
    return next(
        shift
        for shift in range(1, count + 1)
        if count % shift == 0 and all(bots[seat] == bots[(seat + shift) % count] for seat in range(count))
    )


def duplicate_refusal(bots: Sequence[str], games: int, *, options: bool = False) -> str | None:
    """Why ``bots`` cannot play ``games`` duplicate deals (each deal once per rotation), or None.

    ``options``: in the words of the command line (``--duplicate``, ``--games``), for its usage error;
    else in the library's (``duplicate``, games)."""
    size = rotations(bots)
    if not games % size:
        return None
    lower, upper = games - games % size, games - games % size + size
    said = (
        ("--duplicate plays each deal", f"--games {games}")
        if options
        else ("duplicate deals are each played", f"{games} games")
    )
    return (
        f"{said[0]} once per seat rotation: {said[1]} is not a "
        f"multiple of the {size} rotations of {', '.join(bots)} (try {lower or upper} or {upper})"
    )


def bot_list(bots: Sequence[str]) -> tuple[str, ...]:
    """``bots`` as a plan keeps them: a string, which Python takes for a sequence of letters (``"greedy,
    random"`` made 13 bots), is refused, as is a name that is no string, or no list (None was a TypeError)."""
    if isinstance(bots, str | bytes) or not isinstance(bots, Iterable):
        shown = clipped_repr(bots)
        raise SimulationError(
            f"bots: give a list of bot names, one a seat (['greedy', 'random']), not {shown}"
        )
    names = tuple(bots)
    for name in names:
        if not isinstance(name, str):
            raise SimulationError(f"bots: a bot is given by its name, a string, not {clipped_repr(name)}")
    return names


def check_setup(variant: Variant, bots: Sequence[str], games: int) -> None:
    """Raise :class:`SimulationError` (or the registry's error for an unknown bot) before playing."""
    problem = not_a_variant(variant)
    if problem is not None:
        raise SimulationError(problem)
    if not is_whole_number(games):  # "2" or 1.5 was a bare TypeError
        raise SimulationError(f"games must be a whole number, at least 1, not {clipped_repr(games)}")
    if games < 1:
        raise SimulationError(f"games must be at least 1, not {games}")
    if games > MAX_GAMES:
        raise SimulationError(f"{games:,} games: a run plays at most {MAX_GAMES:,} games")
    bots = bot_list(bots)
    if not rules.may_play(variant, len(bots)):
        counted, seats = f"{len(bots)} bot{'' if len(bots) == 1 else 's'}", rules.player_counts(variant)
        note = rules.seating_note(variant)
        raise SimulationError(f"{counted}: {variant.name} is for {seats} players{note}")
    for name in sorted(set(bots)):
        check_bot(name)


_PLANS_HERE: dict[GamePlan, GamePlan] = {}
"""The plans this process has played, so that an equal plan sent with a later chunk is played with
the same objects (see :func:`play_chunk`)."""

PLANS_KEPT: Final = 64
"""Distinct plans :data:`_PLANS_HERE` holds before it starts afresh (a sweep sends one per cell)."""


def play_chunk(plan: GamePlan, jobs: Sequence[tuple[int, int, int]]) -> list[GameRecord]:
    """Play a chunk of ``plan``'s games: the task a worker runs.

    Each task arrives with its own unpickled copy of the plan. Played as they come, every chunk
    after a worker's first would hold a variant equal to, but not the same object as, the one
    the bots' caches were filled with, and each of their lookups (about 340 a game for greedy)
    would compare the two field by field, nearly three times the cost of a hit on the same
    object. Playing each chunk with the first equal plan this process received keeps the
    workers' lookups as cheap as one process's; results do not change.
    """
    if len(_PLANS_HERE) >= PLANS_KEPT and plan not in _PLANS_HERE:
        _PLANS_HERE.clear()
    return _PLANS_HERE.setdefault(plan, plan).play(jobs)


def play_plans(
    pool: Pool,
    plans: Sequence[GamePlan],
    progress: Progress | None = None,
    plan_done: Callable[[int, list[GameRecord]], None] | None = None,
    plan_started: Callable[[int], None] | None = None,
) -> list[list[GameRecord]]:
    """Play every plan's games on the pool; each plan's records in index order.

    ``plan_done(which, records)`` is called as soon as all of plan ``which``'s games are played;
    ``plan_started(which)`` as the first of its games is handed to the pool.
    """
    if progress is not None and not callable(progress):  # 5 was a TypeError once the first game was played
        shown = clipped_repr(progress)
        raise SimulationError(f"progress must be a function of (games done, games in all), not {shown}")
    records: list[list[GameRecord]] = [[] for _ in plans]
    total = sum(plan.games for plan in plans)
    done = 0

    def finished(which: int, played: list[GameRecord]) -> None:
        nonlocal done
        records[which].extend(played)
        done += len(played)
        if len(records[which]) == plans[which].games:
            records[which].sort(key=lambda record: record.index)
            if plan_done is not None:
                plan_done(which, records[which])
        if progress is not None:
            progress(done, total)

    def tasks() -> Iterator[tuple[int, Callable[..., list[GameRecord]], tuple[Any, ...]]]:
        # Drawn one by one as the pool has room, so a plan starts when its first chunk is handed over.
        for which, plan in enumerate(plans):
            for number, chunk in enumerate(plan.chunks(pool.workers)):
                if number == 0 and plan_started is not None:
                    plan_started(which)
                yield which, play_chunk, (plan, chunk)

    run_tasks(pool, tasks(), finished)
    return records


def simulate(
    variant: Variant,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    workers: int | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    max_hands: int = DEFAULT_MAX_HANDS,
    progress: Progress | None = None,
    duplicate: bool = False,
    pool: Pool | None = None,
) -> SimulationResult:
    """Play ``games`` games of ``variant`` with the named bot in each seat and count what happened.

    ``workers``: processes to play in (default: every core; 1 plays in this process), or
    ``pool``: an open :class:`~kalooki.executors.Pool` (local processes or a Dask cluster). The
    result is the same for every number of workers. Bots are made by name in each worker, so a
    bot registered at run time (not through an entry point) needs workers=1 unless the workers
    are forked from this process, as they are on Linux. ``duplicate``: play each deal once per
    seat rotation (see :class:`GamePlan`). Each faulty bot's first fault (its moves were replaced by safe
    ones) is in the result's ``faults`` and told as a :class:`~kalooki.driver.BotFaultWarning`.
    """
    plan = GamePlan(variant, bot_list(bots), games, seed, duplicate, max_turns, max_hands)
    plan.check()
    started = time.perf_counter()
    with given_or_opened(pool, workers, plan.games) as active:
        (records,) = play_plans(active, [plan], progress)
    result = _timed(plan.summarise(records), time.perf_counter() - started, active.workers)
    for fault in result.faults:
        warn_fault(fault)
    return result


def _timed(result: SimulationResult, seconds: float, workers: int) -> SimulationResult:
    return replace(result, seconds=seconds, workers=workers)


# ---------------------------------------------------------------- per-game rows

CSV_FIELDS: Final = (
    "variant",
    "game",
    "seed",
    "hands",
    "turns",
    "finished",
    "winners",
    "kalookis",
    "abandoned_hands",
    "reshuffles",
)


def game_rows(result: SimulationResult) -> list[dict[str, Any]]:
    """One row per game: its seed, length, winners (seat numbers from 1), each seat's total and bot."""
    rows: list[dict[str, Any]] = []
    for record in result.records:
        row: dict[str, Any] = {
            "variant": result.variant,
            "game": record.index,
            "seed": record.seed,
            "hands": len(record.hands),
            "turns": sum(hand.turns for hand in record.hands),
            "finished": record.finished,
            "winners": " ".join(str(seat + 1) for seat in record.winners),
            "kalookis": sum(hand.kalooki for hand in record.hands),
            "abandoned_hands": sum(hand.end == "abandoned" for hand in record.hands),
            "reshuffles": sum(hand.reshuffles for hand in record.hands),
        }
        for seat, total in enumerate(record.totals):
            row[f"total_{seat + 1}"] = total
        # With duplicate deals the bots move round from game to game: seat 1 is not always the same bot.
        row["bots"] = " ".join(record.bot(result.bots, seat) for seat in range(len(record.totals)))
        rows.append(row)
    return rows


def rows_to_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows as CSV text with a header (columns in the order of the first row)."""
    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return out.getvalue()
