"""Benchmark `rules explain` (DESIGN.md budget: ≤ 50 ms at 3 shifts apart; ≤ 1 s at 4).

Run: .venv/bin/python tests/bench/bench_explain.py [--runs N] [--seed S]

Grids are realistic: 25 cards dealt from the 96-gem deck (8 gems, repeated letters), some
with the pearl or an empty cell. Each target is the grid scrambled by k random legal shifts
whose true distance is k (checked by explain itself). Prints median and max per k, and the
number of shortest sequences found.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.rules.explain import MAX_SHIFTS, explain  # noqa: E402
from companion.rules.grid import EMPTY, GEMS, PEARL, Grid  # noqa: E402
from companion.rules.shift import ALL_SHIFTS  # noqa: E402


def deal(rng: random.Random, kind: str) -> Grid:
    deck = [g for g in GEMS for _ in range(12)]
    rng.shuffle(deck)
    cells = deck[:25]
    if kind == "pearl":
        cells[rng.randrange(25)] = PEARL
    elif kind == "empty":
        for i in rng.sample(range(25), 2):
            cells[i] = EMPTY
    return Grid("".join(cells))


def scramble(rng: random.Random, grid: Grid, k: int) -> Grid:
    for _ in range(k):
        legal = [s for s in ALL_SHIFTS if grid.at(*s.edge) != EMPTY]
        grid = rng.choice(legal).apply(grid)
    return grid


def case(rng: random.Random, k: int) -> tuple[Grid, Grid]:
    """A grid and a target exactly k shifts away."""
    while True:
        grid = deal(rng, rng.choice(["classic", "classic", "pearl", "empty"]))
        target = scramble(rng, grid, k)
        if explain(grid, target, k).length == k:
            return grid, target


def timed(start: Grid, target: Grid, max_shifts: int) -> tuple[float, int]:
    t0 = time.perf_counter()
    result = explain(start, target, max_shifts)
    return time.perf_counter() - t0, len(result.moves)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"explain, {args.runs} seeded cases per distance (seed {args.seed}), one core")
    heads = ("max-shifts", "median ms", "max ms", "seqs med", "seqs max")
    print(f"{'k':>2} " + " ".join(f"{h:>10}" for h in heads))
    for k in range(1, MAX_SHIFTS + 1):
        runs = args.runs if k <= 4 else max(5, args.runs // 3)
        cases = [case(rng, k) for _ in range(runs)]
        for limit in sorted({max(k, 4), MAX_SHIFTS}):
            times, counts = zip(*(timed(a, b, limit) for a, b in cases), strict=True)
            print(
                f"{k:>2} {limit:>10} {statistics.median(times) * 1e3:>10.2f} "
                f"{max(times) * 1e3:>10.2f} {statistics.median(counts):>10.0f} {max(counts):>10}"
            )
    # No answer (the cards shuffled across the grid): the whole space up to the limit is searched.
    for limit in (4, MAX_SHIFTS):
        times, found = [], False
        for _ in range(5):
            a = deal(rng, "classic")
            b = Grid("".join(rng.sample(a.cells, 25)))
            t0 = time.perf_counter()
            moves = explain(a, b, limit).moves
            times.append(time.perf_counter() - t0)
            found = found or bool(moves)
        print(
            f"no sequence within {limit}: median {statistics.median(times) * 1e3:.2f} ms, "
            f"max {max(times) * 1e3:.2f} ms" + (" (one was found!)" if found else "")
        )

if __name__ == "__main__":
    main()
