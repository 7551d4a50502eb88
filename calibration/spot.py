"""The stone spot: where on the table a drawn stone is laid for the camera to read.

The Desert Sands' stones are read one at a time from a marked place on the table. The spot
is chosen once, in calibration, as a quad in the frame (its corners top-left, top-right,
bottom-right, bottom-left in pixels, for frames of ``image_size``); frames of another size
(the camera streams a scaled picture) scale it. The stone's colours are a palette of their
own (``calibration.palette``), learned from photos of each stone on the spot, saved beside it.

>>> spot = StoneSpot.around((32, 24), 10, image_size=(64, 48))
>>> spot
StoneSpot(quad=((27.0, 19.0), (37.0, 19.0), (37.0, 29.0), (27.0, 29.0)), image_size=(64, 48))
>>> StoneSpot.from_json(spot.to_json()) == spot
True
>>> spot.corners((128, 96))[0].tolist()
[54.0, 38.0]
>>> StoneSpot.from_points([(0, 10), (10, 10), (10, 0), (0, 0)]).quad[0]
(0.0, 0.0)
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import CameraError
from .files import read_json, write_json_atomic
from .store import config_dir

VERSION = 1
FORMAT = "nizam-stone-spot"
MIN_SIDE = 8.0
"""A spot narrower than this many pixels cannot show a stone's colour."""


class SpotError(CameraError):
    """A stone spot cannot be made, read or used: the message says what is wrong."""


Point = tuple[float, float]


@dataclass(frozen=True)
class StoneSpot:
    """Four corners (TL, TR, BR, BL) in pixels of frames ``image_size`` (width, height) big;
    ``image_size`` None means the corners hold for any frame as they are."""

    quad: tuple[Point, Point, Point, Point]
    image_size: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        try:
            quad = tuple((float(x), float(y)) for x, y in self.quad)
        except (TypeError, ValueError):
            raise SpotError(f"a spot is four (x, y) corners, not {self.quad!r}") from None
        if len(quad) != 4 or not all(math.isfinite(v) for p in quad for v in p):
            raise SpotError(f"a spot is four finite (x, y) corners, not {self.quad!r}")
        object.__setattr__(self, "quad", quad)
        if self.image_size is not None:
            try:
                w, h = (int(v) for v in self.image_size)
            except (TypeError, ValueError):
                raise SpotError(f"image_size is (width, height), not {self.image_size!r}") from None
            if w <= 0 or h <= 0:
                raise SpotError(f"image_size must be positive, not {self.image_size!r}")
            object.__setattr__(self, "image_size", (w, h))
        pts = np.array(quad)
        edges = np.roll(pts, -1, axis=0) - pts
        turns = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(
            edges, -1, axis=0)[:, 0]
        # Image y grows downwards: TL, TR, BR, BL turns clockwise on screen, positive here.
        if not np.all(turns > 0):
            raise SpotError("the spot's corners must go top-left, top-right, bottom-right, "
                            "bottom-left around a convex quad")
        if np.linalg.norm(edges, axis=1).min() < MIN_SIDE:
            raise SpotError(f"the spot is too small: each side needs {MIN_SIDE:.0f} pixels")

    @classmethod
    def around(cls, centre: Sequence[float], side: float,
               image_size: tuple[int, int] | None = None) -> StoneSpot:
        """An upright square of ``side`` pixels around ``centre`` (one tap on the picture)."""
        x, y = (float(v) for v in centre)
        r = float(side) / 2
        return cls(((x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)), image_size)

    @classmethod
    def from_points(cls, points: Sequence[Sequence[float]],
                    image_size: tuple[int, int] | None = None) -> StoneSpot:
        """Four corners tapped in any order, put in the order TL, TR, BR, BL."""
        pts = np.asarray(points, dtype=np.float64)
        if pts.shape != (4, 2):
            raise SpotError(f"four (x, y) corners are needed, not {len(pts)}")
        centre = pts.mean(axis=0)
        angle = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
        ring = pts[np.argsort(angle)]  # clockwise on screen, from the left side
        first = int(np.argmin(ring.sum(axis=1)))
        ring = np.roll(ring, -first, axis=0)
        return cls(tuple((float(x), float(y)) for x, y in ring), image_size)  # type: ignore[arg-type]

    def corners(self, frame_size: tuple[int, int] | None = None) -> np.ndarray:
        """(4, 2) float corners for a frame of ``frame_size`` (width, height)."""
        pts = np.array(self.quad)
        if frame_size is None or self.image_size is None:
            return pts
        scaled: np.ndarray = pts * (np.array(frame_size, float) / np.array(self.image_size, float))
        return scaled

    # -- files ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, object]:
        return {"format": FORMAT, "version": VERSION, "quad": [list(p) for p in self.quad],
                "image_size": list(self.image_size) if self.image_size else None}

    @classmethod
    def from_json(cls, obj: object) -> StoneSpot:
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise SpotError(f"not a stone spot (no 'format': '{FORMAT}')")
        if obj.get("version") != VERSION:
            raise SpotError(f"stone spot version {obj.get('version')!r} is not supported "
                            f"(this reads {VERSION})")
        quad, size = obj.get("quad"), obj.get("image_size")
        if not isinstance(quad, list):
            raise SpotError("the stone spot file has no 'quad' list of corners")
        return cls(tuple(quad), None if size is None else tuple(size))  # checked in __post_init__

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the spot as versioned JSON, atomically."""
        write_json_atomic(path, self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> StoneSpot:
        obj = read_json(path, "stone spot", SpotError)
        try:
            return cls.from_json(obj)
        except SpotError as err:
            raise SpotError(f"{path}: {err}") from None


def spot_path() -> Path:
    """Where the calibration saves the stone spot."""
    return config_dir() / "stone-spot.json"


def stone_palette_path() -> Path:
    """Where the calibration saves the stones' palette (apart from the cards' palette)."""
    return config_dir() / "stone-palette.json"


def saved_spot(path: str | Path | None = None) -> StoneSpot | None:
    """The spot in ``path`` (default: the saved one), or None when none was chosen yet."""
    if path is not None:
        return StoneSpot.load(path)
    default = spot_path()
    return StoneSpot.load(default) if default.exists() else None
