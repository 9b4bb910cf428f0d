"""Checking a saved game against its deals (:func:`kalooki.statecheck.check_reachable` asks it).

Who deals each hand, who plays first, how many cards each hand was dealt and whether a card was turned
up are the variant's to decide, from the hand's number and the seats in play: a save edited to say
otherwise would have the next hand dealt, or this one scored, as no play leads to. Each function
returns one line naming the first problem, or None.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kalooki import rules
from kalooki.turncheck import seat_named

if TYPE_CHECKING:
    from kalooki.engine import Game
    from kalooki.snapshot import TurnSnapshot


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _seat_after(game: Game, seat: int, seats: Sequence[int], direction: str | None = None) -> int:
    """The seat of ``seats`` that play (or ``direction``) reaches next from ``seat``, as
    :meth:`~kalooki.gamestate.GameState.next_seat` finds it when ``seats`` are the ones still playing
    (a finished hand's seats are its result's: whoever it put out was still dealt in)."""
    step = 1 if (direction or game.variant.play_direction) == "clockwise" else -1
    count = len(game.players)
    for offset in range(1, count):
        candidate = (seat + step * offset) % count
        if candidate in seats:
            return candidate
    return seat


def _seat_before(game: Game, seat: int, seats: Sequence[int]) -> int:
    backwards = "counter_clockwise" if game.variant.play_direction == "clockwise" else "clockwise"
    return _seat_after(game, seat, seats, backwards)


def deal_problem(game: Game, live: Sequence[int]) -> str | None:
    """Why a hand's dealer, or the hand's first player, is not the one the variant makes of the hand's
    number and seats: the first hand's dealer sits before seat 1 (``first_dealer: seat_order``; under
    ``high_card`` a draw decides it), each later hand's follows the one before (``deal_direction``), and
    the player after the dealer plays first. A result from before the dealer was recorded leaves its hand's
    dealer to the rules (those of such saves: the deal passed as play goes)."""
    variant = game.variant
    over = game.phase in ("hand_over", "game_over")
    hands: list[tuple[int | None, Sequence[int]]] = [(result.dealer, result.seats) for result in game.results]
    if over:
        recorded = hands[-1][0]
        if recorded is not None and recorded != game.dealer:
            return (
                f"hand {game.hand_number} was dealt by {seat_named(game, recorded)}, but the game names "
                f"{seat_named(game, game.dealer)} as its dealer"
            )
    else:
        hands.append((game.dealer, live))
    before: tuple[int, Sequence[int]] | None = None
    for number, (dealer, seats) in enumerate(hands, 1):
        expected = _dealer(game, number, seats, before)
        if dealer is not None and dealer not in seats:
            return f"hand {number} was dealt by {seat_named(game, dealer)}, who was not playing it"
        if (
            dealer is not None
            and expected is not None
            and dealer != expected
            and dealer != _earlier(game, seats, before)  # only asked of a dealer the rules do not name now
        ):
            rule = (
                f"first_dealer: {variant.first_dealer}"
                if number == 1
                else f"deal_direction: {variant.deal_direction}"
            )
            return (
                f"hand {number} was dealt by {seat_named(game, dealer)}, but under {rule} "
                f"{seat_named(game, expected)} deals it"
            )
        known = dealer if dealer is not None else expected
        before = None if known is None else (known, seats)
    if before is None:
        return None
    dealer, seats = before
    first = _seat_after(game, dealer, seats)
    if game.first_seat != first:
        return (
            f"{seat_named(game, game.first_seat)} plays first in hand {game.hand_number}, "
            f"but the player after its dealer, {seat_named(game, dealer)}, is {seat_named(game, first)}"
        )
    return None


def turn_order_problem(game: Game, seats: Sequence[int]) -> str | None:
    """Why the player to move is not the one the hand's turns lead to: its first player has turn 1 and
    each turn passes to the next of the hand's ``seats`` the way play goes (nothing else moves it, and a
    hand's end leaves it with the last turn's player)."""
    order = [game.first_seat]
    while len(order) < len(seats):
        order.append(_seat_after(game, order[-1], seats))
    expected = order[(game.turn_number - 1) % len(order)]
    if game.current != expected:
        return (
            f"it is turn {game.turn_number} of a hand {seat_named(game, game.first_seat)} began, which is "
            f"{seat_named(game, expected)}'s, but the game has {seat_named(game, game.current)} to move"
        )
    return None


def _dealer(
    game: Game, number: int, seats: Sequence[int], before: tuple[int, Sequence[int]] | None
) -> int | None:
    """The dealer of hand ``number`` the variant makes of its seats and the hand before's dealer and seats
    (None: drawn at random, or the hand before's dealer is unknown)."""
    variant = game.variant
    if number == 1:
        return None if variant.first_dealer == "high_card" else _seat_before(game, 0, seats)
    if before is None:
        return None
    dealer, _ = before
    return _seat_after(
        game, dealer, seats, None if variant.deal_direction == "as_play" else variant.deal_direction
    )


def _earlier(game: Game, seats: Sequence[int], before: tuple[int, Sequence[int]] | None) -> int | None:
    """The dealer of a hand (dealt to ``seats``, after ``before``'s dealer and seats) under ``deal_direction:
    as_play`` as kalooki passed the deal before it passed it from the dealer (None: no other): the first
    player moved on one seat and the dealer sat before them, which gave the deal twice running where the
    first player had been put out. A save of such a game is still taken; its next hand is dealt as the
    deal passes now."""
    if before is None or game.variant.deal_direction != "as_play":  # the first hand has none before it
        return None
    dealer, dealt = before
    first = _seat_after(game, _seat_after(game, dealer, dealt), seats)
    return _seat_before(game, first, seats)


def first_turn_pile_problem(game: Game) -> str | None:
    """Why the discard pile in a hand's first turn is not the deal's: the card turned up (none where
    ``upcard: false``), less the one the turn drew from it. Nothing is discarded before the first turn
    ends; only a reshuffle of the pile into an empty stock takes the card away otherwise, and it leaves
    the stock that card at most, so where the stock holds two cards or more the pile is exact."""
    if game.turn_number != 1:
        return None
    upcard = 1 if game.variant.upcard else 0
    held = len(game.discard_pile) + (1 if game.turn.drew == "discard" else 0)
    if held > upcard or (held < upcard and len(game.stock) > 1):
        turned = "one card" if upcard else "no card (upcard: false)"
        return (
            f"the hand's first turn found {_cards(held)} on the discard pile, but its deal turned up {turned}"
        )
    return None


def unopened_hand_problem(game: Game, seats: Sequence[int], snapshot: TurnSnapshot | None) -> str | None:
    """Why a hand of ``seats`` that has laid nothing holds fewer cards than were dealt to it (``hand_size``):
    each turn draws one card and discards one at most, and only a player who has opened lays cards, unless
    the variant lets one who has not take a joker from the table (for fewer cards, or as many). The player
    to move who began the turn unopened and has opened in it is asked of the hand the draw left them (the
    undo ``snapshot``'s; None where there is none to ask, as in a table's view)."""
    variant = game.variant
    if rules.may_ever_swap(variant) and rules.may_release_jokers(variant, False):
        return None
    drawn = game.phase == "play"
    for seat in seats:
        least = variant.hand_size + (1 if drawn and seat == game.current else 0)
        held, said = len(game.hands[seat]), "has laid nothing but holds"
        if game.opened[seat]:
            if not (drawn and seat == game.current and snapshot is not None and not snapshot.opened):
                continue
            held, said = len(snapshot.hand), "had laid nothing when this turn began but held after its draw"
        if held < least:
            return (
                f"{seat_named(game, seat)} {said} {_cards(held)}, "
                f"fewer than the {least} dealt and drawn (hand_size: {variant.hand_size})"
            )
    return None
