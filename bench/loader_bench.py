"""How long the YAML loader takes to reject hostile files and to load the largest accepted ones.

The tests check that hostile files are rejected without expanding anything; the time it
takes is measured here rather than asserted in the suite, where a busy machine would make
it flaky. Figures are CPU seconds of this process.
"""

from __future__ import annotations

import statistics
import time

from bench import BenchResult, Options, register
from kalooki.yamlio import MAX_BYTES, YamlError, load_yaml_text

ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(8)
)

CASES: dict[str, tuple[str, bool]] = {
    "alias_bomb": (ALIAS_BOMB, False),
    "nested_brackets": ("a: " + "[" * 60000, False),
    "nested_mappings": ("a: " + "{b: " * 16000, False),
    "many_errors": ("".join(f"k: {i}\n" for i in range(9000))[: MAX_BYTES - 10], False),
    "largest_flow_list": ("a: [" + ",".join("1" for _ in range(32000)) + "]\n", True),
    "largest_mapping": ("".join(f"k{i}: {i}\n" for i in range(5400)), True),
}


def _time_once(text: str, accepted: bool) -> float:
    start = time.process_time()
    try:
        load_yaml_text(text, "bench.yaml")
    except YamlError:
        if accepted:
            raise
    else:
        if not accepted:
            raise AssertionError("a hostile file was accepted")
    return time.process_time() - start


@register("loader")
def bench_loader(options: Options) -> BenchResult:
    repeats = 2 if options.quick else 7
    results: dict[str, float] = {}
    for name, (text, accepted) in CASES.items():
        times = [_time_once(text, accepted) for _ in range(repeats)]
        results[f"{name}_median_ms"] = round(statistics.median(times) * 1000, 2)
    results["alias_bomb_bytes"] = len(ALIAS_BOMB.encode())
    return results
