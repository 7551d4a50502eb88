"""The stone camera set-up (The Desert Sands): the live picture, a tap to mark the stone spot,
``Spot −`` / ``Spot +`` to size it, then the empty spot and each stone captured in turn and
saved. The screen knows no colour maths; it calls the game's ``StoneHooks``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.lang import Builder
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion.errors import said
from companion.rules.sands import COLOURS, LETTERS

from . import theme
from .geometry import Fit
from .hooks import StoneHooks
from .textures import FrameTexture, check_frame, text_texture
from .widgets import running_app

if TYPE_CHECKING:
    from kivy.input.motionevent import MotionEvent

Mark = tuple[tuple[float, float], float]
"""The spot: its centre and side in frame pixels."""

STEPS = (".",) + tuple(LETTERS)
"""What is captured, in order: the empty spot, then each stone of the bag."""
NAMES = {".": "empty spot", **dict(zip(LETTERS, COLOURS, strict=True))}

FIRST_SIDE = 0.08
"""A new spot's side, as a share of the frame's width: about twice a stone's width when
the camera sees the whole table."""
STEP = 1.25
MIN_SIDE = 16.0
"""Pixels: a smaller spot holds too few of a stone's pixels to tell its colour."""

NO_PICTURE = ("No camera picture: connect a camera and start the game again, or tap the "
              "stones in on the game screen.")
HELP = ("Tap the picture where drawn stones are laid; Spot − and Spot + make the square "
        "about twice a stone's width. Then capture the empty spot and each stone, and save.")


def prompt(step: str) -> str:
    """What the players do for one capture.

    >>> prompt("."), prompt("l")
    ('Clear the spot, then tap Captured.', 'Lay a lilac stone on the spot, then tap Captured.')
    """
    if step == ".":
        return "Clear the spot, then tap Captured."
    return f"Lay a {NAMES[step]} stone on the spot, then tap Captured."


def fits(mark: Mark, size: tuple[int, int]) -> bool:
    """Whether the square lies wholly in a frame of ``size`` (width, height).

    >>> fits(((50, 50), 20), (100, 80)), fits(((95, 50), 20), (100, 80))
    (True, False)
    """
    (x, y), side = mark
    r = side / 2
    return x - r >= 0 and y - r >= 0 and x + r <= size[0] - 1 and y + r <= size[1] - 1


def mark_of(corners: Iterable[Iterable[float]]) -> Mark:
    """A saved spot's corners (TL, TR, BR, BL) as a centre and a side.

    >>> mark_of([(10, 10), (30, 10), (30, 30), (10, 30)])
    ((20.0, 20.0), 20.0)
    """
    pts = [(float(x), float(y)) for x, y in (tuple(c) for c in corners)]
    cx = sum(x for x, _ in pts) / len(pts)
    cy = sum(y for _, y in pts) / len(pts)
    sides = [math.dist(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))]
    return (cx, cy), sum(sides) / len(sides)


