"""Which pager ``kalooki rules`` pages a long rulebook through on a terminal, and when none."""

from __future__ import annotations

import io

import pytest
from kalooki_cli import pager
from rich.console import Console
from rich.text import Text


def test_the_pager_is_kalooki_pager_else_pager_else_less(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pager.shutil, "which", lambda name: f"/usr/bin/{name}")
    assert pager.pager_command({"KALOOKI_PAGER": "most -s", "PAGER": "more"}) == ["most", "-s"]
    assert pager.pager_command({"PAGER": "less -S"}) == ["less", "-S"]
    assert pager.pager_command({}) == ["less"]
    monkeypatch.setattr(pager.shutil, "which", lambda name: None)
    assert pager.pager_command({}) is None  # no less installed: printed as it is


@pytest.mark.parametrize("setting", [{"KALOOKI_PAGER": "cat"}, {"PAGER": ""}, {"KALOOKI_PAGER": "less 'x"}])
def test_cat_an_empty_pager_or_one_that_is_no_command_turn_paging_off(setting: dict[str, str]) -> None:
    assert pager.pager_command({**setting, "PAGER": setting.get("PAGER", "less")}) is None


def test_nothing_is_paged_on_a_dumb_terminal_nor_what_fits_the_screen() -> None:
    console = Console(file=io.StringIO(), force_terminal=True, width=40, height=5)
    many = Text("\n".join(f"line {number}" for number in range(10)))
    assert not pager.page(console, many, {"PAGER": "no-such-pager-anywhere", "TERM": "dumb"})
    assert not pager.page(console, Text("one\ntwo"), {"PAGER": "no-such-pager-anywhere"})
    # A pager that cannot be started: the caller prints the text itself.
    assert not pager.page(console, many, {"PAGER": "no-such-pager-anywhere"})
    assert console.file.getvalue() == ""  # type: ignore[attr-defined]
