"""What the tests of ``kalooki sweep`` share: the command run in this process, and its JSON less what
changes from run to run."""

from __future__ import annotations

from typing import Any

from kalooki_cli.app import app
from typer.testing import CliRunner

runner = CliRunner()


def sweep(*args: str) -> tuple[int, str, str]:
    """``kalooki sweep ARGS``: its exit code, standard output and standard error."""
    result = runner.invoke(app, ["sweep", *args])
    return result.exit_code, result.stdout, result.stderr


def stable(data: dict[str, Any]) -> dict[str, Any]:
    """A sweep's JSON less what depends on the run rather than the games (time, workers, resumed cells)."""
    drop = {"seconds", "workers", "games_per_second", "scheduler", "resumed_cells"}
    out = {key: value for key, value in data.items() if key not in drop}
    out["cells"] = [{k: v for k, v in cell.items() if k not in drop} for cell in data["cells"]]
    return out
