"""Shared test material: the gem colours synthetic scenes are drawn in, where the real
photos are, and a palette learned from one clean synthetic layout."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import learn_palette
from calibration.deck import NOMINAL_RGB
from tools.synthetic import (
    Conditions,
    Scene,
    random_conditions,
    render_scene,
    widened_conditions,
)
from vision.cells import extract_patches
from vision.lattice import find_grid

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"
SET_CARDS = DATA / "set-cards-webcam"
CUBES = DATA / "cube-photos"

GEMS = {letter: (b, g, r) for letter, (r, g, b) in NOMINAL_RGB.items() if letter != "*"}
CALM = Conditions(tilt=12.0, roll=4.0, jitter_mm=1.0, jitter_deg=1.5, cloth="felt", kelvin=5000.0)


def need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"real photos not here: {path}")
    return path


def set_card_photos() -> list[tuple[Path, str]]:
    """(photo, colour letters R/G/P in reading order) for the 3 x 4 SET layouts."""
    out = []
    for photo in sorted(need(SET_CARDS).glob("*.png")):
        lines = [ln for ln in photo.with_suffix(".txt").read_text().splitlines() if ln.strip()]
        out.append(
            (
                photo,
                "".join({"red": "R", "green": "G", "purple": "P"}[ln.split()[1]] for ln in lines),
            )
        )
    return out


def cube_photos() -> list[tuple[Path, int, list[str]]]:
    """(photo, n, rows of sticker letters as seen) for every cube-face photo."""
    out = []
    for labels in sorted(need(CUBES).glob("*/labels.json")):
        info = json.loads(labels.read_text())
        for side in info["sides"].values():
            out.append(
                (
                    labels.parent / side["image"],
                    int(info["cube_size"]),
                    list(side["labels_rowmajor_as_seen"]),
                )
            )
    return out


@functools.lru_cache(maxsize=1)
def drawn(state: int, inc: int, has_uint32: int, uinteger: int, hand: bool | None) -> Scene:
    """The scene the widened generator draws from this state of a PCG64 generator (as
    ``rng.bit_generator.state`` shows it) and ``hand`` (``bench_hands.py``'s draws): one
    scene of a bench's fresh draws, drawn alone for a test."""
    rng = generator_at(state, inc, has_uint32, uinteger)
    return render_scene(rng, GEMS, 5, 5, widened_conditions(rng, hand=hand))


def generator_at(state: int, inc: int, has_uint32: int, uinteger: int) -> np.random.Generator:
    """A PCG64 generator in this state (as ``rng.bit_generator.state`` shows it): where a
    bench's stream stood before one of its scenes, to draw that scene alone."""
    rng = np.random.default_rng()
    rng.bit_generator.state = {
        "bit_generator": "PCG64", "state": {"state": state, "inc": inc},
        "has_uint32": has_uint32, "uinteger": uinteger,
    }
    return rng


def line_cleared(seed: int, line: str) -> tuple[Conditions, tuple[str, ...], tuple[str, ...]]:
    """A camera, light and table, a full grid, and the same grid with one edge line bare."""
    shot = replace(random_conditions(np.random.default_rng(seed), hand=False), empty=0)
    letters = np.array(list(GEMS))
    cells = letters[np.random.default_rng(seed + 1).integers(len(letters), size=25)]
    full = tuple("".join(row) for row in cells.reshape(5, 5))
    bare = cells.reshape(5, 5).copy()
    bare[{"top": (0, slice(None)), "bottom": (4, slice(None)),
          "left": (slice(None), 0), "right": (slice(None), 4)}[line]] = "."
    return shot, full, tuple("".join(row) for row in bare)


Rows = tuple[str, ...]


def cards_past_the_grid(
    seed: int, cols: Sequence[int]
) -> tuple[Conditions, Rows, Rows, Rows, Rows]:
    """A camera and light over a plain cloth, and two layouts of six rows: a full grid with
    cards lying a pitch past its bottom row in columns ``cols`` (piles in line with the
    grid), the same with the grid's top row cleared; and the grid's truth (five rows) in
    each."""
    shot = replace(random_conditions(np.random.default_rng(seed), hand=False), empty=0,
                   clutter=0)
    letters = np.array(list(GEMS))
    cells = letters[np.random.default_rng(seed + 1).integers(len(letters), size=30)]
    full = cells.reshape(6, 5).copy()
    full[5] = "."
    for col in cols:
        full[5, col] = cells[25 + col]
    cleared = full.copy()
    cleared[0] = "."
    rows = lambda a: tuple("".join(r) for r in a)  # noqa: E731
    return shot, rows(full), rows(cleared), rows(full[:5]), rows(cleared[:5])


def shaken(image: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """The picture as a camera that shook on its stand took it: moved by (dx, dy) pixels."""
    move = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])
    return cv2.warpAffine(image, move, image.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)


