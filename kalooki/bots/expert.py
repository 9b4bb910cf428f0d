"""The ``expert`` bot: greedy's laying, with card judgement that counts what is still out there.

Where ``greedy`` keeps a card for the cards near it in hand, ``expert`` keeps it for the
melds it can still become: for every set or run window the card sits in, the cards missing
from the window and how many copies of them it has not seen (in its hand, on the table, in
the discard pile). A pair whose two other suits are all on the table is dead; a run gap
whose card is still unseen twice is live; once the player has opened, a card one short of a
table run lives on that run's missing card too. On that score it

- discards the least promising card, weighing its points more as the hand gets dangerous
  (an opponent close to going out, the stock running low), and keeps cards that the next
  player could lay straight onto the table if it may;
- takes the top discard only when that lays more now or completes a meld (taking it for its
  promise, as greedy does, lost hands in simulation: the unknown stock card is worth as much);
- holds back an opening for Kalooki when the whole hand is one card from going down at once
  and nobody is about to go out (only where going Kalooki is paid);
- releases jokers from the table when that lowers what it is left holding (as greedy does);
- once down to one or two cards after its discard, keeps those that the most draws still out
  there would take out (a pair of one card, 2H 2H, goes out on none where only 2H has a place);
- on a table with no place left to fill, where its hand can go out only as one run (too few
  cards to lay for two melds, more than a set holds), counts the cards that only make sets as dead.

Measured over 2,110 classic hands against greedy (two seats each), it wins 52% of the hands
and 56% of the games that either side wins, scoring an eighth fewer penalty points per hand;
see the README.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kalooki import rules, solver
from kalooki.bots import endgame, quick
from kalooki.bots.greedy import GreedyBot, keep_count
from kalooki.bots.nearness import card_counts
from kalooki.cards import JOKER, Card, card_points, full_pack
from kalooki.rules import run_frame

if TYPE_CHECKING:
    from kalooki.melds import TableMeld
    from kalooki.variant import Variant
    from kalooki.view import PlayerView


@dataclass(frozen=True, slots=True)
class Weights:
    """How the expert weighs a card; the defaults were tuned by simulation against greedy."""

    meld: float = 40.0
    """A card in a complete meld (it will go down with it)."""
    near: float = 3.0
    """Per unseen card that would complete a meld the card is one short of."""
    far: float = 0.5
    """Per unseen card toward a meld the card is two short of."""
    value: float = 0.6
    """Per point of the card, while nobody is close to going out."""
    value_danger: float = 1.5
    """Per point of the card, once someone may go out soon."""
    value_unopened: float = 0.6
    """Per point of the card before this player has opened (high cards also help reach the threshold)."""
    kalooki_wait: int = 1
    """Hold back an opening while at most this many cards stand between the hand and Kalooki (-1: never)."""
    feeds_next: float = 30.0
    """Kept rather than handed to a next player who could lay it at once."""
    table_near: float = 1.0
    """After opening: how much an unseen card that would let the card build onto a table run counts."""
    danger_cards: int = 5
    """An opponent holding this few cards may go out soon: points in hand start to matter more."""
    take_margin: float = 1000.0
    """How much more than the card it would replace the top discard must be worth to take it.

    Taking a discard only for its promise, as greedy does, lost hands in simulation (the stock's
    unknown card is worth about as much and may be a joker): by default only a discard that
    lays down or completes a meld is taken."""


DANGER_STOCK = 10
"""With this few cards left in the stock, the hand may end soon whoever goes out."""

OUTS_MEMO = 4096
"""Small hands' outs remembered at most (the memory is emptied when full)."""

SMALL_HAND = 2
"""Keeping this few cards after the discard, the expert keeps those that the most draws take out."""


