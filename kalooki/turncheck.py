"""Checking a saved turn's record of what it did (:func:`kalooki.statecheck.check_reachable` asks it).

A turn records its draw, the card it owes, whether its player had opened when it began, the melds it
laid and whether it built on the table; the rules that span a turn (going Kalooki, a card to lay,
freed jokers to meld) are judged from that record, so an edited one would change what play does.
Each function returns one line naming the first problem, or None.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from kalooki import rules
from kalooki.cards import JOKER, format_card, hand_points

if TYPE_CHECKING:
    from kalooki.engine import Game
    from kalooki.gamestate import TurnState
    from kalooki.melds import TableMeld
    from kalooki.snapshot import TurnSnapshot


def seat_named(game: Game, seat: int) -> str:
    """ "seat 2 (bob)": a name alone can be "you", which would read "you holds 15 cards"."""
    return f"seat {seat + 1} ({game.players[seat]})"


def not_a_seat(value: int, players: int) -> str:
    """Why a seat field's value (as the file numbers seats, from 0) is none of the game's, after the field's
    name as a table's view says it: not "seat 9", since "seat 2 (bob)" in other messages counts from 1."""
    return f"{value} is not at the table: this {players}-player game's seats are 0 to {players - 1}"


def unchanged_by_laying(turn: TurnState) -> tuple[object, ...]:
    """What of a turn's record no meld, build or swap changes: the draw, the card it owes, its start."""
    return turn.drew, turn.drawn_card, turn.must_use_card, turn.opened_before


def turn_record_problem(game: Game, snapshot: TurnSnapshot | None, *, view: bool) -> str | None:
    """Why the turn's record of what it did does not fit the game: a turn begins knowing whether its
    player had opened, having laid and built nothing (so it stays until the draw), undo never takes back
    an opening made before the turn, the melds the turn laid are the ones put on the table since its
    draw, and a turn that began unopened laid every meld its player has.

    ``snapshot``: the turn's undo snapshot (None in a table's ``view``, whose snapshot is a stand-in
    holding the turn as it is now); :func:`snapshot_problem` asks what it says of the turn.
    """
    turn, seat = game.turn, game.current
    named = seat_named(game, seat)
    if turn.opened_before and not game.opened[seat]:
        return f"the turn records that {named} had opened when it began, but they have not opened"
    if game.phase == "draw":
        if game.opened[seat] and not turn.opened_before:
            return f"{named} has opened, but the turn records that they had not when it began"
        if turn.built or turn.laid:
            return "the turn has laid melds or built on the table before it has drawn"
        return None
    # The draw takes the undo snapshot (a save writes it before anything is laid too): without it nothing
    # would say what the turn laid, and a meld laid in an earlier turn could be named as this one's.
    if snapshot is None and not view:
        return "the player to move has drawn, but the turn's undo snapshot is missing"
    problem = laid_problem(game, turn.laid, game.table, None)
    return problem or _opened_before_problem(game, snapshot_asked=snapshot is not None)


def _opened_before_problem(game: Game, *, snapshot_asked: bool) -> str | None:
    """Why the turn's record of whether its player had opened when it began does not fit the melds it
    laid: a player opens by laying melds, none leaves the table, so they had opened exactly when a meld of
    theirs was laid before the turn (going out in a turn that began unopened is going Kalooki). Saves
    from before the turn's melds were recorded name none (a view from such a table too), and are not
    asked. ``snapshot_asked``: the undo snapshot is asked next (:func:`snapshot_problem`), which names
    a turn begun opened that laid every meld of its player's in its own words (a meld laid before the
    snapshot named as laid since)."""
    turn, seat = game.turn, game.current
    if not turn.laid:
        return None
    named = seat_named(game, seat)
    before = any(meld.owner == seat and index not in turn.laid for index, meld in enumerate(game.table))
    if before and not turn.opened_before:
        return (
            f"the turn records that {named} had not opened when it began, "
            "but melds of theirs on the table were laid before it"
        )
    if turn.opened_before and not before and not snapshot_asked:
        return (
            f"the turn records that {named} had opened when it began, "
            "but every meld of theirs on the table was laid in it"
        )
    return None


