"""One snapshot of what a turn's actions change, taken before them and put back by its ``restore``.

Three things take one, as python-chess's ``push`` saves a ``_BoardState`` that ``pop`` restores:

- undo keeps the snapshot of the state just after the draw, and restores it to take the turn's melds
  back (the turn's first meld, build or swap takes it: until then the state is still that one);
- a meld, build or swap that would leave the turn owing what it cannot pay is put back by one;
- :meth:`~kalooki.legal.LegalActions.check` tries an action between two restores of a whole snapshot.

Laying changes only the current hand, the table, whether the player has opened and the turn's record:
that is the turn part, and the part a save keeps for undo. An action that :meth:`check` tries can also
draw, discard, reshuffle the stock, end the hand or the game: a whole snapshot takes the rest too.
Restoring installs fresh copies, so the snapshot can be restored again and a list a caller holds (a hand,
the table) is never changed by a trial.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, TypeVar

from kalooki.cards import Card
from kalooki.cardstate import CardState
from kalooki.gamestate import HandResult, Phase, TurnState
from kalooki.melds import TableMeld

if TYPE_CHECKING:
    from kalooki.gamestate import GameState


@dataclass(frozen=True, slots=True)
class _RestOfGame:
    """What an action can change beyond the turn part: the piles, the seat to play, the scores."""

    stock: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    rng_state: tuple[Any, ...] | None
    """None when the stock holds two cards or more: no one action can empty it and reshuffle, the
    generator's only use in play, so the 625 words of its state are neither copied nor put back."""
    current: int
    phase: Phase
    turn_number: int
    stock_ran_out: bool
    totals: tuple[int, ...]
    eliminated: tuple[bool, ...]
    results: tuple[HandResult, ...]
    winners: tuple[int, ...]
    undo: TurnSnapshot | None
    undo_pending: bool
    forced_reshuffles: tuple[tuple[Card, ...], ...]


_Snapshot = TypeVar("_Snapshot")


def _setters(cls: type) -> tuple[Callable[[Any, Any], None], ...]:
    """The slot setters of dataclass ``cls``'s fields, in field order."""
    return tuple(cls.__dict__[field.name].__set__ for field in fields(cls))


def _filled(cls: type[_Snapshot], setters: tuple[Callable[[Any, Any], None], ...], *values: Any) -> _Snapshot:
    """``cls(*values)``, its fields set straight into their slots: the frozen dataclass's constructor
    sets each through ``object.__setattr__`` by name, at twice the cost."""
    snapshot: _Snapshot = _NEW(cls)
    for setter, value in zip(setters, values, strict=True):
        setter(snapshot, value)
    return snapshot


_NEW = object.__new__
_REST_SETTERS = _setters(_RestOfGame)


