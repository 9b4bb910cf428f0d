"""kalooki used as a library, by a developer writing a bot: what it refuses, and in which words."""

from __future__ import annotations

import random

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

from kalooki.bots import BotFailedError, base, make_bot, register


class NoChoose:
    name = "nochoose"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng


@pytest.fixture(autouse=True)
def own_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    monkeypatch.setattr(base, "_BROKEN", {})


def test_a_bot_with_no_choose_is_refused_in_one_line_not_a_traceback() -> None:
    # It was an AttributeError from the protocol check, a traceback in every command.
    register("nochoose", NoChoose)  # type: ignore[arg-type]  # the fault under test
    register("fortytwo", lambda rng: 42)  # type: ignore[arg-type,return-value]
    said = (
        "the bot 'nochoose' could not be made: its factory gave a NoChoose, "
        "which has no choose(view, legal) to call (see docs/bots.md)"
    )
    with pytest.raises(BotFailedError) as caught:
        make_bot("nochoose", random.Random(0))
    assert str(caught.value) == said
    with pytest.raises(BotFailedError) as caught:
        make_bot("fortytwo", random.Random(0))
    assert "its factory gave an int, which has no choose(view, legal)" in str(caught.value)
    result = CliRunner().invoke(app, ["simulate", "-n", "2", "-w", "1", "--bots", "nochoose,greedy"])
    assert (result.exit_code, result.stderr) == (1, said + "\n")
    result = CliRunner().invoke(app, ["play", "--players", "2", "--bots", "nochoose"], input="quit\n")
    assert (result.exit_code, result.stderr, result.stdout) == (1, said + "\n", "")
