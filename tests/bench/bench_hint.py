"""Benchmark `rules hint` (issue 15's budget: ≤ 200 ms for up to 3 shifts with 8 cards in
hand, on one core).

Run: .venv/bin/python tests/bench/bench_hint.py [--runs N] [--seed S] [--shifts K]

Each case deals a grid and a hand from the 96-gem deck (classic Nizam, or Pearl of the East
with the pearl on the grid and all 8 tasks), the hand of 3, 5 or 8 cards, and times
``best_turns`` from a cold start (its line cache is built per call). Prints median, 95th
percentile and max per hand size and mode, the sequences searched and the best points.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.rules.deck import Cards  # noqa: E402
from companion.rules.grid import GEMS, Grid  # noqa: E402
from companion.rules.hint import DEFAULT_HINT_SHIFTS, best_turns, payment  # noqa: E402
from companion.rules.shift import ALL_SHIFTS  # noqa: E402
from tests.rules._helpers import dealt  # noqa: E402


def payable_sequences(grid: Grid, hand: Cards, depth: int) -> int:
    """How many sequences the hand pays for (what the search scores), counted plainly."""
    total, layer = 0, [()]
    for _ in range(depth):
        layer = [seq + (s,) for seq in layer for s in ALL_SHIFTS
                 if payment(grid, seq + (s,), hand) is not None]
        total += len(layer)
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--shifts", type=int, default=DEFAULT_HINT_SHIFTS)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print(f"best_turns, up to {args.shifts} shifts, {args.runs} deals each "
          f"(python {sys.version.split()[0]}, one core)")
    print(f"{'mode':8} {'hand':>4} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} "
          f"{'sequences':>10} {'best pts':>9}")
    worst = 0.0
    for pearl in (False, True):
        for hand_size in (3, 5, 8):
            times, sequences, points = [], [], []
            for run in range(args.runs):
                grid, hand = dealt(rng, pearl, hand_size)
                tasks = GEMS if pearl else None
                t0 = time.perf_counter()
                hint = best_turns(grid, hand, tasks=tasks, max_shifts=args.shifts)
                times.append((time.perf_counter() - t0) * 1000)
                points.append(hint.points)
                if run < 3:
                    sequences.append(payable_sequences(grid, hand, args.shifts))
            times.sort()
            worst = max(worst, times[-1])
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            print(f"{'pearl' if pearl else 'classic':8} {hand_size:>4} "
                  f"{statistics.median(times):>10.1f} {p95:>8.1f} {times[-1]:>8.1f} "
                  f"{int(statistics.mean(sequences)):>10} {statistics.mean(points):>9.1f}")
    print(f"worst case {worst:.1f} ms (budget 200 ms at 3 shifts, 8 cards)")


if __name__ == "__main__":
    main()
