"""What a variant's knobs mean for play, each worked out in one place.

The engine, the legal actions, the solver and the bots ask here instead of reading a knob and
deciding for themselves what it implies; the words for each rule are in :mod:`kalooki.rulebook`
(the rulebook's sentence and the table's short line side by side). A new knob then touches its
model field (:mod:`kalooki.variant`), its interpreter here, its wording, and its tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Literal, NamedTuple

from kalooki.cards import Card, format_card

if TYPE_CHECKING:
    # Annotations only: kalooki.variant asks kalooki.variant_checks, which asks here, when a Variant
    # is built.
    from kalooki.variant import AceInRuns, DiscardDraw, Variant

RUN_MAX = 13
"""Most cards in a run: one of each rank."""


# ---------------------------------------------------------------- the table (min_players, max_players)


def may_play(variant: Variant, players: int) -> bool:
    """Whether a game of this variant may be played by ``players`` players: within its counts, and with a
    stock left once they are dealt (a deal of the whole pack ended every hand at once: no one could draw)."""
    return variant.min_players <= players <= most_players(variant)


def most_players(variant: Variant) -> int:
    """The most players this variant seats: ``max_players``, or fewer where that many would be dealt the
    whole pack (``validate`` refuses a variant whose fewest players would be)."""
    most = variant.max_players
    while most > variant.min_players and dealt(variant, most) >= variant.pack_size:
        most -= 1
    return most


USUAL_PLAYERS = 4
"""Players at a table no option sized, where the variant seats them."""


def default_players(variant: Variant) -> int:
    """The players at a table no option sized: the usual four, or the most the pack seats where that is
    fewer (``rules`` says so), or more where the variant's fewest are more."""
    return max(variant.min_players, min(USUAL_PLAYERS, most_players(variant)))


def dealt(variant: Variant, players: int) -> int:
    """The cards a deal to ``players`` takes from the pack: their hands, and the card turned up."""
    return players * variant.hand_size + (1 if variant.upcard else 0)


def player_counts(variant: Variant) -> str:
    """How many may play, in words for a refusal: ``2 to 4``, or ``exactly 4`` (the most the pack seats:
    :func:`seating_note` says why where that is fewer than ``max_players``)."""
    most = most_players(variant)
    return f"exactly {most}" if variant.min_players == most else f"{variant.min_players} to {most}"


def players_counted(count: int) -> str:
    """``1 player``, ``3 players``: the count a refusal of :func:`player_counts` starts with."""
    return f"{count} player{'' if count == 1 else 's'}"


def seating_note(variant: Variant) -> str:
    """For the end of a refusal that gives :func:`player_counts`: why the pack seats fewer than
    ``max_players``, or nothing."""
    most = most_players(variant)
    if most == variant.max_players:
        return ""
    return f" ({most + 1} players would be dealt the whole pack, leaving no stock)"


# ---------------------------------------------------------------- going out (going_out)


def keep(variant: Variant) -> int:
    """Cards that must stay in hand after laying: one to discard, where the last card must be discarded.

    Under meld_required it is 0, but a turn laid down to exactly one card cannot end: that card may
    not be discarded (:func:`discards_last_card`), so it must still be laid. A plan for the whole turn
    leaves no card or at least two (:func:`may_leave`).
    """
    return 1 if variant.going_out == "discard_required" else 0


def discards_last_card(variant: Variant) -> bool:
    """Whether a player may discard their last card and so go out: not under meld_required.

    The engine and the legal discards ask only when the hand holds one card, so other turns pay nothing.
    """
    return variant.going_out != "meld_required"


def may_leave(variant: Variant, cards: int) -> bool:
    """Whether a turn's melds and builds may leave ``cards`` in hand and the turn still end.

    At least :func:`keep`; and under meld_required not exactly one, the card nobody may discard,
    unless the turn may end without a discard (:func:`may_end_without_discard`) and so keep it.
    """
    if cards == 1:
        return discards_last_card(variant) or may_end_without_discard(variant)
    return cards >= keep(variant)


