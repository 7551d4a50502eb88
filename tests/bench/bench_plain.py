"""The reader against a plain pipeline on the same frames, one core: Otsu threshold,
contours, the card-shaped quadrilaterals, each one's median colour, the nearest of a
palette's colours. The plain one knows nothing of light, hands or lattices; it sets the
floor a frame read is measured against (issue 11: the reader no slower than twice it).

    .venv/bin/python tests/bench/bench_plain.py [--repeat 5]

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.vision.scenes import GEMS, gem_palette  # noqa: E402
from tools.synthetic import random_conditions, render_scene  # noqa: E402
from vision.reader import read_grid  # noqa: E402

SPLIT = ROOT.parent / "shared" / "data" / "nizam-dev" / "stills"


def plain(frame: np.ndarray, colours: np.ndarray) -> list[int]:
    """The plain pipeline: the nearest palette colour of each card-shaped region."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    _, mask = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    area = frame.shape[0] * frame.shape[1]
    reads = []
    for c in contours:
        a = cv2.contourArea(c)
        if not area / 2000 < a < area / 20:
            continue
        quad = cv2.approxPolyDP(c, 0.04 * cv2.arcLength(c, True), True)
        if len(quad) != 4:
            continue
        x, y, w, h = cv2.boundingRect(quad)
        body = frame[y + h // 4 : y + 3 * h // 4, x + w // 4 : x + 3 * w // 4].reshape(-1, 3)
        median = np.median(body, axis=0)
        reads.append(int(np.argmin(((colours - median) ** 2).sum(axis=1))))
    return reads


def least_cpu(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    palette = gem_palette()
    colours = np.array(list(GEMS.values()), float)
    rng = np.random.default_rng(3)
    frames = [("generator", render_scene(rng, GEMS, 5, 5, random_conditions(rng, hand=False)).image)
              for _ in range(12)]
    if SPLIT.is_dir():
        frames += [("nizam-dev", cv2.imread(str(p))) for p in sorted(SPLIT.glob("*/0*.jpg"))
                   if cv2.imread(str(p)).shape[:2] == (720, 1280)][:12]
    for source in ("generator", "nizam-dev"):
        ours, base = [], []
        for name, frame in frames:
            if name != source:
                continue
            ours.append(least_cpu(lambda f=frame: read_grid(f, palette, 5, 5), args.repeat))
            base.append(least_cpu(lambda f=frame: plain(f, colours), args.repeat))
        if not ours:
            continue
        o, b = 1000 * float(np.median(ours)), 1000 * float(np.median(base))
        print(f"{source}: {len(ours)} frames at 1280x720, one core, median of least CPU time: "
              f"reader {o:.1f} ms, plain contour-and-median {b:.1f} ms, ratio {o / b:.2f} "
              f"(target <= 2)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
