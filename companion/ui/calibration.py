"""The calibration wizard, in three steps: lay the cards out (a live outline of the grid
the camera sees, and what to fix when it sees none or only part of it), check the cards
read (tap a wrong one: the picker shows the camera's picture of it), save the colours.

The screen knows no camera and no colour maths; it calls what ``CalibrationHooks`` gives it
(the session wires vision and calibration in), each off the main thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.words import OVER_EXPOSED

from . import theme
from .gridview import CellMarks, GridView  # noqa: F401 - GridView is used by calibration.kv
from .hooks import CalibrationHooks
from .widgets import CellPicker, running_app

if TYPE_CHECKING:
    from kivy.clock import ClockEvent

Reading = tuple[np.ndarray | None, np.ndarray | None, Sequence[str] | None, str]
"""What ``CalibrationHooks.read`` gives: frame, corners, the rows read, why not."""

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

STEPS = ("Lay out", "Check", "Save")
GUIDE = (
    "Lay 25 cards face up in a 5×5 grid under the camera (3 of each gem and the pearl is "
    "best). The outline shows the grid the camera sees.",
    "Check each card read. Tap any that is wrong and choose its card; an orange ring marks "
    "a card the camera is unsure of.",
    "Save the colours: from now on cards are read with them. Calibrate again when the "
    "light changes.",
)
LOOKING = ("." * 5,) * 5
"""While the cards are laid out only the grid's outline is drawn, no reading."""
LOOK_EVERY = 1.5
"""Seconds between two looks of the camera while the cards are laid out (step 1)."""
EDGE = 0.02
"""A grid closer than this share of the picture to its edge may be cut off."""


def framing_problem(corners: np.ndarray | Sequence[Sequence[float]], size: tuple[int, int]
                    ) -> str:
    """What to fix when the grid is at the edge of the picture ("" when it is well inside).

    >>> corners = [(5, 100), (600, 100), (600, 400), (5, 4)]
    >>> print(*framing_problem(corners, (640, 480)).split(": "), sep="\\n")
    The grid touches the left and top edges of the picture
    move the cards or the camera so the whole grid is in view.
    >>> framing_problem([(50, 50), (590, 50), (590, 430), (50, 430)], (640, 480))
    ''
    """
    w, h = size
    xs = [float(p[0]) for p in corners]
    ys = [float(p[1]) for p in corners]
    sides = [name for name, near in (
        ("left", min(xs) < EDGE * w), ("right", max(xs) > (1 - EDGE) * w),
        ("top", min(ys) < EDGE * h), ("bottom", max(ys) > (1 - EDGE) * h)) if near]
    if not sides:
        return ""
    where = " and ".join(sides)
    edges = "edges" if len(sides) > 1 else "edge"
    return (f"The grid touches the {where} {edges} of the picture: move the cards or the "
            "camera so the whole grid is in view.")


