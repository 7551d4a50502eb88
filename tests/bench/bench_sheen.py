"""Cards under a lamp's sheen when the grid is read, side by side per source: a glossy card
reflects the lamp over all of it, and its colour washes towards the lamp's white (a blue
looks lavender, a red pink). The other renderer shows it on one of its six set-ups
(session_004, its truth's ``glare_cells``); the generator draws it on demand
(``tools.synthetic.Conditions.sheen``: one card or two side by side, the lamp's light at
its brightest a share of full scale, the calibration layout calm).

    .venv/bin/python tests/bench/bench_sheen.py [--scenes 120] [--seed 7]

Prints, per source, the cells under the sheen and the rest of those images' unoccluded
cells: right, ``?``, and read as another card (of them, sure: at or above the palette's
threshold). Asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Collection
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from bench_nizam_dev import DATA, set_ups, stills  # noqa: E402

from calibration.palette import DEFAULT_MIN_CONFIDENCE as SURE  # noqa: E402
from tests.vision.scenes import GEMS, gem_palette  # noqa: E402
from tools.synthetic import random_conditions, render_scene  # noqa: E402
from vision.reader import read_grid  # noqa: E402
from vision.sources import read_image  # noqa: E402

STRENGTHS = ((0.1, 0.3), (0.3, 0.5), (0.5, 0.7))
"""The generator's sheen, as the lamp's light where it is brightest (share of full scale),
drawn in each of these ranges in turn."""


def count(counts: Counter, reading, truth: list[str], sheened: set[tuple[int, int]],
          skip: Collection[tuple[int, int]] = ()) -> None:
    """Add a reading's cards (empty cells and ``skip`` left out) to ``counts``: those under
    the sheen apart from the rest."""
    for r, row in enumerate(truth):
        for c, want in enumerate(row):
            if want == "." or (r, c) in skip:
                continue
            key = "sheen" if (r, c) in sheened else "rest"
            counts[key] += 1
            if reading.cells is None:
                counts[f"{key} no reading"] += 1
                continue
            got = reading.cells[r][c]
            if got == "?":
                counts[f"{key} ?"] += 1
            elif got != want:
                counts[f"{key} wrong"] += 1
                counts[f"{key} wrong sure"] += float(reading.confidence[r, c]) >= SURE


def said(counts: Counter, key: str) -> str:
    n = counts[key]
    if not n:
        return f"{key}: none"
    right = n - counts[f"{key} ?"] - counts[f"{key} wrong"] - counts[f"{key} no reading"]
    return (f"{'under the sheen' if key == 'sheen' else 'the rest'} {n}: right {right} "
            f"({100 * right / n:.1f}%), '?' {counts[f'{key} ?']}, read as another "
            f"{counts[f'{key} wrong']} (sure {counts[f'{key} wrong sure']})"
            + (f", no reading {counts[f'{key} no reading']}"
               if counts[f"{key} no reading"] else ""))


def generator(scenes: int, seed: int) -> None:
    palette = gem_palette()
    rng = np.random.default_rng(seed)
    for lo, hi in STRENGTHS:
        counts: Counter = Counter()
        for _ in range(scenes // len(STRENGTHS)):
            # glare spots apart: they clip, and are measured elsewhere (bench_vision)
            shot = replace(random_conditions(rng, hand=False), glare=0,
                           sheen=float(rng.uniform(lo, hi)))
            scene = render_scene(rng, GEMS, 5, 5, shot)
            count(counts, read_grid(scene.image, palette, 5, 5), list(scene.labels),
                  set(scene.sheened))
        print(f"generator, sheen {lo:.1f}-{hi:.1f} of full scale, {scenes // len(STRENGTHS)} "
              f"scenes: {said(counts, 'sheen')}; {said(counts, 'rest')}")


def split(data: Path) -> None:
    counts: Counter = Counter()
    images = 0
    for session, palette in set_ups(data):
        if palette is None:
            continue
        for picture, truth, _ in stills(session):
            glared = {(r - 1, c - 1) for r, c in truth["conditions"].get("glare_cells", [])}
            if not glared:
                continue
            images += 1
            hidden = {(r - 1, c - 1) for r, c in truth["occluded"]}
            reading = read_grid(read_image(str(picture)), palette, 5, 5)
            count(counts, reading, truth["grid"].split("/"), glared - hidden, hidden)
    print(f"nizam-dev, the renderer's own glare ({images} stills with glare_cells): "
          f"{said(counts, 'sheen')}; {said(counts, 'rest')}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenes", type=int, default=120)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--split", type=Path, default=DATA)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    generator(args.scenes, args.seed)
    if args.split.is_dir():
        split(args.split)
    else:
        print(f"no split at {args.split}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
