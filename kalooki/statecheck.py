"""Checking a saved game before it is resumed: its shape, then that the engine could have reached it.

A save's checksum catches damage, not a deliberate edit (anyone can recompute a SHA-256), so
:meth:`Game.from_json <kalooki.engine.Game.from_json>` trusts nothing in the document:

- :func:`check_state_shape` checks every field's type and range before anything is built
  (whole numbers that are numbers, cards that are cards, a random state Python can restore);
- :func:`check_reachable` checks the rebuilt game against what play can produce: the pack whole
  and in the right places, hand sizes possible for the phase, the phase, scores, totals and winners
  coherent, the seats in range, who has opened matching whose melds are on the table, the card
  drawn still in the hand or on the table, the turn's record fitting the phase and the table, an
  undo snapshot that holds the same cards (the turn's record is :mod:`kalooki.turncheck`'s), the stock
  marked run out only by the draw that emptied it, the deals (who dealt, who plays first, the cards
  dealt and turned up: :mod:`kalooki.dealcheck`'s).

Each raises :class:`~kalooki.engine.StateFormatError` with one line naming the first problem.
:func:`check_player_name` and :func:`check_action_parts` refuse, as an
:class:`~kalooki.engine.IllegalMoveError`, a name or an action that is not what it claims to be.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, ValidationInfo

from kalooki import rules
from kalooki.cards import JOKER
from kalooki.dealcheck import deal_problem, first_turn_pile_problem, turn_order_problem, unopened_hand_problem
from kalooki.gamestate import LONGEST_SEED, MAX_TURN_LIMIT
from kalooki.joker_layers import BY_LAYER
from kalooki.moves import Action, Build, Discard, Draw, EndTurn, Meld, Swap
from kalooki.text import MAX_NAME as MAX_NAME  # where the net and cli modules import it from
from kalooki.text import clipped, escape_controls, first_control, lone_surrogate, name_fault, safe_repr
from kalooki.turncheck import (
    debt_problem,
    drawn_card_problem,
    ended_turn_problem,
    hands_left_problem,
    laid_problem,
    not_a_seat,
    seat_named,
    snapshot_problem,
    turn_record_problem,
    unchanged_by_laying,
)
from kalooki.validation import value_problem
from kalooki.variant import MAX_PLAYERS as MAX_PLAYERS  # where the net modules import it from
from kalooki.variant import MIN_PLAYERS

if TYPE_CHECKING:
    from kalooki.engine import Game
    from kalooki.melds import TableMeld
    from kalooki.variant import Variant

MAX_WHOLE = 10**12
"""Bound of every count, total and seat in a state: far beyond any real game, far below an overflow."""
RNG_WORDS = 624
MAX_RNG_WORD = 2**32 - 1
MAX_MELDS = (4 * 52 + 8) // 3
"""Most melds a table can hold: the biggest pack (four decks, eight jokers) in melds of three."""

Whole = Annotated[int, Field(ge=-MAX_WHOLE, le=MAX_WHOLE)]
Count = Annotated[int, Field(ge=0, le=MAX_WHOLE)]
PLAYERS = "players"
"""The validation context's key for the number of players, when the state's list of them is sound."""


def _seat_in_game(seat: int, info: ValidationInfo) -> int:
    """A seat of this game: the range is the state's own number of players (a 3-player game's is 0 to 2)."""
    players = info.context.get(PLAYERS) if isinstance(info.context, dict) else None
    if isinstance(players, int):
        if not 0 <= seat < players:
            raise ValueError(not_a_seat(seat, players))
    elif not 0 <= seat < MAX_PLAYERS:
        raise ValueError(f"{seat} is not at any table: seats are 0 to {MAX_PLAYERS - 1}")
    return seat


Seat = Annotated[int, AfterValidator(_seat_in_game)]
CardCode = Annotated[int, Field(ge=0, le=JOKER)]


class _Shape(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class _Meld(_Shape):
    kind: Literal["set", "run"]
    cards: Annotated[list[CardCode], Field(min_length=1, max_length=14)]
    owner: Seat
    rank: Annotated[int, Field(ge=1, le=14)]
    suit: Annotated[int, Field(ge=-1, le=3)]
    # Saves from before a meld recorded who laid its jokers have none: the owner laid them all.
    joker_layers: Annotated[list[Seat], Field(max_length=14)] = []


class _Turn(_Shape):
    drew: Literal["stock", "discard"] | None
    drawn_card: CardCode | None
    opened_before: bool
    built: bool
    must_use_card: CardCode | None
    must_use_limit: Annotated[int, Field(ge=0, le=4 * 4 + 8)]
    jokers_owed: Annotated[int, Field(ge=0, le=8)]
    # The table's indexes of the melds the turn laid; saves from before it was recorded have none.
    laid: Annotated[list[Count], Field(max_length=MAX_MELDS)] = []


class _Result(_Shape):
    number: Annotated[int, Field(ge=1, le=MAX_WHOLE)]
    winner: Seat | None
    kalooki: bool
    end: Literal["went_out", "stock_exhausted", "blocked", "abandoned", "turn_limit"]
    seats: Annotated[list[Seat], Field(min_length=1, max_length=MAX_PLAYERS)]
    hand_points: Annotated[list[Count], Field(max_length=MAX_PLAYERS)]
    scores: Annotated[list[Whole], Field(max_length=MAX_PLAYERS)]
    turns: Count
    # Results from before the dealer was recorded have none.
    dealer: Seat | None = None


class _Undo(_Shape):
    hand: list[CardCode]
    table: list[_Meld]
    opened: bool
    turn: _Turn


class _State(_Shape):
    players: Annotated[list[str], Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)]
    # Any whole number --seed takes, as the JSON reader of a save or a log bounds it (a state given in code
    # was taken with more, and its save was refused when read back); bounded past it, so the refusal reads
    # "less than 1000...", a round number.
    seed: Annotated[int, Field(gt=-LONGEST_SEED - 1, lt=LONGEST_SEED + 1)] | None
    rng: Annotated[list[Any], Field(min_length=3, max_length=3)]
    hand_number: Annotated[int, Field(ge=1, le=MAX_WHOLE)]
    first_seat: Seat
    current: Seat
    phase: Literal["draw", "play", "hand_over", "game_over"]
    stock: list[CardCode]
    discard_pile: list[CardCode]
    table: list[_Meld]
    hands: Annotated[list[list[CardCode]], Field(max_length=MAX_PLAYERS)]
    opened: Annotated[list[bool], Field(max_length=MAX_PLAYERS)]
    totals: Annotated[list[Whole], Field(max_length=MAX_PLAYERS)]
    eliminated: Annotated[list[bool], Field(max_length=MAX_PLAYERS)]
    turn: _Turn
    turn_number: Count
    stock_ran_out: bool
    results: list[_Result]
    winners: Annotated[list[Seat], Field(max_length=MAX_PLAYERS)]
    undo: _Undo | None
    turn_limit: Annotated[int, Field(ge=1, le=MAX_TURN_LIMIT)] = 1


def check_player_name(name: object) -> None:
    """Refuse a player's name that is not one line of printable text (it is shown on every screen), is
    longer than :data:`MAX_NAME`, or holds half of a UTF-16 pair (no save or log could hold it)."""
    from kalooki.engine import SetupError
    from kalooki.text import spell_surrogates  # beside the refusal that spells with it: the file is full

    fault = name_fault(name, one_word=False) if isinstance(name, str) else "blank"
    if not isinstance(name, str) or fault == "blank":
        raise SetupError(
            f"a player's name must be text that is not blank, not {clipped(safe_repr(name), 40)}"
        )
    if fault == "long":
        # Only the name's start is said: a save can hold a name of a million characters.
        start = escape_controls(name[:MAX_NAME])
        raise SetupError(f"a player's name is at most {MAX_NAME} characters: '{start}…' has {len(name)}")
    if fault == "control":
        control = first_control(name)
        raise SetupError(f"the player's name '{escape_controls(name)}' holds a control character ({control})")
    # Half of a UTF-16 pair: no save or log of the game could be written (UTF-8 holds none).
    half = lone_surrogate(name)
    if half is not None:
        raise SetupError(f"the player's name '{escape_controls(spell_surrogates(name))}' is {half}")


_ACTIONS = (Draw, Meld, Build, Swap, Discard, EndTurn)
"""Every kind of action (:data:`kalooki.moves.Action`)."""


def check_action_parts(action: Action) -> None:
    """Refuse an action whose parts are not what they claim (built in code or read from a log, not parsed)."""
    problem = _action_parts_problem(action)
    if problem is not None:
        # Imported here, on the rare refusal: every action passes this check, and engine imports this module.
        from kalooki.engine import IllegalMoveError

        raise IllegalMoveError(problem)


def _action_parts_problem(action: Action) -> str | None:
    if not isinstance(action, _ACTIONS):
        # A plug-in bot's choice is not type-checked: None, or a string, reached the parts below and
        # failed as an AttributeError naming none of it.
        return f"not an action: {clipped(escape_controls(safe_repr(action)))}"
    if isinstance(action, Draw):
        if action.source not in ("stock", "discard"):
            return f"{action.source!r} is not a place to draw from: stock or discard"
        return None
    if isinstance(action, Build) and action.end not in (None, "low", "high"):
        return f"{action.end!r} is not an end of a run: low or high"
    if isinstance(action, (Build, Swap)) and (
        not isinstance(action.meld, int) or isinstance(action.meld, bool)
    ):
        return f"{action.meld!r} is not a meld number"
    if isinstance(action, EndTurn):
        return None
    if isinstance(action, Meld):
        groups = action.groups
        # A plug-in's Meld of one group (not a tuple of groups) reached the card loop and failed there
        # as a TypeError naming none of it.
        if not isinstance(groups, tuple | list) or not all(
            isinstance(group, tuple | list) for group in groups
        ):
            return (
                f"{clipped(escape_controls(repr(groups)))} is not a list of melds, each a list of card codes"
            )
        kinds = action.kinds
        if not isinstance(kinds, tuple):
            # A plug-in's list ([None, None]) was refused in the words below, as if None were no reading.
            shown = clipped(escape_controls(repr(kinds)))
            return f"{shown} is not a reading of each meld: a tuple of set, run or None, one a meld"
        if kinds and (len(kinds) != len(action.groups) or any(k not in (None, "set", "run") for k in kinds)):
            return f"{kinds!r} is not a reading of each meld: set, run or None, one a meld"
        if not action.groups:
            # Nothing laid is no opening, even where any meld opens (opening_threshold: 0).
            return "a meld move lays at least one meld: meld 7H 8H 9H"
        if not all(action.groups):
            # A plug-in's empty group was refused as " is not a meld", its cards (none) named before it.
            return "a meld of no cards: each meld of a meld move holds its cards (meld 7H 8H 9H, QS QD QC)"
        cards: Sequence[object] = [card for group in action.groups for card in group]
    elif isinstance(action, Discard):
        cards = [action.card]
    else:
        cards = action.cards
        if not isinstance(cards, tuple | list):
            return f"{clipped(escape_controls(repr(cards)))} is not a list of card codes"
    for card in cards:
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card <= JOKER:
            return f"{card!r} is not a card code (0 to {JOKER})"
    return None


def first_error(error: ValidationError, prefix: str = "") -> str:
    """A pydantic error as one line: where (``hands[2][0]``) and what, in the words ``kalooki validate``
    uses for the same fault in a variant file ("must be at most 52, got 53"), not pydantic's."""
    detail = error.errors(include_url=False)[0]
    where = prefix
    for part in detail["loc"]:
        where += f"[{part}]" if isinstance(part, int) else (f".{part}" if where else str(part))
    message = value_problem(detail)
    return escape_controls(f"{where}: {message}" if where else message)


