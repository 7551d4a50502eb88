"""Watcher threads for the session tests: ``close`` may wait longer than on the Pi.

A test that checks what ``close`` leaves behind (the thread ended, the camera let go) must
not fail because a loaded CI machine took longer than the Pi's join bound to schedule the
watcher's thread; the wait still ends as soon as the thread does.
"""

import pytest

from companion.live.threads import WatcherThread


@pytest.fixture(autouse=True)
def patient_close(monkeypatch):
    monkeypatch.setattr(WatcherThread, "JOIN_TIMEOUT", 60.0)
