"""Run the benches: ``python -m bench [NAME ...] [--quick] [--seed S] [--out DIR] [--list]``."""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import platform
import sys
import time
from pathlib import Path

from bench import REGISTRY, Options

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
    options = Options(quick=args.quick, seed=args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.names or sorted(REGISTRY):
        print(f"== {name}", flush=True)
        started = time.perf_counter()
        result = REGISTRY[name](options)
        result = {
            "bench": name,
            "quick": options.quick,
            "seed": options.seed,
            "python": platform.python_version(),
            "machine": platform.machine(),
            "seconds": round(time.perf_counter() - started, 3),
            **result,
        }
        path = args.out / f"{name}.json"
        path.write_text(json.dumps(result, indent=2) + "\n")
        for key, value in result.items():
            if not isinstance(value, (dict, list)):
                print(f"   {key}: {value}")
        for target in result.get("targets", []):
            print(f"   * {target['line']}")
        print(f"   -> {path}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
