"""Cube faces bigger than any shared photo shows (5 x 5 to 8 x 8 stickers), made of a real
face's own stickers: the face seen top-down, cut into its stickers (each with the black
plastic around it), the stickers drawn at random into a bigger grid, and that grid shrunk
into the face's place in the photo. The stickers' colours, the light, the camera and the
clutter around stay the real photo's; only their number and size change.

Each face is read with the colours learned from the other faces of its cube as they were
photographed (where those show every colour it does), as bench_real_variants reads them, so
no pixel read was learned from. A sticker drawn many times weighs as much as it is drawn: an
odd one (a white in a bluish shadow) shows in every face made of its own.

    .venv/bin/python tests/bench/bench_bigger_faces.py [--draws 3]

Prints, per cube and size, faces, grids found, stickers right, '?' and wrong (sure: at or
above the palette's confidence threshold); asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from bench_real_variants import cube_faces, figures, read_scored  # noqa: E402

from vision.lattice import GridGeometry, find_grid  # noqa: E402

SIZES = (5, 6, 7, 8)
STICKER = 96  # pixels a sticker spans in the top-down view


def drawn_letters(picks: np.ndarray, letters: str) -> str:
    """The letters of a bigger face, row by row, whose stickers are ``picks`` (m, m) of a
    face's own (indices into its ``letters``, row by row).

    >>> drawn_letters(np.array([[0, 3], [1, 1]]), "RGBW")
    'RWGG'
    """
    return "".join(letters[k] for k in picks.ravel())


def bigger_face(image: np.ndarray, grid: GridGeometry, letters: str, size: int,
                rng: np.random.Generator) -> tuple[np.ndarray, str]:
    """``image`` with its n x n face (found at ``grid``, stickers ``letters``) replaced by one
    of ``size`` x ``size`` of its own stickers, drawn at random; and that face's letters."""
    n = grid.rows
    to_grid = np.diag([1 / STICKER, 1 / STICKER, 1.0])  # top-down pixels -> grid units
    to_image = grid.homography @ to_grid
    top = cv2.warpPerspective(image, to_image, (n * STICKER, n * STICKER),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    picks = rng.integers(0, n * n, (size, size))
    rows, cols = np.divmod(picks, n)
    made = np.zeros((size * STICKER, size * STICKER, 3), np.uint8)
    for r in range(size):
        for c in range(size):
            sr, sc = rows[r, c] * STICKER, cols[r, c] * STICKER
            made[r * STICKER:(r + 1) * STICKER, c * STICKER:(c + 1) * STICKER] = \
                top[sr:sr + STICKER, sc:sc + STICKER]
    face = cv2.resize(made, (n * STICKER, n * STICKER), interpolation=cv2.INTER_AREA)
    h, w = image.shape[:2]
    back = cv2.warpPerspective(face, to_image, (w, h), flags=cv2.INTER_LINEAR)
    inside = cv2.warpPerspective(np.full(face.shape[:2], 255, np.uint8), to_image, (w, h),
                                 flags=cv2.INTER_NEAREST)
    # a pixel's width in from the face's edge: past it the warp blends in black
    inside = cv2.erode(inside, np.ones((3, 3), np.uint8)) > 0
    out = image.copy()
    out[inside] = back[inside]
    return out, drawn_letters(picks, letters)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--draws", type=int, default=3, help="bigger faces made of each face, per size")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    print(f"{'cube, size':22s} faces, found, right, '?', wrong (sure)")
    rng = np.random.default_rng(11)
    everything = np.zeros(5, int)
    count = 0
    read = cube_faces()
    for name in dict.fromkeys(cube for cube, *_ in read):
        totals = {size: np.zeros(5, int) for size in SIZES}
        made_faces = 0
        for _, image, n, letters, palette in (face for face in read if face[0] == name):
            grid = find_grid(image, n, n)
            if grid is None:
                continue
            made_faces += args.draws
            for size in SIZES:
                for _ in range(args.draws):
                    made, truth = bigger_face(image, grid, letters, size, rng)
                    totals[size] += read_scored(made, palette, size, size, truth)
        for size, t in totals.items():
            print(f"{name + f', {size}x{size}':22s} {made_faces}, {figures(t)}")
            everything += t
        count += made_faces * len(SIZES)
    print(f"{'all':22s} {count}, {figures(everything)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
