"""A game script's expected refusals: ``refused:`` beside a move says the engine must refuse it.

They are read out of the document before the script's model checks its moves, so that a move with its
expectation is checked as any move is (its one player's name and command), and the model and its
messages stay those of a script without them.
"""

from __future__ import annotations

from typing import Any

from kalooki.yamlio import Diagnostic, YamlDocument
from kalooki.yamlscalars import describe_value

REFUSED = "refused"
"""The key beside a move that says the script expects the engine to refuse it."""


def take_refusals(
    document: YamlDocument,
) -> tuple[Any, dict[tuple[int, int], str], list[Diagnostic]]:
    """The document's data with each move's ``refused`` taken out of its entry, so that the entry is
    checked as any move is; the expectations by (hand, move) index, each as :attr:`ScriptMove.refused`
    has it; and the problems with their values. Only an entry of a player's move and ``refused`` is
    read so: an entry of two players' moves and ``refused`` is told it holds three."""
    data = document.data
    hands = data.get("hands") if isinstance(data, dict) else None
    if not isinstance(hands, list):
        return data, {}, []
    players = data.get("players")
    seated = [
        seat.get("name") if isinstance(seat, dict) else seat
        for seat in (players if isinstance(players, list) else [])
    ]
    refusals: dict[tuple[int, int], str] = {}
    problems: list[Diagnostic] = []
    new_hands: list[Any] = []
    for hand_index, hand in enumerate(hands):
        moves = hand.get("moves") if isinstance(hand, dict) else None
        if not isinstance(moves, list):
            new_hands.append(hand)
            continue
        new_moves: list[Any] = []
        for move_index, entry in enumerate(moves):
            if isinstance(entry, dict) and list(entry) == [REFUSED] and REFUSED not in seated:
                # 'refused: true' on a line of its own: told where it goes, not that a command is text
                # (the entry stands in as an empty one, which check_moves passes over).
                where = ("hands", hand_index, "moves", move_index, REFUSED)
                problems.append(
                    document.key_location(where).error(
                        f"'{REFUSED}' goes beside the move it is about, in the same entry "
                        f"(- ann: meld 7H 7S 7D, then '{REFUSED}: true' under 'ann' on the next line)"
                    )
                )
                new_moves.append({REFUSED: ""})
                continue
            if not (isinstance(entry, dict) and len(entry) == 2 and REFUSED in entry):
                new_moves.append(entry)
                continue
            value = entry[REFUSED]
            new_moves.append({key: command for key, command in entry.items() if key != REFUSED})
            if value is True:
                refusals[hand_index, move_index] = ""
            elif isinstance(value, str) and value.strip() and value.strip().lower() not in BOOLEAN_WORDS:
                refusals[hand_index, move_index] = " ".join(value.split())
            elif value is not False:  # false: the move is played, as without the key
                where = ("hands", hand_index, "moves", move_index, REFUSED)
                problems.append(document.location(where).error(_wrong_kind(value)))
        new_hands.append({**hand, "moves": new_moves})
    return {**data, "hands": new_hands}, refusals, problems


BOOLEAN_WORDS = frozenset({"yes", "no", "on", "off", "true", "false", "y", "n"})
"""Words meant as true or false, in quotes or not ('refused: yes' would expect a refusal saying "yes")."""
BOOLEAN_WORDS_PATTERN = (
    r"^\s*(?:"
    + "|".join("".join(f"[{c.upper()}{c}]" for c in word) for word in sorted(BOOLEAN_WORDS))
    + r")\s*$"
)
""":data:`BOOLEAN_WORDS` in any case, as a JSON Schema pattern (which has no flag for case)."""


def _wrong_kind(value: object) -> str:
    """The refusal of a ``refused`` value that is neither true nor words, in the words the loader uses."""
    if isinstance(value, str) and value.strip():
        if value.strip().lower() in ("yes", "on", "true", "y"):
            return f"'{value.strip()}' is text here: write true (lowercase, no quotes) for any refusal"
        return f"'{value.strip()}' is text here: write false (lowercase, no quotes), or leave the key out"
    return (
        "expected true, or words the refusal must hold (refused: worth 21 points), "
        f"got {'empty text' if isinstance(value, str) else describe_value(value)}"
    )