@dataclass(frozen=True, slots=True)
class TurnSnapshot:
    """The current player's hand, the table, whether they had opened and the turn's record, at one moment
    (and, for a whole snapshot, the rest of what an action can change)."""

    seat: int
    hand: tuple[Card, ...]
    hand_state: CardState
    table: tuple[TableMeld, ...]
    opened: bool
    turn: TurnState
    rest: _RestOfGame | None = None

    @classmethod
    def take(cls, game: GameState, *, whole: bool = False) -> TurnSnapshot:
        seat = game.current
        rest = None
        if whole:
            rest = _filled(
                _RestOfGame,
                _REST_SETTERS,
                tuple(game.stock),
                tuple(game.discard_pile),
                game.rng.getstate() if len(game.stock) < 2 else None,
                seat,
                game.phase,
                game.turn_number,
                game.stock_ran_out,
                tuple(game.totals),
                tuple(game.eliminated),
                tuple(game.results),
                tuple(game.winners),
                game._undo,
                game._undo_pending,
                tuple(tuple(stock) for stock in game.forced_reshuffles),
            )
        # Every meld, build and swap takes one (and every check): its fields go straight into their slots.
        snapshot: TurnSnapshot = _NEW(cls)
        _SET_SEAT(snapshot, seat)
        _SET_HAND(snapshot, tuple(game.hands[seat]))
        _SET_HAND_STATE(snapshot, game.hand_states[seat])
        _SET_TABLE(snapshot, tuple(game.table))
        _SET_OPENED(snapshot, game.opened[seat])
        _SET_TURN(snapshot, game.turn.copy())
        _SET_REST(snapshot, rest)
        return snapshot

    def restore(self, game: GameState, *, rng: bool = True) -> None:
        """Put the game back as it was when the snapshot was taken, on fresh lists.

        ``rng=False`` leaves the random generator alone: a trial about to start has not moved it yet.
        """
        rest = self.rest
        if rest is not None:
            game.stock = list(rest.stock)
            game.discard_pile = list(rest.discard_pile)
            if rng and rest.rng_state is not None:
                game.rng.setstate(rest.rng_state)
            game.current = rest.current
            game.phase = rest.phase
            game.turn_number = rest.turn_number
            game.stock_ran_out = rest.stock_ran_out
            game.totals = list(rest.totals)
            game.eliminated = list(rest.eliminated)
            game.results = list(rest.results)
            game.winners = list(rest.winners)
            game._undo = rest.undo
            game._undo_pending = rest.undo_pending
            game.forced_reshuffles = [list(stock) for stock in rest.forced_reshuffles]
            game.hands = list(game.hands)
            game.hand_states = list(game.hand_states)
            game.opened = list(game.opened)
        game.hands[self.seat] = list(self.hand)
        game.hand_states[self.seat] = self.hand_state
        game.table = list(self.table)
        game.opened[self.seat] = self.opened
        game.turn = self.turn.copy()

    def laid_since(self, game: GameState) -> bool:
        """Whether the current hand or the table differs from the snapshot's (something was laid)."""
        return list(self.hand) != game.hands[game.current] or list(self.table) != game.table

    def to_json(self) -> dict[str, Any]:
        """The turn part, as a save keeps it for undo."""
        return {
            "hand": list(self.hand),
            "table": [meld.to_json() for meld in self.table],
            "opened": self.opened,
            "turn": self.turn.to_json(),
        }

    @staticmethod
    def from_json(data: Mapping[str, Any], seat: int) -> TurnSnapshot:
        hand = tuple(int(card) for card in data["hand"])
        return TurnSnapshot(
            seat=seat,
            hand=hand,
            hand_state=CardState.of(hand),
            table=tuple(TableMeld.from_json(meld) for meld in data["table"]),
            opened=bool(data["opened"]),
            turn=TurnState.from_json(data["turn"]),
        )


_SET_SEAT, _SET_HAND, _SET_HAND_STATE, _SET_TABLE, _SET_OPENED, _SET_TURN, _SET_REST = _setters(TurnSnapshot)


_HELD = (
    "stock",
    "discard_pile",
    "totals",
    "eliminated",
    "results",
    "winners",
    "forced_reshuffles",
    "hands",
    "hand_states",
    "opened",
    "table",
    "turn",
)
"""The game's mutable parts that :meth:`TurnSnapshot.restore` replaces with fresh copies."""


@contextmanager
def trial(game: GameState) -> Iterator[None]:
    """Try something on fresh copies of the whole state, then put the game back holding the very objects it
    held. Unlike :meth:`~kalooki.legal.LegalActions.check`'s trial, this one may run inside an action (a
    draw asks whether the discard could be laid), whose code still holds the turn's record or a hand."""
    held = [getattr(game, name) for name in _HELD]
    saved = TurnSnapshot.take(game, whole=True)
    saved.restore(game, rng=False)
    try:
        yield
    finally:
        saved.restore(game)
        for name, value in zip(_HELD, held, strict=True):
            setattr(game, name, value)
