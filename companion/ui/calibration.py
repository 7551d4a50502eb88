"""The calibration wizard: lay out cards, read them, fix what was read wrong, save the palette.

The screen knows no camera and no colour maths; it calls what ``CalibrationHooks`` gives it
(the session wires vision and calibration in), each off the main thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from . import theme
from .gridview import GridView  # noqa: F401 - used by calibration.kv
from .hooks import CalibrationHooks
from .widgets import CellPicker, running_app

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

STEPS = (
    "1. Lay 25 cards face up in a 5×5 grid under the camera: 3 of each gem and the pearl "
    "is best.\n2. Tap Read the layout.\n3. Tap each cell read wrong and choose its card.\n"
    "4. Tap Save the palette."
)


class CalibrationScreen(Screen):
    steps = StringProperty(STEPS)
    status = StringProperty("")

    def __init__(self, hooks: CalibrationHooks | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.hooks = hooks
        self.frame: Any = None
        self.cells: tuple[str, ...] = ()
        self.picker: CellPicker | None = None
        self.ids.grid.on_cell_tap = self.cell_tapped
        self.ids.grid.show(("?" * 5,) * 5)
        if hooks is None:
            self.status = "Calibration is not available here."
            self.ids.read.disabled = True
        if hooks is None or hooks.lens is None:
            # Hidden, not just greyed: a button that can never work here only puzzles the
            # players (the lens is then learnt with `companion calibrate camera`).
            self.ids.lens.disabled = True
            self.ids.lens.opacity = 0

    def read_layout(self) -> None:
        if self.hooks is None:
            return
        self.status = "Reading…"
        self.ids.read.disabled = True
        running_app().worker.submit(self.hooks.read, self._read_done, self._failed)

    def _read_done(self, result: tuple[Any, Any, Sequence[str] | None, str]) -> None:
        frame, corners, cells, reason = result
        self.ids.read.disabled = False
        self.frame = frame
        self.ids.grid.show_frame(frame, corners if cells else None)
        if not cells:
            self.cells = ()
            self.status = f"No grid found: {reason}" if reason else "No grid found."
            self.ids.save.disabled = True
            return
        self.cells = tuple(cells)
        self.ids.grid.show(self.cells)
        self._check()

    def _check(self) -> None:
        unsure = sum(row.count("?") for row in self.cells)
        self.ids.save.disabled = unsure > 0 or not self.cells
        if unsure:
            self.status = f"{unsure} cell{'s' if unsure > 1 else ''} unread: tap to choose."
        else:
            self.status = "Check every cell; tap one to fix it, then save."

    def cell_tapped(self, row: int, col: int) -> None:
        if not self.cells:
            return
        self.picker = CellPicker(row, col, self.cells[row - 1][col - 1],
                                 theme.PICKER_LETTERS, lambda x: self.fix(row, col, x))
        self.picker.open()

    def fix(self, row: int, col: int, letter: str) -> None:
        cells = [list(r) for r in self.cells]
        cells[row - 1][col - 1] = letter
        self.cells = tuple("".join(r) for r in cells)
        self.ids.grid.show(self.cells)
        self._check()

    def save_palette(self) -> None:
        if self.hooks is None or not self.cells:
            return
        hooks, frame, cells = self.hooks, self.frame, self.cells
        self.status = "Learning the colours…"
        self.ids.save.disabled = True
        running_app().worker.submit(lambda: hooks.save(frame, cells), self._saved, self._failed)

    def _saved(self, message: str) -> None:
        self.status = f"Saved. {message}".strip()
        self.ids.save.disabled = False

    def calibrate_lens(self) -> None:
        if self.hooks is None or self.hooks.lens is None:
            return
        self.status = "Calibrating the lens…"
        running_app().worker.submit(self.hooks.lens, self._saved, self._failed)

    def _failed(self, err: Exception) -> None:
        self.ids.read.disabled = self.hooks is None
        self.ids.save.disabled = not self.cells
        self.status = f"[color=#ff5252]{err}[/color]"
