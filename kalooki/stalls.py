"""Why a hand was stopped at the turn limit, in words.

A hand ends when a player goes out (or, under some rules, when the stock runs out). Players who can
never go out keep drawing and discarding, the stock is made anew from the discard pile over and
over, and the game's turn limit stops the hand. :class:`Stall` records what the hand looked like
then, from the whole game (a simulation sees every hand): how long nothing had been laid, how often
the stock went round, what each seat held, and how many cards the table could still take.
:meth:`Stall.describe` says it in a sentence for reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kalooki import rules
from kalooki.bots import endgame

if TYPE_CHECKING:
    from kalooki.engine import Game
    from kalooki.simulate import GameRecord


@dataclass(frozen=True, slots=True)
class Stall:
    """A hand stopped at the turn limit: what held it up, seat by seat (only the seats playing it)."""

    turns: int
    quiet_turns: int
    """Turns since a card was last laid on the table or a joker freed (all of them if none was)."""
    reshuffles: int
    """Times the discard pile was turned into a new stock."""
    seats: tuple[int, ...]
    held: tuple[int, ...]
    """Cards each seat of ``seats`` held when the hand was stopped."""
    opened: tuple[bool, ...]
    small: tuple[bool, ...]
    """Whether each seat held too few cards for a new meld: it could go out only by building."""
    places: int
    """Cards the table could still take one by one, counting only cards still in play."""

    def describe(self, labels: Sequence[str]) -> str:
        """The stall in words; ``labels`` names every seat (indexed by seat)."""
        if self.turns == 1:
            # A cap of one turn (--max-turns 1): "the last of 1 turns" would not be English.
            quiet = (
                "A card was laid on the only turn" if not self.quiet_turns else "Nothing was laid in 1 turn"
            )
        elif not self.quiet_turns:
            quiet = f"A card was laid on the last of {self.turns:,} turns"
        elif self.quiet_turns >= self.turns:
            quiet = f"Nothing was laid in {self.turns:,} turns"
        else:
            quiet = f"Nothing was laid in the last {self.quiet_turns:,} of {self.turns:,} turns"
        if self.reshuffles:
            times = "once" if self.reshuffles == 1 else f"{self.reshuffles:,} times"
            quiet += f"; the stock was made anew from the discards {times}"
        holdings = []
        for index, (seat, held, opened) in enumerate(zip(self.seats, self.held, self.opened, strict=True)):
            cards = f"{held} card{'s' if held != 1 else ''}{'' if opened else ' (not opened)'}"
            holdings.append(f"{labels[seat]} held {cards}" if not index else f"{labels[seat]} {cards}")
        sentences = [quiet + ".", ", ".join(holdings) + "."]
        small = [labels[seat] for seat, tight in zip(self.seats, self.small, strict=True) if tight]
        if small:
            if self.places:
                room = f"the table had places for {self.places} more card{'s' if self.places != 1 else ''}"
            else:
                room = "no place on the table could take a card still in play"
            sentences.append(
                f"{_join(small)} could go out only by building (too few cards for a new meld), and {room}."
            )
        return " ".join(sentences)


def stall_of(game: Game, quiet_turns: int, reshuffles: int) -> Stall:
    """The :class:`Stall` of ``game``'s hand, just stopped at the turn limit."""
    variant = game.variant
    keep = rules.keep(variant)
    seats = tuple(game.seats)
    held = tuple(len(game.hands[seat]) for seat in seats)
    return Stall(
        turns=game.results[-1].turns,
        quiet_turns=quiet_turns,
        reshuffles=reshuffles,
        seats=seats,
        held=held,
        opened=tuple(game.opened[seat] for seat in seats),
        # Where a turn may end without a discard a small hand may also grow to a new meld: building is
        # not its only way out, and saying so named a cause that was not one.
        small=tuple(
            endgame.too_few_for_a_meld(count, keep) and not rules.may_end_without_discard(variant)
            for count in held
        ),
        places=endgame.live_slots(game.table, game.discard_pile, variant),
    )


def _join(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


@dataclass(frozen=True, slots=True)
class StalledHand:
    """A simulated hand stopped at the turn limit: which game and hand, and why in words."""

    game: int
    hand: int
    why: str

    def to_json(self) -> dict[str, object]:
        return {"game": self.game, "hand": self.hand, "why": self.why}


def stalled_hands(records: Sequence[GameRecord], bots: Sequence[str]) -> list[StalledHand]:
    """Every hand of ``records`` stopped at the turn limit, seats named as "P1 (greedy)"."""
    found = []
    for record in records:
        labels = [f"P{seat + 1} ({record.bot(bots, seat)})" for seat in range(len(bots))]
        for number, hand in enumerate(record.hands, 1):
            if hand.stall is not None:
                found.append(StalledHand(record.index, number, hand.stall.describe(labels)))
    return found
