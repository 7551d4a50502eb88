"""Benchmark the Desert Sands' stone camera: one read of the spot at the camera sizes, learning
the stones at calibration, and how long a stone laid on the spot takes to count as the draw
through the whole watcher (capture thread, reads every ``STONE_PACE`` s, ``STABLE_FRAMES``
reads in a row). Targets: a read well under the 100 ms between reads; a stone counted within
a second of being laid.

Run: .venv/bin/python tests/bench/bench_stones.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from calibration.spot import StoneSpot  # noqa: E402
from companion.live.stones import SandsWatcher, learn_stones  # noqa: E402
from companion.live.watcher import camera_feed  # noqa: E402
from companion.session.sands import SandsSession  # noqa: E402
from companion.store import GameStore  # noqa: E402
from tests.session.stone_camera import MARK, StandInCamera, captures, scene  # noqa: E402
from tests.vision.test_spot import stone_frame  # noqa: E402
from tests.waiting import wait_for  # noqa: E402
from vision.spot import read_stone  # noqa: E402


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.1f} ms (max {max(values) * 1000:.1f})"


def bench_reads(palette, runs: int) -> None:
    import numpy as np

    for size in ((640, 360), (1280, 720), (1920, 1080)):
        scale = size[0] / 640
        spot = StoneSpot.around((320 * scale, 180 * scale), 100 * scale, size)
        frames = [stone_frame(np.random.default_rng(i), "rygl"[i % 4], size=size, spot=spot)
                  for i in range(4)]
        times = []
        for i in range(runs):
            start = time.perf_counter()
            read_stone(frames[i % 4], spot, palette)
            times.append(time.perf_counter() - start)
        print(f"read_stone {size[0]}x{size[1]}: {ms(times)}")


def bench_count(spot, palette, runs: int) -> None:
    delays = []
    for i in range(runs):
        camera = StandInCamera(scene(100 + i), fps=30)
        session = SandsSession.new(GameStore(":memory:"), table_provider=lambda: None)
        watcher = SandsWatcher(session, camera_feed(camera), spot, palette).start()
        try:
            wait_for(lambda w=watcher: w.spot().ready)
            watcher.tap("call", "red")
            laid = time.perf_counter()
            camera.show(scene(200 + i, "rygl"[i % 4]))
            if not wait_for(lambda w=watcher: w.view().called == "", 10):
                print("a stone was not counted in 10 s")
                continue
            delays.append(time.perf_counter() - laid)
        finally:
            watcher.close()
    print(f"stone laid -> counted as the draw ({runs} stones, 30 fps camera): {ms(delays)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    shots = captures()
    times = []
    for _ in range(5):
        start = time.perf_counter()
        spot, palette = learn_stones(shots, MARK)
        times.append(time.perf_counter() - start)
    print(f"learn_stones (5 captures at 640x360, read back checked): {ms(times)}")
    bench_reads(palette, args.runs)
    bench_count(spot, palette, max(4, args.runs // 4))


if __name__ == "__main__":
    main()
