"""One background thread for everything that may be slow (starting a game, a tap that commits
to disk, reading a calibration layout, saving a palette, exporting a record).

Jobs run one at a time in the order given (a one-thread ``concurrent.futures`` pool), so taps
reach the session in the order players made them. Results and errors come back on Kivy's main
thread through ``Clock``: widgets are only ever changed there.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import TypeVar

from kivy.clock import Clock

T = TypeVar("T")


class Worker:
    def __init__(self, report: Callable[[Exception], None]) -> None:
        self._report = report
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="companion-ui-worker")
        self._closed = False
        self._pending = 0
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()

    def submit(
        self,
        job: Callable[[], T],
        done: Callable[[T], None] | None = None,
        failed: Callable[[Exception], None] | None = None,
    ) -> None:
        """Run ``job`` off the main thread; then ``done(result)`` or ``failed(error)`` on it
        (``failed`` defaults to the worker's ``report``). Once closed, a job is not run."""
        with self._lock:
            if self._closed:
                return
            self._pending += 1
            self._idle.clear()
            future = self._pool.submit(job)
        future.add_done_callback(partial(self._finished, done, failed or self._report))

    @property
    def busy(self) -> bool:
        return not self._idle.is_set()

    def wait(self, timeout: float = 10.0) -> bool:
        """Block until every submitted job has run (its callback is scheduled, not yet run)."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        """Let the jobs given so far finish, without waiting for them; take no more."""
        with self._lock:
            self._closed = True
        self._pool.shutdown(wait=False)

    def _finished(self, done: Callable[[T], None] | None, failed: Callable[[Exception], None],
                  future: Future[T]) -> None:
        err = future.exception()
        if isinstance(err, Exception):  # the screen shows it; the app keeps running
            Clock.schedule_once(lambda _dt: failed(err), 0)
        elif err is not None:  # KeyboardInterrupt and the like: raised where the app runs
            Clock.schedule_once(partial(_raise, err), 0)
        elif done is not None:
            Clock.schedule_once(lambda _dt: done(future.result()), 0)
        with self._lock:
            self._pending -= 1
            if self._pending == 0:
                self._idle.set()


def _raise(err: BaseException, _dt: float) -> None:
    raise err