def ended_turn_problem(game: Game) -> str | None:
    """Why the record of the turn a hand was won in, kept until the next deal (the end of the hand's screen
    words from it why going out was not Kalooki), does not fit the hand's result: the winner went out in
    their own turn, the melds it laid are theirs and the table's last, a turn that began unopened laid
    every meld of theirs, and the hand was Kalooki exactly when the record makes it so."""
    result = game.results[-1]
    if result.end != "went_out":
        return None
    if game.current != result.winner:
        return (
            f"hand {result.number} was won by going out, but the turn it ended in is "
            f"{seat_named(game, game.current)}'s, not its winner's"
        )
    problem = laid_problem(game, game.turn.laid, game.table, None)
    problem = problem or _opened_before_problem(game, snapshot_asked=False)
    if problem is not None:
        return problem
    turn = game.turn
    if (rules.not_kalooki(game.variant, turn.opened_before, turn.built) is None) != result.kalooki:
        return (
            f"hand {result.number} was {'' if result.kalooki else 'not '}Kalooki, but the record of "
            "the turn it was won in says otherwise"
        )
    return None


def hands_left_problem(game: Game, stand_ins: Collection[int]) -> str | None:
    """Why the points a hand's result gives each loser are not the value of the cards they were left with,
    which stay in their hands until the next deal (of a stand-in, a table's view of a hand it does not
    show, nothing is asked), or the hand's turns are not the turn it ended in. The winner, and a seat the
    hand was not dealt to, have none, in every result."""
    for result in game.results:
        if any(result.hand_points[seat] for seat in range(len(game.players)) if seat not in result.seats):
            return f"hand {result.number}'s result gives points to a player it was not dealt to"
        if result.winner is not None and result.hand_points[result.winner]:
            return f"hand {result.number}'s result gives points to its winner"
    result, variant = game.results[-1], game.variant
    if result.turns != game.turn_number:
        return (
            f"hand {result.number}'s result says it lasted {result.turns} turns, "
            f"but it ended in turn {game.turn_number}"
        )
    for seat in result.seats:
        if seat == result.winner or seat in stand_ins:
            continue
        held = hand_points(game.hands[seat], variant.ace_value, variant.joker_penalty)
        if result.hand_points[seat] != held:
            return (
                f"hand {result.number}'s result gives {seat_named(game, seat)} {result.hand_points[seat]} "
                f"points, but the cards they were left with are worth {held}"
            )
    return None


def laid_problem(
    game: Game, laid: Sequence[int], table: Sequence[TableMeld], since: int | None
) -> str | None:
    """Why ``laid`` is not the indexes of melds the player to move laid on ``table`` this turn, each once:
    a meld is laid only by the player to move, at the table's end, so the turn's are those from ``since``
    (the table's length after the draw, the undo snapshot's) to the end, or with no snapshot the last
    ones. None recorded is what saves from before the record hold."""
    seat = game.current
    if len(set(laid)) != len(laid) or any(
        index >= len(table) or table[index].owner != seat for index in laid
    ):
        return f"the melds the turn laid are not each one of {seat_named(game, seat)}'s on the table"
    first = len(table) - len(laid) if since is None else since
    if laid and list(laid) != list(range(first, len(table))):
        return "the melds the turn laid are not the ones put on the table since its draw"
    return None


def snapshot_problem(game: Game, snapshot: TurnSnapshot) -> str | None:
    """Why the turn's undo snapshot is not the game as it stood after the draw, before anything was laid:
    whether its player had opened is what the turn began with, what was laid since is the turn's, and
    the turn has built exactly when a meld that was on the table then has changed since."""
    turn = game.turn
    problem = laid_problem(game, turn.laid, game.table, len(snapshot.table))
    if problem is None and snapshot.opened != turn.opened_before:
        problem = (
            "the turn's undo snapshot, taken after the draw, and the turn disagree on whether "
            f"{seat_named(game, game.current)} had opened when it began"
        )
    return problem or built_problem(game, snapshot) or copies_kept_problem(game, snapshot)