def check_state_shape(data: Mapping[str, Any], prefix: str = "") -> None:
    """Refuse a state document whose fields have the wrong types or are out of range (before any use);
    ``prefix`` as :func:`state_shape_problem`'s."""
    from kalooki.engine import StateFormatError

    problem = state_shape_problem(data, prefix)
    if problem is not None:
        raise StateFormatError(f"the saved game is damaged: {problem}", problem=problem)


def state_shape_problem(data: Mapping[str, Any], prefix: str = "") -> str | None:
    """What field of a state document has the wrong type or is out of range (None when none is);
    each field's place starts with ``prefix`` (``view``: the place in a table's view it came from)."""
    players = data.get("players")
    count = len(players) if isinstance(players, list) and MIN_PLAYERS <= len(players) <= MAX_PLAYERS else None
    try:
        # Seats are checked against this game's players, when their list is sound (it is checked too).
        _State.model_validate(data, context={PLAYERS: count} if count is not None else None)
    except ValidationError as error:
        return first_error(error, prefix)
    problem = rng_state_problem(data["rng"])
    return None if problem is None else f"its random state {problem}"


def rng_state_problem(state: object) -> str | None:
    """Why ``state`` (JSON ``[3, [625 words], gauss]``) is not one ``random.setstate`` takes (or None)."""
    if not isinstance(state, list | tuple) or len(state) != 3:
        return "is not [version, [numbers], gauss]"
    version, words, gauss = state
    if version != 3 or isinstance(version, bool) or not isinstance(words, list | tuple):
        return "is not [3, [numbers], gauss]"
    if len(words) != RNG_WORDS + 1:
        return f"holds {len(words)} numbers, not {RNG_WORDS + 1}"
    for word in words:
        if not isinstance(word, int) or isinstance(word, bool) or not 0 <= word <= MAX_RNG_WORD:
            return "holds a number that is not a 32-bit word"
    if words[-1] > RNG_WORDS:
        return "has its position out of range"
    if gauss is not None and (not isinstance(gauss, float) or gauss != gauss or abs(gauss) == float("inf")):
        return "has a gauss value that is not a finite number"
    return None


