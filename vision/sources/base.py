"""One interface for every way frames come in: files, video, a USB camera, the Pi camera.

A source is opened, iterated for ``Frame`` values (image, timestamp, index) and closed; it
is also a context manager. Bad input is a ``SourceError`` (a ``ValueError``) with one line
saying what is wrong. A live source (a camera) that loses its camera keeps trying to get it
back, waiting a little longer each time, so the app stays up; it reports the trouble
through ``status``.
"""

from __future__ import annotations

import contextlib
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.camera import CameraLock
from calibration.errors import CameraError


class SourceError(CameraError):
    """A source cannot be opened or read: the message says what is wrong."""


@dataclass(frozen=True, eq=False)
class Frame:
    """One image (BGR uint8), when it was taken (seconds; a camera's clock or position in
    the file) and its number from 0 in this source."""

    image: np.ndarray
    timestamp: float
    index: int
    name: str = ""

    def __repr__(self) -> str:
        h, w = self.image.shape[:2]
        return f"<Frame {self.index} {w}x{h} t={self.timestamp:.3f}s {self.name}>"


class FrameSource(ABC):
    """Frames from somewhere. ``open`` may raise ``SourceError``; iterating yields frames
    until the source ends (files) or ``close`` is called (cameras)."""

    live = False

    def __enter__(self) -> FrameSource:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[Frame]:
        return self.frames()

    @abstractmethod
    def open(self) -> None: ...

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def frames(self) -> Iterator[Frame]: ...

    def lock(self) -> CameraLock | None:
        """Freeze exposure, white balance and focus where the camera settles now (the
        source must be open), returning the settings to save beside the palette; None for a
        source that has nothing to freeze (files, video, USB cameras)."""
        return None


@contextlib.contextmanager
def quiet_opencv() -> Iterator[None]:
    """OpenCV prints its own warnings when a camera or file will not open; we say it in
    one line of our own instead."""
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        yield
    finally:
        cv2.utils.logging.setLogLevel(level)


class LiveSource(FrameSource):
    """A camera: connect, grab frames; when a grab fails, let go and reconnect, waiting
    ``retry_delay`` seconds (doubling up to ``max_delay``) between attempts. ``retries``
    None keeps trying for ever; a number gives up after that many failed attempts in a row
    with a ``SourceError``. ``on_status`` hears one line per change ("camera 0 lost,
    reconnecting", "camera 0 back")."""

    live = True

    def __init__(
        self,
        name: str,
        retry_delay: float = 0.5,
        max_delay: float = 5.0,
        retries: int | None = None,
        on_status: Callable[[str], None] | None = None,
    ) -> None:
        self.name = name
        self.retry_delay = retry_delay
        self.max_delay = max_delay
        self.retries = retries
        self.on_status = on_status
        self.status = "closed"
        self._stop = threading.Event()
        self._index = 0

    @abstractmethod
    def _connect(self) -> None:
        """Open the device; raise SourceError if it is not there."""

    @abstractmethod
    def _grab(self) -> tuple[np.ndarray, float] | None:
        """The next image and its timestamp, or None when the device stopped answering."""

    @abstractmethod
    def _release(self) -> None: ...

    def _say(self, status: str) -> None:
        self.status = status
        if self.on_status is not None:
            self.on_status(f"{self.name}: {status}")

    def open(self) -> None:
        self._stop.clear()
        self._connect()
        self._say("open")

    def close(self) -> None:
        self._stop.set()
        self._release()
        self.status = "closed"

    def frames(self) -> Iterator[Frame]:
        while not self._stop.is_set():
            got = self._grab()
            if got is None:
                if self._stop.is_set() or not self._reconnect():
                    return
                continue
            image, stamp = got
            yield Frame(image, stamp, self._index, self.name)
            self._index += 1

    def _reconnect(self) -> bool:
        """Try to get the device back; False if closed meanwhile. Raises SourceError when
        ``retries`` attempts failed."""
        self._say("lost, reconnecting")
        self._release()
        delay, failures = self.retry_delay, 0
        while not self._stop.is_set():
            if self.retries is not None and failures >= self.retries:
                self.status = "gone"
                raise SourceError(f"{self.name}: lost and not back after {failures} attempts")
            if self._stop.wait(delay):
                return False
            try:
                self._connect()
            except SourceError:
                failures += 1
                delay = min(self.max_delay, delay * 2)
                continue
            self._say("back")
            return True
        return False


def monotonic() -> float:
    return time.monotonic()
