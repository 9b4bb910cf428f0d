"""Game scripts a user hands ``kalooki play``: what cannot be read is said as such, with --json too."""

from __future__ import annotations

from pathlib import Path

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

runner = CliRunner()

SCRIPT = "variant: classic\nplayers: [ann, bob]\nseed: 7\n"


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (
            SCRIPT.encode("utf-16"),
            "{file}:1:1: not UTF-8 text: byte 0xFF; save the file as UTF-8 "
            "(it is UTF-16, which some editors call Unicode)",
        ),
        (b"", "{file}:1:1: the file is empty: write a key and its value on each line (key: value)"),
        (
            b"# players: [ann, bob]\n",
            "{file}:1:1: the file holds only comments: write a key and its value on each line (key: value), "
            "without a '#' before it",
        ),
    ],
)
def test_a_script_that_cannot_be_read_is_said_so_with_json_as_without(
    content: bytes, said: str, tmp_path: Path
) -> None:
    # With --json, a script saved as UTF-16 was a usage error: "--json reports a game script's result:
    # give a script to play", which it was.
    path = tmp_path / "game.yaml"
    path.write_bytes(content)
    for json_option in ([], ["--json"]):
        result = runner.invoke(app, ["play", str(path), *json_option], input="quit\n")
        assert result.exit_code == 1, result.output
        assert result.stderr == said.format(file=path) + "\n"
        assert result.stdout == ""


def test_json_with_a_variant_file_is_still_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "friday.yaml"
    path.write_text("jokers: 4\n", encoding="utf-8")
    result = runner.invoke(app, ["play", str(path), "--json"])
    assert result.exit_code == 2, result.output
    assert "--json reports a game script's result: give a script to play" in result.output


def test_a_refused_move_of_a_page_is_quoted_clipped_on_its_one_line(tmp_path: Path) -> None:
    # The whole 60,000-character move was quoted in the refusal's line.
    move = "meld " + " ".join(["2H"] * 20000)
    path = tmp_path / "game.yaml"
    path.write_text(f"{SCRIPT}hands:\n  - moves:\n      - ann: {move}\n", encoding="utf-8")
    result = runner.invoke(app, ["play", str(path)])
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines()[-1] == (
        f"{path}:6:14: hand 1, move 1 (ann: {move[:79]}…): ann must draw first: draw stock or draw discard"
    )


def test_a_script_with_its_keys_capitalised_is_told_them_as_a_scripts(tmp_path: Path) -> None:
    # Read as a variant, it was told "Players: unknown key 'Players'; did you mean 'max_players'?", a knob.
    path = tmp_path / "game.yaml"
    path.write_text("Players: [ann, bob]\nHands: []\n", encoding="utf-8")
    result = runner.invoke(app, ["play", str(path)])
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines() == [
        f"{path}:1:1: players: is required",
        f"{path}:1:1: Players: unknown key 'Players'; did you mean 'players'?",
        f"{path}:2:1: Hands: unknown key 'Hands'; did you mean 'hands'?",
    ]
    assert runner.invoke(app, ["play", str(path), "--json"]).exit_code == 1  # a script's, not a usage error


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (
            "variant: classic\nplayer: [ann, bob]\n",
            [
                "{file}:1:1: players: is required",
                "{file}:2:1: player: unknown key 'player'; did you mean 'players'?",
            ],
        ),
        ("variant: classic\nseed: 7\n", ["{file}:1:1: players: is required"]),
    ],
)
def test_a_script_with_its_players_misspelt_or_left_out_is_told_so_as_a_scripts(
    content: str, said: list[str], tmp_path: Path
) -> None:
    # Read as a variant, it was told "variant: unknown key 'variant'; did you mean 'extends'?" and
    # "player: unknown key 'player'; did you mean 'max_players'?": nothing about the script's mistake.
    path = tmp_path / "game.yaml"
    path.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["play", str(path)])
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines() == [line.format(file=path) for line in said]


@pytest.mark.parametrize(
    "content",
    [
        "variant: classic\njokers: 4\n",
        "variant: classic\n",
        # A knob misspelt is a variant's mistake, told with its did-you-mean, not a script missing players.
        "variant: classic\nopening_treshold: 40\n",
        "variant: classic\njoker: 4\n",
        "variant: classic\nrules:\n  jokers: 4\n",
    ],
)
def test_a_variant_file_with_variant_written_for_extends_is_still_read_as_a_variant(
    content: str, tmp_path: Path
) -> None:
    path = tmp_path / "friday.yaml"
    path.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1, result.output
    assert (
        result.stderr.splitlines()[0]
        == f"{path}:1:1: variant: unknown key 'variant'; did you mean 'extends'?"
    )


@pytest.mark.parametrize(
    ("players", "said"),
    [
        ("ann, bob", "players: expected a list, got 'ann, bob': write it in brackets, [ann, bob]"),
        ('"ann, bob"', "players: expected a list, got 'ann, bob'"),  # quoted: text meant as text
    ],
)
def test_players_written_without_brackets_are_told_to_put_them_in_brackets(
    players: str, said: str, tmp_path: Path
) -> None:
    # `players: ann, bob` was told "expected a list, got 'ann, bob'", and not how a list is written.
    path = tmp_path / "game.yaml"
    path.write_text(f"variant: classic\nplayers: {players}\n", encoding="utf-8")
    result = runner.invoke(app, ["play", str(path)])
    assert result.exit_code == 1, result.output
    assert result.stderr == f"{path}:2:10: {said}\n"


def test_moves_written_on_one_line_are_told_to_take_a_line_each_not_brackets(tmp_path: Path) -> None:
    # Told "write it in brackets, [ann draw stock, ann discard 5H]", which then failed as no moves.
    path = tmp_path / "game.yaml"
    path.write_text("players: [ann, bob]\nhands:\n  - moves: ann draw stock, ann discard 5H\n", "utf-8")
    result = runner.invoke(app, ["play", str(path)])
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        f"{path}:3:12: hands[0].moves: expected a list, got 'ann draw stock, ann discard 5H': write each "
        "item on a line of its own below, after '- '\n"
    )