def check_reachable(game: Game, stand_ins: Collection[int] = ()) -> None:
    """Refuse a game the engine could not have reached (see the module doc).

    ``stand_ins``: the seats whose hands are stand-ins, not their cards (a table's view shows only the
    viewer's hand: :func:`kalooki_net.view.shadow_game` fills the others with unseen cards), so nothing
    is asked of what those hands hold beyond their sizes.
    """
    from kalooki.engine import StateFormatError

    problem = (
        _unreachable(game, frozenset(stand_ins))
        or _elimination_problem(game)
        or _deal_and_stock_problem(game, bool(stand_ins))
    )
    if problem is not None:
        raise StateFormatError(f"the saved game is not one play can reach: {problem}", problem=problem)


def _unreachable(game: Game, stand_ins: frozenset[int]) -> str | None:
    from kalooki.engine import SetupError

    variant = game.variant
    count = len(game.players)
    if not rules.may_play(variant, count):
        counts, note = rules.player_counts(variant), rules.seating_note(variant)
        return f"{rules.players_counted(count)}, but the variant is for {counts}{note}"
    if len(set(game.players)) != count:
        return "two players have the same name"
    for name in game.players:
        try:
            check_player_name(name)
        except SetupError as error:
            return str(error)
    seats = range(count)
    live = [seat for seat in seats if not game.eliminated[seat]]
    if any(game.eliminated) and not variant.elimination:
        return "a player is eliminated, but the variant has no elimination"
    if not 0 <= game.first_seat < count:
        return f"first_seat: {not_a_seat(game.first_seat, count)}"
    over = game.phase in ("hand_over", "game_over")
    if len(game.results) != game.hand_number - (0 if over else 1):
        return f"it is hand {game.hand_number}, but {len(game.results)} hands have results"
    for index, result in enumerate(game.results):
        problem = (
            _result_problem(result, index, count)
            or _seats_problem(game, result)
            or _scores_problem(result, variant)
        )
        if problem is not None:
            return problem
    for seat in seats:
        if game.totals[seat] != sum(result.scores[seat] for result in game.results):
            return f"the total of {seat_named(game, seat)} is not the sum of their scores"
    if game.phase == "game_over":
        return _game_over_problem(game, live) or _table_left_problem(game, stand_ins)
    if game.winners:
        return "the game has winners, but it is not over"
    if len(live) < 2:
        return "fewer than two players are left, but the game is not over"
    if _goal_reached(game, live):
        return "a player has reached the goal, but the game is not over"
    if over:
        return _table_left_problem(game, stand_ins)
    return _hand_problem(game, live, stand_ins)


