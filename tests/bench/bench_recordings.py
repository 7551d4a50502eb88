"""Issue 4 acceptance: generated recordings replayed through the whole pipeline.

Renders whole games (both modes, 2–5 players, deck run-outs) at 1280×720 with the
synthetic camera, replays each through vision → session → rules, and compares the final
scores, run-outs and winners with what the rules' simulation says happened. Prints the
frames per second of the replay on one core and the time from a stable new grid to its
verdict.

    .venv/bin/python tests/bench/bench_recordings.py [--out DIR] [--count 10]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # tools/ is not installed: it is imported from the checkout

from companion.live.playback import palette_from_calibration, play, summary  # noqa: E402
from companion.live.recording import open_recording  # noqa: E402
from companion.rules.game import Game, Options  # noqa: E402
from companion.rules.simulate import greedy, simulate  # noqa: E402
from companion.session.nizam import TableSession  # noqa: E402
from companion.store import GameStore  # noqa: E402
from tools.recorder import write_recording  # noqa: E402

GAMES = [  # (mode, players, seed)
    ("classic", 2, 1), ("classic", 3, 2), ("classic", 4, 3), ("classic", 5, 4),
    ("classic", 2, 5), ("pearl", 2, 6), ("pearl", 3, 7), ("pearl", 4, 8), ("pearl", 5, 9),
    ("classic", 3, 10), ("pearl", 2, 11), ("classic", 4, 12),
]
KEYS = ("scores", "deck_runs_out", "winners", "ended", "deck", "discard")


def make(out: Path, mode: str, players: int, seed: int) -> Path:
    folder = out / f"{mode}-{players}p-seed{seed}"
    if not (folder / "truth.json").exists():
        game = Game(mode, players, Options())
        played = simulate(game, random.Random(seed), greedy, max_turns=400)
        write_recording(folder, played, [f"P{i + 1}" for i in range(players)], seed=seed)
    return folder


def time_verdicts(times: list[float]) -> None:
    """Time each stable reading's handling by the session: explain, rules, commit."""
    handle = TableSession.on_reading

    def on_reading(self, rows, guesses=None):  # type: ignore[no-untyped-def]
        t0 = time.perf_counter()
        handle(self, rows, guesses)
        times.append(time.perf_counter() - t0)

    TableSession.on_reading = on_reading  # type: ignore[method-assign]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=Path("/tmp/nizam-recordings"))
    parser.add_argument("--count", type=int, default=10)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    rows, all_ok, fps_all, verdicts = [], True, [], []
    time_verdicts(verdicts)
    total_turns = total_frames = 0
    for mode, players, seed in GAMES[: args.count]:
        t0 = time.perf_counter()
        folder = make(args.out, mode, players, seed)
        made = time.perf_counter() - t0
        rec = open_recording(folder)
        truth = json.loads((folder / "truth.json").read_text())
        palette = palette_from_calibration(rec)
        with GameStore(":memory:") as store:
            t1 = time.perf_counter()
            session, pb = play(rec, palette, store)
            took = time.perf_counter() - t1
            result = summary(session, pb)
        ok = all(result[k] == truth[k] for k in KEYS) and not result["unresolved"]
        all_ok &= ok
        fps = pb.frames_read / took
        fps_all.append(fps)
        total_turns += truth["turns"]
        total_frames += truth["frames"]
        rows.append((folder.name, truth["turns"], truth["frames"], truth["deck_runs_out"],
                     truth["scores"], result["scores"], truth["winners"], result["winners"],
                     "yes" if ok else "NO", fps, made))
    print(f"{'recording':24} {'turns':>5} {'frames':>6} {'runouts':>7} {'true scores':24} "
          f"{'replayed':24} {'win':>6} {'match':>5} {'fps':>6}")
    for r in rows:
        print(f"{r[0]:24} {r[1]:>5} {r[2]:>6} {r[3]:>7} {str(r[4]):24} {str(r[5]):24} "
              f"{str(r[7]):>6} {r[8]:>5} {r[9]:6.1f}")
    print(f"{len(rows)} recordings, {total_turns} turns, {total_frames} frames; "
          f"all match: {all_ok}")
    print(f"replay speed on one core (1280x720): median {statistics.median(fps_all):.1f} "
          f"frames/s (min {min(fps_all):.1f})")
    print(f"stable new grid -> verdict (explain + rules + commit): median "
          f"{statistics.median(verdicts) * 1000:.2f} ms, max {max(verdicts) * 1000:.2f} ms "
          f"over {len(verdicts)} readings")
    return 0 if all_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
