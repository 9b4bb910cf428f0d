"""Suggestions at the table: the meld preview under the hand, and the ``hint`` command's answer.

:func:`meld_preview` is what the solver would lay from a hand now; :func:`suggest_turn` plays the rest
of the turn on a copy of the game with the greedy bot (which sees only the player's view), and
:func:`render_hint` shows it, each move written so that it can be typed back.
"""

from __future__ import annotations

import random
from copy import deepcopy
from dataclasses import dataclass, replace

from rich.console import Console
from rich.text import Text

from kalooki import rules, solver
from kalooki.bots import GreedyBot
from kalooki.bots.greedy import strands
from kalooki.driver import ask_bot, fallback_action
from kalooki.engine import Game, IllegalMoveError
from kalooki.events import HandEndEvent
from kalooki.melds import MeldError, build, make_meld
from kalooki.moves import Action, Build, Draw, Meld
from kalooki.variant import Variant

from . import render
from .render import MeldPreview
from .table_notation import move_text

INDENT = "  "


def meld_preview(game: Game, seat: int) -> MeldPreview | None:
    """The melds and builds the solver would lay from this hand now (None when nothing fits).

    Before opening, this is the best opening; when the hand cannot open, the most points
    it could lay all the same, so the player sees how far off the threshold they are.
    """
    variant = game.variant
    hand = game.hands[seat]
    keep = rules.keep(variant) if game.phase == "play" else 0
    threshold = variant.opening_threshold
    try:
        if game.opened[seat]:
            plan = solver.solve(hand, variant, table=game.table, opened=True, keep=keep)
            opens, needed = True, 0
        else:
            opening = solver.best_opening(hand, variant, table=game.table, keep=keep)
            opens, needed = opening is not None, threshold
            plan = opening or solver.solve(hand, variant, opened=True, keep=keep, objective="points")
    except solver.SolverError:
        return None
    if plan.empty:
        return None
    return MeldPreview(
        melds=plan.melds, builds=plan.builds, points=plan.points, opens=opens, needed=needed, kinds=plan.kinds
    )


@dataclass(frozen=True, slots=True)
class Hint:
    """What the greedy bot would do with the human's cards for the rest of this turn."""

    actions: tuple[Action, ...]
    points: int
    """Points laid on the table by ``actions`` (each joker as ``opening_joker_value`` counts it)."""
    opening: bool
    """Whether ``actions`` open the player (first melds reaching the threshold)."""
    short: MeldPreview | None
    """When the player has not opened and cannot: the most they could lay, to compare with the threshold."""
    fell_back: bool = False
    """Whether an action is the first the rules list, the bot's own refused (as play replaces it)."""
    kept: bool = False
    """Whether the bot keeps cards it could lay, as laying them would leave a hand that cannot go out."""
    out: bool = False
    """Whether ``actions`` go out, ending the hand."""
    kalooki: bool = False
    """Whether going out so is going Kalooki."""


def suggest_turn(game: Game) -> Hint:
    """Play the current player's turn on a copy of the game with the greedy bot's logic."""
    # A copy, not a save read back: a game rebuilt from a table's view (net.view.shadow_game) holds a
    # stand-in undo snapshot, which the checks of a loaded save rightly refuse once the turn has laid.
    copy = deepcopy(game, {id(game.variant): game.variant})
    seat = copy.current
    bot = GreedyBot(random.Random(0))
    if copy.phase == "draw":
        return Hint(actions=(ask_bot(bot, copy),), points=0, opening=False, short=None)
    before = sum(meld.worth(copy.variant) for meld in copy.table)
    opened_before = copy.opened[seat]
    actions: list[Action] = []
    fell_back = False
    out = kalooki = False
    hand, turn = copy.hand_number, copy.turn_number
    while copy.phase == "play" and (copy.hand_number, copy.turn_number) == (hand, turn) and len(actions) < 60:
        action = without_needless_end(ask_bot(bot, copy), copy)
        try:
            events = copy.apply(action)
        except IllegalMoveError:
            # As in play (kalooki.driver.play_turn): the bot's illegal choice gives way to a listed action.
            # Stopping here left a turn that owes the card taken with no move, where the route to lay it
            # (an opening, then a joker swap) is one the bot's own search does not see.
            try:
                action = fallback_action(copy)
                events = copy.apply(action)
            except IllegalMoveError:
                break
            fell_back = True
        actions.append(action)
        for event in events:
            if isinstance(event, HandEndEvent) and event.winner == copy.players[seat]:
                out, kalooki = True, event.kalooki
    laid = sum(meld.worth(copy.variant) for meld in copy.table) - before
    opening = not opened_before and copy.opened[seat]
    short = None
    if not opened_before and not opening:
        short = meld_preview(game, seat)
    kept = opened_before and not laid and keeps_to_go_out(game, seat)
    return Hint(
        actions=tuple(actions),
        points=laid,
        opening=opening,
        short=short,
        fell_back=fell_back,
        kept=kept,
        out=out,
        kalooki=kalooki,
    )


def keeps_to_go_out(game: Game, seat: int) -> bool:
    """Whether the greedy bot, at ``seat``'s turn, keeps cards it could lay because laying them would leave
    a hand that can never go out (:func:`kalooki.bots.greedy.strands`): the preview under the hand shows
    them layable, and a hint that only discards would read as a mistake without the reason."""
    view = game.view(seat, own_bot=True)
    plan = GreedyBot(random.Random(0)).laying_plan(view)
    return plan is not None and not plan.empty and not view.owed and strands(view, plan)


