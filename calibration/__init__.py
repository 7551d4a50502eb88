"""What vision needs to know about one table and camera: the colour palette and the lens.

- :mod:`calibration.palette`: colour classes learned from labelled layouts, cell
  classification with confidence, the default deck profile;
- :mod:`calibration.counts`: palettes from layouts whose counts alone are known;
- :mod:`calibration.features`: per-scene colour features robust to light;
- :mod:`calibration.lens`: chessboard lens calibration and undistortion;
- :mod:`calibration.store`: where the files live.

Never imports vision or companion.
"""

from .lens import LensError, LensModel, calibrate_camera
from .palette import (
    CellReads,
    Palette,
    PaletteError,
    default_palette,
    learn_palette,
    learn_palette_from_counts,
)

__all__ = [
    "CellReads",
    "LensError",
    "LensModel",
    "Palette",
    "PaletteError",
    "calibrate_camera",
    "default_palette",
    "learn_palette",
    "learn_palette_from_counts",
]
