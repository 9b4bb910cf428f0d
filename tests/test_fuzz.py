"""Fuzzing the three surfaces that take files from strangers, with a budget the suite can afford.

The same inputs and properties run for longer in ``python -m bench.fuzz`` (see tests/fuzz_inputs.py).
"""

from __future__ import annotations

import json

import pytest
from fuzz_inputs import (
    base_logs,
    base_saves,
    base_variants,
    check_log,
    check_save,
    check_variant,
    mangled_text,
    mutated,
    with_checksum,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

BUDGET = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


@BUDGET
@given(st.data())
def test_edited_saves_are_refused_in_one_line_or_play_on(data: st.DataObject) -> None:
    base = data.draw(st.sampled_from(base_saves()))
    check_save(with_checksum(data.draw(mutated(base))))


@BUDGET
@given(st.data())
def test_damaged_save_text_is_refused_in_one_line(data: st.DataObject) -> None:
    base = data.draw(st.sampled_from(base_saves()))
    assert check_save(data.draw(mangled_text(json.dumps(base)))) in ("refused", "loaded")


@BUDGET
@given(st.data())
def test_edited_logs_are_refused_or_replay(data: st.DataObject) -> None:
    records = data.draw(mutated(data.draw(st.sampled_from(base_logs()))))
    lines = [json.dumps(record) for record in records] if isinstance(records, list) else [json.dumps(records)]
    check_log(lines)


@BUDGET
@given(st.data())
def test_damaged_log_lines_are_refused_or_replay(data: st.DataObject) -> None:
    lines = [json.dumps(record) for record in data.draw(st.sampled_from(base_logs()))]
    index = data.draw(st.integers(0, len(lines) - 1))
    lines[index] = data.draw(mangled_text(lines[index]))
    check_log(lines)


@BUDGET
@given(data=st.data())
def test_mangled_variant_files_are_refused_cleanly_or_play(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    text = data.draw(mangled_text(data.draw(st.sampled_from(base_variants()))))
    check_variant(text, tmp_path_factory.getbasetemp())