def without_needless_end(action: Action, game: Game) -> Action:
    """A build as a person would type it: ``low``/``high`` only when the cards would fit either end.

    Without an end the engine tries the high end first, then the low end; the end is kept only
    when leaving it out would lay the cards elsewhere (a joker that fits at both ends).
    """
    if not isinstance(action, Build) or action.end is None or not 1 <= action.meld <= len(game.table):
        return action
    meld = game.table[action.meld - 1]
    try:
        chosen = build(meld, action.cards, game.variant, action.end)
        default = build(meld, action.cards, game.variant)
    except MeldError:
        return action
    if (default.cards, default.rank) != (chosen.cards, chosen.rank):
        return action
    return replace(action, end=None)


def meld_points(action: Meld, variant: Variant) -> int:
    return sum(
        make_meld(group, variant, kind=action.kind_of(index)).worth(variant)
        for index, group in enumerate(action.groups)
    )


def render_hint(console: Console, game: Game, seat: int, letters: bool) -> None:
    """Show what the greedy bot would play for ``seat`` now, each move on a line that can be typed back."""
    hint = suggest_turn(game)
    console.print(Text("Hint (what the greedy bot would play):", style="bold"))
    for action in hint.actions:
        # The command alone on its line, never broken by rich, so it can be copied and typed back.
        command = Text(INDENT) + move_text(action, game, letters, style="bold cyan")
        console.print(command, soft_wrap=True)
        note = hint_note(action, game, seat, letters)
        if note and note != f"{hint.points} points":  # else the summary below says the same
            console.print(Text(INDENT * 2 + note, style="dim"))
    summary = hint_summary(hint, game, seat)
    if summary is not None:
        console.print(Text(summary, style="green" if hint.points or hint.out else "yellow"))


def hint_note(action: Action, game: Game, seat: int, letters: bool = False) -> str:
    """What a hinted action is worth knowing: a meld's points before opening, a discard that fits."""
    note = ""
    if isinstance(action, Meld) and not game.opened[seat]:
        note = f"{meld_points(action, game.variant)} points"
    if isinstance(action, Draw) and action.source == "discard" and game.discard_pile:
        note = f"{render.card_label(game.discard_pile[-1], letters)} fits your hand"
        note += opens_with_the_discard(game, seat)
    return note


def opens_with_the_discard(game: Game, seat: int) -> str:
    """What taking the top discard would open with, for a player who has not opened and whose melds
    shown under the hand fall short: that preview leaves the discard out, so the hint says it."""
    if game.opened[seat] or not game.variant.opening_threshold or game.phase != "draw":
        return ""
    before = meld_preview(game, seat)
    if before is not None and before.opens:
        return ""
    taken = deepcopy(game, {id(game.variant): game.variant})
    try:
        taken.apply(Draw("discard"))
    except IllegalMoveError:
        return ""
    after = meld_preview(taken, seat)
    if after is None or not after.opens:
        return ""
    return f": with it your melds make {after.points}, enough to open ({after.needed})"


def hint_summary(hint: Hint, game: Game, seat: int) -> str | None:
    """The hint's last line: what it lays and whether that opens, or why the hand cannot open yet; and
    where the bot's own move was refused, that the hint took the first the rules allow."""
    said = _summary(hint, game, seat)
    if hint.out:
        # The turn that ends the hand is worth knowing before it is played, Kalooki above all.
        going = going_out(hint, game.variant)
        said = going if said is None else f"{said} {going}"
    if not hint.fell_back:
        return said
    # Under "what the greedy bot would play": a move it did not choose is said to be another's.
    fallback = "Where the bot's own move was refused, the hint takes the first the rules allow, as play does."
    return fallback if said is None else f"{said} {fallback}"


def going_out(hint: Hint, variant: Variant) -> str:
    """The hint's word that its turn goes out, and whether that is going Kalooki and what it does."""
    if not hint.kalooki:
        return "That goes out and ends the hand."
    charge = rules.kalooki_charge(variant)
    effect = f" ({charge:+d} {'to' if charge > 0 else 'from'} every other player)" if charge else ""
    return f"That goes out and goes Kalooki{effect}."


def _summary(hint: Hint, game: Game, seat: int) -> str | None:
    variant = game.variant
    if hint.points:
        summary = f"That lays {hint.points} points"
        if hint.opening:
            # Only new melds count toward opening: builds laid with them are said apart.
            melded = sum(meld_points(action, variant) for action in hint.actions if isinstance(action, Meld))
            if melded != hint.points:
                summary += f", {melded} of them in new melds"
            threshold = variant.opening_threshold
            # With no threshold "enough to open (0 needed)" read as though points were counted.
            opens = f": enough to open ({threshold} needed)" if threshold else ", which opens: any meld does"
            summary += opens
        return summary + "."
    if hint.kept:
        return (
            "The greedy bot keeps what you could lay: laid now, it would leave too few cards "
            "to go out with on this table."
        )
    if game.phase == "play" and not game.opened[seat] and variant.opening_threshold:
        needed = variant.opening_threshold
        if hint.short is not None and hint.short.opens:
            # The preview opens but the hint lays nothing: "cannot open" would contradict the figure shown.
            return (
                f"Your best melds make {hint.short.points} of the {needed} points needed, "
                "but the greedy bot would not open with them this turn."
            )
        if hint.short is not None and hint.short.points:
            why = f"your best melds make {hint.short.points} of the {needed} points needed"
        else:
            why = f"no meld in your hand yet ({needed} points needed)"
        return f"You cannot open yet: {why}."
    return None


__all__ = ["Hint", "meld_points", "meld_preview", "render_hint", "suggest_turn", "without_needless_end"]