def guards_last_card(variant: Variant, took_discard: bool, jokers_owed: int) -> bool:
    """Whether each laying of this turn is checked for leaving one card that can be neither laid nor
    discarded: under meld_required, in a turn that took a discard it must lay (meld_at_once) or owes a
    freed joker. Taking back a turn keeps the discard it took, so that turn's dead ends are refused
    instead, even once the card is laid. A freed joker is owed only until it is laid, and taking back
    its turn takes back the swap too; any other turn taken back is as after its draw, where a discard
    is legal. Where a turn may end without a discard the card left is kept, so nothing is guarded."""
    return (
        (took_discard or jokers_owed > 0)
        and variant.going_out == "meld_required"
        and not may_end_without_discard(variant)
    )


LAST_DISCARD_REFUSAL = (
    "you cannot discard your last card: in this variant you go out by melding it; "
    "lay it or take back with undo"
)
"""Why a player may not discard their last card under meld_required, and the way on."""


def last_discard_refusal(variant: Variant) -> str:
    """:data:`LAST_DISCARD_REFUSAL`, or where the turn may end without a discard, that way on."""
    if may_end_without_discard(variant):
        return (
            "you cannot discard your last card: in this variant you go out by melding it; "
            "lay it, or keep it and end the turn (end)"
        )
    return LAST_DISCARD_REFUSAL


# ---------------------------------------------------------------- ending a turn (turn_discard)


def may_end_without_discard(variant: Variant) -> bool:
    """Whether a player who has drawn, and whose turn owes nothing, may end the turn without discarding.

    Under optional the turn's discard is the player's choice; a discard stays legal wherever it was.
    The engine, the legal actions, the solver (through :func:`may_leave`) and the bots ask here.
    """
    return variant.turn_discard == "optional"


def moves_after_the_draw(variant: Variant) -> str:
    """The moves left in a turn once its card is drawn, as the refusal of a second draw names them:
    a swap only where a joker can ever be freed, ``end`` only where the discard is optional."""
    moves = ["meld", "build", *(["swap"] if may_ever_swap(variant) else []), "discard"]
    if may_end_without_discard(variant):
        moves.append("end")
    return f"{', '.join(moves[:-1])} or {moves[-1]}"


def keeps_last_card(variant: Variant) -> bool:
    """Whether a player down to one card they may not discard (meld_required) and cannot lay ends the
    turn holding it, rather than the turn being a dead end. Bots ask only with one card in hand."""
    return not discards_last_card(variant) and may_end_without_discard(variant)


END_TURN_REFUSAL = "in this variant every turn ends with a discard: discard a card"
"""Why a player may not end a turn without discarding where the variant requires the discard."""


# ---------------------------------------------------------------- room for a meld (hand_size)


SMALLEST_MELD = 3
"""Fewest cards in any meld: a set holds at least three, and run_minimum is never less."""


def meld_sizes(variant: Variant) -> tuple[int, ...]:
    """Every number of cards one meld may hold, smallest first: a set's 3 to set_maximum, a run's
    run_minimum to 13 (cards built onto a meld in the turn it is laid make no other sizes)."""
    sets = range(SMALLEST_MELD, variant.set_maximum + 1)
    runs = range(variant.run_minimum, RUN_MAX + 1)
    return tuple(sorted({*sets, *runs}))


def may_ever_meld(variant: Variant) -> bool:
    """Whether a player can ever lay a meld: one that fits the hand and the card drawn and leaves in
    hand what a turn may end with (:func:`may_leave`). Where a turn may end without a discard
    (:func:`may_end_without_discard`) the hand grows by each card drawn and kept, so one always fits."""
    if may_end_without_discard(variant):
        return True
    cards = variant.hand_size + 1
    return any(size <= cards and may_leave(variant, cards - size) for size in meld_sizes(variant))


# ---------------------------------------------------------------- sets (set_suits)