def copies_kept_problem(game: Game, snapshot: TurnSnapshot) -> str | None:
    """Why the number of copies of the discard taken under meld_at_once that the hand may keep
    (``must_use_limit``) is not the number the hand held before it took the card: the draw records it,
    and only a joker swap changes it (where the card taken is a joker, each joker freed is one more).
    A larger number would let the turn keep, or throw back, the card it must lay."""
    card, limit = game.turn.must_use_card, game.turn.must_use_limit
    if card is None:
        return None
    held = snapshot.hand.count(card) - 1
    freeable = sum(meld.cards.count(JOKER) for meld in snapshot.table) if card == JOKER else 0
    if snapshot.turn.must_use_limit != held or not held <= limit <= held + freeable:
        return (
            f"the turn lets the hand keep {limit} of {format_card(card)} (the card taken from the discard "
            f"pile), but it held {held} before taking it"
        )
    return None


def built_problem(game: Game, snapshot: TurnSnapshot) -> str | None:
    """Why the turn's record of building on the table is wrong: a build or a joker swap on a meld that was
    on the table after the draw (one the turn did not lay) is building, and it changes that meld's cards
    for good (undo puts back the record with the table). Going out having built is no Kalooki where
    ``kalooki_allows_building`` is false."""
    if snapshot.turn.built:
        return "the turn's undo snapshot records building on the table before anything was laid"
    built = game.turn.built
    changed = any(then.cards != now.cards for then, now in zip(snapshot.table, game.table, strict=False))
    if changed and not built:
        return "the turn has built on a meld that was on the table when it drew, but records that it has not"
    # Saves from before the turn's melds were recorded (none named, though the turn laid some) counted
    # building on those melds as building.
    before_laid_recorded = not game.turn.laid and len(game.table) > len(snapshot.table)
    if built and not changed and not before_laid_recorded:
        return "the turn records building on the table, but no meld that was there when it drew has changed"
    return None


def drawn_card_problem(game: Game, unseen: bool) -> str | None:
    """Why the card the turn records as drawn is none play leaves there: the draw records it, and until
    the turn ends it stays in the hand or is laid on the table (undo brings it back to the hand). Of a
    hand that is ``unseen`` (a stand-in) nothing is asked, nor is a card drawn from the stock, which a
    table's view hides from the other seats."""
    card = game.turn.drawn_card
    if card is None:
        if game.turn.drew == "discard" or not unseen:
            return "the player to move has drawn, but the card drawn is not recorded"
        return None
    if unseen or card in game.hands[game.current] or any(card in meld.cards for meld in game.table):
        return None
    return f"the card drawn this turn ({format_card(card)}) is neither in the hand nor on the table"


def debt_problem(game: Game, unseen: bool) -> str | None:
    """Why what the turn owes is no debt play leads to: a card owed is the one just taken from the discard
    pile where the variant says it must be laid, freed jokers are owed where the variant says they must be
    melded and wait in the hand, and the turn can still pay (the engine refuses a lay that leaves it unable
    to, so an edited save is the only way there: a turn that could never end). Of a hand that is
    ``unseen`` (a stand-in) only the first two are asked."""
    turn, variant = game.turn, game.variant
    card, jokers = turn.must_use_card, turn.jokers_owed
    if card is None and turn.must_use_limit:
        return (
            "the turn counts copies of a card taken from the discard pile that it may keep, "
            "but took no such card"
        )
    if card is None and not jokers:
        return None
    if game.phase != "play":
        return "the turn owes a card to lay before it has drawn"
    if card is not None and (
        not rules.discard_must_be_laid(variant) or turn.drew != "discard" or turn.drawn_card != card
    ):
        return "the turn owes a card taken from the discard pile, but took no such card"
    if jokers and not variant.released_joker_must_be_melded:
        return "the turn owes freed jokers a meld, which released_joker_must_be_melded: false never asks"
    if unseen:
        return None
    if jokers > game.hands[game.current].count(JOKER):
        return f"the turn owes {jokers} freed jokers a meld, but the hand holds fewer jokers"
    if game._unpayable_debt() is not None and not game._swap_pays_later():
        return "the turn owes what its hand can no longer lay, so it could never end"
    return None
