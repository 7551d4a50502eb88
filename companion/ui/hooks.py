"""What the calibration wizard and the stone camera set-up call, kept apart from the screens
so the command line can build them without importing Kivy (Kivy reads its settings on first
import: ``env.py``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.view import SandsController

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class CalibrationHooks:
    """What the wizard calls; each may be slow and may raise an expected error
    (``companion.errors``) or ``OSError`` with a message for the players.

    ``read()`` takes a picture and reads it with the current palette:
    ``(frame, corners, cells, reason)``: the BGR frame (or None), the grid's corners (or
    None), the row strings read (or None when no grid was found) and why not.
    ``save(frame, cells)`` learns the palette from that frame with the cells as the players
    corrected them and saves it; returns a line to show (e.g. where it was saved).
    ``lens()``, when given, calibrates the lens from chessboard photos; returns a line.
    """

    read: Callable[[], tuple[np.ndarray | None, np.ndarray | None, Sequence[str] | None, str]]
    save: Callable[[np.ndarray, tuple[str, ...]], str]
    lens: Callable[[], str] | None = None


@dataclass(frozen=True)
class StoneHooks:
    """What the stone calibration screen calls; a Desert Sands game's controller gives them
    (``stone_hooks``).

    ``picture()`` is polled (cheap): the newest camera frame (BGR, or None) and the saved
    spot's corners in it (or None). ``save(samples, mark)`` learns the stones from the
    ``(frame, letter)`` captures (``.`` the empty spot, ``r y g l`` the stones) and the
    spot's ``((x, y), side)`` in frame pixels, and saves them; slow, it returns a line to
    show or raises a ``CompanionError`` with one. ``pause(True)`` stops counting stones while the
    screen is open (its stones are no draws); ``pause(False)`` counts again.
    """

    picture: Callable[[], tuple[np.ndarray | None, np.ndarray | None]]
    save: Callable[[list[tuple[np.ndarray, str]], tuple[tuple[float, float], float]], str]
    pause: Callable[[bool], None]


def stone_hooks(controller: SandsController) -> StoneHooks | None:
    """The stone calibration of a Sands game's controller; None when it has no camera side
    (a controller that only takes taps)."""
    camera = controller.stone_camera()
    if camera is None:
        return None
    return StoneHooks(camera.camera, camera.calibrate_stones, camera.pause)