def suits_must_differ(variant: Variant) -> bool:
    """Whether a set's natural cards must all be of different suits (no books of one suit)."""
    return variant.set_suits == "distinct"


# ---------------------------------------------------------------- opening (opening_threshold)


def opening_points(variant: Variant) -> int:
    """The points a player's first new melds must make together to open.

    An opening is always at least one new meld (a laying of nothing opens nothing); with 0 any
    meld opens, even one worth nothing (a set of aces where ``ace_value`` is 0). Searches that
    prune on the points still to find read this number; a verdict on points found asks :func:`opens`.
    """
    return variant.opening_threshold


def opens(variant: Variant, points: int) -> bool:
    """Whether first new melds (one at least) worth ``points`` together open the player.

    The engine's meld, its legal actions and every bot's opening decide here. (The knob is read
    here again rather than through :func:`opening_points`: the bots ask on every turn.)
    """
    return points >= variant.opening_threshold


# ---------------------------------------------------------------- a joker in a meld (opening_joker_value)


def own_joker_points(variant: Variant) -> int | None:
    """What a joker adds to a meld's worth (and so toward the opening) whatever card it stands for:
    ``joker_penalty`` under ``opening_joker_value: penalty`` (the "Kaluki Rummy Rules" guide's "Joker = 25
    points" for the first meld); None where it counts as the card it stands for."""
    return variant.joker_penalty if variant.opening_joker_value == "penalty" else None


def most_joker_points(variant: Variant) -> int:
    """The most a joker adds to a meld's worth: its own points (:func:`own_joker_points`), or the dearest
    card it could stand for (an ace, high or low in a run, or a ten). Searches bound an opening by it."""
    own = own_joker_points(variant)
    return max(10, most_ace_points(variant)) if own is None else own


# ---------------------------------------------------------------- going Kalooki (kalooki_allows_building)

NotKalooki = Literal["opened_before", "built"]
"""Why a going out was not Kalooki: the player had melded in an earlier turn, or built on the table."""


def not_kalooki(variant: Variant, opened_before: bool, built: bool) -> NotKalooki | None:
    """Why going out in a turn that began opened (or not) and built on the table (or not) is not Kalooki."""
    if opened_before:
        return "opened_before"
    if built and not variant.kalooki_allows_building:
        return "built"
    return None


# ---------------------------------------------------------------- jokers on the table


def may_ever_swap(variant: Variant) -> bool:
    """Whether any joker can ever be taken from the table: the pack holds jokers and melds give them up.

    czech-500 frees none (both releases ``never``), so a swap is no move a player there is shown.
    """
    return variant.jokers > 0 and (
        variant.set_joker_release != "never" or variant.run_joker_release != "never"
    )


def may_release_jokers(variant: Variant, opened: bool) -> bool:
    """Whether a player who has (or has not) opened may take a joker from the table."""
    return opened or not variant.joker_release_requires_opening


# ---------------------------------------------------------------- card values


def most_ace_points(variant: Variant) -> int:
    """The most an ace is worth in a meld: high, or low in a run (A-2-3)."""
    return max(variant.ace_value, variant.low_ace_value)


# ---------------------------------------------------------------- going Kalooki (kalooki_bonus, scoring)


def kalooki_charge(variant: Variant) -> int:
    """What going Kalooki does to every other player's hand score: added to a penalty (positive),
    or taken from a score (negative); 0 where the variant has no bonus."""
    return variant.kalooki_bonus if variant.scoring == "penalty" else -variant.kalooki_bonus


def hand_scores(
    variant: Variant, winner: int | None, kalooki: bool, hand_points: Sequence[int], seats: Sequence[int]
) -> list[int]:
    """What a hand adds to each seat's total (0 for a seat not in ``seats``): nothing when nobody went
    out; under penalty each loser's hand points (and the Kalooki charge); otherwise the winner the
    losers' hand points, each loser the charge. The engine scores a hand by it, and a save's hands are
    checked against it."""
    scores = [0] * len(hand_points)
    if winner is None:
        return scores
    charge = kalooki_charge(variant) if kalooki else 0
    losers = [seat for seat in seats if seat != winner]
    for seat in losers:
        scores[seat] = hand_points[seat] + charge if variant.scoring == "penalty" else charge
    if variant.scoring != "penalty":
        scores[winner] = sum(hand_points[seat] for seat in losers)
    return scores


