"""What the calibration wizard calls, kept apart from the screen so the command line can
build it without importing Kivy (Kivy reads its settings on first import: ``env.py``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CalibrationHooks:
    """What the wizard calls; each may be slow and may raise ``ValueError`` / ``OSError``
    with a message for the players.

    ``read()`` takes a picture and reads it with the current palette:
    ``(frame, corners, cells, reason)``: the BGR frame (or None), the grid's corners (or
    None), the row strings read (or None when no grid was found) and why not.
    ``save(frame, cells)`` learns the palette from that frame with the cells as the players
    corrected them and saves it; returns a line to show (e.g. where it was saved).
    ``lens()``, when given, calibrates the lens from chessboard photos; returns a line.
    """

    read: Callable[[], tuple[Any, Any, Sequence[str] | None, str]]
    save: Callable[[Any, tuple[str, ...]], str]
    lens: Callable[[], str] | None = None
