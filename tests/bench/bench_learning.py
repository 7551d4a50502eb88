"""Colours that keep learning (issue 11, item 2): videos whose light drifts, read with the
calibrated palette alone and with one that learns from confirmed readings, side by side.

    .venv/bin/python tests/bench/bench_learning.py [--videos 4] [--frames 32] [--seed 1]

Each video is read as the live follower reads it (a ``GridTracker``, a reading counts once
it holds for 3 frames). A new stable reading that is the truth stands for one the rules
accept (the videos deal new cards each turn, not legal moves, so the truth stands in for
the game): its cells teach the palette (``calibration.adapt``); a stable reading that is
not the truth teaches nothing (the rules would refuse it). The palette is learned from two
calm synthetic layouts, as a player calibrates once. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from calibration.adapt import Confirmed, adapt  # noqa: E402
from tests.bench.bench_hands import COVERED  # noqa: E402
from tests.vision.scenes import gem_palette, video  # noqa: E402
from vision.stability import StabilityFilter  # noqa: E402
from vision.tracker import GridTracker  # noqa: E402

DRIFTS = [  # (what, exposure and colour drift, veil, frames per video times --frames)
    ("the bench's drift (exposure +-35%, colour +-700 K)", 0.35, 0.0, 2),
    ("a longer, wider drift (exposure +-60%, colour +-1200 K)", 0.6, 0.0, 6),
    ("a veil of flare growing to 0.15 with the bench's drift", 0.35, 0.15, 4),
]


def count_cells(counts: Counter, reading, scene) -> bool:
    """Add a reading's cells to ``counts``: those nothing covers (wrong, '?', '?' on an empty
    cell) as the split's unoccluded cells, and covered ones (a hand, a lifted card) that
    read another card. Whether there was a reading."""
    if reading.cells is None:
        return False
    for got_row, true_row, hidden_row in zip(reading.cells, scene.labels, scene.covered,
                                             strict=True):
        for got, want, hidden in zip(got_row, true_row, hidden_row, strict=True):
            key = "covered" if hidden > COVERED else "cells"
            counts[key] += 1
            counts[f"{key} wrong"] += got not in ("?", want)
            counts[f"{key} unsure"] += got == "?"
            counts[f"{key} unsure empty"] += got == "?" and want == "."
    return True


ADAPT_MS: list[float] = []  # CPU time of each adaptation


def follow(frames: list, palette, learn: bool, counts: Counter, settle: int = 0) -> None:
    """Read a video's frames, learning from confirmed readings if ``learn``; add its cells
    to ``counts``. ``settle``: a stable reading with up to this many ``?`` whose other cells
    are all the truth is confirmed too, its ``?`` cells named by the truth (as the rules
    settle them in play)."""
    tracker = GridTracker()
    stability = StabilityFilter(3, unsure=settle)
    confirmed = Confirmed()
    current = palette
    last = None
    for k, scene in enumerate(frames):
        reading = tracker.read(scene.image, current)
        counts["frames"] += 1
        if reading.cells is None:
            continue
        counts["found"] += count_cells(counts, reading, scene)
        stable = stability.push(reading.cells)
        if not learn or stable is None or stable == last:
            continue
        last = stable
        if all(got in ("?", want) for got, want in zip("".join(stable), "".join(scene.labels),
                                                        strict=True)):
            counts["confirmed"] += 1
            confirmed = confirmed.add(k, "".join(scene.labels), reading.features,
                                      read_from=reading.read_from)
            t0 = time.process_time()
            current = adapt(palette, confirmed)
            ADAPT_MS.append(1000 * (time.process_time() - t0))


def said(c: Counter) -> str:
    n = c["cells"]
    pct = (lambda a: f"{100.0 * a / n:.2f}%") if n else (lambda a: "-")
    return (f"{c['frames']} frames, a reading in {c['found']}; uncovered cells {n}: wrong "
            f"{c['cells wrong']} = {pct(c['cells wrong'])}, '?' {c['cells unsure']} = "
            f"{pct(c['cells unsure'])} ({c['cells unsure empty']} of them empty); covered "
            f"cells read as another card {c['covered wrong']}"
            + (f"; readings confirmed {c['confirmed']}" if "confirmed" in c else ""))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--videos", type=int, default=4)
    p.add_argument("--frames", type=int, default=16, help="frames per video, times each drift's")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    cv2.setNumThreads(1)
    palette = gem_palette()
    for what, drift, veil, length in DRIFTS:
        print(f"{what}: {args.videos} videos of {length * args.frames} frames")
        alone: Counter = Counter()
        learning: Counter = Counter()
        settled: Counter = Counter()
        for v in range(args.videos):
            frames = video(args.seed + 900 + v, length * args.frames, (1280, 720), drift=drift,
                           veil=veil)
            follow(frames, palette, False, alone)
            follow(frames, palette, True, learning)
            follow(frames, palette, True, settled, settle=2)
        print(f"  calibration alone: {said(alone)}")
        print(f"  learning from whole readings: {said(learning)}")
        print(f"  learning, cells the rules settle too: {said(settled)}")
    if ADAPT_MS:
        print(f"adapting the palette to what is confirmed (its check reads the grids kept "
              f"again), one core: median {statistics.median(ADAPT_MS):.1f} ms, slowest "
              f"{max(ADAPT_MS):.1f} ms over {len(ADAPT_MS)} confirmations")


if __name__ == "__main__":
    main()
