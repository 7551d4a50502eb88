"""Kivy set-up for the UI tests: one off-screen window for the whole run, quiet logs, a
throw-away KIVY_HOME, and a fixture that starts the real app in that window."""

import logging
import os
import shutil
import tempfile

# Kivy reads these when it is first imported, so they come before any kivy import.
_KIVY_HOME = tempfile.mkdtemp(prefix="kivy-home-")
os.environ["KIVY_HOME"] = _KIVY_HOME
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_LOG_MODE"] = "PYTHON"  # logs through logging; stderr stays Python's own
os.environ["KIVY_NO_FILELOG"] = "1"
logging.getLogger("kivy").setLevel(logging.WARNING)

import pytest  # noqa: E402

from companion.ui.env import prepare_kivy  # noqa: E402

prepare_kivy(size=(1280, 800), fullscreen=False, virtual_keyboard=False, max_fps=0)


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(_KIVY_HOME, ignore_errors=True)


@pytest.fixture(autouse=True)
def lasting_banner(monkeypatch):
    """The banner's message stays a minute, not its few seconds: what a test reads there
    once the screen settled is still there on a slow machine. A test of the banner's own
    timing sets its own."""
    from companion.ui import widgets

    monkeypatch.setattr(widgets, "BANNER_SECONDS", 60.0)


@pytest.fixture
def start_app():
    """``start_app(size=(800, 480), **app_kwargs)``: the real CompanionApp in the window."""
    from companion.ui.app import CompanionApp
    from tools.driver import AppDriver

    drivers = []

    def start(size=(800, 480), **kwargs):
        kwargs.setdefault("start_game", lambda header: None)
        start_game = kwargs.pop("start_game")
        driver = AppDriver(CompanionApp(start_game, **kwargs), size)
        drivers.append(driver)
        return driver

    yield start
    for driver in drivers:
        driver.close()