def _table_left_problem(game: Game, stand_ins: frozenset[int]) -> str | None:
    """Why the table a hand left (it stays until the next deal, and is shown with who had opened) is not the
    one it was played to: who had opened matches whose melds lie there, as in play, among the hand's
    players (one it put out of the game included), and the record of the turn it was won in fits both."""
    players = list(game.results[-1].seats)
    return (
        _opened_problem(game, game.table, game.opened, players)
        or ended_turn_problem(game)
        or hands_left_problem(game, stand_ins)
    )


def _deal_and_stock_problem(game: Game, view: bool) -> str | None:
    """Why the deal, the hands the hand was dealt or the stock's end is none play leads to (asked last, so
    a state wrong in more ways is named as before): :mod:`kalooki.dealcheck`'s checks, and the stock's.
    ``view``: a table's view, whose undo snapshot is a stand-in."""
    live = [seat for seat in range(len(game.players)) if not game.eliminated[seat]]
    problem = _stock_out_problem(game) or deal_problem(game, live)
    if problem is not None:
        return problem
    if game.phase == "game_over" or game.phase == "hand_over":
        # Between hands the hands are the ones the hand ended with, among its own players.
        seats = game.results[-1].seats
        return unopened_hand_problem(game, seats, None) or turn_order_problem(game, seats)
    return (
        unopened_hand_problem(game, live, None if view else game._undo)
        or first_turn_pile_problem(game)
        or turn_order_problem(game, live)
    )


