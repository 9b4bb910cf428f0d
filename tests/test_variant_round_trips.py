"""A variant written out as YAML (``kalooki variants show``, ``kalooki new``) loads back as the same rules;
scalars round-trip; two variants' differences are listed knob by knob."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from kalooki.loader import (
    load_variant,
    load_variant_text,
    resolve_variant,
)
from kalooki.variant import KNOB_NAMES, Variant
from kalooki.variant_writer import variant_differences, variant_to_yaml, yaml_scalar
from kalooki.yamlio import load_yaml_text

BUILTINS = ["classic", "kaluki-51", "romanian", "czech-500", "czech-300", "kalooki-40", "house-rules"]


def test_show_output_is_a_complete_variant_that_loads_back(tmp_path: Path) -> None:
    for name in BUILTINS:
        resolved = resolve_variant(name)
        text = variant_to_yaml(resolved.variant, resolved.origins)
        assert "# classic default" in text or name != "classic"
        copy = load_variant_text(text, f"{name}.yaml")
        assert copy.model_dump(exclude={"extends"}) == resolved.variant.model_dump(exclude={"extends"})


TRICKY_STRINGS = [
    *("yes", "no", "On", "0250", "1:30", "0x1F", "true", "null", "", " padded ", "a: b", "# hash"),
    *("tab\there", "line\nbreak", 'quote"s', "back\\slash", "日本語", "\x00\x7f\x85\u2028"),
    *("-", "- item", "[x]", "@at", "12"),
]


@pytest.mark.parametrize("text", TRICKY_STRINGS)
def test_yaml_scalar_round_trips_strings(text: str) -> None:
    assert load_yaml_text(f"k: {yaml_scalar(text)}\n", "f.yaml").data["k"] == text


KNOB_STRATEGIES: dict[str, st.SearchStrategy[Any]] = {
    "decks": st.integers(0, 5),
    "jokers": st.integers(-1, 9),
    "hand_size": st.integers(0, 40),
    "min_players": st.integers(1, 9),
    "max_players": st.integers(1, 9),
    "ace_value": st.integers(-1, 20),
    "joker_penalty": st.integers(-1, 100),
    "run_minimum": st.integers(2, 14),
    "opening_threshold": st.integers(-1, 200),
    "kalooki_bonus": st.integers(-1, 100),
    "goal_score": st.integers(0, 10_000),
    "ace_low_value": st.none() | st.integers(-1, 20),
    "set_maximum": st.integers(2, 10),
}


def _knob_strategy(name: str) -> st.SearchStrategy[Any]:
    if name in KNOB_STRATEGIES:
        return KNOB_STRATEGIES[name]
    annotation = Variant.model_fields[name].annotation
    if annotation is bool:
        return st.booleans()
    return st.sampled_from(list(annotation.__args__))  # type: ignore[union-attr]


variant_data = st.fixed_dictionaries(
    {},
    optional={
        "name": st.text(min_size=1, max_size=30),
        "description": st.text(max_size=60),
        **{name: _knob_strategy(name) for name in KNOB_NAMES},
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant_data)
def test_any_valid_variant_round_trips_through_yaml(data: dict[str, Any]) -> None:
    try:
        variant = Variant.model_validate(data)
    except ValidationError:
        return
    text = variant_to_yaml(variant)
    assert load_variant_text(text, "generated.yaml") == variant
    # The origin comments do not change what the file says.
    assert load_variant_text(variant_to_yaml(variant, {}), "generated.yaml") == variant


def test_variant_differences() -> None:
    assert variant_differences(load_variant("czech-500"), load_variant("czech-300")) == [
        ("goal_score", 500, 300)
    ]
