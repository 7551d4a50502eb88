"""Waiting in tests for work on another thread (a worker job, a capture or watcher thread)."""

from __future__ import annotations

import time
from collections.abc import Callable

PATIENCE = 60.0
"""Seconds a test waits at most: generous, as a loaded 2-core CI machine may run a thread
late; every wait ends as soon as what it waits for holds."""


def wait_for(predicate: Callable[[], object], seconds: float = PATIENCE,
             step: Callable[[], object] | None = None) -> bool:
    """Poll ``predicate`` until it holds or ``seconds`` pass (calling ``step`` between
    polls, e.g. to draw the app's frames); whether it held."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        if step is not None:
            step()
        time.sleep(0.01)
    return bool(predicate())
