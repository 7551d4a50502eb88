"""A USB (or any OpenCV-reachable) camera by index."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from .base import LiveSource, SourceError, monotonic, quiet_opencv


class OpenCVCamera(LiveSource):
    """Camera ``index`` through ``cv2.VideoCapture``; ``size`` (width, height) asks for a
    resolution. ``capture`` makes the capture object (tests pass a fake camera)."""

    def __init__(
        self,
        index: int = 0,
        size: tuple[int, int] | None = (1280, 720),
        capture: Callable[[int], Any] | None = None,
        **live: Any,
    ) -> None:
        super().__init__(f"camera {index}", **live)
        self.index = index
        self.size = size
        self._capture_factory = capture or _open_capture
        self._cap: Any = None

    def __repr__(self) -> str:
        return f"OpenCVCamera({self.index})"

    def _connect(self) -> None:
        cap = self._capture_factory(self.index)
        if cap is None or not cap.isOpened():
            raise SourceError(f"camera {self.index}: no such camera, or it is busy")
        if self.size is not None:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        # Keep the driver's queue short: a stale buffered frame is worse than none.
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        ok, image = cap.read()
        if not ok or image is None:
            cap.release()
            raise SourceError(f"camera {self.index}: opens but gives no picture")
        self._cap = cap

    def _grab(self) -> tuple[np.ndarray, float] | None:
        if self._cap is None:
            return None
        ok, image = self._cap.read()
        if not ok or image is None:
            return None
        return image, monotonic()

    def _release(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


def _open_capture(index: int) -> Any:
    with quiet_opencv():
        return cv2.VideoCapture(index)