def _stock_out_problem(game: Game) -> str | None:
    """Why the stock is marked run out where play never marks it: only a draw that leaves the stock empty
    does, under ``stock_exhausted: end_hand`` (the other rules reshuffle the discard pile into a new
    stock), and the hand ends with that turn."""
    if not game.stock_ran_out:
        return None
    rule = game.variant.stock_exhausted
    if rules.reshuffles_discards(game.variant):
        reshuffles = "it reshuffles the discard pile"
        return f"the stock is marked run out, which stock_exhausted: {rule} never does ({reshuffles})"
    if game.stock:
        return f"the stock is marked run out, but it holds {len(game.stock)} cards"
    if game.phase == "draw":
        return "the stock is marked run out, but the hand waits for another draw"
    return None


def _elimination_problem(game: Game) -> str | None:
    """Why a player out of the game is not one play puts out: a player is eliminated by reaching the goal,
    and penalty totals never go down (asked last, so a state wrong in more ways is named as before)."""
    goal = game.variant.goal_score
    for seat, out in enumerate(game.eliminated):
        if out and game.totals[seat] < goal:
            total = f"their total ({game.totals[seat]}) has not reached the goal ({goal})"
            return f"{seat_named(game, seat)} is out of the game, but {total}"
    return None


def _result_problem(result: Any, index: int, count: int) -> str | None:
    if result.number != index + 1:
        return f"hand results are out of order (result {index + 1} is hand {result.number})"
    lists = (result.hand_points, result.scores)
    if any(len(values) != count for values in lists) or any(seat >= count for seat in result.seats):
        return f"hand {result.number}'s result does not match the table"
    if result.winner is not None and result.winner not in result.seats:
        return f"hand {result.number}'s winner was not playing"
    return None


