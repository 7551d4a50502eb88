"""Runs the app in this process without ``App.run()``: frames are drawn when asked.

This is how ``write_screenshots`` renders every screen, and how the tests and the benchmark
drive the real app in a real (here off-screen) window. One Kivy window per process: each
driver borrows it, and ``close`` gives it back empty.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from kivy.app import App
from kivy.base import EventLoop

if TYPE_CHECKING:
    from companion.ui.app import CompanionApp


class AppDriver:
    def __init__(self, app: CompanionApp, size: tuple[int, int] = (800, 480)) -> None:
        EventLoop.ensure_window()
        self.window: Any = EventLoop.window
        width, height = self.window.size
        if size[0] > width or size[1] > height:
            # An off-screen window cannot grow once made; the app is laid out inside it.
            raise ValueError(
                f"the window is {width}x{height}, too small for {size[0]}x{size[1]}: "
                "make it with prepare_kivy(size=...) before Kivy opens it"
            )
        for child in list(self.window.children):
            self.window.remove_widget(child)
        self.size = size
        self.app = app
        app.root_size = size
        # What App.run() does before its loop: build the root, put it in the window, start.
        app._run_prepare()
        self.frames(3)

    def frames(self, count: int = 1) -> None:
        """Tick the clock, dispatch input and draw, ``count`` times."""
        for _ in range(count):
            EventLoop.idle()

    def settle(self, timeout: float = 60.0) -> None:
        """Let background jobs finish and their results reach the screen. ``timeout``:
        generous, as a job that writes the game log waits for the disk (synced), and a
        loaded CI machine's disk may keep it waiting for seconds."""
        worker = getattr(self.app, "worker", None)
        deadline = time.monotonic() + timeout
        while True:
            if worker is not None and not worker.wait(max(0.0, deadline - time.monotonic())):
                raise TimeoutError("the app's background work did not finish in time")
            self.frames(2)
            if worker is None or not worker.busy:
                break
            if time.monotonic() > deadline:  # said here, not by the next assertion's text
                raise TimeoutError("the app kept giving its worker new jobs: never settled")
        refresh = getattr(self.app, "refresh", None)
        if callable(refresh):
            refresh()
        self.frames(2)

    def pixels(self) -> np.ndarray:
        """What the app shows now, as an RGB array (top row first)."""
        from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

        self.frames(2)
        self.window.dispatch("on_draw")  # fresh pixels in the buffer glReadPixels reads
        w, h = self.size
        data = glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE)
        rgba = np.frombuffer(data, np.uint8).reshape(h, w, 4)
        return np.ascontiguousarray(rgba[::-1, :, :3])

    def screenshot(self, path: str | Path) -> Path:
        """Write what the app shows to ``path`` as PNG (whole file or nothing)."""
        import cv2

        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.stem}.tmp.png")
        if not cv2.imwrite(str(tmp), self.pixels()[:, :, ::-1]):
            raise OSError(f"could not write a screenshot to {path}")
        os.replace(tmp, path)
        return path

    def close(self) -> None:
        # The screen shown is left: an app that ends takes its clock with it, but this one
        # ticks on for the next driver's app, and so would a screen's timer (the
        # calibration's look at the camera), asking an app that is gone.
        self.app.manager.current_screen.dispatch("on_leave")
        self.app.dispatch("on_stop")
        for child in list(self.window.children):
            self.window.remove_widget(child)
        App._running_app = None
