"""Kivy's settings, made before Kivy is imported (it reads its environment on import)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from companion.touch import input_setup, touchscreens


def on_raspberry_pi() -> bool:
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False


def prepare_kivy(
    size: tuple[int, int] | None = None,
    fullscreen: bool | None = None,
    virtual_keyboard: bool | None = None,
    max_fps: int | None = None,
) -> None:
    """Set Kivy up for the companion; call it before anything imports ``kivy``.

    Kivy must not read the companion's command line (``KIVY_NO_ARGS``). On a Raspberry Pi
    the app fills the screen and docks an on-screen keyboard for the players' names.
    """
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    # SDL2's own clipboard: the others Kivy tries first (xclip, xsel, …) are not installed
    # on a Pi and each failed probe logs a traceback.
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")
    pi = on_raspberry_pi()
    import kivy
    from kivy.config import Config

    # X11's cut buffer (middle-click paste) means nothing on a touchscreen, and Kivy looks
    # for it only through xclip and xsel: none to try, and its "no provider" line dropped.
    kivy.kivy_options.setdefault("cutbuffer", ())
    if not any(isinstance(f, _NoCutBufferLine) for f in kivy.Logger.filters):
        kivy.Logger.addFilter(_NoCutBufferLine())

    if size is not None:
        Config.set("graphics", "width", str(size[0]))
        Config.set("graphics", "height", str(size[1]))
    if fullscreen if fullscreen is not None else pi:
        Config.set("graphics", "fullscreen", "auto")
    if virtual_keyboard if virtual_keyboard is not None else pi:
        Config.set("kivy", "keyboard_mode", "systemanddock")
    if max_fps is not None:
        Config.set("graphics", "maxfps", str(max_fps))
    # One path per tap (companion.touch): Kivy's own defaults listen to a touchscreen twice.
    touch = input_setup(os.environ, list(touchscreens()))
    for name in Config.options("input"):
        Config.remove_option("input", name)
    for name, provider in touch.providers.items():
        Config.set("input", name, provider)
    Config.set("graphics", "show_cursor", "1" if touch.show_cursor else "0")
    # Esc must not quit mid-game.
    Config.set("kivy", "exit_on_escape", "0")


class _NoCutBufferLine(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Cutbuffer: Unable to find")
