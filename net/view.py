"""What one seat may see, as protocol JSON, and a stand-in game rebuilt from it on the client.

The host never sends :meth:`Game.to_json` (it holds every hand, the stock's order, the
seed and the random state). It sends :func:`seat_view`: :meth:`Game.view` for the seat,
plus what the table shows everyone (names, turn, results). Engine events pass through
:func:`seat_events`, which removes the cards a seat may not see: the deal's other hands
and stock, another player's card drawn from the stock, a reshuffled stock's order.

At the end of a hand, everyone's cards left are shown (as at a real table, and as
``kalooki play`` shows them): the view's ``revealed`` field carries them then, never during
a hand.

On the client, :func:`shadow_game` turns a view back into a :class:`Game` that the play
screen, the hints and the meld preview can use unchanged: the cards the seat cannot see
are dealt, in a fixed order, into the other hands and the stock. They are stand-ins, never
shown (the screens show only their counts); the real ones stay on the host.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from kalooki.cards import Card, format_card, full_pack, parse_card
from kalooki.engine import STATE_FORMAT, STATE_VERSION, Event, Game, StateFormatError
from kalooki.events import DealEvent, DrawEvent, ReshuffleEvent
from kalooki.melds import TableMeld
from kalooki.rules import may_end_without_discard, sees_copies_kept, sees_drawn_card
from kalooki.variant import Variant

from .table_state import WATCHER, TableStateError, seen_cards, view_problem


def cards_json(cards: Sequence[Card]) -> list[str]:
    return [format_card(card) for card in cards]


def meld_json(meld: TableMeld) -> dict[str, Any]:
    return {
        "kind": meld.kind,
        "cards": cards_json(meld.cards),
        "owner": meld.owner,
        "rank": meld.rank,
        "suit": meld.suit,
        # Who laid a joker is public, as at a real table; sent where it is not the meld's owner.
        **({"joker_layers": list(meld.joker_layers)} if meld.joker_layers else {}),
    }


def seat_view(game: Game, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may know about ``game`` now (``WATCHER``: only what the whole table sees)."""
    view = game.view(max(seat, 0))
    playing = game.phase in ("draw", "play")
    turn = game.turn.to_json()
    # Which pile the current player drew from is public; a card drawn from the stock is not.
    if not sees_drawn_card(seat, game.current, turn["drew"], playing):
        turn["drawn_card"] = None
    if not sees_copies_kept(seat, game.current):
        turn["must_use_limit"] = 0
    for key in ("drawn_card", "must_use_card"):
        if turn[key] is not None:
            turn[key] = format_card(turn[key])
    return {
        "seat": seat,
        "players": list(game.players),
        "hand_number": game.hand_number,
        "first_seat": game.first_seat,
        "turn_number": game.turn_number,
        "current": view.current,
        "phase": view.phase,
        "hand": cards_json(view.hand) if seat != WATCHER else [],
        "hand_counts": list(view.hand_counts),
        "table": [meld_json(meld) for meld in view.table],
        "discard_pile": cards_json(view.discard_pile),
        "stock_count": view.stock_count,
        "stock_ran_out": game.stock_ran_out,
        "opened": list(view.opened),
        "totals": list(view.totals),
        "eliminated": list(view.eliminated),
        "turn": turn,
        "can_undo": seat == game.current and game.can_undo(),
        # Only where the variant lets a turn end without a discard: elsewhere the view is as it always was.
        **(
            {"can_end_turn": seat == game.current and game.can_end_turn()}
            if may_end_without_discard(game.variant)
            else {}
        ),
        "results": [result.to_json() for result in game.results],
        "winners": list(game.winners),
        "revealed": None if playing else [cards_json(hand) for hand in game.hands],
    }


def seat_events(events: Sequence[Event], game: Game, seat: int) -> list[Event]:
    """``events`` as ``seat`` may see them: other hands, the stock and others' stock draws removed."""
    own = game.players[seat] if 0 <= seat < len(game.players) else None
    seen: list[Event] = []
    for event in events:
        match event:
            case DealEvent():
                hands = {own: event.hands[own]} if own is not None and own in event.hands else {}
                seen.append(
                    replace(event, hands=hands, dealer=None, stock=None, drawn_for_dealer={}, drawn_again=())
                )
            case DrawEvent() if not sees_drawn_card(seat, game.players.index(event.player), event.source):
                seen.append(replace(event, card=None))
            case ReshuffleEvent():
                seen.append(replace(event, stock=None))
            case _:
                seen.append(event)
    return seen


