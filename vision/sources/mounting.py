"""How high to mount a camera so the whole grid is in view: from its field of view.

The README's mounting table is computed here (a test checks it), and the Pi camera focuses
at the height its model is mounted at. The field of view is the whole sensor's, which the
Pi camera source makes sure it gets (``picamera.full_field_mode``); the Camera Module 3's
faster 1536x864 mode would see only its middle two thirds (about 47°x28°).

>>> round(height_cm(MODULE_3.view, GRID_CM, MARGIN_CM))
60
>>> round(height_cm(MODULE_3.view, GRID_CM, 0.0))
47
"""

from __future__ import annotations

import math
from dataclasses import dataclass

GRID_CM = (47.0, 35.0)
"""A 5x5 grid of 63x88 mm cards with gaps, long side first (cm)."""
MARGIN_CM = 5.0
"""Table in view all round the grid, so a card laid a little off is still seen."""


@dataclass(frozen=True)
class CameraView:
    """A camera by its name, its libcamera model name and its field of view in degrees
    (along the picture's long side, along its short side)."""

    name: str
    model: str
    view: tuple[float, float]


# Raspberry Pi's product briefs: the whole sensor's field of view.
MODULE_3 = CameraView("Camera Module 3", "imx708", (66.0, 41.0))
MODULE_3_WIDE = CameraView("Camera Module 3 Wide", "imx708_wide", (102.0, 67.0))
CAMERAS = (MODULE_3, MODULE_3_WIDE)


def height_cm(view: tuple[float, float], grid: tuple[float, float] = GRID_CM,
              margin: float = MARGIN_CM) -> float:
    """Lens height above the table that shows ``grid`` plus ``margin`` all round, the
    picture's long side along the grid's long side, the camera straight above its centre."""
    heights = [(size / 2 + margin) / math.tan(math.radians(angle / 2))
               for size, angle in zip(grid, view, strict=True)]
    return max(heights)


def mount_height_m(model: str) -> float | None:
    """Where a camera of this libcamera model is mounted (the README's height), in metres;
    None for a model the table does not list. NoIR variants see as their colour twins."""
    base = model.replace("_noir", "")
    for camera in CAMERAS:
        if camera.model == base:
            return round(height_cm(camera.view)) / 100
    return None


def seen_cm(view: tuple[float, float], height: float) -> tuple[float, float]:
    """The table area in view (long side, short side, cm) from ``height`` cm."""
    return (2 * height * math.tan(math.radians(view[0] / 2)),
            2 * height * math.tan(math.radians(view[1] / 2)))
