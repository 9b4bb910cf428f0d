"""The play screen's words for the browser page: :class:`WebCoach`, the host's ``Advisor``.

A browser has no rules engine, so the host words the table for it: each ``state`` sent to
a page carries the lines the terminal would print (the events told one line per turn, what
your turn still needs, "You could lay ...", the end of a hand), and ``hint`` and ``rules``
are answered with the terminal's hint and rulebook. Everything is computed from the seat's
own view, through the same stand-in game ``kalooki join`` builds
(:func:`kalooki_net.view.shadow_game`), with the functions the terminal screen uses: the
two tables say the same things in the same words.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kalooki_net.view import shadow_game
from rich.console import Console
from rich.rule import Rule
from rich.table import Table

from kalooki.cards import Card, format_card
from kalooki.engine import Event
from kalooki.events import EliminatedEvent
from kalooki.melds import MeldKind, RunEnd
from kalooki.moves import Build, format_move, meld_of
from kalooki.rulebook import scoring_line
from kalooki.text import ASCII_PUNCTUATION
from kalooki.variant import Variant

from . import render, scoresheet
from .going_out import laid_since_draw
from .hints import hint_note, hint_summary
from .interactive import meld_preview, suggest_turn
from .narrate import table_lines
from .render import Seating

WIDTH = 60
"""Columns of the hand-end and game-end tables (shown preformatted; a phone scrolls them)."""


class SentencesOnly(Console):
    """A console that prints only text: the headings' rules and the tables are left out."""

    def print(self, *objects: Any, **options: Any) -> None:
        if not any(isinstance(item, Rule | Table) for item in objects):
            super().print(*objects, **options)


def captured(draw: Callable[[Console], None]) -> dict[str, Any]:
    """A screen ``draw`` prints: whole, as plain text, and as its sentences alone (one a line)."""
    texts = []
    for kind, width in ((Console, WIDTH), (SentencesOnly, 10_000)):
        console = kind(
            file=io.StringIO(),
            width=width,
            record=True,
            color_system=None,
            highlight=False,
            emoji=False,
            markup=False,  # the screens hold players' names: "[/]" is a name here, not markup
        )
        draw(console)
        texts.append(console.export_text().rstrip() + "\n")
    return {"text": texts[0], "lines": [line.rstrip() for line in texts[1].splitlines() if line.strip()]}


def preview_moves(
    melds: Sequence[Sequence[Card]],
    builds: Sequence[tuple[int, Sequence[Card], RunEnd | None]],
    kinds: Sequence[MeldKind | None] = (),
) -> list[str]:
    """A preview as the moves that lay it: the new melds together (they open together), then the builds.

    Each is written short, as a player types it; a meld read as ``kinds`` says ends with that word
    (``m JK 6H JK run``)."""
    moves = []
    if melds:
        laid = meld_of(tuple(tuple(meld) for meld in melds), tuple(kinds))
        moves.append(format_move(laid, short=True))
    for index, cards, end in builds:
        moves.append(format_move(Build(index + 1, tuple(cards), end), short=True))
    return moves