def _seats_problem(game: Game, result: Any) -> str | None:
    """Why a hand's seats are not the players it was dealt to: those still in the game then, in seat order,
    two at least (the game ends once fewer are left). No one out of the game comes back, so each seat still
    in it now was dealt every hand."""
    seats = list(result.seats)
    if seats != sorted(set(seats)):
        return f"hand {result.number}'s seats repeat or are out of seat order"
    for seat in range(len(game.players)):
        if seat not in seats and not game.eliminated[seat]:
            return f"hand {result.number} was not dealt to {seat_named(game, seat)}, who is still in the game"
    if len(seats) < 2:
        return f"hand {result.number} was dealt to one player, but a hand is dealt to two at least"
    return None


def _scores_problem(result: Any, variant: Variant) -> str | None:
    """Why a hand's scores are not the ones its end, its winner and its hand points make
    (:func:`~kalooki.rules.hand_scores`): only a hand won by going out scores, and only such a hand may
    be Kalooki."""
    if (result.winner is not None) != (result.end == "went_out") or (
        result.kalooki and result.winner is None
    ):
        return f"hand {result.number} ended {result.end}, which its winner and Kalooki do not fit"
    scores = rules.hand_scores(variant, result.winner, result.kalooki, result.hand_points, result.seats)
    if list(result.scores) != scores:
        return f"hand {result.number}'s scores are not what its hand points make"
    return None


def _goal_reached(game: Game, live: list[int]) -> bool:
    return any(game.totals[seat] >= game.variant.goal_score for seat in live)


def _game_over_problem(game: Game, live: list[int]) -> str | None:
    variant = game.variant
    winners = game.winners
    if not winners or len(set(winners)) != len(winners) or any(seat not in live for seat in winners):
        return "the game is over, but its winners are not players still at the table"
    if variant.elimination:
        if len(live) > 1 and not _goal_reached(game, live):
            return "the game is over, but more than one player is left"
        return None
    if not _goal_reached(game, live):
        return "the game is over, but nobody has reached the goal"
    totals = [game.totals[seat] for seat in live]
    best = min(totals) if variant.scoring == "penalty" else max(totals)
    if any(game.totals[seat] != best for seat in winners):
        return "the game is over, but its winners do not have the best totals"
    return None


