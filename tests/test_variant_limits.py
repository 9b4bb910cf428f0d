"""A variant's names may not be empty: its own, and each base it extends."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from kalooki.variant import Variant


@pytest.mark.parametrize("extends", ["", [""], ["classic", ""]])
def test_an_empty_base_name_is_refused(extends: object) -> None:
    with pytest.raises(ValidationError):
        Variant.model_validate({"extends": extends})
    assert Variant.model_validate({"extends": "x"}).extends == "x"


def test_an_empty_variant_name_is_refused() -> None:
    with pytest.raises(ValidationError):
        Variant(name="")
    assert Variant(name="a").name == "a"
