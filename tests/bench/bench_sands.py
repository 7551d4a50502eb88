"""Benchmark The Desert Sands' solver and advice (targets: solve the 12-of-each bag from
nothing in ≤ 2 s and ≤ 300 MB on one core; then one advice in ≤ 5 ms).

Run: .venv/bin/python tests/bench/bench_sands.py [--full r12y12g12l12] [--runs N]

The cold solve runs in a fresh process (so its peak memory is its own) with an empty cache
folder: it solves layer by layer and writes the cache file as it goes. Then, in this process:
loading the cached table, one `advise`, one `--policy` tree, the position check, and the
odds of each call from the full bag at 0-0.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.rules.sands import Bag  # noqa: E402
from companion.sands.advice import advise, policy  # noqa: E402
from companion.sands.odds import load_table  # noqa: E402
from companion.sands.reach import why_impossible  # noqa: E402
from companion.sands.solver import solve  # noqa: E402

COLD = """
import json, resource, sys, time, tracemalloc
t0 = time.perf_counter()
from companion.rules.sands import Bag
from companion.sands.odds import load_table
imported = time.perf_counter()
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
tracemalloc.start()
cpu0 = cpu()
table = load_table(Bag.parse(sys.argv[1]), sys.argv[2])
solved = time.perf_counter()
cpu_solve = cpu() - cpu0
traced = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
start = time.perf_counter()
from companion.sands.solver import solve
solve(Bag.parse(sys.argv[1]))
in_memory = time.perf_counter() - start
rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"import": imported - t0, "solve": solved - imported, "cpu": cpu_solve,
                  "traced": traced, "in_memory": in_memory, "rss_kb": rss_kb}))
"""
COLD_RSS = """
import json, resource, sys
from companion.rules.sands import Bag
from companion.sands.odds import load_table
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
load_table(Bag.parse(sys.argv[1]), sys.argv[2])
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"before_kb": before, "rss_kb": after}))
"""


def child(code: str, *args: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def timed(fn, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--full", default="r12y12g12l12")
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    full = Bag.parse(args.full)
    with tempfile.TemporaryDirectory() as cache:
        rss = child(COLD_RSS, str(full), cache)
        Path(cache, f"sands-{full}.table").unlink()
        cold = child(COLD, str(full), cache)
        stat = Path(cache, f"sands-{full}.table").stat()
        size, on_disk = stat.st_size, stat.st_blocks * 512
        print(f"cold solve of {full} (fresh process, empty cache, writes the cache file):")
        print(f"  solve + write    {cold['solve']:.2f} s wall, {cold['cpu']:.2f} s CPU "
              f"(user + system; numpy import before it {cold['import']:.2f} s)")
        print(f"  peak memory      {rss['rss_kb'] / 1024:.0f} MB resident for the whole process "
              f"({rss['before_kb'] / 1024:.0f} MB before the solve); "
              f"{cold['traced'] / 2**20:.0f} MB traced by tracemalloc")
        print(f"  cache file       {size / 2**20:.1f} MB ({on_disk / 2**20:.1f} MB on disk; "
              "float32)")
        print(f"  solve in memory  {cold['in_memory']:.2f} s   (no cache folder: whole table "
              "in RAM)")

        start = time.perf_counter()
        table = load_table(full, cache)
        load = time.perf_counter() - start
        print(f"load the cached table: {load * 1000:.1f} ms")
        exact = solve(full)
        worst = max(float(np.abs(np.asarray(table.values[i : i + 4096], np.float64)
                                 - exact[i : i + 4096]).max())
                    for i in range(0, len(exact), 4096))
        print(f"cached answers against the exact solver: largest difference {worst:.1e}")
        del exact
        positions = [(full, (0, 0)), (Bag(6, 5, 7, 4), (9, 12)), (Bag(1, 2, 0, 1), (15, 17))]
        for bag, scores in positions:
            if not bag.within(full) or why_impossible(full, bag, scores):
                continue
            med, worst = timed(lambda b=bag, s=scores: advise(table, b, s), args.runs)
            tree, _ = timed(lambda b=bag, s=scores: policy(table, b, s), 5)
            check, _ = timed(lambda b=bag, s=scores: why_impossible(full, b, s), 5)
            print(f"advise {bag} {scores[0]}-{scores[1]}: median {med * 1000:.2f} ms, "
                  f"max {worst * 1000:.2f} ms; --policy tree {tree * 1000:.1f} ms; "
                  f"position check {check * 1000:.1f} ms")

    advice = advise(table, full, (0, 0))
    print(f"\nfrom the full bag {full} at 0-0, the first caller:")
    print(f"  {'call':8}{'p_success':>10}{'expected_points':>17}{'p_win':>9}")
    for colour, a in advice.calls.items():
        mark = "  best" if colour == advice.best else ""
        print(f"  {colour:8}{a.p_success:>10.4f}{a.expected_points:>17.4f}{a.p_win:>9.4f}{mark}")


if __name__ == "__main__":
    main()
