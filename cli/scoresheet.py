"""The end of a hand and of the game at the terminal: who went out and how, the cards left, the
score sheet; on a narrow terminal in the compact layouts of ``compact.py``."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from kalooki.cards import sorted_hand
from kalooki.engine import Event, Game
from kalooki.events import HandEndEvent
from kalooki.rulebook import scoring_line
from kalooki.rules import kalooki_charge

from .compact import narrow_totals, print_narrow_hand_end
from .going_out import why_not_kalooki
from .narrow import marked_cells, natural_width
from .plain_text import as_written
from .render import DIM, Seating, cards_text, plain_cards


def hand_end_event(events: Sequence[Event]) -> HandEndEvent | None:
    return next((event for event in events if isinstance(event, HandEndEvent)), None)


def last_hand_end(game: Game) -> HandEndEvent | None:
    """The last hand's ``hand_end`` event, as the engine made it, rebuilt from its result."""
    if not game.results:
        return None
    result, names = game.results[-1], game.players
    return HandEndEvent(
        hand=result.number,
        end=result.end,
        winner=None if result.winner is None else names[result.winner],
        kalooki=result.kalooki,
        hand_points={names[seat]: result.hand_points[seat] for seat in result.seats},
        scores={names[seat]: result.scores[seat] for seat in result.seats},
        totals={name: game.totals[seat] for seat, name in enumerate(names)},
    )


def render_last_hand_end(console: Console, game: Game, seating: Seating) -> None:
    """The end-of-hand screen of the hand just over, as it was shown then, from the game's state alone.

    For a game resumed between hands: until the next deal the hands still hold the cards left, and
    ``game.turn`` is still the going-out turn, whose melds and builds say whether it laid cards.
    """
    end = last_hand_end(game)
    if end is None:
        return
    result = game.results[-1]
    # Only the seats that played the hand can have gone out of the game at its end.
    out = [game.players[seat] for seat in result.seats if game.eliminated[seat]]
    laid = bool(game.turn.laid) or game.turn.built
    render_hand_end(console, game, seating, end, out, laid)


def render_hand_end(
    console: Console,
    game: Game,
    seating: Seating,
    event: HandEndEvent,
    eliminated: Sequence[str] = (),
    laid_in_turn: bool = False,
) -> None:
    """Who went out and how, every player's cards left and points, the totals, and who is out of the game.

    ``laid_in_turn``: the winner melded, built or swapped in the turn they went out
    (:func:`~kalooki_cli.going_out.laid_since_draw`); then a going out that was not Kalooki says why.
    """
    letters = plain_cards(console)
    console.print(Rule(f"Hand {event.hand} is over", style="cyan"))
    winner = event.winner
    if winner is not None:
        line = Text(f"{seating.sentence_subject(winner)} went out", style="bold")
        if event.kalooki:
            line.append(" and went KALOOKI!", style="bold magenta")
            charge = kalooki_charge(game.variant)
            if charge:
                line.append(f" ({charge:+d} {'to' if charge > 0 else 'from'} every other player)")
        console.print(line.append("."))
        why = why_not_kalooki(game, event, laid_in_turn)
        if why is not None:
            console.print(Text(f"Not Kalooki: {seating.subject(winner)} {why}.", style=DIM))
    else:
        reasons = {
            "stock_exhausted": "The stock ran out: nobody went out, and nobody scores.",
            "blocked": "The player to draw had no card to draw: the hand ends, and nobody scores.",
            "abandoned": "The hand was abandoned: nobody scores.",
            "turn_limit": f"The hand reached the turn limit ({game.turn_limit} turns) without a winner: "
            "nobody scores.",
        }
        console.print(Text(reasons.get(event.end, "The hand is over."), style="bold"))
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, expand=False)
    table.add_column("player", no_wrap=True)
    table.add_column("cards left", overflow="fold", max_width=CARDS_LEFT_WIDTH)
    table.add_column("points", justify="right")
    table.add_column("this hand", justify="right")
    table.add_column("total", justify="right")
    names = {name: seat for seat, name in enumerate(game.players)}
    rows: list[tuple[str, Text, list[str]]] = []
    for name, points in event.hand_points.items():
        seat = names[name]
        cards = game.hands[seat]
        left = cards_text(sorted_hand(cards), letters=letters) if cards else Text("-", style=DIM)
        score = event.scores.get(name, 0)
        numbers = [str(points), f"{score:+d}" if score else "0", str(event.totals[name])]
        rows.append((seating.label(seat), left, numbers))
        table.add_row(seating.label(seat), left, *numbers)
    # The cards left fold to fit, down to a few cards a line; narrower, the numbers would be cut.
    table.columns[1].max_width = FOLDED_CARDS
    fits = natural_width(table) <= console.width
    table.columns[1].max_width = CARDS_LEFT_WIDTH
    if fits:
        console.print(table)
    else:
        print_narrow_hand_end(console, rows)
    for name in eliminated:
        who = seating.subject(name)
        verb = "are" if who == "you" else "is"
        # "reached 10" read oddly beside a total of 83: the total, then the total that puts a player out.
        total, limit = event.totals[name], game.variant.goal_score
        said = f"{seating.sentence_subject(name)} {verb} out with {total} (out at {limit})."
        console.print(Text(said, style="red"))


