"""A grid framed tightly: each picture cut on one side so that the frame's edge runs a share
of a cell pitch inside the grid's outermost corner there, as a camera set close over the
table or turned a little frames it. At 0 the edge touches the grid; at 0.15 it cuts off a
corner card's border and a strip of its field; at 0.3 a third of a card. Each of the four
sides in turn, on the other renderer's development stills (unoccluded ones, colours learned
per set-up from its ``calib.jpg``) and on the generator's scenes (no hand; the palette its
two calm layouts give).

    .venv/bin/python tests/bench/bench_frame_edge.py [--cuts 0 0.15 0.3] [--scenes 40] [-v]

And on the real SET webcam boards (3 x 4 cards, each read with colours learned on each other
board; where the grid lies taken from the whole picture's reading).

Per source and cut: the pictures whose grid was found, cells wrong and '?'. Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from calibration.palette import learn_palette  # noqa: E402
from tests.bench.bench_nizam_dev import DATA as SPLIT  # noqa: E402
from tests.bench.bench_nizam_dev import set_ups, stills  # noqa: E402
from tests.vision.scenes import GEMS, framed, gem_palette, set_card_photos  # noqa: E402
from tools.synthetic import random_conditions, render_scene  # noqa: E402
from vision.cells import extract_patches  # noqa: E402
from vision.lattice import find_grid  # noqa: E402
from vision.reader import read_grid  # noqa: E402
from vision.sources import read_image  # noqa: E402

SIDES = ("left", "right", "top", "bottom")


Picture = tuple[str, np.ndarray, np.ndarray, str, object, tuple[int, int]]
"""A picture's name, the picture, its grid's corners, the cards' truth, the palette to read it
with, and the grid's size."""


def dev_stills() -> Iterator[Picture]:
    for session, palette in set_ups(SPLIT):
        if palette is None:
            continue
        for picture, truth, bare in stills(session):
            if not bare:
                continue
            image = read_image(str(picture))
            yield (f"{session.name}/{picture.stem}", image, np.array(truth["corners"]),
                   truth["grid"].replace("/", ""), palette, (5, 5))


def generator(scenes: int) -> Iterator[Picture]:
    palette = gem_palette()
    rng = np.random.default_rng(41)
    for k in range(scenes):
        scene = render_scene(rng, GEMS, 5, 5, random_conditions(rng, hand=False))
        yield f"scene {k}", scene.image, scene.corners, "".join(scene.labels), palette, (5, 5)


def set_boards() -> Iterator[Picture]:
    boards = [(photo, cv2.imread(str(photo)), labels) for photo, labels in set_card_photos()]
    grids = [find_grid(image, 3, 4) for _, image, _ in boards]
    for k, (photo, image, labels) in enumerate(boards):
        palette = learn_palette([(extract_patches(image, grids[k]), labels)])
        for j, (other, picture, truth) in enumerate(boards):
            grid = grids[j]
            if j != k and grid is not None:
                yield (f"{other.name} by {photo.name}", picture, grid.corners, truth, palette,
                       (3, 4))


def tally(source, pitches: float, verbose: bool) -> Counter:
    total: Counter = Counter()
    for name, image, corners, truth, palette, (rows, cols) in source:
        for side in SIDES:
            cut = framed(image, corners, side, pitches, rows, cols)
            reading = read_grid(cut, palette, rows, cols)
            total["pictures"] += 1
            if reading.cells is None:
                total["no grid"] += 1
                continue
            got = "".join(reading.cells)
            wrong = sum(g != t and g != "?" for g, t in zip(got, truth, strict=True))
            total["cells"] += len(got)
            total["wrong"] += wrong
            total["?"] += got.count("?")
            if verbose and (wrong or "?" in got):
                print(f"  {name} {side}: read {got} truth {truth}")
    return total


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuts", type=float, nargs="+", default=[0.0, 0.15, 0.3])
    ap.add_argument("--scenes", type=int, default=40)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    print("framed tightly, each side in turn: grid found, cells wrong, '?'")
    for pitches in args.cuts:
        sources = [("generator", lambda: generator(args.scenes))]
        if SPLIT.is_dir():
            sources.append(("nizam-dev", dev_stills))
        sources.append(("real SET", set_boards))
        for label, source in sources:
            t = tally(source(), pitches, args.verbose)
            cells = max(1, t["cells"])
            print(f"{label:9s} cut {pitches:.2f} pitch | found {t['pictures'] - t['no grid']}/"
                  f"{t['pictures']}, wrong {t['wrong']}/{t['cells']} "
                  f"({100 * t['wrong'] / cells:.2f}%), '?' {t['?']} "
                  f"({100 * t['?'] / cells:.2f}%)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
