"""Kivy's settings are in place before Kivy is first imported, on the command line's path
too, and starting the touchscreen logs nothing critical (no clipboard probing tracebacks)."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

STARTS = textwrap.dedent("""
    import sys
    from companion.cli import app_cmd  # what `companion` imports before it opens the app
    import companion.ui
    from companion.ui.hooks import CalibrationHooks

    assert "kivy" not in sys.modules, "kivy was imported before prepare_kivy"
    from companion.ui.env import prepare_kivy

    prepare_kivy(size=(320, 240), fullscreen=False, virtual_keyboard=False)
    from kivy.base import EventLoop

    EventLoop.ensure_window()
    from kivy.uix.textinput import TextInput  # the start screen's names: it loads the clipboard

    TextInput()
    print("window open")
""")


def test_the_app_starts_without_importing_kivy_early_or_logging_critical(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIVY_")}
    env.update(KIVY_HOME=str(tmp_path), KIVY_NO_FILELOG="1")
    done = subprocess.run([sys.executable, "-c", STARTS], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "window open" in done.stdout
    log = done.stdout + done.stderr
    assert "CRITICAL" not in log and "Traceback" not in log, log[-2000:]
