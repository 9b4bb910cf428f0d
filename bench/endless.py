"""Hands that never end: how many bot hands reach the turn limit, per variant, bot pair and table size.

``python -m bench.endless [--hands N] [--variants a,b] [--players 2,4] [--bots a,b] [--out FILE.jsonl]
[--budget S]``

For every built-in variant (or those named), every pair of built-in bots (each pair once, a bot
against itself included) and each table size, it plays seeded games until at least ``--hands``
hands have been played and counts the hands abandoned at the limit (``--max-turns``, the simulator's
default 1000). Two seats hold the pair; four seats alternate it (a, b, a, b). A table size the variant
does not seat is reported as skipped.

Each configuration is one line of JSON appended to ``--out``; its ``capped`` lists each hand that
reached the limit as ``[game, hand]`` (the game's index from 0, as ``kalooki simulate --csv``
numbers games, and the hand's number in it from 1), so the hand can be played again from its seed;
``kalooki simulate`` with the same variant, bots and seed says why each one never ended. A
configuration already in the file is not played again, so the run can be stopped and resumed in
bounded chunks (``--budget`` seconds per invocation) on a busy machine. It plays on one core. The
summary at the end reads the file.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

from kalooki.bots import bot_names
from kalooki.loader import builtin_variant_names, load_variant
from kalooki.simulate import DEFAULT_MAX_TURNS, game_seed, play_game

BUILTIN_BOTS = ("random", "greedy", "expert")


def configurations(
    variants: list[str], players: list[int], bots: tuple[str, ...] = BUILTIN_BOTS
) -> list[tuple[str, int, tuple[str, str]]]:
    pairs = list(combinations_with_replacement(bots, 2))
    return [(name, count, pair) for name in variants for count in players for pair in pairs]


def measure(
    name: str, count: int, pair: tuple[str, str], hands: int, seed: int, max_turns: int
) -> dict[str, Any]:
    variant = load_variant(name)
    key = {"variant": name, "players": count, "bots": list(pair), "seed": seed}
    if not variant.min_players <= count <= variant.max_players:
        return {**key, "skipped": f"{name} seats {variant.min_players}-{variant.max_players} players"}
    bots = [pair[seat % 2] for seat in range(count)]
    played = abandoned = games = turns = longest = 0
    capped: list[list[int]] = []
    started = time.perf_counter()
    while played < hands:
        record = play_game(variant, bots, game_seed(seed, games), games, max_turns)
        games += 1
        for number, hand in enumerate(record.hands, 1):
            played += 1
            abandoned += hand.end == "abandoned"
            if hand.end == "abandoned":
                capped.append([games - 1, number])
            turns += hand.turns
            longest = max(longest, hand.turns if hand.end != "abandoned" else 0)
    return {
        **key,
        "games": games,
        "hands": played,
        "abandoned": abandoned,
        "mean_turns": round(turns / played, 2),
        "longest_finished": longest,
        "capped": capped,
        "seconds": round(time.perf_counter() - started, 1),
    }


def done_keys(path: Path) -> set[tuple[str, int, tuple[str, ...], int]]:
    if not path.exists():
        return set()
    keys = set()
    for line in path.read_text().splitlines():
        row = json.loads(line)
        keys.add((row["variant"], row["players"], tuple(row["bots"]), row["seed"]))
    return keys


def summary(path: Path) -> str:
    rows = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    lines = ["variant       players bots             hands  abandoned  mean turns  longest finished"]
    for row in rows:
        bots = ",".join(row["bots"])
        if "skipped" in row:
            lines.append(f"{row['variant']:<13} {row['players']:>7} {bots:<16} skipped: {row['skipped']}")
            continue
        lines.append(
            f"{row['variant']:<13} {row['players']:>7} {bots:<16} {row['hands']:>6} {row['abandoned']:>10}"
            f" {row['mean_turns']:>11} {row['longest_finished']:>17}"
        )
    played = [row for row in rows if "skipped" not in row]
    lines.append(
        f"total: {sum(row['hands'] for row in played)} hands in {len(played)} configurations, "
        f"{sum(row['abandoned'] for row in played)} abandoned"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.endless", description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--variants", default=",".join(builtin_variant_names()))
    parser.add_argument("--players", default="2,4")
    parser.add_argument(
        "--bots", default=",".join(BUILTIN_BOTS), help="the bots to pair (each pair once, in this order)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS)
    parser.add_argument("--out", type=Path, default=Path("bench/results/endless.jsonl"))
    parser.add_argument(
        "--budget", type=float, default=0, help="start no configuration after S seconds (0: no limit)"
    )
    parser.add_argument("--summary", action="store_true", help="only print the summary of --out")
    args = parser.parse_args(argv)
    bots = tuple(args.bots.split(","))
    missing = [name for name in bots if name not in bot_names()]
    if missing:
        parser.error(f"bots not registered: {', '.join(missing)}")
    if not args.summary:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        done = done_keys(args.out)
        started = time.perf_counter()
        players = [int(count) for count in args.players.split(",")]
        for name, count, pair in configurations(args.variants.split(","), players, bots):
            if (name, count, pair, args.seed) in done:
                continue
            if args.budget and time.perf_counter() - started > args.budget:
                break
            row = measure(name, count, pair, args.hands, args.seed, args.max_turns)
            with args.out.open("a") as out:
                out.write(json.dumps(row) + "\n")
            print(json.dumps(row), flush=True)
    print(summary(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
