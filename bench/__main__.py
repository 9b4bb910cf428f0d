"""Run the benches: ``python -m bench [NAME ...] [--quick] [--seed S] [--games N] [--cells N] [--out DIR]``.

``--list`` lists them. Each writes ``DIR/NAME.json`` with the command that made it; a long bench
also writes what it has measured so far, marked ``partial``, so a run stopped early keeps it.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import pkgutil
import platform
import sys
import time
from pathlib import Path

from bench import REGISTRY, BenchResult, Options

BENCH_DIR = Path(__file__).resolve().parent
RESULTS_DIR = BENCH_DIR / "results"


def bench_modules() -> list[str]:
    """Every ``bench/*_bench.py``: each registers its benches on import, so adding one needs no edit here."""
    found = pkgutil.iter_modules([str(BENCH_DIR)])
    return sorted(f"bench.{info.name}" for info in found if info.name.endswith("_bench"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("names", nargs="*", help="benches to run (default: all)")
    parser.add_argument("--quick", action="store_true", help="a small run to check the benches work")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, help="games per run or per cell (the benches that take it)")
    parser.add_argument("--cells", type=int, help="how many of a sweep bench's cells to play (the first)")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR, help="where the JSON results go")
    parser.add_argument("--list", action="store_true", help="list the benches and exit")
    args = parser.parse_args(argv)
    for module in bench_modules():
        importlib.import_module(module)
    if args.list:
        print("\n".join(sorted(REGISTRY)))
        return 0
    unknown = [name for name in args.names if name not in REGISTRY]
    if unknown:
        parser.error(f"unknown bench(es): {', '.join(unknown)}; known: {', '.join(sorted(REGISTRY))}")
    args.out.mkdir(parents=True, exist_ok=True)
    command = " ".join(["python -m bench", *(sys.argv[1:] if argv is None else argv)])
    for name in args.names or sorted(REGISTRY):
        print(f"== {name}", flush=True)
        path = args.out / f"{name}.json"
        header = {
            "bench": name,
            "command": command,
            "quick": args.quick,
            "seed": args.seed,
            "python": platform.python_version(),
            "machine": platform.machine(),
        }
        save = functools.partial(_save, path, header, time.perf_counter())
        options = Options(
            quick=args.quick,
            seed=args.seed,
            games=args.games,
            cells=args.cells,
            checkpoint=functools.partial(save, partial=True),
        )
        result = save(REGISTRY[name](options))
        for key, value in result.items():
            if not isinstance(value, (dict, list)):
                print(f"   {key}: {value}")
        for target in result.get("targets", []):
            print(f"   * {target['line']}")
        print(f"   -> {path}", flush=True)
    return 0


def _save(
    path: Path, header: BenchResult, started: float, result: BenchResult, partial: bool = False
) -> BenchResult:
    """Write a bench's result under its header; a partial one (a checkpoint) says so."""
    result = {
        **header,
        "seconds": round(time.perf_counter() - started, 3),
        **({"partial": True} if partial else {}),
        **result,
    }
    path.write_text(json.dumps(result, indent=2) + "\n")
    return result


if __name__ == "__main__":
    sys.exit(main())
