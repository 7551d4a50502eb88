"""The camera's lens model from chessboard photos, and undistorting frames with it.

A cheap wide lens bends the straight rows of the grid; vision undistorts each frame with
this model (when one is saved) before it looks for the lattice.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from .errors import CameraError
from .files import check_header, load_json_file, write_json_atomic

VERSION = 1
_SUBPIX_WINDOW = (11, 11)
_SUBPIX_CRITERIA = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 1e-3)
_MIN_VIEWS = 3


class LensError(CameraError):
    """A lens model cannot be made or read: the message says what is wrong."""


@dataclass(frozen=True, eq=False)
class LensModel:
    """Pinhole camera matrix, OpenCV distortion coefficients, the image size they hold for,
    and the RMS reprojection error (pixels) of the calibration that made them."""

    camera_matrix: np.ndarray
    dist: np.ndarray
    image_size: tuple[int, int]  # (width, height)
    rms: float
    images_used: int = 0

    def __repr__(self) -> str:
        fx, fy = self.camera_matrix[0, 0], self.camera_matrix[1, 1]
        w, h = self.image_size
        return f"<LensModel {w}x{h} fx={fx:.1f} fy={fy:.1f} rms={self.rms:.3f}px>"

    def undistort(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` with the lens distortion removed (same size; the maps are cached)."""
        h, w = frame.shape[:2]
        map_x, map_y = self._maps(w, h)
        return cv2.remap(frame, map_x, map_y, cv2.INTER_LINEAR)

    def undistort_points(self, points: np.ndarray) -> np.ndarray:
        """Pixel coordinates (N, 2) in the distorted frame -> in the undistorted frame."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
        matrix = self._scaled_matrix(*self.image_size)
        out = cv2.undistortPoints(pts, matrix, self.dist, P=matrix)
        return out.reshape(-1, 2)

    def _scaled_matrix(self, w: int, h: int) -> np.ndarray:
        """The camera matrix for frames of another size (the camera streams scaled frames)."""
        sx, sy = w / self.image_size[0], h / self.image_size[1]
        return np.diag([sx, sy, 1.0]) @ self.camera_matrix

    def _maps(self, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
        cache = self.__dict__.setdefault("_map_cache", {})
        if (w, h) not in cache:
            matrix = self._scaled_matrix(w, h)
            cache[(w, h)] = cv2.initUndistortRectifyMap(
                matrix, self.dist, None, matrix, (w, h), cv2.CV_16SC2
            )
        return cache[(w, h)]

    def to_json(self) -> dict[str, object]:
        return {
            "format": "nizam-lens",
            "version": VERSION,
            "image_size": list(self.image_size),
            "camera_matrix": self.camera_matrix.tolist(),
            "dist": self.dist.ravel().tolist(),
            "rms": self.rms,
            "images_used": self.images_used,
        }

    @classmethod
    def from_json(cls, obj: object) -> LensModel:
        obj = check_header(obj, "nizam-lens", "lens model", VERSION, LensError)
        try:
            matrix = np.asarray(obj["camera_matrix"], dtype=np.float64).reshape(3, 3)
            dist = np.asarray(obj["dist"], dtype=np.float64).ravel()
            w, h = (int(v) for v in obj["image_size"])
            rms = float(obj["rms"])
            used = int(obj.get("images_used", 0))
        except (KeyError, TypeError, ValueError) as err:
            raise LensError(f"lens model is damaged: {type(err).__name__}: {err}") from None
        if not (np.all(np.isfinite(matrix)) and np.all(np.isfinite(dist)) and w > 0 and h > 0):
            raise LensError("lens model is damaged: non-finite values or empty image size")
        if not (matrix[0, 0] > 0 and matrix[1, 1] > 0 and matrix[2, 2] != 0):
            raise LensError("lens model is damaged: its focal lengths must be above 0")
        if dist.size not in (4, 5, 8, 12, 14):
            raise LensError(f"lens model is damaged: {dist.size} distortion coefficients")
        return cls(matrix, dist, (w, h), rms, used)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the model as versioned JSON, atomically."""
        write_json_atomic(path, self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> LensModel:
        """Read a lens file; LensError saying what is wrong otherwise."""
        return load_json_file(path, "lens model", LensError, cls.from_json)


def find_board(gray: np.ndarray, board: tuple[int, int]) -> np.ndarray | None:
    """The chessboard's inner corners (N, 1, 2) refined to sub-pixel, or None if not seen."""
    flags = cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE
    found, corners = cv2.findChessboardCorners(gray, board, flags=flags)
    if not found:
        return None
    return cv2.cornerSubPix(gray, corners, _SUBPIX_WINDOW, (-1, -1), _SUBPIX_CRITERIA)


SQUARE_MM = (1.0, 500.0)
"""The side of a printed chessboard square, generously: far outside it OpenCV's solver
overflows and fails, where the user only mistyped the size."""


def calibrate_camera(
    images: Iterable[np.ndarray], board: tuple[int, int] = (9, 6), square_mm: float = 25.0
) -> LensModel:
    """A lens model from photos of a chessboard with ``board`` inner corners (columns, rows).

    Photos where the board is not found are skipped; at least three views must remain.
    """
    cols, rows = board
    if cols < 2 or rows < 2:
        raise LensError(f"board {cols}x{rows}: it needs at least 2x2 inner corners")
    if not (math.isfinite(square_mm) and square_mm > 0):
        raise LensError(f"square size must be positive, not {square_mm}")
    low, high = SQUARE_MM
    if not low <= square_mm <= high:
        raise LensError(f"square size {square_mm:g} mm: a printed board square is {low:g} "
                        f"to {high:g} mm")
    grid = np.zeros((rows * cols, 3), np.float32)
    grid[:, :2] = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2) * square_mm
    object_points, image_points = [], []
    size: tuple[int, int] | None = None
    for image in images:
        gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        h, w = gray.shape[:2]
        if size is None:
            size = (w, h)
        elif size != (w, h):
            raise LensError(f"images differ in size: {size[0]}x{size[1]} and {w}x{h}")
        corners = find_board(gray, board)
        if corners is not None:
            object_points.append(grid)
            image_points.append(corners)
    if size is None:
        raise LensError("no images given")
    if len(image_points) < _MIN_VIEWS:
        raise LensError(
            f"the {cols}x{rows} board was found in {len(image_points)} image(s); "
            f"at least {_MIN_VIEWS} are needed"
        )
    rms, matrix, dist, _, _ = cv2.calibrateCamera(object_points, image_points, size, None, None)
    return LensModel(matrix, dist.ravel(), size, float(rms), len(image_points))