def _cards(data: Sequence[str]) -> list[Card]:
    return [parse_card(text) for text in data]


def _dealer(view: Mapping[str, Any]) -> int | None:
    """The dealer, which a view does not name: between hands the last hand's result says it (where the
    hand put its dealer or first player out of the game, the seats left no longer do); in a hand, None
    leaves it to the seat before the first player, as a save's without one."""
    results = view["results"]
    if view["phase"] in ("hand_over", "game_over") and results:
        dealer = results[-1].get("dealer")
        return dealer if isinstance(dealer, int) else None
    return None


def shadow_game(view: Mapping[str, Any], variant: Variant) -> Game:
    """A :class:`Game` equal to the host's in all that ``view`` shows; the unseen cards are stand-ins.

    Raises :class:`~kalooki_net.table_state.TableStateError` (a ``StateFormatError``) for a view that
    is not consistent, one no honest host sends, naming the field and what is wrong with it.
    """
    problem = view_problem(view, variant)
    if problem is not None:
        raise TableStateError(problem)
    players = list(view["players"])
    seat = int(view["seat"])
    counts = [int(count) for count in view["hand_counts"]]
    revealed = view.get("revealed")
    table = [
        {
            "kind": meld["kind"],
            "cards": _cards(meld["cards"]),
            "owner": meld["owner"],
            "rank": meld["rank"],
            "suit": meld["suit"],
            "joker_layers": list(meld.get("joker_layers", [])),
        }
        for meld in view["table"]
    ]
    discard = _cards(view["discard_pile"])
    if revealed is not None:
        hands = [_cards(hand) for hand in revealed]
    else:
        hands = [_cards(view["hand"]) if index == seat else [] for index in range(len(players))]
    # view_problem made sure the view shows no card more often than the pack holds it.
    filler = sorted((full_pack(variant.decks, variant.jokers) - seen_cards(view)).elements())
    stand_ins = [index for index in range(len(players)) if revealed is None and index != seat]
    for index in stand_ins:
        hands[index], filler = filler[: counts[index]], filler[counts[index] :]
    turn = dict(view["turn"])
    for key in ("drawn_card", "must_use_card"):
        if turn.get(key) is not None:
            turn[key] = parse_card(str(turn[key]))
    undo = None
    if view.get("can_undo"):
        # Only whether there is something to take back matters here; the host keeps the real snapshot.
        # The stand-in holds the turn's cards as they are now, so the state stays one play can reach.
        current = int(view["current"])
        undo = {
            "hand": list(hands[current]),
            "table": [dict(meld) for meld in table],
            "opened": bool(view["opened"][current]),
            "turn": turn,
        }
    rng_version, internal, gauss = random.Random(0).getstate()
    state = {
        "format": STATE_FORMAT,
        "version": STATE_VERSION,
        "variant": variant.model_dump(mode="json", exclude={"extends"}),
        "players": players,
        "seed": None,
        "rng": [rng_version, list(internal), gauss],
        "hand_number": view["hand_number"],
        "first_seat": view["first_seat"],
        "dealer": _dealer(view),
        "current": view["current"],
        "phase": view["phase"],
        "stock": filler,
        "discard_pile": discard,
        "table": table,
        "hands": hands,
        "opened": view["opened"],
        "totals": view["totals"],
        "eliminated": view["eliminated"],
        "turn": turn,
        "turn_number": view["turn_number"],
        "stock_ran_out": view["stock_ran_out"],
        "results": view["results"],
        "winners": view["winners"],
        "undo": undo,
    }
    # The fields the game keeps as the view sent them are checked as a save's, and named as the view's; a
    # game play cannot reach is said as such, not as a save's.
    try:
        return Game.from_json(state, place="view", stand_ins=stand_ins)
    except StateFormatError as error:
        raise TableStateError(error.problem) from None


__all__ = ["WATCHER", "TableStateError", "cards_json", "seat_events", "seat_view", "shadow_game"]
