"""The ``expert`` bot: the greedy bot's play, with an eye on unseen cards, the next player and Kalooki."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kalooki import solver
from kalooki.bots.greedy import GreedyBot, keep_count
from kalooki.cards import JOKER, Card, card_points, full_pack, make_card, rank_of, suit_of
from kalooki.melds import MeldError, build

if TYPE_CHECKING:
    from kalooki.engine import Game
    from kalooki.variant import Variant

KALOOKI_WAIT_CARDS = 2
"""Hold back an opening for Kalooki while at most this many cards stand between the hand and going out."""

DANGER_HAND_SIZE = 4
"""An opponent with this few cards may go out soon: stop waiting for Kalooki."""


def unseen(game: Game) -> Counter[Card]:
    """The cards the current player has not seen: the pack less their hand, the table and the discard pile."""
    seen: Counter[Card] = Counter(game.hands[game.current])
    seen.update(game.discard_pile)
    for meld in game.table:
        seen.update(meld.cards)
    return full_pack(game.variant.decks, game.variant.jokers) - seen


def live_partners(card: Card, hand: Sequence[Card], hidden: Counter[Card]) -> int:
    """Cards that could still join ``card`` in a meld: held near cards, and unseen cards that complete them."""
    if card == JOKER:
        return 99
    rank, suit = rank_of(card), suit_of(card)
    score = 0
    for other in hand:
        if other == JOKER or other == card:
            continue
        if rank_of(other) == rank and suit_of(other) != suit:
            # A pair for a set: it lives while a third suit is still out there.
            third = sum(hidden[make_card(rank, s)] for s in range(4) if s not in (suit, suit_of(other)))
            score += 2 if third else 0
        elif suit_of(other) == suit and 0 < abs(rank_of(other) - rank) <= 2:
            low, high = sorted((rank, rank_of(other)))
            fillers = [make_card(r, suit) for r in (low - 1, low + 1, high + 1) if 1 <= r <= 13 and r != high]
            score += 2 if any(hidden[filler] for filler in fillers) else 0
    return score


class ExpertBot(GreedyBot):
    """Plays like ``greedy``, but discards what is dead and safe, and waits for Kalooki when close."""

    name = "expert"

    def plan(self, game: Game) -> solver.Plan | None:
        plan = super().plan(game)
        seat = game.current
        if plan is None or game.opened[seat] or self.debts(game):
            return plan
        hand = game.hands[seat]
        if len(plan.remaining) <= keep_count(game.variant):
            return plan  # laying it all now is Kalooki already
        if game.variant.kalooki_bonus and self.close_to_kalooki(game, hand) and not self.in_danger(game):
            return None
        return plan

    @staticmethod
    def close_to_kalooki(game: Game, hand: Sequence[Card]) -> bool:
        variant = game.variant
        keep = keep_count(variant)
        best = solver.solve(hand, variant, opened=True, keep=keep, objective="cards")
        return len(best.remaining) - keep <= KALOOKI_WAIT_CARDS

    @staticmethod
    def in_danger(game: Game) -> bool:
        others = [seat for seat in game.seats if seat != game.current]
        return any(len(game.hands[seat]) <= DANGER_HAND_SIZE for seat in others) or len(game.stock) < 10

    def choose_discard(self, game: Game, hand: Sequence[Card], variant: Variant) -> Card:
        owed = Counter(self.debts(game))
        candidates = [card for card in set(hand) if card != JOKER and not owed[card]] or list(set(hand))
        hidden = unseen(game)
        next_seat = game.next_seat(game.current)
        feeds_next = game.opened[next_seat]

        def score(card: Card) -> tuple[int, int]:
            value = card_points(card, variant.ace_value, variant.joker_penalty)
            risk = 15 if feeds_next and self.fits_table(game, card) else 0
            return (value - 6 * live_partners(card, hand, hidden) - risk, card)

        return max(candidates, key=score)

    @staticmethod
    def fits_table(game: Game, card: Card) -> bool:
        """Whether the next player, having opened, could build ``card`` straight onto the table."""
        for meld in game.table:
            try:
                build(meld, (card,), game.variant)
            except MeldError:
                continue
            return True
        return False
