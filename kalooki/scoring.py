"""The end of a hand and of the game: what each player scores, who is eliminated, who has won."""

from __future__ import annotations

from kalooki import rules
from kalooki.cards import (
    hand_points,
)
from kalooki.events import EliminatedEvent, GameEndEvent, HandEndEvent
from kalooki.gamestate import (
    Event,
    GameState,
    HandEnd,
    HandResult,
    IllegalMoveError,
)


class HandScoring(GameState):
    """Ending a hand: the scores it adds, and whether the game is over."""

    def hand_value(self, seat: int) -> int:
        return hand_points(self.hands[seat], self.variant.ace_value, self.variant.joker_penalty)

    def _went_out(self) -> list[Event]:
        turn = self.turn
        kalooki = rules.not_kalooki(self.variant, turn.opened_before, turn.built) is None
        return self._end_hand(self.current, "went_out", kalooki=kalooki)

    def abandon_hand(self) -> list[Event]:
        """End the hand unscored (a simulation's turn limit, or players agreeing to stop)."""
        if self.phase not in ("draw", "play"):
            raise IllegalMoveError("no hand is being played")
        return self._end_hand(None, "abandoned")

    def _end_hand(self, winner: int | None, end: HandEnd, kalooki: bool = False) -> list[Event]:
        variant = self.variant
        seats = tuple(self.seats)
        points = tuple(self.hand_value(seat) if seat != winner else 0 for seat in range(len(self.players)))
        scores = rules.hand_scores(variant, winner, kalooki, points, seats)
        for seat in seats:
            self.totals[seat] += scores[seat]
        result = HandResult(
            number=self.hand_number,
            winner=winner,
            kalooki=kalooki,
            end=end,
            seats=seats,
            hand_points=tuple(points[seat] if seat in seats else 0 for seat in range(len(self.players))),
            scores=tuple(scores),
            turns=self.turn_number,
            dealer=self.dealer,
        )
        self.results.append(result)
        self.phase = "hand_over"
        self._undo = None
        self._undo_pending = False
        event = HandEndEvent(
            hand=self.hand_number,
            end=end,
            winner=None if winner is None else self.players[winner],
            kalooki=kalooki,
            hand_points={self.players[seat]: points[seat] for seat in seats},
            scores={self.players[seat]: scores[seat] for seat in seats},
            totals={self.players[seat]: self.totals[seat] for seat in range(len(self.players))},
        )
        events: list[Event] = [event]
        events += self._check_game_end(seats)
        return events

    def _check_game_end(self, seats: tuple[int, ...]) -> list[Event]:
        variant = self.variant
        goal = variant.goal_score
        if variant.scoring == "winner_collects":
            reached = [seat for seat in seats if self.totals[seat] >= goal]
            if not reached:
                return []
            best = max(self.totals[seat] for seat in reached)
            self.winners = [seat for seat in reached if self.totals[seat] == best]
        elif variant.elimination:
            out = [seat for seat in seats if self.totals[seat] >= goal]
            for seat in out:
                self.eliminated[seat] = True
            events: list[Event] = [EliminatedEvent(self.players[seat]) for seat in out]
            left = self.seats
            if len(left) > 1:
                return events
            # Nobody left standing cannot happen (the hand's winner adds nothing), but a tie must not crash.
            self.winners = left or self._lowest(list(seats))
            self.phase = "game_over"
            return [*events, self._game_end_event()]
        else:
            if not any(self.totals[seat] >= goal for seat in seats):
                return []
            self.winners = self._lowest(list(seats))
        self.phase = "game_over"
        return [self._game_end_event()]

    def _lowest(self, seats: list[int]) -> list[int]:
        best = min(self.totals[seat] for seat in seats)
        return [seat for seat in seats if self.totals[seat] == best]

    def _game_end_event(self) -> Event:
        return GameEndEvent(
            winners=tuple(self.players[seat] for seat in self.winners),
            totals=dict(zip(self.players, self.totals, strict=True)),
        )
