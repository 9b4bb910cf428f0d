"""A sweep's saved cells, changed after they were written: refused in one line, never counted.

``sweep --out DIR`` reads back the cells a run saved, so a second run plays only what is
missing. What it reads is counted into figures seat by seat; a planted record (a seat past the
table, text where a count was, a stall of the wrong shape) must be refused when it is read,
not fail halfway through the report with a traceback.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kalooki_cli.app import app
from typer.testing import CliRunner

from kalooki.loader import load_variant
from kalooki.simulate import simulate
from kalooki.simulation_stats import summarise
from kalooki.stalls import stalled_hands
from kalooki.sweep import record_from_json, record_to_json

SWEEP = ["sweep", "classic", "--grid", "jokers=2,4", "-n", "2", "--max-turns", "5", "--seed", "3"]
"""Hands stopped at five turns: every saved hand carries its stall."""


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sweep") / "lab"
    result = CliRunner().invoke(app, [*SWEEP, "--out", str(folder)])
    assert result.exit_code == 0, result.output
    return folder


def cell(folder: Path) -> Path:
    return folder / "cells" / "cell-000.json"


def planted(saved: Path, tmp_path: Path, change: Any) -> Path:
    folder = tmp_path / "lab"
    shutil.copytree(saved, folder)
    data = json.loads(cell(folder).read_text())
    change(data["records"][0])
    cell(folder).write_text(json.dumps(data))
    return folder


def set_at(*where: int | str, value: Any) -> Any:
    def change(record: list[Any]) -> None:
        target: Any = record
        for step in where[:-1]:
            target = target[step]
        target[where[-1]] = value

    return change


CHANGES = {
    "a seat past the table": set_at(2, 0, 4, 0, value=7),
    "a winner past the table": set_at(4, value=[9]),
    "text for a hand's turns": set_at(2, 0, 3, value="x"),
    "a count below zero": set_at(2, 0, 8, value=-1),
    "a flag that is a number": set_at(5, value=1),
    "a stall's turns as text": set_at(2, 0, 10, 0, value="x"),
    "a stall of the wrong length": set_at(2, 0, 10, value=[1, 2]),
    "a stall's seats past the table": set_at(2, 0, 10, 3, value=[0, 5]),
    "a hand of twelve fields": set_at(2, 0, value=[0] * 12),
    "scores for three seats of four": set_at(2, 0, 6, value=[1, 2, 3]),
    "totals for five seats": set_at(3, value=[0, 0, 0, 0, 0]),
    "a record that is a mapping": set_at(2, value={"hands": []}),
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_a_planted_cell_is_refused_in_one_line(saved: Path, tmp_path: Path, change: Any) -> None:
    folder = planted(saved, tmp_path, change)
    result = CliRunner().invoke(app, [*SWEEP, "--out", str(folder), "--json"])
    assert result.exit_code == 1
    again = "remove it and run the same command again to play that cell again"
    assert result.stderr == f"{cell(folder)}: not a saved sweep cell; {again}\n"
    assert result.stdout == ""


def test_the_cells_as_saved_are_read_back(saved: Path, tmp_path: Path) -> None:
    folder = planted(saved, tmp_path, lambda record: None)
    result = CliRunner().invoke(app, [*SWEEP, "--out", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["resumed_cells"] == 2


RECORDS = [
    record_to_json(record)
    for record in simulate(load_variant("classic"), ["greedy"] * 4, 2, seed=3, workers=1, max_turns=5).records
]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 9) | st.text(max_size=2),
    lambda inner: st.lists(inner, max_size=4),
    max_leaves=6,
)


def places(value: Any, where: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Every place in a record's lists, leaves and lists alike."""
    found = [where] if where else []
    if isinstance(value, list):
        for index, item in enumerate(value):
            found += places(item, (*where, index))
    return found


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_record_changed_anywhere_is_refused_or_counted_without_failing(data: st.DataObject) -> None:
    record = copy.deepcopy(data.draw(st.sampled_from(RECORDS)))
    where = data.draw(st.sampled_from(places(record)))
    target = record
    for step in where[:-1]:
        target = target[step]
    target[where[-1]] = data.draw(JSON_VALUES)
    try:
        read = record_from_json(record)
    except (TypeError, ValueError):
        return
    bots = ["greedy"] * len(read.totals)
    summary = summarise(load_variant("classic"), bots, 3, [read])
    json.dumps(summary.to_json(), allow_nan=False)
    stalled_hands([read], bots)


@pytest.mark.parametrize(
    ("seed", "said"),
    [
        ("3", 'seed "3" there, 3 here'),
        ("a\nb", 'seed "a\\nb" there, 3 here'),
        ("x" * 500, 'seed "' + "x" * 193 + "…"),
    ],
)
def test_a_changed_sweep_json_is_said_in_one_short_line(
    saved: Path, tmp_path: Path, seed: str, said: str
) -> None:
    # It was "seed 3 there, 3 here" for a seed written as text, a newline broke the line in two, and a
    # value of a page was quoted whole.
    folder = tmp_path / "lab"
    shutil.copytree(saved, folder)
    manifest = json.loads((folder / "sweep.json").read_text())
    manifest["seed"] = seed
    (folder / "sweep.json").write_text(json.dumps(manifest))
    result = CliRunner().invoke(app, [*SWEEP, "--out", str(folder)])
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        f"{folder}: holds a different sweep ({said}); give another --out folder, or remove this one\n"
    )
