"""Where the grid's cells are on the screen: camera picture → crop → widget, and back for taps.

Image coordinates are OpenCV's (x right, y down, pixels of the camera frame); widget
coordinates are Kivy's (x right, y up). Grid units put cell (row, col) (from 1) at
u in [col-1, col], v in [row-1, row], as vision's ``GridGeometry.homography`` does. The four
corners are the grid's outer boundary, TL TR BR BL, as vision reports them; the map between
grid units and the picture is OpenCV's four-point perspective transform.

>>> corners = [(100, 50), (600, 50), (600, 550), (100, 550)]
>>> grid = GridPlacement.from_corners(corners, rows=5, cols=5)
>>> [round(float(a)) for a in grid.to_image(2.5, 2.5)]
[350, 300]
>>> grid.cell_at(130, 80), grid.cell_at(590, 540), grid.cell_at(90, 80)
((1, 1), (5, 5), None)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.errors import CameraError

Box = tuple[float, float, float, float]
"""x0, y0, x1, y1 in image pixels."""


class CornersOnALine(CameraError):
    """Three of the grid's corners on one line: no grid can be drawn on the picture."""


ON_A_LINE = 1e-9
"""Three points whose triangle is smaller than this share of the corners' spread squared
are taken to lie on one line (no perspective map takes a square onto them)."""


def _on_a_line(points: np.ndarray) -> bool:
    spread = float(np.ptp(points, axis=0).max()) ** 2
    for a, b, c in itertools.combinations(points, 3):
        (x1, y1), (x2, y2) = b - a, c - a
        if abs(x1 * y2 - x2 * y1) <= ON_A_LINE * spread:
            return True
    return False


def _apply(h: np.ndarray, x: float, y: float) -> tuple[float, float]:
    p = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), h)[0, 0]
    return float(p[0]), float(p[1])


@dataclass(frozen=True)
class GridPlacement:
    """The grid as seen in the camera frame."""

    rows: int
    cols: int
    to_img: np.ndarray
    from_img: np.ndarray

    @classmethod
    def from_corners(
        cls, corners: np.ndarray | Sequence[Sequence[float]], rows: int = 5, cols: int = 5
    ) -> GridPlacement:
        pts = np.asarray(corners, np.float64).reshape(4, 2)
        if not np.isfinite(pts).all() or _on_a_line(pts):
            raise CornersOnALine("the grid's corners are degenerate (three on one line)")
        units = np.array([(0.0, 0.0), (cols, 0.0), (cols, rows), (0.0, rows)], np.float32)
        h = cv2.getPerspectiveTransform(units, pts.astype(np.float32))
        return cls(rows, cols, h, np.linalg.inv(h))

    def to_image(self, u: float, v: float) -> tuple[float, float]:
        return _apply(self.to_img, u, v)

    def cell_quad(self, row: int, col: int) -> list[tuple[float, float]]:
        """The cell's four corners in the image, TL TR BR BL."""
        u, v = col - 1, row - 1
        return [self.to_image(a, b) for a, b in ((u, v), (u + 1, v), (u + 1, v + 1), (u, v + 1))]

    def cell_centre(self, row: int, col: int) -> tuple[float, float]:
        return self.to_image(col - 0.5, row - 0.5)

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        u, v = _apply(self.from_img, x, y)
        if not (0 <= u < self.cols and 0 <= v < self.rows):
            return None
        return int(v) + 1, int(u) + 1

    def bounds(self) -> Box:
        pts = [self.to_image(u, v) for u, v in ((0, 0), (self.cols, 0), (self.cols, self.rows),
                                                (0, self.rows))]
        xs, ys = zip(*pts, strict=True)
        return min(xs), min(ys), max(xs), max(ys)


def crop_around(bounds: Box, frame_size: tuple[int, int], margin: float = 0.08) -> Box:
    """A crop of the frame that holds ``bounds`` with a margin, clipped to the frame.

    >>> crop_around((100, 100, 300, 200), (640, 480), margin=0.1)
    (80.0, 80.0, 320.0, 220.0)
    """
    x0, y0, x1, y1 = bounds
    w, h = frame_size
    pad = margin * max(x1 - x0, y1 - y0)
    return (max(0.0, x0 - pad), max(0.0, y0 - pad),
            min(float(w), x1 + pad), min(float(h), y1 + pad))


def steady_crop(previous: Box | None, wanted: Box, tolerance: float) -> Box:
    """Keep the previous crop while every edge of the wanted one is within ``tolerance`` px,
    so a grid that jitters by a pixel does not make the picture shake.

    >>> steady_crop((0, 0, 100, 100), (2, 1, 101, 99), tolerance=5)
    (0, 0, 100, 100)
    >>> steady_crop((0, 0, 100, 100), (20, 0, 100, 100), tolerance=5)
    (20, 0, 100, 100)
    """
    if previous is not None and all(
        abs(a - b) <= tolerance for a, b in zip(previous, wanted, strict=True)
    ):
        return previous
    return wanted


@dataclass(frozen=True)
class Fit:
    """A crop of the image shown inside a widget rectangle, aspect kept, centred.

    >>> fit = Fit.of((0, 0, 200, 100), (10, 20, 400, 400))
    >>> fit.scale, fit.to_widget(0, 0), fit.to_widget(200, 100)
    (2.0, (10.0, 320.0), (410.0, 120.0))
    >>> fit.to_image(210, 220)
    (100.0, 50.0)
    """

    crop: Box
    scale: float
    origin: tuple[float, float]  # widget position of the crop's bottom-left corner

    @classmethod
    def of(cls, crop: Box, rect: tuple[float, float, float, float]) -> Fit:
        x, y, w, h = rect
        cw, ch = crop[2] - crop[0], crop[3] - crop[1]
        scale = min(w / cw, h / ch) if cw > 0 and ch > 0 else 1.0
        ox = x + (w - cw * scale) / 2
        oy = y + (h - ch * scale) / 2
        return cls(crop, scale, (ox, oy))

    @property
    def size(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.crop
        return (x1 - x0) * self.scale, (y1 - y0) * self.scale

    def to_widget(self, x: float, y: float) -> tuple[float, float]:
        """Image pixel → widget point (y flips: images count down, Kivy up)."""
        return (
            self.origin[0] + (x - self.crop[0]) * self.scale,
            self.origin[1] + (self.crop[3] - y) * self.scale,
        )

    def to_image(self, x: float, y: float) -> tuple[float, float]:
        return (
            self.crop[0] + (x - self.origin[0]) / self.scale,
            self.crop[3] - (y - self.origin[1]) / self.scale,
        )
