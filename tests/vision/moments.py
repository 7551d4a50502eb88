"""Moments of a game that can throw a tracker a row or column off (issue 11: a grid is
located on its true cells or not reported at all), built on the generator's table: a 5 x 5
grid inside a 7 x 7 layout whose last row may hold piles of cards in line with the grid's
columns (a discard pile, a player's cards laid down). With an edge line of the grid thinned
or cleared, the cards then fit a grid a line over as well as the true one. The camera shakes
by a pixel between frames. ``SCENES`` names each moment (see
``tests/bench/bench_tracker_scenes.py``); a scene gives its frames with their truth and the
frame its change starts at."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from tools.synthetic import Conditions, Scene, random_conditions, render_scene
from vision.reader import read_grid
from vision.tracker import GridTracker

from .scenes import GEMS, corner_error, shaken

LETTERS = np.array(list(GEMS))
SIDE = 7  # the layout's size; the grid lies at rows and columns 1..5
SHAKE = ((0, 0), (1, 0), (0, 1), (1, 1))
Layout = tuple[str, ...]


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    truth: tuple[str, ...] | None  # the grid's rows; None: no grid on the table
    corners: np.ndarray | None  # its outer corners in the picture


class Table:
    """One seed's table: camera, light, the grid's cards and the piles past its bottom."""

    def __init__(self, seed: int, piles: bool = True) -> None:
        shot = random_conditions(np.random.default_rng(seed), hand=False)
        self.seed = seed
        self.shot: Conditions = replace(shot, empty=0, clutter=0, tilt=min(shot.tilt, 10.0))
        rng = np.random.default_rng(seed + 300)
        self.rng = rng
        self.grid = LETTERS[rng.integers(len(LETTERS), size=25)].reshape(5, 5)
        self.piles = {(6, c): str(LETTERS[rng.integers(len(LETTERS))]) for c in (1, 3, 5)} \
            if piles else {}
        self.full = self.laid(self.grid)
        self.calm = self.render(self.full)

    def laid(self, grid: np.ndarray, top: int = 1, piles: dict | None = None) -> Layout:
        out = np.full((SIDE, SIDE), ".")
        out[top:top + 5, 1:6] = grid
        for (r, c), letter in (self.piles if piles is None else piles).items():
            out[r, c] = letter
        return tuple("".join(row) for row in out)

    def render(self, labels: Layout, hand: bool = False, glare: int = 0) -> Scene:
        shot = replace(self.shot, hand=True, glare=(self.shot.glare + glare) % 3) if hand \
            else self.shot
        # one rng seed for every frame: the cards lie where they lay
        return render_scene(np.random.default_rng(self.seed + 2), GEMS, SIDE, SIDE, shot,
                            labels=labels)

    def pitch(self) -> tuple[np.ndarray, np.ndarray]:
        centres = self.calm.card_quads.mean(axis=2)[1:6, 1:6]
        return (np.mean(centres[:, 1:] - centres[:, :-1], axis=(0, 1)),
                np.mean(centres[1:] - centres[:-1], axis=(0, 1)))

    def corners(self, scene: Scene | None = None, top: int = 1) -> np.ndarray:
        q = (scene or self.calm).card_quads
        return np.array([q[top, 1][0], q[top, 5][1], q[top + 4, 5][2], q[top + 4, 1][3]])

    def frame(self, labels: Layout, k: int = 0, *, hand: bool = False, heavy: bool = False,
              light: float = 1.0, moved: np.ndarray | None = None) -> Frame:
        """``labels`` shot with the shake of frame ``k``, a hand (``heavy``: and a sleeve
        from the corner over the grid's middle), the light times ``light``, the camera
        ``moved`` (pixels)."""
        image = self.render(labels, hand=hand or heavy, glare=k).image
        if heavy:
            image = self._sleeve(image, k)
        offset = np.array(SHAKE[k % 4], float) + (0 if moved is None else moved)
        image = shaken(image, *offset)
        if light != 1.0:
            image = cv2.convertScaleAbs(image, alpha=light)
        return Frame(image, tuple(r[1:6] for r in labels[1:6]), self.corners() + offset)

    def _sleeve(self, image: np.ndarray, k: int) -> np.ndarray:
        col, _ = self.pitch()
        centre = self.calm.card_quads[3, 3].mean(axis=0)
        r = np.linalg.norm(col) * (1.6 + 0.2 * (k % 2))
        x, y = (int(v) for v in centre + (0.2 * k, 0))
        return palm(image, (x, y), int(r), int(r * 1.2))


def palm(image: np.ndarray, at: tuple[int, int], half_width: int, half_height: int
         ) -> np.ndarray:
    """A palm (an ellipse ``half_width`` by ``half_height`` px round ``at``) and a forearm
    as wide running to the frame's corner, in skin tones: enough to hide the grid's middle
    from a search."""
    out = image.copy()
    cv2.ellipse(out, at, (half_width, half_height), 20, 0, 360, (120, 150, 205), -1)
    cv2.line(out, at, (out.shape[1] - 1, out.shape[0] - 1), (115, 145, 200), half_width)
    return out


def _set(labels: Layout, r: int, c: int, letter: str) -> Layout:
    rows = [list(x) for x in labels]
    rows[r][c] = letter
    return tuple("".join(x) for x in rows)


def thinned(labels: Layout, keep: int = 1) -> Layout:
    """The top row down to its first ``keep`` cards."""
    for c in range(1 + keep, 6):
        labels = _set(labels, 1, c, ".")
    return labels


Built = tuple[list[Frame], int]  # the frames, and where the change starts


def edge(t: Table) -> Built:
    line = ("top", "bottom", "left", "right")[t.seed % 4]
    labels = [list(x) for x in t.full]
    for k in range(1, 6):
        r, c = {"top": (1, k), "bottom": (5, k), "left": (k, 1), "right": (k, 5)}[line]
        labels[r][c] = "."
    cleared = tuple("".join(x) for x in labels)
    return [t.frame(t.full, 0), t.frame(t.full, 1)] + [t.frame(cleared, k) for k in range(6)], 2


def hand_rest(t: Table) -> Built:
    thin = thinned(t.full)
    frames = [t.frame(t.full, 0), t.frame(t.full, 1), t.frame(thin, 2), t.frame(thin, 3)]
    frames += [t.frame(thin, 0 if k % 3 else 1, heavy=True) for k in range(14)]
    return frames + [t.frame(thin, k) for k in range(6)], 4


def _lit(alpha: float) -> Callable[[Table], Built]:
    def build(t: Table) -> Built:
        thin = thinned(t.full)
        frames = [t.frame(t.full, 0), t.frame(t.full, 1)]
        frames += [t.frame(thin, k, light=alpha) for k in (2, 3)]
        frames += [t.frame(thin, k, heavy=True, light=alpha) for k in range(6)]
        return frames + [t.frame(thin, k, light=alpha) for k in range(6)], 2
    return build


def _changed(clear: bool) -> Callable[[Table], Built]:
    def build(t: Table) -> Built:
        now = thinned(t.full, 0 if clear else 1)
        frames = [t.frame(t.full, 0), t.frame(t.full, 1), t.frame(now, 2)]
        for k in range(8):  # play changes two cards of rows 2 to 5 a frame
            for _ in range(2):
                r, c = int(t.rng.integers(2, 6)), int(t.rng.integers(1, 6))
                now = _set(now, r, c, str(LETTERS[t.rng.integers(len(LETTERS))]))
            frames.append(t.frame(now, k))
        start = len(frames)
        frames += [t.frame(now, k, heavy=True) for k in range(6)]
        return frames + [t.frame(now, k) for k in range(6)], start
    return build


def _bumped(step: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Callable[[Table], Built]:
    def build(t: Table) -> Built:
        move = step(*t.pitch())
        frames = [t.frame(t.full, 0), t.frame(t.full, 1), t.frame(t.full, 2, hand=True),
                  t.frame(t.full, 3, hand=True, moved=move)]
        return frames + [t.frame(t.full, k, moved=move) for k in range(8)], 4
    return build


def _lifted(t: Table) -> list[Frame]:
    """The full grid, a hand over it, and the table bare of it (the piles taken too)."""
    bare = t.render(t.laid(np.full((5, 5), "."), piles={}), hand=True).image
    return [t.frame(t.full, 0), t.frame(t.full, 1), t.frame(t.full, 2, hand=True),
            Frame(bare, None, None)]


def _laid_at(t: Table, grid: np.ndarray, top: int, piles: dict,
             shots: list[tuple[int, bool]]) -> list[Frame]:
    """``grid`` laid from row ``top`` with ``piles``, shot as frames (k, with a hand?),
    each with its truth."""
    labels = t.laid(grid, top=top, piles=piles)
    corners = t.corners(t.render(labels), top=top)
    return [replace(t.frame(labels, k, hand=hand), truth=_grid_of(grid),
                    corners=corners + SHAKE[k % 4]) for k, hand in shots]


def relaid(t: Table) -> Built:
    piles = {(r + 1, c): x for (r, c), x in t.piles.items() if r + 1 < SIDE}
    shots = [(1, True)] + [(k, False) for k in range(8)]
    return _lifted(t) + _laid_at(t, t.grid, 2, piles, shots), 5


def relaid_up(t: Table) -> Built:
    """The grid lifted off and laid a row higher, a card short in its top row (one pile
    now lies a pitch past its bottom row, in line with the others): in the place it was
    set aside under the hand, the search may find the piles' row and four of the grid's."""
    grid = t.grid.copy()
    grid[0, t.seed % 5] = "."
    piles = {(r - 1, c): x for (r, c), x in t.piles.items()}
    return _lifted(t) + _laid_at(t, grid, 0, piles, [(k, False) for k in range(8)]), 4


def _grid_of(grid: np.ndarray) -> tuple[str, ...]:
    return tuple("".join(r) for r in grid)


def _slid(first_thinned: bool) -> Callable[[Table], Built]:
    def build(t: Table) -> Built:
        now = thinned(t.full) if first_thinned else t.full
        frames = [t.frame(now, 0), t.frame(now, 1)]
        for k in range(8):
            r = 2 + k % 4
            row = now[r]
            now = tuple(x if i != r else row[0] + row[5] + row[1:5] + row[6]
                        for i, x in enumerate(now))
            frames += [t.frame(now, k), t.frame(now, k + 1)]
        return frames, 2
    return build


def cascade(t: Table) -> Built:
    now = t.full
    frames = [t.frame(now, 0), t.frame(now, 1)]
    for k in range(6):
        rows = [list(x) for x in now]
        for c in range(1, 6):
            column = [rows[r][c] for r in range(1, 6)]
            dropped = [str(LETTERS[t.rng.integers(len(LETTERS))])] + column[:4]
            for r in range(1, 6):
                rows[r][c] = dropped[r - 1]
        now = tuple("".join(x) for x in rows)
        frames += [t.frame(now, k), t.frame(now, k + 1), t.frame(now, k + 2)]
    return frames, 2


def stills_thinned(t: Table) -> Built:
    thin = thinned(t.full)
    return [t.frame(thin, k) for k in range(6)], 0


SCENES: dict[str, Callable[[Table], Built]] = {
    "edge": edge,
    "hand_rest": hand_rest,
    "dim": _lit(0.85),
    "bright": _lit(1.35),
    "cards_changed": _changed(clear=False),
    "line_cleared_changed": _changed(clear=True),
    "bump_down": _bumped(lambda col, row: row),
    "bump_up": _bumped(lambda col, row: -row),
    "bump_side": _bumped(lambda col, row: col),
    "relaid": relaid,
    "relaid_up": relaid_up,
    "rows_slid": _slid(first_thinned=False),
    "cascade": cascade,
    "first_seen_thinned": _slid(first_thinned=True),
    "stills_thinned": stills_thinned,
}
ON_ITS_OWN = {"stills_thinned"}  # each picture read with no tracker


def verdict(reading, frame: Frame) -> str:
    if frame.truth is None:
        return "n" if reading.cells is None else "F"  # no grid on the table: F found one
    if reading.cells is None:
        return "N"
    if corner_error(reading.corners, frame.corners, 5) > 0.5:
        return "X"
    read, truth = "".join(reading.cells), "".join(frame.truth)
    return "W" if any(g not in (t, "?") for g, t in zip(read, truth, strict=True)) else "R"


def followed(name: str, seed: int, palette) -> tuple[str, int]:
    """Scene ``name`` on seed ``seed``'s table read frame by frame, by one tracker (each
    picture on its own for ``ON_ITS_OWN``): a :func:`verdict` per frame, and the frame its
    change starts at."""
    frames, start = SCENES[name](Table(seed))
    tracker = None if name in ON_ITS_OWN else GridTracker()
    out = ""
    for f in frames:
        reading = (read_grid(f.image, palette, 5, 5) if tracker is None
                   else tracker.read(f.image, palette))
        out += verdict(reading, f)
    return out, start
