"""One touch path per kind of session, in a real Kivy: a desktop session listens to SDL's
mouse events only; the kiosk reads the touchscreen itself and ignores the mouse presses SDL
makes of the same touch, and shows no cursor (Kivy issue 3801: one tap, two touches).
(Hardware set-up: no rule IDs of RULES.md.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion import touch

ROOT = Path(__file__).resolve().parents[2]
SCREEN = Path("/nonexistent/input/event4")  # the stand-in touchscreen: never opened here

TAP = textwrap.dedent(f"""
    import json
    from pathlib import Path
    import companion.ui.env as env

    env.touchscreens = lambda: iter([(Path("{SCREEN}"), "generic ft5x06 (79)")])
    env.prepare_kivy(size=(320, 240), fullscreen=False, virtual_keyboard=False)
    from kivy.base import EventLoop, _runTouchApp_prepare
    from kivy.config import Config
    from kivy.core.window import Window

    _runTouchApp_prepare()  # the providers the app would run with, made as App.run makes them
    providers = sorted((type(p).__name__, p.device) for p in EventLoop.input_providers)
    touches = []
    Window.bind(on_motion=lambda win, kind, event: touches.append([kind, event.device]))
    mouse = [p for p in EventLoop.input_providers if type(p).__name__ == "MouseMotionEventProvider"]
    for p in mouse:
        p.start()
    # What SDL hands the window for one tap on the touchscreen: a left press and release.
    Window.dispatch("on_mouse_down", 100, 100, "left", {{}})
    Window.dispatch("on_mouse_up", 100, 100, "left", {{}})
    for p in mouse:
        p.update(EventLoop._dispatch_input)
    EventLoop.dispatch_input()
    print(json.dumps({{"input": dict(Config.items("input")), "providers": providers,
                      "touches": touches, "cursor": bool(Window.show_cursor)}}))
""")


def run(env_extra: dict[str, str], tmp_path: Path) -> dict:
    session = ("DISPLAY", "WAYLAND_DISPLAY", touch.KIOSK_ENV)
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIVY_") and k not in session}
    env.update(KIVY_HOME=str(tmp_path), KIVY_NO_FILELOG="1", KIVY_NO_ARGS="1", **env_extra)
    done = subprocess.run([sys.executable, "-c", TAP], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_desktop_session_listens_to_sdls_mouse_only(tmp_path):
    got = run({}, tmp_path)  # not the kiosk (a desktop's DISPLAY would send SDL to X11 here)
    assert got["input"] == {"mouse": "mouse,disable_multitouch"}
    assert [name for name, _ in got["providers"]] == ["MouseMotionEventProvider",
                                                      "SDL2MotionEventProvider"]
    # SDL's own finger provider passes on nothing on Linux: the mouse is the one path.
    assert got["touches"] == [["begin", "mouse"], ["end", "mouse"]]
    assert got["cursor"] is True


def test_kiosk_reads_the_touchscreen_once_and_shows_no_cursor(tmp_path):
    got = run({touch.KIOSK_ENV: "1"}, tmp_path)
    assert got["input"] == {"touch_event4": f"hidinput,{SCREEN}"}
    assert [name for name, _ in got["providers"]] == ["HIDInputMotionEventProvider",
                                                      "SDL2MotionEventProvider"]
    assert got["touches"] == []  # SDL's mouse press from the same touch is not a second tap
    assert got["cursor"] is False


@pytest.mark.parametrize(
    ("env", "screens", "providers", "cursor"),
    [
        ({"DISPLAY": ":0"}, [SCREEN], touch.MOUSE, True),
        ({"WAYLAND_DISPLAY": "wayland-0", touch.KIOSK_ENV: "1"}, [SCREEN], touch.MOUSE, True),
        ({touch.KIOSK_ENV: "1"}, [], touch.MOUSE, True),  # no touchscreen: a mouse kiosk
        ({touch.KIOSK_ENV: "1"}, [SCREEN, Path("/dev/input/event7")],
         {"touch_event4": f"hidinput,{SCREEN}", "touch_event7": "hidinput,/dev/input/event7"},
         False),
    ],
)
def test_one_provider_per_touchscreen_or_the_mouse(env, screens, providers, cursor):
    setup = touch.input_setup(env, [(s, "touch") for s in screens])
    assert (setup.providers, setup.show_cursor) == (providers, cursor)
