"""A game as JSON-ready data, and back: the state a save or a host keeps."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kalooki.cards import (
    full_pack,
    pack_difference,
)
from kalooki.cardstate import CardState
from kalooki.gamestate import (
    HandResult,
    StateFormatError,
    TurnState,
)
from kalooki.laying import Laying
from kalooki.melds import TableMeld, saved_meld_problem
from kalooki.snapshot import TurnSnapshot
from kalooki.variant import variant_json

STATE_FORMAT = "kalooki-game"
STATE_VERSION = 1
_SEATS = "its seats do not match its players"
_NOT_ONE_PACK = "its cards are not exactly one pack"


class GameJson(Laying):
    """Writing the state out and reading it back in."""

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-ready data; :meth:`from_json` restores it exactly."""
        version, internal, gauss = self.rng.getstate()
        return {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "variant": variant_json(self.variant),
            "players": list(self.players),
            "seed": self.seed,
            "turn_limit": self.turn_limit,
            "rng": [version, list(internal), gauss],
            "hand_number": self.hand_number,
            "first_seat": self.first_seat,
            "dealer": self.dealer,
            "current": self.current,
            "phase": self.phase,
            "stock": list(self.stock),
            "discard_pile": list(self.discard_pile),
            "table": [meld.to_json() for meld in self.table],
            "hands": [list(hand) for hand in self.hands],
            "opened": list(self.opened),
            "totals": list(self.totals),
            "eliminated": list(self.eliminated),
            "turn": self.turn.to_json(),
            "turn_number": self.turn_number,
            "stock_ran_out": self.stock_ran_out,
            "results": [result.to_json() for result in self.results],
            "winners": list(self.winners),
            "undo": None if (undo := self._undo_snapshot()) is None else undo.to_json(),
        }

    def _restore(self, data: Mapping[str, Any]) -> None:
        rng_version, internal, gauss = data["rng"]
        self.rng.setstate((rng_version, tuple(internal), gauss))
        self.hand_number = int(data["hand_number"])
        self.first_seat = int(data["first_seat"])
        self.current = int(data["current"])
        self.eliminated = [bool(flag) for flag in data["eliminated"]]
        # Saves from before the dealer was recorded: the dealer sat just before the first player.
        dealer = data.get("dealer")
        if dealer is not None:
            self.dealer = int(dealer)
        elif len(self.eliminated) == len(self.players):
            self.dealer = self.previous_seat(self.first_seat)
        else:
            self.dealer = self.first_seat  # a damaged save: _validate_restored refuses it

        phase = data["phase"]
        if phase not in ("draw", "play", "hand_over", "game_over"):
            raise StateFormatError(f"the saved game has an unknown phase {phase!r}")
        self.phase = phase
        self.stock = [int(card) for card in data["stock"]]
        self.discard_pile = [int(card) for card in data["discard_pile"]]
        self.table = [TableMeld.from_json(meld) for meld in data["table"]]
        self.hands = [[int(card) for card in hand] for hand in data["hands"]]
        self.hand_states = [CardState.of(hand) for hand in self.hands]
        self.opened = [bool(flag) for flag in data["opened"]]
        self.totals = [int(total) for total in data["totals"]]
        self.eliminated = [bool(flag) for flag in data["eliminated"]]
        self.turn = TurnState.from_json(data["turn"])
        self.turn_number = int(data["turn_number"])
        self.stock_ran_out = bool(data["stock_ran_out"])
        self.results = [HandResult.from_json(result) for result in data["results"]]
        self.winners = [int(seat) for seat in data["winners"]]
        undo = data["undo"]
        self._undo = None if undo is None else TurnSnapshot.from_json(undo, self.current)

    def _validate_restored(self) -> None:
        count = len(self.players)
        lists = (self.hands, self.opened, self.totals, self.eliminated)
        if any(len(values) != count for values in lists) or not 0 <= self.current < count:
            raise StateFormatError(f"the saved game is damaged: {_SEATS}", problem=_SEATS)
        if not 0 <= self.dealer < count:
            raise StateFormatError(f"the saved game is damaged: {_SEATS}", problem=_SEATS)
        pack, cards = full_pack(self.variant.decks, self.variant.jokers), self.cards_everywhere()
        if cards != pack:
            problem = f"{_NOT_ONE_PACK}: {pack_difference(cards, pack)}"
            raise StateFormatError(f"the saved game is damaged: {problem}", problem=problem)
        for index, meld in enumerate(self.table):
            fault = saved_meld_problem(meld, self.variant)
            if fault is not None:
                said = f"table[{index}]: {fault}"
                raise StateFormatError(f"the saved game is damaged: {said}", problem=said)
