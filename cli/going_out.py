"""Why going out was not Kalooki: the note under the end-of-hand screen.

A player who lays cards in the turn they go out may believe they went Kalooki; when they did
not, the screen says why. The reason is read from the engine's state right after the hand
ended, while ``game.turn`` is still the winner's last turn, and from the events of that turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from kalooki.engine import Event, Game
from kalooki.events import BuildEvent, DrawEvent, HandEndEvent, MeldEvent, ReleaseEvent
from kalooki.rules import not_kalooki


def laid_since_draw(events: Sequence[Event], laid: bool) -> bool:
    """Whether the player on turn has melded, built or swapped since drawing, once ``events`` happened."""
    for event in events:
        if isinstance(event, DrawEvent):
            laid = False
        elif isinstance(event, MeldEvent | BuildEvent | ReleaseEvent):
            laid = True
    return laid


def why_not_kalooki(game: Game, event: HandEndEvent, laid_in_turn: bool) -> str | None:
    """Why laying down cards in the going-out turn was not Kalooki (None when it was, or nothing was laid).

    Read from the state right after the hand ended, while ``game.turn`` is still the winner's last turn.
    """
    variant = game.variant
    if event.kalooki or not laid_in_turn or not variant.kalooki_bonus:
        return None
    reason = not_kalooki(variant, game.turn.opened_before, game.turn.built)
    if reason == "opened_before":
        return (
            "had melded in an earlier turn; Kalooki is the whole hand laid in one turn, nothing laid before"
        )
    if reason == "built":
        return (
            "went out in one turn, but built on (or took a joker from) a meld already on the table; "
            f"in {variant.name} Kalooki is the whole hand laid in melds of one's own"
        )
    return None