class SpotPicture(Widget):
    """The newest camera frame, whole, with the spot's square on it; a tap on the picture
    calls ``on_spot_tap(x, y)`` in frame pixels."""

    scale = NumericProperty(1.0)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.on_spot_tap: Callable[[float, float], None] | None = None
        self.mark: Mark | None = None
        self.frame_size: tuple[int, int] | None = None
        self._array: np.ndarray | None = None
        self._texture = FrameTexture()
        self._picture: Rectangle | None = None
        self._redraw = Clock.create_trigger(self._draw, -1)
        self.bind(pos=self._redraw, size=self._redraw, scale=self._redraw)

    def show(self, frame: np.ndarray | None, mark: Mark | None) -> None:
        """The newest frame (None: none) and the square to draw on it (None: none yet)."""
        if frame is self._array and mark == self.mark:
            return
        if frame is None:
            self._array, self.frame_size, self.mark = None, None, mark
            self._redraw()
            return
        array = self._array = check_frame(frame)
        size = (array.shape[1], array.shape[0])
        if size != self.frame_size or mark != self.mark or self._picture is None:
            self.frame_size, self.mark = size, mark
            self._redraw()
            return
        fit = self.fit()
        assert fit is not None
        # Only the picture changed: swap the texture under the square.
        self._picture.texture = self._texture.update(array, self._crop(), fit.size)

    def fit(self) -> Fit | None:
        if self.frame_size is None:
            return None
        # Vision puts a pixel's centre at whole coordinates: the picture starts half a
        # pixel before the first column and row.
        w, h = self.frame_size
        return Fit.of((-0.5, -0.5, w - 0.5, h - 0.5), (self.x, self.y, self.width, self.height))

    def _crop(self) -> tuple[int, int, int, int]:
        assert self.frame_size is not None
        return (0, 0, *self.frame_size)

    def to_window_point(self, x: float, y: float) -> tuple[float, float]:
        """Where frame pixel (x, y) is in the window (what a finger taps)."""
        fit = self.fit()
        assert fit is not None, "no picture"
        return self.to_window(*fit.to_widget(x, y))

    def _draw(self, *_: object) -> None:
        self.canvas.clear()
        self._picture = None
        fit = self.fit()
        if fit is None or self._array is None:
            self._note("No camera picture")
            return
        texture = self._texture.update(self._array, self._crop(), fit.size)
        with self.canvas:
            Color(1, 1, 1, 1)
            self._picture = Rectangle(texture=texture, pos=fit.origin, size=fit.size)
            if self.mark is not None:
                (x, y), side = self.mark
                x0, y0 = fit.to_widget(x - side / 2, y + side / 2)
                box = (x0, y0, side * fit.scale, side * fit.scale)
                for colour, width in ((theme.DARK_INK, 3.5), (theme.ACCENT, 1.5)):
                    Color(*colour)
                    Line(rectangle=box, width=max(1.0, width * self.scale))

    def _note(self, text: str) -> None:
        texture = text_texture(text, int(20 * self.scale), theme.MUTED)
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(texture=texture, size=texture.size,
                      pos=(self.center_x - texture.width / 2, self.center_y - texture.height / 2))

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if not self.collide_point(*touch.pos) or self.fit() is None:
            return False
        touch.grab(self)
        return True

    def on_touch_up(self, touch: MotionEvent) -> bool:
        if touch.grab_current is not self:
            return False
        touch.ungrab(self)
        fit = self.fit()
        if fit is None or self.frame_size is None or self.on_spot_tap is None:
            return True
        x, y = fit.to_image(*touch.pos)
        w, h = self.frame_size
        if -0.5 <= x <= w - 0.5 and -0.5 <= y <= h - 0.5:
            self.on_spot_tap(x, y)
        return True


Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class StonesScreen(Screen):
    help = StringProperty(HELP)
    status = StringProperty("")
    progress = StringProperty("")

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.hooks: StoneHooks | None = None
        self.mark: Mark | None = None
        self.frame: np.ndarray | None = None
        self.samples: list[tuple[np.ndarray, str]] = []
        self.ids.picture.on_spot_tap = self.spot_tapped

    # What the app calls ---------------------------------------------------------------

    def attach(self, hooks: StoneHooks | None) -> None:
        """Set up the stones of this game's camera (None: leave; counting starts again)."""
        if self.hooks is not None:
            self.hooks.pause(False)
        self.hooks, self.mark, self.frame, self.samples = hooks, None, None, []
        if hooks is not None:
            hooks.pause(True)
        self._next()
        self.refresh()

    def refresh(self) -> None:
        """Polled by the app: the newest picture (and the saved spot, until one is tapped)."""
        if self.hooks is None:
            return
        frame, corners = self.hooks.picture()
        came = self.frame is None and frame is not None
        self.frame = frame
        if self.mark is None and frame is not None and corners is not None:
            self.mark = mark_of(corners)  # the saved spot, until the players tap another
        if came:
            self._next()
        self.ids.picture.show(frame, self.mark)
        for button in ("smaller", "bigger", "capture"):
            self.ids[button].disabled = frame is None or (button == "capture" and not self.step)
        if frame is None:
            self.status = NO_PICTURE

    # Marking the spot -------------------------------------------------------------------

    def spot_tapped(self, x: float, y: float) -> None:
        size = self.ids.picture.frame_size
        if size is None:
            return
        side = self.mark[1] if self.mark else max(MIN_SIDE, FIRST_SIDE * size[0])
        self._move(((x, y), side), "tap further from the edge")

    def resize(self, steps: int) -> None:
        """Grow (1) or shrink (-1) the square by one step."""
        size = self.ids.picture.frame_size
        if self.mark is None or size is None:
            self._say_bad("Tap the picture where drawn stones are laid first.")
            return
        centre, side = self.mark
        new = min(max(side * STEP**steps, MIN_SIDE), min(size) / 2)
        if new != side:
            self._move((centre, new), "make it smaller or mark it further from the edge")

    def _move(self, mark: Mark, fix: str) -> None:
        size = self.ids.picture.frame_size
        if size is None:
            return
        if not fits(mark, size):
            self._say_bad(f"The square must lie wholly in the picture: {fix}.")
            return
        moved = bool(self.samples)
        self.mark, self.samples = mark, []
        self.ids.picture.show(self.frame, mark)
        self._next("The spot changed: capture again. " if moved else "")

    # Capturing and saving ----------------------------------------------------------------

    @property
    def step(self) -> str | None:
        """The capture due next; None when all are in."""
        return STEPS[len(self.samples)] if len(self.samples) < len(STEPS) else None

    def capture(self) -> None:
        step = self.step
        if step is None:
            return
        frame = self.hooks.picture()[0] if self.hooks else None
        if frame is None:
            self._say_bad("No camera picture to capture: check the camera.")
            return
        if self.mark is None:
            self._say_bad("Tap the picture where drawn stones are laid first.")
            return
        if not fits(self.mark, (frame.shape[1], frame.shape[0])):
            self._say_bad("The square is off this picture: tap the picture to mark it again.")
            return
        self.samples.append((frame, step))
        self._next()

    def start_over(self) -> None:
        self.samples = []
        self._next()

    def save(self) -> None:
        if self.hooks is None or self.step is not None or self.mark is None:
            return
        hooks, samples, mark = self.hooks, list(self.samples), self.mark
        self.status = "Learning the stones…"
        self.ids.save.disabled = True
        running_app().worker.submit(lambda: hooks.save(samples, mark), self._saved_ok,
                                    self._failed)

    def _saved_ok(self, message: str) -> None:
        self.status = f"Saved: the camera reads the stones now. {message}".strip()
        self.ids.save.disabled = True

    def _failed(self, err: Exception) -> None:
        self.ids.save.disabled = self.step is not None
        self._say_bad(said(err))

    # What the screen says ------------------------------------------------------------------

    def _next(self, lead: str = "") -> None:
        done = [NAMES[s] for _, s in self.samples]
        self.progress = f"Captured {len(done)} of {len(STEPS)}" + (
            ": " + ", ".join(done) if done else "")
        step = self.step
        self.ids.capture.disabled = step is None
        self.ids.save.disabled = step is not None
        if self.mark is None:
            self.status = lead + "Tap the picture where drawn stones are laid."
        elif step is not None:
            self.status = lead + prompt(step)
        else:
            self.status = lead + "All captured: tap Save."

    def _say_bad(self, text: str) -> None:
        # One line, as it came: an error from OpenCV spans several, and a path may hold "[".
        line = (text.strip().splitlines() or ["something went wrong"])[0]
        self.status = f"[color=#ff5252]{escape_markup(line[:1].upper() + line[1:])}[/color]"