class ExpertBot(GreedyBot):
    """Plays like ``greedy``, but judges cards by the melds still possible with unseen cards."""

    name = "expert"
    weights = Weights()

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self._unseen: tuple[tuple[int, ...], list[int]] | None = None
        self._outs: dict[tuple[object, ...], int] = {}

    # ---------------------------------------------------------------- what is still out there

    def unseen(self, view: PlayerView) -> list[int]:
        """Copies of each card code this player has not seen: the pack less hand, table and discards."""
        key = (view.hand_number, view.turn_number, len(view.discard_pile), len(view.table))
        cached = self._unseen
        if cached is not None and cached[0] == key:
            return cached[1]
        hidden = view.unseen()
        self._unseen = (key, hidden)
        return hidden

    def in_danger(self, view: PlayerView) -> bool:
        seat = view.current
        others = [other for other in view.seats if other != seat]
        return view.stock_count < DANGER_STOCK or any(
            view.hand_counts[other] <= self.weights.danger_cards for other in others
        )

    def card_scores(self, view: PlayerView, hand: Sequence[Card]) -> dict[Card, float]:
        """How much each distinct card of ``hand`` is worth keeping (higher: keep)."""
        variant = view.variant
        weights = self.weights
        hidden = self.unseen(view)
        counts = card_counts(hand)
        runs_only = self.only_runs_go_out(view, len(hand))
        melded = self.meld_mask(view, hand, runs_only)
        if self.in_danger(view):
            per_point = weights.value_danger
        else:
            per_point = weights.value if view.opened[view.current] else weights.value_unopened
        next_seat = view.next_seat
        next_lays = view.opened[next_seat] and discard_allowed_for(view, next_seat)
        scores: dict[Card, float] = {}
        for card in set(hand):
            if card == JOKER:
                scores[card] = 1000.0
                continue
            score = weights.meld if melded >> card & 1 else 0.0
            near, far = outs(card, counts, hidden, variant, sets=not runs_only)
            if view.opened[view.current]:
                near += table_outs(card, view.table, hidden) * weights.table_near
            score += weights.near * near + weights.far * far
            score -= per_point * card_points(card, variant.ace_value, variant.joker_penalty)
            if next_lays and quick.fits_table(card, view.table, variant):
                score += weights.feeds_next
            scores[card] = score
        return scores

    def only_runs_go_out(self, view: PlayerView, cards: int) -> bool:
        """Whether ``cards`` held after a draw goes out only as a run (:func:`endgame.only_a_run_goes_out`).

        Its cards that can only make sets are then worth nothing but their points: kept for the sets
        they make, five twos once held out against every run card drawn on a table of full sets,
        and the hand ran to the turn limit.
        """
        return endgame.only_a_run_goes_out(
            cards, keep_count(view.variant), view.table, view.discard_pile, view.variant
        )

    def meld_mask(self, view: PlayerView, hand: Sequence[Card], runs_only: bool) -> int:
        """The cards of ``hand`` in a new meld of it (:meth:`meldable`); with ``runs_only``, in a new run."""
        if runs_only:
            return quick.meldable_in_runs(self.state_of(hand), view.variant)
        return self.meldable(hand, view.variant)

    # ---------------------------------------------------------------- draw

    def wants_discard(self, view: PlayerView, top: Card) -> bool:
        if rules.discard_must_be_laid(view.variant):
            return self.lays_top(view, top)
        if top == JOKER or self.lays_top(view, top):
            return True
        hand = view.hand
        with_top = [*hand, top]
        runs_only = self.only_runs_go_out(view, len(with_top))
        after = self.meld_mask(view, with_top, runs_only)
        if after >> top & 1 and not self.meld_mask(view, hand, runs_only) >> top & 1:
            return True  # it completes a meld the hand did not have
        scores = self.card_scores(view, with_top)
        others = [score for card, score in scores.items() if card != top]
        return bool(others) and scores[top] > min(others) + self.weights.take_margin

    # ---------------------------------------------------------------- play

    def plan(self, view: PlayerView) -> solver.Plan | None:
        plan = super().plan(view)
        seat = view.current
        if plan is None or plan.empty or view.owed:
            return plan
        if view.opened[seat]:
            return plan
        if len(plan.remaining) <= keep_count(view.variant):
            return plan  # laying it all now is Kalooki already
        if view.variant.kalooki_bonus and not self.in_danger(view) and self.close_to_kalooki(view):
            return None
        return plan

    def close_to_kalooki(self, view: PlayerView) -> bool:
        """Whether all but :attr:`Weights.kalooki_wait` cards of the hand could go down as melds now."""
        hand = view.hand
        keep = keep_count(view.variant)
        best = self.solve(view, hand, objective="cards")
        return best is not None and len(best.remaining) - keep <= self.weights.kalooki_wait

    def choose_discard(self, view: PlayerView, hand: Sequence[Card], variant: Variant) -> Card:
        if self.short_of_opening(view, hand, variant):
            return super().choose_discard(view, hand, variant)  # gain points: let the low cards go
        owed = set(view.owed)
        scores = self.card_scores(view, hand)
        candidates = [card for card in scores if card != JOKER and card not in owed] or list(scores)
        if view.opened[view.current] and 0 < len(hand) - 1 <= SMALL_HAND:
            outs = {card: self.outs_after(view, hand, card) for card in candidates}
            return min(candidates, key=lambda card: (-outs[card], scores[card], -card))
        return min(candidates, key=lambda card: (scores[card], -card))

    def outs_after(self, view: PlayerView, hand: Sequence[Card], discard: Card) -> int:
        """:meth:`outs_to_go_out` of ``hand`` less ``discard``."""
        kept = list(hand)
        kept.remove(discard)
        return self.outs_to_go_out(view, kept)

    def outs_to_go_out(self, view: PlayerView, kept: Sequence[Card]) -> int:
        """Copies still out there of the draws that let ``kept`` go out: lay all, or all but one to discard.

        The draw may be any card with a copy still out there (not used up, see
        :func:`endgame.used_up`, and not in ``kept``). Down to one or two cards, the expert keeps
        the cards with the most such draws; the card scores only break ties. By the scores alone
        it once kept two 2H, low cards that the next player could build: but two copies of one
        card are no set, and where the table's one open place takes one of them the other is left.
        That hand could never go out, and holding both copies it kept every other player from the
        place too: four players drew and discarded round the pair until the turn limit.
        """
        variant = view.variant
        # The answer changes only with the table (and a pile that is never reused): remembered
        # across turns, for a small hand waits many turns on an unchanged table.
        buried = 0 if rules.reshuffles_discards(variant) else len(view.discard_pile)
        key = (id(variant), view.hand_number, self.table_key(view.table), buried, tuple(sorted(kept)))
        known = self._outs.get(key)
        if known is not None:
            return known
        if len(self._outs) > OUTS_MEMO:
            self._outs.clear()
        pack = full_pack(variant.decks, variant.jokers)
        gone = endgame.used_up(view.table, view.discard_pile, variant)
        gone.update(kept)
        out_there = {card: pack[card] - gone[card] for card in pack if pack[card] > gone[card]}
        if rules.discards_last_card(variant) and self.lays_all(view, kept):
            return self._remember_outs(key, sum(out_there.values()))  # any draw: it is discarded
        found = 0
        for draw in draws_to_try(kept, view.table, variant) & out_there.keys():
            after = [*kept, draw]
            if not self.meldable(after, variant) and not quick.may_lay(after, view.table, variant):
                continue
            plan = self.solve(view, after, objective="cards")
            if plan is not None and len(plan.remaining) <= 1:
                found += out_there[draw]
        return self._remember_outs(key, found)

    def _remember_outs(self, key: tuple[object, ...], found: int) -> int:
        self._outs[key] = found
        return found

    def lays_all(self, view: PlayerView, kept: Sequence[Card]) -> bool:
        """Whether ``kept`` can all be laid now, with nothing left to discard."""
        if not quick.may_lay(kept, view.table, view.variant):
            return False
        try:
            plan = solver.solve(kept, view.variant, table=view.table, opened=True, objective="cards")
        except solver.Unsolvable:
            return False
        return not plan.remaining


