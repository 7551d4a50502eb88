"""How long replaying a 200-turn game record takes (rules replay), median of several runs.

    .venv/bin/python tests/bench/bench_replay.py [--turns 200] [--repeats 15]

Builds the record from a seeded simulation (Pearl of the East, 5 players, random players,
so the game lasts), writes it with ``format_record`` and times parse + replay.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.rules.game import Game
from companion.rules.record import format_record, parse_record
from companion.rules.replay import record_entries, replay
from companion.rules.simulate import simulate, wanderer


def build_record(turns: int) -> str:
    for seed in range(100):
        played = simulate(Game("pearl", 5), random.Random(seed), wanderer, max_turns=turns)
        if len(played.reports) == turns:
            header = {"game": "pearl", "players": 5, "options": played.game.options.to_json()}
            return format_record(header, record_entries(played))
    raise SystemExit(f"no seed under 100 gives a game of {turns} turns")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    text = build_record(args.turns)
    times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        played = replay(parse_record(text))
        times.append(time.perf_counter() - start)
    assert len(played.reports) == args.turns
    median = statistics.median(times)
    print(f"replay of a {args.turns}-turn record ({len(text)} bytes, "
          f"{sum(len(r.laid) for r in played.reports)} cards refilled): "
          f"median {median * 1000:.1f} ms over {args.repeats} runs "
          f"({median / args.turns * 1e6:.0f} µs a turn; min {min(times) * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