# ---------------------------------------------------------------- the discard pile (discard_draw)


class _DiscardRule(NamedTuple):
    unopened: bool
    """A player who has not opened may take the top discard."""
    opened: bool
    """A player who has opened may take it."""
    must_lay: bool
    """The card taken must be melded or built that same turn."""


_DISCARD_RULES: dict[DiscardDraw, _DiscardRule] = {
    "always": _DiscardRule(unopened=True, opened=True, must_lay=False),
    "never": _DiscardRule(unopened=False, opened=False, must_lay=False),
    "after_opening": _DiscardRule(unopened=False, opened=True, must_lay=False),
    "before_opening": _DiscardRule(unopened=True, opened=False, must_lay=False),
    "meld_at_once": _DiscardRule(unopened=True, opened=True, must_lay=True),
}
"""What each discard_draw rule allows, read once per question (the draw phase asks on every turn)."""


def may_take_discard(variant: Variant, opened: bool) -> bool:
    """Whether a player who has (or has not) opened may take the top discard at all.

    Under meld_at_once this is only the first condition: the card must also be laid that same
    turn (:func:`discard_must_be_laid`), which only the position can tell.
    """
    rule = _DISCARD_RULES[variant.discard_draw]
    return rule.opened if opened else rule.unopened


def discard_must_be_laid(variant: Variant) -> bool:
    """Whether a card taken from the discard pile must be melded or built that same turn (meld_at_once)."""
    return _DISCARD_RULES[variant.discard_draw].must_lay


def may_ever_take_discard(variant: Variant) -> bool:
    """Whether anyone, opened or not, may ever take the top discard (all but discard_draw: never)."""
    rule = _DISCARD_RULES[variant.discard_draw]
    return rule.opened or rule.unopened


def may_draw_discard(
    variant: Variant, opened: bool, top: Card | None, layable: Callable[[Card], bool] | None
) -> bool:
    """Whether the player to draw, who has (or has not) opened, may take ``top`` from the discard pile now.

    ``top`` is None when the pile is empty. Under meld_at_once the hand must also be able to lay the
    card this turn: ``layable(top)`` answers that, and is asked only then (it is a search). The
    engine's draw, its legal actions and a bot's :class:`~kalooki.view.LegalView` all decide here.
    ``layable`` None leaves that last test to the caller: a bot's draw choice, which takes the card
    under meld_at_once only when it finds a way to lay it, a stricter search of its own.
    """
    if top is None or not may_take_discard(variant, opened):
        return False
    return layable is None or not discard_must_be_laid(variant) or layable(top)


def discard_refusal(variant: Variant, opened: bool, top: Card | None, because: str | None = None) -> str:
    """Why the current player, who has (or has not) opened, may not take ``top`` (None: the pile is empty).

    The variant's rule for the player comes first: under discard_draw: never an empty pile on the
    first turn would otherwise say only "the discard pile is empty", as though a later turn could.
    ``because``: under meld_at_once, the rule that stops the card being laid, where one does (a
    family sees 5-6-7 in their hand and needs telling that laying it leaves nothing to discard).
    """
    if not may_take_discard(variant, opened):
        rule = variant.discard_draw
        if rule == "never":
            return "this variant never lets a player take the discard: draw stock"
        if rule == "after_opening":
            return "only a player who has opened may take the discard: draw stock"
        return "a player who has opened may not take the discard: draw stock"
    if top is None:
        return "the discard pile is empty: draw stock"
    why = f" ({because})" if because else ""
    return f"you may take {format_card(top)} only to lay it this turn, and you could not{why}: draw stock"