def _hand_problem(game: Game, live: list[int], stand_ins: frozenset[int]) -> str | None:
    from kalooki.engine import IllegalMoveError
    from kalooki.melds import saved_meld_problem

    variant = game.variant
    if game.current not in live or game.first_seat not in live:
        return "the player to move (or the hand's first player) is not at the table"
    if not 1 <= game.turn_number <= game.turn_limit:
        return f"turn {game.turn_number} is outside 1 to {game.turn_limit}"
    # Where a turn may end without a discard, each earlier turn of the hand may have added a card to a hand.
    kept = game.turn_number - 1 if rules.may_end_without_discard(variant) else 0
    for seat, hand in enumerate(game.hands):
        most = variant.hand_size + kept + (1 if seat == game.current and game.phase == "play" else 0)
        if seat not in live and hand:
            return f"{seat_named(game, seat)} is out of the game but holds cards"
        if seat in live and not 1 <= len(hand) <= most:
            return (
                f"{seat_named(game, seat)} holds {len(hand)} cards, which play cannot lead to (1 to {most})"
            )
    problem = _opened_problem(game, game.table, game.opened, live)
    if problem is not None:
        return problem
    for meld in game.table:
        problem = _layers_problem(meld, game, live)
        if problem is not None:
            return problem
    turn = game.turn
    unseen = game.current in stand_ins
    # A table's view (its other seats stand-ins) carries no undo snapshot: shadow_game stands one in that
    # holds the turn as it is now, so only that it holds the turn's cards is asked of it.
    view = bool(stand_ins)
    snapshot = None if view else game._undo
    problem = debt_problem(game, unseen) or turn_record_problem(game, snapshot, view=view)
    if problem is not None:
        return problem
    if game.phase == "draw":
        if turn.drew is not None or turn.drawn_card is not None or game._undo is not None:
            return "the player to move has drawn already, but the game waits for a draw"
        try:
            # Under meld_at_once whether the top discard may be taken depends on the hand: unseen, it may.
            drawable = bool(game.stock) or (
                rules.may_draw_discard(variant, game.opened[game.current], game.discard_pile[-1], None)
                if unseen and game.discard_pile
                else game._discard_draw_allowed()
            )
        except IllegalMoveError:
            drawable = False
        if not drawable:
            return "the player to move has no card to draw"
        return None
    if turn.drew is None:
        return "the player to move has not drawn, but the game waits for a play"
    drawn = drawn_card_problem(game, unseen)
    if drawn is not None:
        return drawn
    undo = game._undo
    if undo is not None:
        before = Counter(undo.hand) + Counter(card for meld in undo.table for card in meld.cards)
        now = Counter(game.hands[game.current]) + Counter(card for meld in game.table for card in meld.cards)
        if before != now:
            return "the turn's undo snapshot does not hold the same cards as the turn"
        for meld in undo.table:
            problem = saved_meld_problem(meld, variant) or _layers_problem(meld, game, live)
            if problem is not None:
                return f"the turn's undo snapshot: {problem}"
        # Undo puts back the table and whether the player to move had opened: they must agree as well.
        opened = [undo.opened if seat == game.current else flag for seat, flag in enumerate(game.opened)]
        problem = _opened_problem(game, undo.table, opened, live) or laid_problem(
            game, undo.turn.laid, undo.table, None if view else len(undo.table)
        )
        if problem is not None:
            return f"the turn's undo snapshot: {problem}"
        # Undo puts back the turn's record too: its draw, card owed and start, which no lay changes.
        if unchanged_by_laying(undo.turn) != unchanged_by_laying(turn):
            return (
                "the turn's undo snapshot records another draw, card owed or start of the turn than the turn"
            )
        if snapshot is not None:
            return snapshot_problem(game, snapshot)
    return None


def _opened_problem(
    game: Game, table: Sequence[TableMeld], opened: Sequence[bool], live: list[int]
) -> str | None:
    """Why who has opened does not match whose melds lie on ``table``: a player opens by laying melds of
    their own, and in a hand no meld leaves the table nor changes its owner (builds and joker swaps keep
    it), so a player has opened exactly when a meld on the table is theirs."""
    owners = {meld.owner for meld in table}
    if any(owner not in live or not opened[owner] for owner in owners):
        return "a meld on the table belongs to a player who has not opened"
    for seat, flag in enumerate(opened):
        if flag and seat not in owners:
            return f"{seat_named(game, seat)} has opened, but no meld on the table is theirs"
    return None


def _layers_problem(meld: TableMeld, game: Game, live: list[int]) -> str | None:
    """Why a meld's ``joker_layers`` are none that play leads to: kept only where the variant asks, one
    per joker, not all the owner's (then it keeps none), each a seat in play that has opened."""
    layers = meld.joker_layers
    if not layers:
        return None
    if game.variant.joker_taker != BY_LAYER:
        return f"a meld records who laid its jokers, which joker_taker: {game.variant.joker_taker} never does"
    if len(layers) != meld.jokers or all(layer == meld.owner for layer in layers):
        return "a meld's joker layers do not match its jokers"
    if any(layer not in live or not game.opened[layer] for layer in layers):
        return "a joker on the table was laid by a player who has not opened"
    return None
