"""A capture thread where the newest frame wins.

Reading a grid takes longer than a camera takes to deliver a frame; a queue would fall
further and further behind. Instead a thread keeps pulling frames and keeps only the last
one; whoever reads gets the newest frame it has not seen yet, and the ones it never got
are counted as dropped.
"""

from __future__ import annotations

import threading

from .base import Frame, FrameSource, SourceError


class LatestFrame:
    """Run ``source`` on a thread; ``get`` the newest frame. Use as a context manager or
    ``start``/``stop``. If the source fails, ``error`` holds its one-line message and
    ``ended`` is set; a file source ends when its frames run out."""

    def __init__(self, source: FrameSource) -> None:
        self.source = source
        self.dropped = 0
        self.error: str | None = None
        self._frame: Frame | None = None
        self._fresh = False
        self._ended = False
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> LatestFrame:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        """Open the source (errors are raised here, in the caller's thread) and start."""
        self.source.open()
        self._thread = threading.Thread(
            target=self._run, name=f"capture {self.source!r}", daemon=True
        )
        self._thread.start()

    def _run(self) -> None:
        try:
            for frame in self.source.frames():
                with self._cond:
                    if self._fresh:
                        self.dropped += 1
                    self._frame, self._fresh = frame, True
                    self._cond.notify_all()
        except (SourceError, OSError) as err:
            self.error = str(err)
        finally:
            with self._cond:
                self._ended = True
                self._cond.notify_all()

    @property
    def ended(self) -> bool:
        return self._ended

    def get(self, timeout: float | None = None) -> Frame | None:
        """The newest frame not returned before; None if none came within ``timeout``
        seconds or the source has ended."""
        with self._cond:
            self._cond.wait_for(lambda: self._fresh or self._ended, timeout)
            if not self._fresh:
                return None
            self._fresh = False
            return self._frame

    def stop(self) -> None:
        self.source.close()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
            self._thread = None
