"""Fixtures shared by the test modules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from kalooki import solver

# Hypothesis fails an example that takes over 200 ms by default: a timed assertion, which a busy machine
# (CI, two test runs at once) trips now and then. Speed is the bench's to measure (make bench), not the
# suite's: no example has a deadline.
settings.register_profile("kalooki", deadline=None)
settings.load_profile("kalooki")


@pytest.fixture(params=["shortcuts", "search alone"])
def shortcuts(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each agreement test runs twice: as the solver answers, and with every hand sent to the search
    (no lay read off without it), so the search stays tested on the hands the shortcut answers."""
    if request.param == "search alone":
        monkeypatch.setattr(
            solver,
            "_best_lay",
            lambda problem, _table, keep, must, need: solver.search(problem, keep, must, need),
        )
        from solver_reference import read_as_melding

        read_as_melding(monkeypatch)


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test keeps kalooki's files (saves, the list of known saves) in a folder of its own, and so
    do the processes it starts: a test that forgot to name one wrote into the user's real folder."""
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path_factory.mktemp("kalooki-home")))


# The browser tests' fixtures, here so that each module of them finds them; browser_helpers is imported
# only when a test asks for one, as it skips the module where Playwright or Chromium is missing.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium driven by Playwright, one for a module of browser tests."""
    from browser_helpers import launched_chromium

    yield from launched_chromium()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the browser tests' screenshots go to."""
    from browser_helpers import screenshot_folder

    return screenshot_folder(tmp_path_factory)