class WebCoach:
    """The terminal's words for one seat's view (see :class:`kalooki_net.advice.Advisor`)."""

    def __init__(self) -> None:
        self.laid: dict[int, bool] = {}
        """Per seat: whether the player now going out melded in that turn (for "Not Kalooki: why")."""

    def coach(
        self,
        view: Mapping[str, Any],
        events: Sequence[Event],
        variant: Variant,
        bots: Mapping[int, str],
        away: Mapping[int, str | None],
    ) -> dict[str, Any]:
        seat = int(view["seat"])
        game = shadow_game(view, variant)
        seating = Seating(
            tuple(game.players), seat, {other: kind for other, kind in bots.items() if other != seat}, away
        )
        laid = laid_since_draw(events, self.laid.get(seat, False))
        self.laid[seat] = laid
        playing = game.phase in ("draw", "play")
        preview = meld_preview(game, seat) if playing and game.current == seat else None
        end = scoresheet.hand_end_event(events)
        out = [event.player for event in events if isinstance(event, EliminatedEvent)]
        hand_end = None
        if end is not None:
            hand_end = captured(
                lambda console: scoresheet.render_hand_end(console, game, seating, end, out, laid)
            )
        elif not playing and not events and game.results:
            # A page (re)joining between hands, or at the game's end: no events to say who is out or what
            # the going-out turn laid, so the screen is rebuilt from the state, as kalooki resume does.
            hand_end = captured(lambda console: scoresheet.render_last_hand_end(console, game, seating))
        dealer = seating.name(game.dealer)
        title = (
            f"Kalooki · {variant.name} · hand {game.hand_number}, dealt by {dealer} · turn {game.turn_number}"
        )
        if game.phase == "game_over":
            # The last hand's dealer and turn told a player reading the result of a game still going on.
            hands = len(game.results)
            title = f"Kalooki · {variant.name} · game over after {hands} hand{'' if hands == 1 else 's'}"
        return {
            "title": title,
            "scoring": f"Scoring: {scoring_line(variant)}.",
            "log": [line.plain for line in table_lines(events, game, seating, worded=True)],
            "status": [line.plain for line in render.turn_status(game, seating)],
            "jokers": [
                render.joker_notes(meld, game.variant, layer_name=seating.name) for meld in game.table
            ],
            "preview": None
            if preview is None or not (preview.melds or preview.builds)
            else {
                "text": render.preview_text(preview, game, letters=False).plain,
                "cards": [format_card(card) for card in preview.cards],
                "moves": preview_moves(preview.melds, preview.builds, preview.kinds),
                "points": preview.points,
                "opens": preview.opens,
                "needed": preview.needed,
            },
            "hand_end": hand_end,
            "game_end": captured(lambda console: scoresheet.render_game_end(console, game, seating))
            if game.phase == "game_over"
            else None,
        }

    def suggestion(self, view: Mapping[str, Any], variant: Variant) -> dict[str, Any]:
        game = shadow_game(view, variant)
        seat = int(view["seat"])
        hint = suggest_turn(game)
        notes = [hint_note(action, game, seat) for action in hint.actions]
        summary = hint_summary(hint, game, seat)
        return {
            "type": "suggestion",
            "moves": [format_move(action) for action in hint.actions],
            "notes": notes,
            "summary": summary,
        }

    def rulebook(self, variant: Variant) -> dict[str, Any]:
        from kalooki.rulebook import render_rulebook

        markdown = render_rulebook(variant)
        return {"type": "rulebook", "markdown": markdown, "html": markdown_html(markdown)}


_INLINE = (
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])"), r"<em>\1</em>"),
)


_ESCAPED = re.compile(rf"\\([{ASCII_PUNCTUATION}])")
"""A character Markdown's backslash keeps as itself (a variant's own ``*`` or ``[``: markdown_literal)."""
_HELD = re.compile("\x00([0-9]+)\x00")
"""Where such a character waits while the markup is read: no text of a variant holds a NUL."""


def inline_html(text: str) -> str:
    """One line of the rulebook's Markdown as HTML: escaped first, then code, bold and italics; a
    backslash-escaped character is held aside meanwhile, then shown as itself."""
    held: list[str] = []

    def hold(match: re.Match[str]) -> str:
        held.append(match.group(1))
        return f"\x00{len(held) - 1}\x00"

    out = html.escape(_ESCAPED.sub(hold, text), quote=True)
    for pattern, replacement in _INLINE:
        out = pattern.sub(replacement, out)
    return _HELD.sub(lambda match: html.escape(held[int(match.group(1))], quote=True), out)


def markdown_html(markdown: str) -> str:
    """The rulebook's Markdown (headings, bullet lists, paragraphs) as an HTML fragment.

    Every text is escaped before any tag is added, so a variant's description or a rule
    source's words can never become markup.
    """
    parts: list[str] = []
    in_list = False
    paragraph: list[str] = []

    def flush() -> None:
        nonlocal in_list
        if paragraph:
            parts.append(f"<p>{inline_html(' '.join(paragraph))}</p>")
            paragraph.clear()
        if in_list:
            parts.append("</ul>")
            in_list = False

    for raw in markdown.splitlines():
        line = raw.strip()
        heading = re.match(r"(#{1,6})\s+(.*)", line)
        if not line:
            flush()
        elif heading:
            flush()
            level = min(len(heading.group(1)) + 1, 6)  # the page has its own h1
            parts.append(f"<h{level}>{inline_html(heading.group(2))}</h{level}>")
        elif line.startswith(("- ", "* ")):
            if paragraph:
                flush()
            if not in_list:
                parts.append("<ul>")
                in_list = True
            parts.append(f"<li>{inline_html(line[2:])}</li>")
        elif in_list and parts[-1].startswith("<li>") and raw.startswith(" "):
            parts[-1] = parts[-1][: -len("</li>")] + " " + inline_html(line) + "</li>"
        else:
            if in_list:
                flush()
            paragraph.append(line)
    flush()
    return "\n".join(parts) + "\n"


__all__ = ["WebCoach", "markdown_html"]