class CalibrationScreen(Screen):
    step = NumericProperty(0)  # 0 lay out, 1 check, 2 save
    guide = StringProperty(GUIDE[0])
    status = StringProperty("")

    def __init__(self, hooks: CalibrationHooks | None = None, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.hooks = hooks
        self.frame: np.ndarray | None = None
        self.corners: np.ndarray | None = None
        self.cells: tuple[str, ...] = ()
        self.picker: CellPicker | None = None
        self._looking = False
        self._look: ClockEvent | None = None
        self.ids.grid.on_cell_tap = self.cell_tapped
        self.ids.grid.show(LOOKING)
        if hooks is None:
            self.status = "Calibration is not available here."
        if hooks is None or hooks.lens is None:
            # Hidden, not just greyed: a button that can never work here only puzzles the
            # players (the lens is then learnt with `companion calibrate camera`).
            self.ids.lens.disabled = True
            self.ids.lens.opacity = 0
        self.go(0)

    def on_enter(self, *_: object) -> None:
        self.status = "" if self.hooks is not None else "Calibration is not available here."
        self.go(0)
        self.look()
        self._look = Clock.schedule_interval(lambda _dt: self.look(), LOOK_EVERY)

    # Steps ------------------------------------------------------------------------------

    def go(self, step: int) -> None:
        self.step = step
        self.guide = GUIDE[step]
        ids = self.ids
        ids.next.text = ("Read the cards", "Next: save", "Save the colours")[step]
        ids.back.disabled = step == 0
        if step == 0:
            self.cells = ()
            ids.grid.show(LOOKING)
            ids.next.disabled = self.hooks is None or self.corners is None
        elif step == 1:
            ids.next.disabled = not self.cells or self._unsure() > 0
        else:
            ids.next.disabled = self.hooks is None or not self.cells
            self.status = "Tap Save the colours: they are learnt from the cards as they lie now."

    def next_step(self) -> None:
        if self.step == 0:
            self.read_layout()
        elif self.step == 1:
            self.go(2)
        else:
            self.save_palette()

    def back_step(self) -> None:
        self.status = ""
        self.go(max(0, self.step - 1))
        if self.step == 0:
            self.look()

    # Step 1: the camera's live look -----------------------------------------------------

    def look(self) -> None:
        """Take a look through the camera while the cards are laid out (one at a time)."""
        if (self.hooks is None or self._looking or self.step != 0 or self.manager is None
                or self.manager.current != self.name):
            return
        self._looking = True
        running_app().worker.submit(self.hooks.read, self._looked, self._look_failed)

    def _looked(self, result: Reading) -> None:
        self._looking = False
        if self.step != 0:
            return
        frame, corners, cells, reason = result
        self.frame = frame
        self.corners = corners if cells else None
        self.ids.grid.show_frame(frame, self.corners)
        if frame is None:
            self.status = f"[color=#ff5252]No picture from the camera.[/color] {reason}".strip()
        elif not cells:
            self.status = ("[color=#ff5252]No grid in view.[/color] "
                           + (f"{reason[:1].upper()}{reason[1:]}." if reason else
                              "Lay out the 25 cards under the camera."))
        else:
            h, w = frame.shape[:2]
            problem = "" if corners is None else framing_problem(corners, (w, h))
            self.status = (f"[color=#ff5252]{problem}[/color]" if problem else
                           "The camera sees the whole grid: tap Read the cards.")
        self.ids.next.disabled = self.corners is None

    def _look_failed(self, err: Exception) -> None:
        self._looking = False
        self.status = f"[color=#ff5252]{err}[/color]"

    # Step 2: read and check -------------------------------------------------------------

    def read_layout(self) -> None:
        if self.hooks is None:
            return
        self.status = "Reading the cards…"
        self.ids.next.disabled = True
        running_app().worker.submit(self.hooks.read, self._read_done, self._failed)

    def _read_done(self, result: Reading) -> None:
        frame, corners, cells, reason = result
        self.frame = frame
        self.ids.grid.show_frame(frame, corners if cells else None)
        if not cells:
            self.cells = ()
            self.status = f"No grid found: {reason}" if reason else "No grid found."
            self.go(0)
            return
        self.cells = tuple(cells)
        self.ids.grid.show(self.cells)
        self.go(1)
        self._check()

    def _unsure(self) -> int:
        return sum(row.count("?") for row in self.cells)

    def _check(self) -> None:
        unsure = self._unsure()
        self.ids.next.disabled = unsure > 0 or not self.cells
        if unsure:
            self.status = (f"{unsure} card{'s' if unsure > 1 else ''} not read: tap "
                           f"{'each' if unsure > 1 else 'it'} and choose its card.")
        else:
            self.status = "Every card read. Tap any that is wrong, then Next."

    def cell_tapped(self, row: int, col: int) -> None:
        if not self.cells or self.step != 1:
            return
        self.picker = CellPicker(row, col, self.cells[row - 1][col - 1],
                                 theme.PICKER_LETTERS, lambda x: self.fix(row, col, x),
                                 picture=self.ids.grid.cell_picture(row, col))
        self.ids.grid.show(self.cells, (), CellMarks(picked=(row, col)))
        self.picker.bind(parent=lambda _p, parent: parent is None
                         and self.ids.grid.show(self.cells))
        self.picker.open()

    def fix(self, row: int, col: int, letter: str) -> None:
        cells = [list(r) for r in self.cells]
        cells[row - 1][col - 1] = letter
        self.cells = tuple("".join(r) for r in cells)
        self.ids.grid.show(self.cells)
        self._check()

    # Step 3: save -------------------------------------------------------------------------

    def save_palette(self) -> None:
        if self.hooks is None or not self.cells or self.frame is None:
            return
        hooks, frame, cells = self.hooks, self.frame, self.cells
        self.status = "Learning the colours…"
        self.ids.next.disabled = True
        running_app().worker.submit(lambda: hooks.save(frame, cells), self._saved, self._failed)

    def _saved(self, message: str) -> None:
        # saved, but from a picture too bright: that part must not read as plain success
        message = message.replace(OVER_EXPOSED, f"[color=#ff5252]{OVER_EXPOSED}[/color]")
        self.status = f"Saved. {message}".strip()
        self.ids.next.disabled = False

    def calibrate_lens(self) -> None:
        if self.hooks is None or self.hooks.lens is None:
            return
        self.status = "Calibrating the lens…"
        running_app().worker.submit(self.hooks.lens, self._saved, self._failed)

    def _failed(self, err: Exception) -> None:
        self.go(self.step)
        self.status = f"[color=#ff5252]{err}[/color]"

    def on_leave(self, *_: object) -> None:
        if self._look is not None:
            self._look.cancel()
            self._look = None