KEEP_A_CARD = "laying it would leave you no card to discard"
"""Why a discard that melds may not be taken under meld_at_once, where the last card must be discarded."""


# ---------------------------------------------------------------- the stock running out (stock_exhausted)


def reshuffles_discards(variant: Variant) -> bool:
    """Whether the discard pile is shuffled into a new stock when the stock runs out.

    Not under end_hand, where the hand ends instead: there the cards below the pile's top are out
    of play for the rest of the hand.
    """
    return variant.stock_exhausted != "end_hand"


# ---------------------------------------------------------------- what a seat sees of a draw


def sees_drawn_card(seat: int, drawer: int, source: str | None, in_play: bool = True) -> bool:
    """Whether ``seat`` may see the card ``drawer`` drew from ``source`` ("stock" or "discard").

    A card taken from the discard pile lay face up: the whole table saw it. One from the stock only
    its drawer sees, and only while the hand is played (``in_play``): after it, the hands are shown
    instead. The engine's views (:meth:`Game.view <kalooki.engine.Game.view>`) and the network
    host's seat views and events decide here.
    """
    return source == "discard" or (in_play and seat == drawer)


def sees_copies_kept(seat: int, current: int) -> bool:
    """Whether ``seat`` may see how many copies of a discard taken under meld_at_once the taker's hand
    may keep (the turn's ``must_use_limit``): only the player on turn, as it is how many the hand held.
    The engine's views and the network host's seat views decide here."""
    return seat == current


# ---------------------------------------------------------------- the run frame (ace_in_runs, run_minimum)


@dataclass(frozen=True, slots=True)
class RunFrame:
    """Where a run may lie. Positions are ranks on a line: 1 is an ace below the two, 14 an ace above
    the king; wrapping runs (K-A-2) go on past 14 round to 1 again."""

    minimum: int
    """Fewest cards in a run (run_minimum)."""
    wrap: bool
    """Runs may turn the corner (K-A-2)."""
    ace_positions: tuple[int, ...]
    """Where an ace may sit: 1 (below the two), 14 (above the king); wrapping runs read it as 1."""

    @property
    def lowest(self) -> int:
        """The lowest position a run may start at."""
        return 1 if 1 in self.ace_positions else 2

    @property
    def highest(self) -> int:
        """The highest position a run may reach (a wrapping run has no such end)."""
        return 14 if 14 in self.ace_positions else 13

    @property
    def lows(self) -> range:
        """The positions a run of at least three cards may start at, before the frame is checked."""
        return range(1, 14) if self.wrap else range(1, 13)

    def span_ok(self, low: int, length: int) -> bool:
        """Whether positions ``low .. low+length-1`` form a legal run frame."""
        if length > RUN_MAX or length < 1:
            return False
        if self.wrap:
            return 1 <= low <= 13
        return self.lowest <= low and low + length - 1 <= self.highest

    def window_starts(self) -> tuple[int, ...]:
        """The start positions of runs of exactly the minimum length."""
        if self.wrap:
            return tuple(range(1, 14))
        return tuple(range(self.lowest, self.highest - self.minimum + 2))

    def line(self) -> list[int]:
        """The rank indexes (0 = ace ... 12 = king) a run walks through, low to high."""
        if self.wrap:
            return list(range(13))
        low = [0] if 1 in self.ace_positions else []
        high = [0] if 14 in self.ace_positions else []
        return [*low, *range(1, 13), *high]


def run_frame(variant: Variant) -> RunFrame:
    """The run frame that ``ace_in_runs`` and ``run_minimum`` give."""
    return _run_frame(variant.ace_in_runs, variant.run_minimum)


@lru_cache(maxsize=64)
def _run_frame(ace_in_runs: AceInRuns, minimum: int) -> RunFrame:
    positions = {"high_or_low": (1, 14), "high": (14,), "low": (1,), "wrap": (1,)}[ace_in_runs]
    return RunFrame(minimum=minimum, wrap=ace_in_runs == "wrap", ace_positions=positions)