def gem_palette():
    """A palette learned from two calm synthetic layouts (the way a player calibrates)."""
    rng = np.random.default_rng(11)
    samples = []
    for _ in range(2):
        scene = render_scene(rng, GEMS, 5, 5, CALM)
        geometry = find_grid(scene.image, 5, 5)
        assert geometry is not None
        samples.append((extract_patches(scene.image, geometry), "".join(scene.labels)))
    return learn_palette(samples)


def corner_error(found: np.ndarray, truth: np.ndarray, cols: int) -> float:
    """Largest corner distance, in cell widths."""
    cell = np.linalg.norm(truth[1] - truth[0]) / cols
    return float(np.abs(found - truth).max() / cell)


def imread(path: Path) -> np.ndarray:
    image = cv2.imread(str(path))
    assert image is not None, path
    return image


def video(
    seed: int,
    frames: int,
    size: tuple[int, int] = (1280, 720),
    quiet: int = 5,
    reach: int = 3,
    conditions: Conditions | None = None,
    drift: float = 0.0,
    veil: float = 0.0,
) -> list[Scene]:
    """Frames of one 5 x 5 table seen by a fixed camera, in the rhythm of a game: ``quiet``
    frames of a still table, then ``reach`` frames with a hand over the grid, then still
    again with other cards, and so on. The hand moves; every frame has its own sensor
    noise. One seed draws one camera, cloth and light (``conditions``, or random ones):
    ``render_scene`` from the same seed with given labels draws the same scene up to the
    cards, the glare and the hand. ``drift``: the light changes over the video (a cloud
    passing the window, a lamp warming up): over one swing, the exposure by up to this share
    and the colour temperature by up to 2000 K times it. ``veil``: a veil of flare (the
    light's own colour over the picture, a share of full scale) growing to this over the
    video and going again."""
    shot = np.random.default_rng(seed)
    if conditions is None:
        conditions = random_conditions(shot, hand=False)
    layouts = np.random.default_rng(seed + 1)
    noise = np.random.default_rng(seed + 3)
    letters = np.array(list(GEMS))
    out: list[Scene] = []
    turn = max(1, quiet + reach)
    for k in range(frames):
        if k % turn == 0:  # the cards of this turn
            cells = letters[layouts.integers(len(letters), size=25)]
            cells[layouts.random(25) < 0.04] = "."
            labels = tuple("".join(cells[r * 5 : (r + 1) * 5]) for r in range(5))
        swing = math.sin(2 * math.pi * k / max(1, frames - 1))
        shot_k = replace(conditions, hand=False, empty=0,
                         exposure=conditions.exposure * (1 + drift * swing),
                         kelvin=float(np.clip(conditions.kelvin + 2000 * drift * swing,
                                              2500, 7500)),
                         veil=conditions.veil + veil * (1 - math.cos(2 * math.pi * k / max(
                             1, frames - 1))) / 2)
        if k % turn >= quiet:
            # The hand moves from frame to frame: it is drawn last, so drawing another
            # number of glare spots first puts it elsewhere.
            shot_k = replace(shot_k, hand=True, glare=(conditions.glare + k) % 3)
        scene = render_scene(
            np.random.default_rng(seed + 2), GEMS, 5, 5, shot_k, size=size, labels=labels
        )
        grain = noise.normal(0.0, 2.0, scene.image.shape)
        image = np.clip(scene.image + grain, 0, 255).astype(np.uint8)
        out.append(replace(scene, image=image))
    return out


def framed(image: np.ndarray, corners: np.ndarray, side: str, pitches: float,
           rows: int = 5, cols: int = 5) -> np.ndarray:
    """``image`` cut on ``side`` so its edge lies ``pitches`` cell pitches inside the grid's
    outermost corner there (``corners``: TL TR BR BL of a rows x cols grid)."""
    c = np.asarray(corners, float)
    pitch = (np.linalg.norm(c[1] - c[0]) / cols + np.linalg.norm(c[2] - c[3]) / cols
             + np.linalg.norm(c[3] - c[0]) / rows + np.linalg.norm(c[2] - c[1]) / rows) / 4
    cut = pitches * pitch
    h, w = image.shape[:2]
    if side == "left":
        out = image[:, max(int(c[:, 0].min() + cut), 0):]
    elif side == "right":
        out = image[:, :min(int(np.ceil(c[:, 0].max() - cut)), w)]
    elif side == "top":
        out = image[max(int(c[:, 1].min() + cut), 0):]
    else:
        out = image[:min(int(np.ceil(c[:, 1].max() - cut)), h)]
    return np.ascontiguousarray(out)
