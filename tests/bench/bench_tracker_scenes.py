"""A grid followed through the moments of a game that can throw a tracker a row or column off
(issue 11: a grid is located on its true cells or not reported at all): every card would then
be reported as its neighbour's, and the rules would see a shift nobody made. The moments are
``tests/vision/moments.py``'s, on the generator's table, piles in line past the grid's bottom:

- ``edge``: an edge line cleared (each of the four in turn over the seeds);
- ``hand_rest``: the top row thinned to one card, then a hand resting over the grid for 14
  frames (a heavy one: a sleeve from the corner), then gone;
- ``dim`` / ``bright``: the same with the light turned to x0.85 / x1.35 after the top row was
  thinned (the hand for 6 frames);
- ``cards_changed``: the top row thinned, then play changes two cards a frame for 8 frames,
  then the hand; ``line_cleared_changed``: the same with the top row cleared;
- ``bump_down`` / ``bump_up`` / ``bump_side``: the camera bumped a cell pitch under a hand;
- ``relaid``: the grid lifted off the table and laid a row lower; ``relaid_up``: laid a row
  higher, a card short in its top row, the piles now a pitch past its bottom row;
- ``rows_slid``: a row shifted a cell (wrapping), 8 times; ``cascade``: the bottom row
  cleared, every column dropping a cell and refilled at the top, 6 times;
- ``first_seen_thinned``: ``rows_slid`` over a grid whose top row showed one card from the
  first frame: no frame ever showed where that line lies;
- ``stills_thinned``: pictures of a grid whose top row holds one card, each read on its own
  (no tracker): one picture cannot tell which five rows are the grid.

Per scene, over the frames from the change on: frames read right (R), a row or column off
(X), with a card read as another on the right cells (W), with no grid (N); and the runs
ending with no grid for their last 6 frames (stuck). ``-v``: each run's frames, ``|`` where
the change starts.

    .venv/bin/python tests/bench/bench_tracker_scenes.py [--seeds 4] [-v] [SCENE ...]

About 2 minutes at 4 seeds on one core. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.vision.moments import ON_ITS_OWN, SCENES, followed  # noqa: E402
from tests.vision.scenes import gem_palette  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("scenes", nargs="*")
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    unknown = [n for n in args.scenes if n not in SCENES]
    if unknown:
        print(f"unknown scene {unknown[0]!r}; scenes: {', '.join(SCENES)}")
        return 2
    cv2.setNumThreads(1)
    palette = gem_palette()
    began = time.perf_counter()
    print(f"{'scene':22s} frames from the change: right / a line off / a card wrong / "
          f"no grid, runs stuck with no grid ({args.seeds} seeds)")
    total = dict.fromkeys("RXWN", 0)
    for name in args.scenes or list(SCENES):
        counts, stuck = dict.fromkeys("RXWNF", 0), 0
        for seed in range(args.seeds):
            line, start = followed(name, seed, palette)
            after = line[start:]
            for k in counts:
                counts[k] += after.count(k)
            stuck += name not in ON_ITS_OWN and after.endswith("N" * 6)
            if args.verbose:
                print(f"  {name} seed {seed}: {line[:start]}|{after}")
        for k in total:
            total[k] += counts[k]
        extra = f", a grid on a bare table {counts['F']}" if counts["F"] else ""
        print(f"{name:22s} {counts['R']:4d} / {counts['X']:3d} / {counts['W']:3d} / "
              f"{counts['N']:3d}, stuck {stuck}{extra}", flush=True)
    print(f"{'ALL':22s} {total['R']:4d} / {total['X']:3d} / {total['W']:3d} / {total['N']:3d} "
          f"({time.perf_counter() - began:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
