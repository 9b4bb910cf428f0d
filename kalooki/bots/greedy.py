"""The ``greedy`` bot: opens as soon as it can, lays all it can, discards its costliest loose card."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kalooki import solver
from kalooki.cards import JOKER, Card, card_points, rank_of, suit_of
from kalooki.moves import Action, Build, Discard, Draw, Meld, Swap

if TYPE_CHECKING:
    from kalooki.engine import Game
    from kalooki.variant import Variant


def keep_count(variant: Variant) -> int:
    """Cards that must stay in hand after laying: one to discard where the last card must be discarded."""
    return 1 if variant.going_out == "discard_required" else 0


def closeness(card: Card, hand: Sequence[Card]) -> int:
    """How many other cards of the hand could meld with ``card`` (same rank, or same suit within two ranks)."""
    if card == JOKER:
        return 99
    rank, suit = rank_of(card), suit_of(card)
    near = 0
    for other in hand:
        if other == JOKER or other == card:
            continue
        other_rank, other_suit = rank_of(other), suit_of(other)
        if other_rank == rank and other_suit != suit:
            near += 1
        elif other_suit == suit:
            gap = abs(other_rank - rank)
            if gap <= 2 or gap >= 11:  # 11-12 apart is an ace next to a queen or king
                near += 1
    return near


class GreedyBot:
    """Lays down as soon and as much as it can, keeping cards that are near melds."""

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    # ---------------------------------------------------------------- draw

    def choose(self, game: Game) -> Action:
        if game.phase == "draw":
            return self.choose_draw(game)
        return self.choose_play(game)

    def choose_draw(self, game: Game) -> Action:
        top = game.discard_pile[-1] if game.discard_pile else None
        if top is not None and Draw("discard") in game.legal_actions() and self.wants_discard(game, top):
            return Draw("discard")
        if game.stock:
            return Draw("stock")
        return Draw("discard")

    def wants_discard(self, game: Game, top: Card) -> bool:
        """Take the top discard when it lets the hand lay more this turn, or joins two cards toward a meld."""
        seat = game.current
        hand = list(game.hands[seat])
        variant = game.variant
        keep = keep_count(variant)
        if top == JOKER:
            return True
        if game.opened[seat]:
            with_top = solver.solve(
                [*hand, top], variant, table=game.table, opened=True, keep=keep, objective="cards"
            )
            without = solver.solve(hand, variant, table=game.table, opened=True, keep=keep, objective="cards")
            if with_top.cards_laid > without.cards_laid and top not in with_top.remaining:
                return True
        else:
            opening = solver.best_opening([*hand, top], variant, table=game.table, keep=keep)
            if (
                opening is not None
                and solver.best_opening(hand, variant, table=game.table, keep=keep) is None
            ):
                return True
        return variant.discard_draw != "meld_at_once" and closeness(top, hand) >= 2

    # ---------------------------------------------------------------- play

    def choose_play(self, game: Game) -> Action:
        seat = game.current
        variant = game.variant
        swap_action = self.useful_swap(game)
        if swap_action is not None:
            return swap_action
        plan = self.plan(game)
        if plan is not None and (plan.melds or plan.builds):
            if plan.melds:
                return Meld(plan.melds)
            index, cards, end = plan.builds[0]
            return Build(index + 1, cards, end)
        return Discard(self.choose_discard(game, game.hands[seat], variant))

    def plan(self, game: Game) -> solver.Plan | None:
        """What to lay now: the best opening, or once open everything that lowers the hand's value."""
        seat = game.current
        hand = game.hands[seat]
        variant = game.variant
        keep = keep_count(variant)
        must = self.debts(game)
        if not game.opened[seat]:
            return solver.best_opening(hand, variant, table=game.table, keep=keep, must_include=must)
        try:
            return solver.solve(
                hand,
                variant,
                table=game.table,
                opened=True,
                keep=keep,
                must_include=must,
                objective="value_left",
            )
        except solver.Unsolvable:
            return None

    @staticmethod
    def debts(game: Game) -> tuple[Card, ...]:
        """Cards this turn must still lay: the discard taken under meld_at_once, freed jokers."""
        turn = game.turn
        hand = game.hands[game.current]
        owed: list[Card] = []
        if turn.must_use_card is not None:
            owed += [turn.must_use_card] * max(0, hand.count(turn.must_use_card) - turn.must_use_limit)
        if turn.joker_limit is not None:
            owed += [JOKER] * max(0, hand.count(JOKER) - turn.joker_limit)
        return tuple(owed)

    def useful_swap(self, game: Game) -> Swap | None:
        """A joker release after which the hand lays more than it could without it."""
        seat = game.current
        if not game.table or not any(meld.jokers for meld in game.table):
            return None
        swaps = game.legal_swaps()
        if not swaps:
            return None
        variant = game.variant
        keep = keep_count(variant)
        hand = game.hands[seat]
        opened = game.opened[seat]
        if not opened:
            return None
        base = solver.solve(hand, variant, table=game.table, opened=True, keep=keep).value_left
        for action in swaps:
            after = Counter(hand)
            after.subtract(action.cards)
            freed_hand = [*after.elements(), JOKER]
            value = solver.solve(freed_hand, variant, table=game.table, opened=True, keep=keep).value_left
            if value < base:
                return action
        return None

    def choose_discard(self, game: Game, hand: Sequence[Card], variant: Variant) -> Card:
        """The costliest card that is least connected to the rest of the hand (never a joker if avoidable)."""
        owed = Counter(self.debts(game))
        candidates = [card for card in set(hand) if card != JOKER and not owed[card]] or list(set(hand))

        def score(card: Card) -> tuple[int, int]:
            value = card_points(card, variant.ace_value, variant.joker_penalty)
            return (value - 8 * closeness(card, hand), card)

        return max(candidates, key=score)
