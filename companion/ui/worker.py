"""One background thread for everything that may be slow (starting a game, a tap that commits
to disk, reading a calibration layout, saving a palette, exporting a record).

Jobs run one at a time in the order given, so taps reach the session in the order players
made them. Results and errors come back on Kivy's main thread through ``Clock``: widgets
are only ever changed there.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock

Job = tuple[Callable[[], Any], Callable[[Any], None] | None, Callable[[Exception], None] | None]


class Worker:
    def __init__(self, report: Callable[[Exception], None]) -> None:
        self._report = report
        self._jobs: queue.Queue[Job | None] = queue.Queue()
        self._pending = 0
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()
        self._thread = threading.Thread(target=self._loop, name="companion-ui-worker", daemon=True)
        self._thread.start()

    def submit(
        self,
        job: Callable[[], Any],
        done: Callable[[Any], None] | None = None,
        failed: Callable[[Exception], None] | None = None,
    ) -> None:
        """Run ``job`` off the main thread; then ``done(result)`` or ``failed(error)`` on it
        (``failed`` defaults to the worker's ``report``)."""
        with self._lock:
            self._pending += 1
            self._idle.clear()
        self._jobs.put((job, done, failed))

    @property
    def busy(self) -> bool:
        return not self._idle.is_set()

    def wait(self, timeout: float = 10.0) -> bool:
        """Block until every submitted job has run (its callback is scheduled, not yet run)."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        self._jobs.put(None)

    def _loop(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            job, done, failed = item
            try:
                result = job()
            except Exception as err:  # the screen shows it; the app keeps running
                handler = failed or self._report
                Clock.schedule_once(lambda _dt, e=err, f=handler: f(e), 0)
            else:
                if done is not None:
                    Clock.schedule_once(lambda _dt, r=result, d=done: d(r), 0)
            with self._lock:
                self._pending -= 1
                if self._pending == 0:
                    self._idle.set()
