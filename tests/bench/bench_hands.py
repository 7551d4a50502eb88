"""Hands, arms and lifted cards on fresh draws of the widened generator: the scenes the
reader was not looked at on. Every other scene has a hand; the rest draw one or not.

    .venv/bin/python tests/bench/bench_hands.py [--seed 5000] [--scenes 300] [-v]

Prints the grids found, of cells nothing covers the share read wrong and ``?``, and cells
covered by a hand or a lifted card that read another card (or empty where a card is),
with the scenes they are in. Asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.vision.scenes import GEMS, gem_palette  # noqa: E402
from tools.synthetic import render_scene, widened_conditions  # noqa: E402
from vision.reader import read_grid  # noqa: E402

COVERED = 0.02  # a cell whose card is hidden by more than this share counts as covered


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--scenes", type=int, default=300)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    palette = gem_palette()
    rng = np.random.default_rng(args.seed)
    count: Counter = Counter()
    bad: list[str] = []
    for i in range(args.scenes):
        scene = render_scene(rng, GEMS, 5, 5, widened_conditions(rng, True if i % 2 else None))
        reading = read_grid(scene.image, palette, 5, 5)
        count["scenes"] += 1
        if reading.cells is None:
            if args.verbose:
                print(f"  scene {i}: no grid ({reading.reason})")
            continue
        count["found"] += 1
        for r in range(5):
            for c in range(5):
                got, want = reading.cells[r][c], scene.labels[r][c]
                hidden = scene.covered[r, c] > COVERED
                count["covered" if hidden else "cells"] += 1
                if got == "?":
                    count["unsure"] += not hidden
                elif got != want:
                    count["covered_wrong" if hidden else "wrong"] += 1
                    bad.append(f"scene {i} ({r},{c}) read {got}, is {want}"
                               f"{f', {scene.covered[r, c]:.0%} hidden' if hidden else ''}")
    cells = max(1, count["cells"])
    print(f"widened generator with hands, seed {args.seed}: {count['scenes']} scenes, "
          f"a grid in {count['found']}")
    print(f"  cells nothing covers {count['cells']}: wrong {count['wrong']} = "
          f"{100 * count['wrong'] / cells:.2f}%, ? {100 * count['unsure'] / cells:.2f}%")
    print(f"  covered cells {count['covered']}: read as another card {count['covered_wrong']}")
    for line in bad:
        print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
