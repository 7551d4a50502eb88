"""Frames from a video file (anything OpenCV's FFmpeg can decode)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2

from .base import Frame, FrameSource, SourceError, quiet_opencv

VIDEO_SUFFIXES = {".mp4", ".avi", ".mov", ".mkv", ".webm", ".m4v", ".mjpeg", ".mjpg"}


class VideoFile(FrameSource):
    """Every frame of a video, timestamped by its position in the file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._cap: cv2.VideoCapture | None = None
        self.fps = 0.0
        self.frame_count = 0

    def __repr__(self) -> str:
        return f"VideoFile({str(self.path)!r})"

    def open(self) -> None:
        if not self.path.exists():
            raise SourceError(f"{self.path}: no such file")
        with quiet_opencv():
            cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            raise SourceError(f"{self.path}: not a readable video")
        self._cap = cap
        self.fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.frame_count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None

    def frames(self) -> Iterator[Frame]:
        if self._cap is None:
            self.open()
        cap = self._cap
        assert cap is not None
        index = 0
        while True:
            ok, image = cap.read()
            if not ok or image is None:
                return
            msec = cap.get(cv2.CAP_PROP_POS_MSEC)
            stamp = (
                msec / 1000.0
                if msec and msec > 0
                else (index / self.fps if self.fps > 0 else float(index))
            )
            yield Frame(image, stamp, index, str(self.path))
            index += 1
