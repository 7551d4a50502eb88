"""The real photos of ../shared/data seen another way: as if from lower down the table or off
to one side, turned (a little, or held upright: a quarter turn), at another size, exposure or
white balance, blurred, noisier, saved as a poorer JPEG, half in shadow, under a lamp's glare,
through another tone curve, or as a phone takes them (three times the size, vivid,
contrasty).

    .venv/bin/python tests/bench/bench_real_variants.py [VARIANT ...]

SET cards: colours learned on each photo as it is, the other three read in the variant
(4 x 3 = 12 readings of 12 cards); and colours learned on three photos at once, the fourth read
in the variant (4 readings: a player's own cards, learned from boards of the same deck that
other people laid). Cube faces: each face read in the variant with a palette
learned from the other faces of its set as they are (where those show every class). Prints,
per variant, grids found, cells right, '?' and wrong (and wrong at or above the palette's
confidence threshold); asserts nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from calibration import learn_palette  # noqa: E402
from calibration.palette import DEFAULT_MIN_CONFIDENCE as SURE  # noqa: E402
from calibration.palette import Palette  # noqa: E402
from tests.vision.scenes import cube_photos, imread, set_card_photos  # noqa: E402
from vision.cells import extract_patches  # noqa: E402
from vision.lattice import find_grid  # noqa: E402
from vision.reader import read_grid  # noqa: E402

Variant = Callable[[np.ndarray], np.ndarray]


def keystone(image: np.ndarray, inset: float) -> np.ndarray:
    """The top edge narrowed by ``inset`` of the width at each end: seen from lower down."""
    h, w = image.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[inset * w, 0], [(1 - inset) * w, 0], [w, h], [0, h]])
    homography = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(image, homography, (w, h), borderMode=cv2.BORDER_REPLICATE)


def turned(image: np.ndarray, degrees: float) -> np.ndarray:
    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    return cv2.warpAffine(image, m, (w, h), borderMode=cv2.BORDER_REPLICATE)


def gains(image: np.ndarray, bgr: tuple[float, float, float]) -> np.ndarray:
    return np.clip(image * np.float32(bgr), 0, 255).astype(np.uint8)


def tone(image: np.ndarray, gamma: float) -> np.ndarray:
    table = np.clip(255 * (np.arange(256) / 255.0) ** gamma, 0, 255).astype(np.uint8)
    return cv2.LUT(image, table)


def scaled(image: np.ndarray, factor: float) -> np.ndarray:
    h, w = image.shape[:2]
    how = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
    return cv2.resize(image, (round(w * factor), round(h * factor)), interpolation=how)


def shadow(image: np.ndarray, depth: float) -> np.ndarray:
    h, w = image.shape[:2]
    mask = np.ones((h, w), np.float32)
    mask[:, : w // 2] = depth
    mask = cv2.GaussianBlur(mask, (0, 0), w / 40)
    return np.clip(image * mask[..., None], 0, 255).astype(np.uint8)


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], 1)


def noisy(image: np.ndarray, sigma: float) -> np.ndarray:
    grain = np.random.default_rng(0).normal(0, sigma, image.shape)
    return np.clip(image + grain, 0, 255).astype(np.uint8)


def saturation(image: np.ndarray, factor: float) -> np.ndarray:
    """Colours pulled towards (factor < 1) or pushed away from their grey: a camera's colour
    matrix, or a washed-out print."""
    f = image.astype(np.float32)
    grey = f.mean(axis=2, keepdims=True)
    return np.clip(grey + factor * (f - grey), 0, 255).astype(np.uint8)


def s_curve(image: np.ndarray, strength: float) -> np.ndarray:
    """A contrasty tone curve (a phone's): shadows darker, highlights brighter."""
    x = np.arange(256) / 255.0
    y = x + strength * np.sin(2 * np.pi * x) / (-2 * np.pi)
    return cv2.LUT(image, np.clip(255 * y, 0, 255).astype(np.uint8))


def glare(image: np.ndarray, strength: float, size: float = 0.1) -> np.ndarray:
    """A lamp's reflection on glossy cards: white light laid over a soft spot that stays in
    one place in the picture whatever lies under it (a screen blend: ``strength`` of the way
    to white at its middle, the spot's radius ``size`` of the picture's width), in the
    picture's middle: over the grid, or beside it, as the set-up places the grid."""
    h, w = image.shape[:2]
    y, x = np.ogrid[:h, :w]
    r2 = ((x - 0.5 * w) ** 2 + (y - 0.5 * h) ** 2) / (size * w) ** 2
    veil = (strength * np.exp(-2.0 * r2)).astype(np.float32)[..., None]
    f = image.astype(np.float32)
    return np.clip(f + (255.0 - f) * veil, 0, 255).astype(np.uint8)


def quarter_turns(image: np.ndarray, turns: int) -> np.ndarray:
    """Turned by ``turns`` quarter turns clockwise: a phone held upright (1) or the other way
    round (2) over a board laid out landscape."""
    return np.ascontiguousarray(np.rot90(image, -turns))


def phone(image: np.ndarray) -> np.ndarray:
    """As a phone takes it: three times the size, colours more vivid, a little contrastier."""
    return s_curve(saturation(scaled(image, 3.0), 1.3), 0.3)


def side(image: np.ndarray, inset: float) -> np.ndarray:
    """Seen from off to the right: the left edge shortened."""
    turned_in = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    return cv2.rotate(keystone(turned_in, inset), cv2.ROTATE_90_COUNTERCLOCKWISE)


VARIANTS: dict[str, Variant] = {
    "as taken": lambda i: i,
    "half size": lambda i: scaled(i, 0.5),
    "1.5x size": lambda i: scaled(i, 1.5),
    "turned 12 deg": lambda i: turned(i, 12),
    "turned -18 deg": lambda i: turned(i, -18),
    "from lower (12%)": lambda i: keystone(i, 0.12),
    "from lower (20%)": lambda i: keystone(i, 0.20),
    "from the side (15%)": lambda i: side(i, 0.15),
    "exposure x0.5": lambda i: gains(i, (0.5, 0.5, 0.5)),
    "exposure x0.7": lambda i: gains(i, (0.7, 0.7, 0.7)),
    "exposure x1.3": lambda i: gains(i, (1.3, 1.3, 1.3)),
    "warmer": lambda i: gains(i, (0.65, 0.85, 1.0)),
    "cooler": lambda i: gains(i, (1.0, 0.9, 0.7)),
    "half in shadow": lambda i: shadow(i, 0.5),
    "blurred": lambda i: cv2.GaussianBlur(i, (0, 0), 1.5),
    "jpeg q35": lambda i: jpeg(i, 35),
    "noise 8": lambda i: noisy(i, 8.0),
    "tone curve 0.6": lambda i: tone(i, 0.6),
    "tone curve 1.6": lambda i: tone(i, 1.6),
    "3x size (a phone's)": lambda i: scaled(i, 3.0),
    "upright (turned 90 deg)": lambda i: i,
    "upside down": lambda i: i,
    "vivid (saturation x1.4)": lambda i: saturation(i, 1.4),
    "a lamp's glare": lambda i: glare(i, 0.5),
    "a lamp's glare, strong": lambda i: glare(i, 0.9),
    "a phone's look": phone,
    "a phone's, upright": phone,
}
QUARTER_TURNS = {"upright (turned 90 deg)": 1, "upside down": 2, "a phone's, upright": 1}
"""Variants whose picture is then turned whole, by this many quarter turns clockwise
(:func:`quarter_turns`): the grid is read as the turned picture shows it."""


def turned_truth(truth: str, rows: int, cols: int, turns: int) -> tuple[int, int, str]:
    """A layout of ``rows`` x ``cols`` (``truth`` row by row) turned as :func:`quarter_turns`
    turns its picture: its rows, columns and letters row by row.

    >>> turned_truth("abcdef", 2, 3, 1)
    (3, 2, 'daebfc')
    """
    grid = np.rot90(np.array(list(truth)).reshape(rows, cols), -turns)
    return grid.shape[0], grid.shape[1], "".join(grid.ravel())


def score(reading, truth: str) -> np.ndarray:
    """(right, '?', wrong, wrong and sure) for one reading."""
    if reading.cells is None:
        return np.array([0, len(truth), 0, 0])
    got = "".join(reading.cells)
    sure = reading.confidence.ravel() >= SURE
    wrong = np.array([g not in "?" and g != t for g, t in zip(got, truth, strict=True)])
    right = sum(g == t for g, t in zip(got, truth, strict=True))
    return np.array([right, got.count("?"), int(wrong.sum()), int((wrong & sure).sum())])


def layout(image: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The cells of a layout photo, as colours are learned from them."""
    return extract_patches(image, find_grid(image, rows, cols))


def read_scored(picture: np.ndarray, palette, rows: int, cols: int, truth: str) -> np.ndarray:
    """(grid found, right, '?', wrong, wrong and sure) for one picture read."""
    reading = read_grid(picture, palette, rows, cols)
    return np.array([reading.cells is not None, *score(reading, truth)])


def cube_faces() -> list[tuple[str, np.ndarray, int, str, Palette]]:
    """Each cube face photo (its cube's name, the picture, n, its stickers' letters row by row)
    with the colours learned from the other faces of its cube as photographed, where those
    show every colour it does."""
    faces: dict[str, list[tuple[np.ndarray, int, str]]] = {}
    for photo, n, rows in cube_photos():
        faces.setdefault(photo.parent.name, []).append((imread(photo), n, "".join(rows)))
    out = []
    for name, items in faces.items():
        for k, (image, n, truth) in enumerate(items):
            rest = items[:k] + items[k + 1 :]
            if set(truth) - set("".join(t for *_, t in rest)):
                continue
            out.append((name, image, n, truth, learn_palette([(layout(i, m, m), t)
                                                              for i, m, t in rest])))
    return out


def main() -> None:
    cv2.setNumThreads(1)
    names = sys.argv[1:] or list(VARIANTS)
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        sys.exit(f"unknown variant {unknown[0]!r}; variants: {', '.join(VARIANTS)}")
    sets = [(imread(p), labels) for p, labels in set_card_photos()]
    layouts = [(layout(i, 3, 4), t) for i, t in sets]
    set_palettes = [learn_palette([one]) for one in layouts]
    # board j read with the colours of the other three
    from_three = [learn_palette(layouts[:j] + layouts[j + 1 :]) for j in range(len(layouts))]
    cube_reads = [(image, n, truth, palette) for _, image, n, truth, palette in cube_faces()]
    print(f"{'variant':22s} SET: found/12, right/144, '?', wrong (sure) | SET, learned from "
          f"three: found/4, right/48, '?', wrong (sure) | cube faces: found/{len(cube_reads)}, "
          f"right/{sum(len(t) for _, _, t, _ in cube_reads)}, '?', wrong (sure)")
    for name in names:
        variant, turns = VARIANTS[name], QUARTER_TURNS.get(name, 0)
        # each board changed once, and read with every palette it is read with
        boards = [(quarter_turns(variant(image), turns), turned_truth(truth, 3, 4, turns))
                  for image, truth in sets]
        one = sum(read_scored(picture, palette, rows, cols, seen)
                  for k, palette in enumerate(set_palettes)
                  for j, (picture, (rows, cols, seen)) in enumerate(boards) if j != k)
        three = sum(read_scored(picture, palette, rows, cols, seen)
                    for palette, (picture, (rows, cols, seen)) in zip(from_three, boards,
                                                                       strict=True))
        cubes = sum(read_scored(quarter_turns(variant(image), turns), palette, n, n,
                                turned_truth(truth, n, n, turns)[2])
                    for image, n, truth, palette in cube_reads)
        print(f"{name:22s} SET {figures(one)} | from three {figures(three)} | cubes "
              f"{figures(cubes)}", flush=True)


def figures(totals: np.ndarray) -> str:
    found, right, unsure, wrong, sure = totals.tolist()
    return f"{found}, {right}, {unsure}, {wrong} ({sure})"


if __name__ == "__main__":
    main()