CARDS_LEFT_WIDTH = 40
FOLDED_CARDS = 11
"""The narrowest the cards left may fold to in the end-of-hand table: three cards of two or three letters."""


def render_game_end(console: Console, game: Game, seating: Seating) -> None:
    console.print(Rule("Game over", style="cyan"))
    winners = [seating.subject(game.players[seat]) for seat in game.winners]
    if not winners:
        console.print(Text("The game ended without a winner.", style="bold"))
    elif len(winners) == 1:
        verb = "win" if winners[0] == "you" else "wins"
        first = seating.sentence_subject(game.players[game.winners[0]])
        console.print(Text(f"{first} {verb} the game!", style="bold green"))
    else:
        # The line opens with the first winner as a sentence does ("You and bob", not "you and bob"), and
        # three or more are listed as in a sentence: "You, bob and cid", not "you and bob and cid".
        winners[0] = seating.sentence_subject(game.players[game.winners[0]])
        console.print(Text(f"{', '.join(winners[:-1])} and {winners[-1]} share the win.", style="bold green"))
    render_totals(console, game, seating)


def render_totals(console: Console, game: Game, seating: Seating) -> None:
    """The running totals and every hand's scores so far."""
    order = list(range(len(game.players)))
    # Each player's column as (score, mark) pairs: "*" went out that hand, " out" out of the game.
    columns: list[list[tuple[str, str]]] = []
    for seat in order:
        column = [
            (str(result.scores[seat]), "*" if result.winner == seat else "")
            if seat in result.seats
            else ("", "")
            for result in game.results
        ]
        column.append((str(game.totals[seat]), " out" if game.eliminated[seat] else ""))
        columns.append(column)
    hands = [str(result.number) for result in game.results] + ["total"]
    labels = [seating.label(seat) for seat in order]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=None)
    table.add_column("hand", justify="right")
    cells = []
    for label, column in zip(labels, columns, strict=True):
        table.add_column(Text(label, justify="right"), justify="left", overflow="fold")
        cells.append(marked_cells(column, cell_len(label)))
    for hand, *row in zip(hands, *cells, strict=True):
        table.add_row(hand, *row, style="bold" if hand == "total" else None)
    if natural_width(table) <= console.width:
        console.print(table)
    else:
        names = [game.players[seat] for seat in order]
        # Where the console cannot write …, its stand-in ... took three columns rich had measured as one,
        # pushing the heading out of line: a cut there ends in a dot, as an abbreviation does.
        mark = "…" if as_written("…", console.encoding) == "…" else "."
        console.print(narrow_totals(hands, labels, names, columns, console.width, mark))
    legend = "* went out.  " if any(result.winner is not None for result in game.results) else ""
    console.print(Text(f"{legend}Scoring: {scoring_line(game.variant)}.", style=DIM))
