"""The table no option sized: the most players the variant's pack seats, up to the usual four, as
``kalooki rules`` states; a usage error only where an option the user gave asks for too many."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kalooki_cli.app import app
from kalooki_cli.net_commands import make_table
from sweep_helpers import sweep
from typer.testing import CliRunner

from kalooki import rules
from kalooki.variant import Variant

# One pack, no jokers, no upcard: four hands of 13 are the whole pack, so the pack seats three.
ONE_PACK = "extends: classic\ndecks: 1\njokers: 0\nupcard: false\n"
NOTE = " (4 players would be dealt the whole pack, leaving no stock)"


@pytest.fixture
def one_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d1.yaml").write_text(ONE_PACK)
    return "d1.yaml"


def test_the_default_is_the_most_the_pack_seats_up_to_four() -> None:
    assert rules.default_players(Variant(decks=1, jokers=0, upcard=False)) == 3
    assert rules.default_players(Variant()) == 4
    assert rules.default_players(Variant(max_players=3)) == 3
    assert rules.default_players(Variant(min_players=5, max_players=6, hand_size=7)) == 5


@pytest.mark.parametrize("bots", [[], ["--bots", "greedy"]])
def test_play_seats_three_where_the_pack_seats_three(one_pack: str, bots: list[str]) -> None:
    # It refused ("Invalid value for '--players': d1 is for 2 to 3 players") with no --players given.
    result = CliRunner().invoke(app, ["play", one_pack, *bots, "--seed", "1", "--fast"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "You against bob (greedy bot), cid (greedy bot)." in result.output


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--players", "4"], f"Invalid value for '--players': d1 is for 2 to 3 players{NOTE}"),
        (
            ["--bots", "greedy,random,expert"],
            f"Invalid value for '--bots': 3 bots and you make 4 players, but d1 is for 2 to 3 players{NOTE}",
        ),
    ],
)
def test_play_refusing_too_many_says_why_the_pack_seats_fewer(
    one_pack: str, options: list[str], said: str
) -> None:
    result = CliRunner().invoke(app, ["play", one_pack, *options])
    assert result.exit_code == 2
    assert said in " ".join(result.output.split())


def test_simulate_seats_three_bots_where_the_pack_seats_three(one_pack: str) -> None:
    # It failed, exit 1: "4 bots: d1 is for 2 to 3 players (...)", though no bots were named.
    result = CliRunner().invoke(app, ["simulate", one_pack, "--games", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["bots"] == ["greedy"] * 3


def test_host_opens_three_seats_where_the_pack_seats_three(one_pack: str) -> None:
    # It blamed '--seats' / '--players', neither of them given.
    table = make_table(one_pack, [], seats=None, bots=None, seed=1, wait=0)
    assert len(table.seats) == 3
    with pytest.raises(Exception, match=r"d1 is for 2 to 3 players \(4 players would be"):
        make_table(one_pack, [], seats=4, bots=None, seed=1, wait=0)


def test_a_sweep_seats_what_every_cell_seats(one_pack: str) -> None:
    code, out, err = sweep(one_pack, "--grid", "goal_score=100,150", "-n", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["bots"] == ["greedy"] * 3
    code, out, err = sweep("classic", "--grid", "max_players=4,3", "-n", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["bots"] == ["greedy"] * 3


def test_a_sweep_names_the_first_cell_that_cannot_seat_the_players(one_pack: str) -> None:
    # It named the second cell (goal_score=150), though the first could not seat four either.
    code, _, err = sweep(one_pack, "--grid", "goal_score=100,150", "--players", "4", "-n", "1")
    assert code == 2
    assert " ".join(err.split()).endswith(
        f"Invalid value for '--players': d1 with goal_score=100 is for 2 to 3 players{NOTE}"
    )
    code, _, err = sweep("classic", "--set", "max_players=6", "--grid", "min_players=2,5", "-n", "1")
    assert code == 2
    assert " ".join(err.split()).endswith(
        "Invalid value for '--grid': 4 players, but classic with min_players=5 is for 5 to 6 players: "
        "every cell seats the same players, and no count seats them all"
    )