def draws_to_try(kept: Sequence[Card], table: Sequence[TableMeld], variant: Variant) -> set[Card]:
    """The draws that could be laid with ``kept``: the table's open places, cards near a kept card, a joker.

    A drawn card that is laid goes onto a place the table has now, or next to a kept card laid
    before it, or into a new meld of at most three cards with kept cards (the same rank, or the
    same suit within two ranks): always one of these. With a joker kept, it may stand anywhere:
    every card is tried.
    """
    if JOKER in kept:
        return set(range(JOKER + 1))
    found = {card for meld in table for card in endgame.places(meld, variant)}
    found.add(JOKER)
    for card in kept:
        index, suit = card % 13, card // 13
        found.update(other * 13 + index for other in range(4))
        found.update(suit * 13 + (index + step) % 13 for step in (-2, -1, 1, 2))
    return found


def discard_allowed_for(view: PlayerView, seat: int) -> bool:
    """Whether ``seat`` may take the discard at all under the variant (ignoring meld_at_once's test)."""
    return rules.may_take_discard(view.variant, view.opened[seat])


def outs(
    card: Card, counts: Sequence[int], hidden: Sequence[int], variant: Variant, sets: bool = True
) -> tuple[float, float]:
    """Unseen cards that would complete a meld ``card`` is one short of, and those toward two short.

    Each set (the card's rank; unless not ``sets``) and each run window of ``run_minimum``
    positions holding the card counts: a window missing one card adds that card's unseen copies
    to ``near``; missing two adds the smaller of their unseen counts to ``far``. A complete window
    adds nothing: the card is in a meld already, which :attr:`Weights.meld` rewards.
    """
    index, suit = card % 13, card // 13
    near = far = 0.0
    suits = [s for s in range(4) if counts[s * 13 + index]] if sets else []
    missing_suits = [s for s in range(4) if s not in suits]
    if len(suits) == 2:
        near += sum(hidden[s * 13 + index] for s in missing_suits)
    elif len(suits) == 1:
        far += min(sorted(hidden[s * 13 + index] for s in missing_suits)[:2] or [0])
    frame = run_frame(variant)
    size = frame.minimum
    line = frame.line()
    length = len(line)
    wrap = frame.wrap
    positions = [i for i, rank_index in enumerate(line) if rank_index == index]
    base = suit * 13
    for position in positions:
        first = position - size + 1
        for start in range(first, position + 1):
            if not wrap and (start < 0 or start + size > length):
                continue
            missing = [
                base + line[(start + step) % length]
                for step in range(size)
                if not counts[base + line[(start + step) % length]]
            ]
            if len(missing) == 1:
                near += hidden[missing[0]]
            elif len(missing) == 2:
                far += min(hidden[missing[0]], hidden[missing[1]])
    return near, far


def table_outs(card: Card, table: Sequence[TableMeld], hidden: Sequence[int]) -> int:
    """Unseen cards that would let ``card`` be built onto a table run it is one card short of."""
    index, suit = card % 13, card // 13
    found = 0
    for meld in table:
        if meld.kind != "run" or meld.suit != suit:
            continue
        # Positions are ranks 1-14 (14: an ace above the king); the gap card sits between.
        rank = index + 1
        for gap, beyond in ((meld.rank - 1, meld.rank - 2), (meld.high_rank() + 1, meld.high_rank() + 2)):
            if beyond in (rank, 14 if rank == 1 else -1) and 1 <= gap <= 14:
                found += hidden[suit * 13 + (gap - 1) % 13]
    return found
