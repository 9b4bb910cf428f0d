"""A longer fuzz run than the suite's: ``python -m bench.fuzz [--seconds S] [--out FILE]``.

Feeds hostile saves, logs and variant files (the inputs and properties of ``tests/fuzz_inputs.py``)
to each surface for ``--seconds`` each, and reports per surface: inputs tried, how many were
refused or accepted, tracebacks (any exception but a clean refusal, or a broken property), hangs
(an input taking over ``--hang`` seconds), and the worst time and peak memory of one input.
Not a bench of ``make bench``: it runs for as long as it is told.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import tempfile
import time
import traceback
import tracemalloc
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

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
from hypothesis import strategies as st
from hypothesis.errors import NonInteractiveExampleWarning


class Hang(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise Hang


def inputs(surface: str, rng: random.Random) -> Callable[[], Any]:
    """A generator of one input for ``surface`` (hypothesis strategies drawn with ``example()``)."""
    if surface == "save":
        edited = st.sampled_from(base_saves()).flatmap(mutated).map(with_checksum)
        damaged = st.sampled_from(base_saves()).map(json.dumps).flatmap(mangled_text)
        return (edited | damaged).example
    if surface == "log":

        def lines(records: Any) -> list[str]:
            return (
                [json.dumps(item) for item in records] if isinstance(records, list) else [json.dumps(records)]
            )

        edited_log = st.sampled_from(base_logs()).flatmap(mutated).map(lines)
        return edited_log.example
    return st.sampled_from(base_variants()).flatmap(mangled_text).example


def run(surface: str, seconds: float, hang: float, folder: Path) -> dict[str, Any]:
    checks: dict[str, Callable[[Any], str]] = {
        "save": check_save,
        "log": check_log,
        "variant": lambda text: check_variant(text, folder),
    }
    check = checks[surface]
    draw = inputs(surface, random.Random(0))
    outcomes: Counter[str] = Counter()
    failures: list[dict[str, str]] = []
    worst_s = worst_mb = 0.0
    stop = time.monotonic() + seconds
    signal.signal(signal.SIGALRM, _alarm)
    while time.monotonic() < stop:
        example = draw()
        tracemalloc.start()
        started = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, hang)
        try:
            outcomes[check(example)] += 1
        except Hang:
            outcomes["hang"] += 1
            failures.append({"kind": "hang", "input": repr(example)[:300]})
        except Exception:
            outcomes["traceback"] += 1
            failures.append(
                {"kind": "traceback", "input": repr(example)[:300], "error": traceback.format_exc()[-800:]}
            )
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            elapsed = time.perf_counter() - started
            peak = tracemalloc.get_traced_memory()[1] / 1e6
            tracemalloc.stop()
        worst_s, worst_mb = max(worst_s, elapsed), max(worst_mb, peak)
    return {
        "inputs": sum(outcomes.values()),
        "outcomes": dict(outcomes),
        "tracebacks": outcomes["traceback"],
        "hangs": outcomes["hang"],
        "worst_s": round(worst_s, 3),
        "worst_peak_mb": round(worst_mb, 2),
        "failures": failures[:20],
    }


def main(argv: list[str] | None = None) -> int:
    import warnings

    warnings.simplefilter("ignore", NonInteractiveExampleWarning)
    parser = argparse.ArgumentParser(prog="python -m bench.fuzz", description=__doc__)
    parser.add_argument("--seconds", type=float, default=300, help="time per surface")
    parser.add_argument("--hang", type=float, default=10, help="seconds after which one input is a hang")
    parser.add_argument("--surfaces", default="save,log,variant")
    parser.add_argument("--out", type=Path, default=None, help="also write the report as JSON here")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        for surface in args.surfaces.split(","):
            report[surface] = run(surface, args.seconds, args.hang, Path(folder))
            summary = {key: value for key, value in report[surface].items() if key != "failures"}
            print(f"{surface}: {json.dumps(summary)}", flush=True)
            for failure in report[surface]["failures"][:3]:
                print(json.dumps(failure)[:1200], flush=True)
    if args.out is not None:
        args.out.write_text(json.dumps(report, indent=2) + "\n")
    failed = any(entry["tracebacks"] or entry["hangs"] for entry in report.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
