"""A watcher's own thread: what the table watcher and the stone watcher share.

Each reads frames on a daemon thread of its own, started once and stopped by ``close`` from
the screen's thread; a frame feed may wait a long time for a frame (a camera reconnecting),
so the feed's trouble report, which it calls between frames, is where a waiting feed learns
it must let go of the camera.

>>> class Counter(WatcherThread):
...     def _run(self) -> None:
...         while not self._stop.wait(0.001):
...             pass
>>> counter = Counter("counter").start()
>>> counter.running
True
>>> counter.close(); counter.running
False
"""

from __future__ import annotations

import threading
from typing import Self


class Stopped(Exception):
    """Raised inside a frame feed once its watcher is closed: leaving the feed closes it,
    and with it the camera."""


class WatcherThread:
    """``start`` runs ``_run`` on a daemon thread named ``name``; ``_run`` returns soon
    after ``_stop`` is set, which ``close`` does before waiting for it."""

    JOIN_TIMEOUT = 5.0
    """Seconds ``close`` waits: a feed stuck in a driver must not hang the screen for ever."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _run(self) -> None:
        raise NotImplementedError

    def start(self) -> Self:
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=self.JOIN_TIMEOUT)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _unless_stopped(self) -> None:
        """Raise ``Stopped`` once ``close`` was called (from a feed's report)."""
        if self._stop.is_set():
            raise Stopped
