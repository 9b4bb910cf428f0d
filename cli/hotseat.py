"""Hot-seat: several people at one terminal, taking turns (``kalooki play --humans ann,bob``).

:class:`HotSeatGame` is the interactive game with more than one person: before each person's
turn the screen is cleared and a "pass to bob — press Enter" screen waits, so nobody sees a
hand that is not theirs. Bots play the other seats as in ``kalooki play``. The erase takes the
lines that told the other players' turns with it, so after the pass screen each person reads
what happened since their last turn, as the table tells it to their seat (another person's card
from the stock stays unnamed; melds taken back with ``undo`` are left out).

The save is ``kalooki play``'s: the first person's seat is its player and every other seat
has a bot (the greedy bot stands in for the other people), so any kalooki resumes it; the
seats of the people ride along as ``humans`` in the session, and ``kalooki resume`` seats
them all again.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from rich.rule import Rule
from rich.text import Text

from kalooki.engine import Event, Game
from kalooki.events import BuildEvent, DrawEvent, HandEndEvent, MeldEvent, ReleaseEvent
from kalooki.savegame import LoadedSave, SaveFormatError, Session, save_checksum, save_document, seat_rng
from kalooki.text import clipped, escape_controls, name_key, name_lookalike
from kalooki.variant import Variant

from .autosave import saved_now
from .common import counted, load_game_variant, name_problem, named_bots, refuse_unknown_bots
from .interactive import InteractiveGame
from .narrate import table_lines
from .output import writes_to_terminal
from .render import NOBODY, Seating
from .saves_commands import where_it_stands

STAND_IN = "greedy"
"""The bot recorded in the save for each person after the first (it plays them if resumed alone)."""
PASS_SCREEN_LINES = 60
"""Blank lines printed before the pass screen where the terminal cannot be cleared (a pipe)."""
ERASE_SCROLLBACK = "\x1b[3J"
_LAYINGS = (MeldEvent, BuildEvent, ReleaseEvent)


class HotSeatGame(InteractiveGame):
    """Several people at one keyboard, in the seats ``humans``."""

    def __init__(self, game: Game, session: Session, humans: Sequence[int], **options: Any) -> None:
        super().__init__(game, session, **options)
        self.humans = list(humans)
        self.intro = ""
        """The introduction as the terminal got it (:meth:`welcome`)."""
        self.bot_seats = {seat: kind for seat, kind in session.bots.items() if seat not in self.humans}
        self.seating = Seating(tuple(game.players), self.human, self.bot_seats)
        self.missed: dict[int, list[Event]] = {seat: [] for seat in self.humans}
        """For each person, the events since their last turn that they did not make themselves."""
        self.had_turns: set[int] = turns_had(game, self.humans)
        """The people who have had a turn (a resumed game's, before it was saved too)."""
        self.told_since_resume: set[int] = set() if self.resumed else set(self.humans)
        """The people told what happened since the game was resumed; what came before it is in no save."""
        turn = game.turn
        source: Literal["stock", "discard"] | None = (
            "stock" if turn.drew == "stock" else "discard" if turn.drew == "discard" else None
        )
        if self.resumed and game.phase == "play" and source is not None:
            # Resumed after the player on turn drew: the others are told that draw with the rest of the
            # turn ("Bob melds ..., discards 9♥" read as a turn with no draw).
            drawn = DrawEvent(game.player, source, turn.drawn_card)
            for seat in self.humans:
                if seat != game.current:
                    self.missed[seat].append(drawn)

    def welcome(self) -> None:
        # Kept as written, to be written again after each pass screen's erase: it holds no hand.
        with self.console.capture() as capture:
            super().welcome()
        self.intro = capture.get()
        self.write_raw(self.intro)

    who_plays_style = "bold"

    def who_plays(self) -> str:
        # Everyone at the terminal is "you" in turn, so the line names them all.
        game = self.game
        people = ", ".join(game.players[seat] for seat in self.humans)
        bots = ", ".join(self.seating.label(seat) for seat in self.bot_seats)
        line = f"At this terminal: {people}" + (f", against {bots}" if bots else "")
        if self.resumed:
            return f"Resuming the game. {line} ({where_it_stands(game)})."
        return f"{line}."

    def write_raw(self, text: str) -> None:
        """``text`` to the terminal as it is: control codes, or lines rich has already drawn."""
        self.console.file.write(text)
        self.console.file.flush()

    def announce_hand(self) -> None:
        game = self.game
        self.console.print(
            Rule(f"Hand {game.hand_number}: {game.players[game.first_seat]} plays first", style="cyan")
        )

    def shared_seating(self) -> Seating:
        # The person who played last is not the only one reading: "Bob went out", and no row is "(you)".
        return Seating(tuple(self.game.players), NOBODY, self.bot_seats)

    def sit(self, seat: int) -> None:
        self.human = seat
        self.seating = Seating(tuple(self.game.players), seat, self.bot_seats)

    def bot_turn(self) -> None:
        if self.game.current in self.humans:
            self.sit(self.game.current)
            self.human_turn()
            return
        super().bot_turn()

    def out_of_the_game(self) -> bool:
        # Skipping to the result has bots play every seat left, and a person still in has no bot (or
        # only the save's stand-in): the question waits until nobody at the keyboard is still in.
        if not all(self.game.eliminated[seat] for seat in self.humans):
            return False
        return super().out_of_the_game()

    def human_turn(self) -> None:
        if self.alone_in_the_game():
            # Nobody left in the game to hide this hand from: the pass screen before each turn was only a
            # key to press, and what it erased (told again after it) stays on the screen.
            self.missed[self.human].clear()
        else:
            self.pass_to(self.game.players[self.human])
            self.tell_missed()
        super().human_turn()

    def alone_in_the_game(self) -> bool:
        """Whether the person on turn is the only one at the terminal still in the game (the others out at
        the goal, as under kalooki-40's elimination)."""
        eliminated = self.game.eliminated
        return all(eliminated[seat] for seat in self.humans if seat != self.human)

    def narrate(self, events: Sequence[Event]) -> None:
        super().narrate(events)
        players = self.game.players
        ends = [index for index, event in enumerate(events) if isinstance(event, HandEndEvent)]
        if ends:
            # The hand's end is shown to everyone at the terminal: told again after the next deal, its last
            # moves read as the new hand's ("builds J♠ onto meld 7", a meld no longer on the table).
            events = events[ends[-1] + 1 :]
            for missed in self.missed.values():
                missed.clear()
        for seat, missed in self.missed.items():
            missed += [event for event in events if getattr(event, "player", None) != players[seat]]

    def tell_missed(self) -> None:
        """What happened since this person's last turn, told to their seat: the pass screen erased it."""
        missed = self.missed[self.human]
        lines = table_lines(missed, self.game, self.seating, letters=self.letters)
        missed.clear()
        first = self.human not in self.had_turns
        self.had_turns.add(self.human)
        resumed = self.human not in self.told_since_resume
        self.told_since_resume.add(self.human)
        if lines:
            said = "Since the game was resumed:" if resumed and not first else None
            said = said or ("Before your first turn:" if first else "Since your last turn:")
            self.console.print(Text(said, style="bold"))
            for line in lines:
                self.console.print(line)

    def undo(self) -> None:
        laid = self.game.can_undo()
        super().undo()
        if laid:
            # The others are told the turn as it stands: the melds, builds and swaps taken back go.
            name = self.game.players[self.human]
            for missed in self.missed.values():
                while missed and isinstance(missed[-1], _LAYINGS) and missed[-1].player == name:
                    missed.pop()

    def pass_to(self, name: str) -> None:
        """Hide the last hand and wait until the next person has the keyboard."""
        if writes_to_terminal(self.console):
            self.console.clear()
            # Clearing the screen leaves the last hand in the terminal's scrollback, a scroll away for
            # the next person: ESC [3J erases that too (xterm, VTE, iTerm2, tmux, Windows Terminal).
            # The introduction goes with it, so it is written again: only the hand should go.
            self.write_raw(ERASE_SCROLLBACK + self.intro)
        else:
            self.console.print("\n" * PASS_SCREEN_LINES, end="")
        # What works here named, as the prompt between hands does: Enter alone looked like the only key.
        waiting = Text(f"Pass to {name} — press Enter (or {self.BETWEEN_HANDS[0]})", style="bold")
        self.console.print(waiting)
        # Only Enter passes the keyboard: a line typed there (quit, a move typed too soon) is the last
        # person's or a mistake, and taking it as Enter would show the next person's hand to whoever typed it.
        while (line := self.read_line("")).strip():
            if self.command(line, in_turn=False):
                self.console.print(waiting)  # under what the command showed, where the next line is typed
            else:
                self.refuse_at_pause(
                    line, f"press Enter when {name} has the keyboard, or type {self.BETWEEN_HANDS[1]}"
                )
        # The last person's card drawn is theirs to see marked; a game resumed after this person drew
        # marks their own, as a game against bots does.
        self.mark_drawn(self.game.turn.drawn_card if self.game.phase == "play" else None)

    def write_save(self, path: Path) -> None:
        assert self._write_save is not None
        self.session.bot_rngs = {seat: self.rngs[seat].getstate() for seat in self.session.bots}
        self.session.saved_at = saved_now()
        document = save_document(self.game, self.session)
        document["session"]["humans"] = list(self.humans)
        document["checksum"] = save_checksum(document["session"], document["game"])
        self._write_save(path, json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n")


def hotseat_session(game: Game, humans: Sequence[int], bots: dict[int, str], variant_source: str) -> Session:
    """The session of a new hot-seat game: the first person is the save's player, the rest have stand-ins."""
    first = humans[0]
    kinds = dict.fromkeys(humans[1:], STAND_IN) | bots
    return Session(
        human_seat=first,
        bots=dict(sorted(kinds.items())),
        bot_rngs={seat: seat_rng(game.seed, seat).getstate() for seat in kinds},
        variant_source=variant_source,
    )


def start_hotseat(
    target: str | None,
    overrides: list[str],
    *,
    humans: str,
    players: int | None,
    bots: str | None,
    seed: int | None,
    fast: bool,
    save: Path | None,
    log: Path | None = None,
) -> int:
    """A new game for the people named in ``humans`` (in seat order) and the bots after them."""
    import secrets

    import typer

    from kalooki.bots import names_for_bots

    from . import save_lock
    from .interactive import TurnLogWriter
    from .play import DEFAULT_BOT, console_reader, make_console, replay_command, terminal_pause
    from .saves import move_save, new_save_path, write_save

    names = [name.strip() for name in humans.split(",")]
    given = [name for name in names if name]
    if len(given) >= 2 and len(given) < len(names):
        # `ann,,bob`: two people were named; what is wrong is the empty name between the commas.
        raise typer.BadParameter(
            f"an empty name in {humans.strip()!r}: one name between each two commas: ann,bob",
            param_hint="'--humans'",
        )
    if len(given) < 2 or len(given) < len(names) or any(c.isspace() for name in given for c in name):
        raise typer.BadParameter("name two or more people, one word each: ann,bob", param_hint="'--humans'")
    for name in names:
        problem = name_problem(name)
        if problem is not None:
            raise typer.BadParameter(problem, param_hint="'--humans'")
    if any(name_key(name) == "you" for name in names):
        # The screens name whose turn it is: "you" read "Hand 1: you plays first", "Pass to you".
        raise typer.BadParameter(
            "'you' is what the screens call a player: give each person their own name",
            param_hint="'--humans'",
        )
    # In any case: "ann" and "Ann" are taken for one name by anyone reading the screens, as at a hosted
    # table; and in any of Unicode's ways of writing the same letters (ａｎｎ in fullwidth letters).
    keys = [name_key(name) for name in names]
    for index, key in enumerate(keys):
        if key in keys[:index]:
            first = names[keys.index(key)]
            if first == names[index]:  # "'ann' reads as 'ann'" of the same name given twice
                raise typer.BadParameter(
                    f"'{escape_controls(first)}' is given twice; give each person a different name",
                    param_hint="'--humans'",
                )
            # The letter that reads as another, as a hosted table names it (': this name's U+0430 ...').
            name, letter = escape_controls(names[index]), name_lookalike(names[index], "its")
            raise typer.BadParameter(
                f"'{name}' reads as '{escape_controls(first)}' on the screens{letter}; give each person a "
                "different name",
                param_hint="'--humans'",
            )
    variant = load_game_variant(target or "classic", overrides)
    kinds = named_bots(bots) or []
    refuse_unknown_bots(kinds)
    count = seat_count(variant, len(names), len(kinds), players)
    bot_count = count - len(names)
    seat_kinds = [(kinds or [DEFAULT_BOT])[index % len(kinds or [DEFAULT_BOT])] for index in range(bot_count)]
    seed = seed if seed is not None else secrets.randbelow(1_000_000)
    game = Game(variant, [*names, *names_for_bots(names, bot_count)], seed=seed)
    bot_seats = {len(names) + index: kind for index, kind in enumerate(seat_kinds)}
    session = hotseat_session(game, list(range(len(names))), bot_seats, target or "classic")
    console = make_console()
    save_path = save.expanduser() if save is not None else new_save_path(seed)
    # As a game against bots says it: a hot-seat deal is worth dealing again too.
    command = replay_command(
        target, overrides, players=players, bots=kinds or None, name="you", seed=seed, humans=names
    )
    with save_lock.holding(save_path):
        return HotSeatGame(
            game,
            session,
            list(range(len(names))),
            console=console,
            read_line=console_reader(console),
            save_path=save_path,
            write_save=write_save,
            pause=terminal_pause(console, fast),
            log=TurnLogWriter(game, log) if log is not None else None,
            replay_command=command,
            move_save=move_save,
        ).run()


def seat_count(variant: Variant, people: int, bots: int, players: int | None) -> int:
    """The players at a hot-seat table: ``--players``, or the people and the bots named.

    A count that cannot be seated is a usage error on the option that set it; a bot named is never
    left out (as ``kalooki play`` refuses more bots than bot seats).
    """
    import typer

    from kalooki.rules import may_play, player_counts, seating_note

    allowed = f"{variant.name} is for {player_counts(variant)} players{seating_note(variant)}"
    if players is None:
        if may_play(variant, people + bots):
            return people + bots
        made = f"{people} people" + (f" and {counted(bots, 'bot')}" if bots else "")
        short = people + bots < variant.min_players
        hint = f"; --players {variant.min_players} seats bots in the other places" if short else ""
        raise typer.BadParameter(
            f"{made} make {people + bots} players, but {allowed}{hint}",
            param_hint="'--bots'" if bots else "'--humans'",
        )
    if not may_play(variant, players):
        raise typer.BadParameter(allowed, param_hint="'--players'")
    if players < people:
        raise typer.BadParameter(
            f"{players} players are fewer than the {people} people named", param_hint="'--players'"
        )
    if bots > players - people:
        seats = counted(players - people, "bot seat")
        raise typer.BadParameter(
            f"{counted(bots, 'bot')} for {seats} (--players {players}, {people} people)",
            param_hint="'--bots'",
        )
    return players


def turns_had(game: Game, seats: Sequence[int]) -> set[int]:
    """Which of ``seats`` have had a turn before the one being played: all after the first hand; in it,
    those whose turn came earlier, counted from the seat that played first."""
    if game.hand_number > 1:
        return set(seats)
    order, seat = [], game.first_seat
    for _ in range(max(0, game.turn_number - 1)):
        order.append(seat)
        seat = game.next_seat(seat)
    return {seat for seat in seats if seat in order}


def saved_humans(path: Path, loaded: LoadedSave) -> list[int] | None:
    """The people's seats of a hot-seat save (``loaded`` from ``path``), or None for any other save.

    They are what :func:`hotseat_session` writes: two or more seats of the table, each once, the first the
    session's player and the others stand-in bots'. An edited list is refused as a damaged session is (a
    seat past the table ended the resume in an IndexError; a seat twice played one person's turns twice).
    """
    session = loaded.written_session
    if "humans" not in session:
        return None
    humans = session["humans"]
    seats = range(len(loaded.game.players))
    if (
        not isinstance(humans, list)
        or len(humans) < 2
        or not all(type(seat) is int and seat in seats for seat in humans)
        or len(set(humans)) != len(humans)
        or humans[0] != loaded.session.human_seat
        or not all(seat in loaded.session.bots for seat in humans[1:])
    ):
        shown = escape_controls(clipped(json.dumps(humans, ensure_ascii=False)))
        raise SaveFormatError(
            f"{escape_controls(str(path))}: the save is damaged: its session is invalid "
            f"(the people's seats {shown} are not two or more seats of this {len(seats)}-player table, "
            "each once, the first the player's)"
        )
    return list(humans)


__all__ = ["HotSeatGame", "hotseat_session", "saved_humans", "start_hotseat", "turns_had"]
