"""What vision needs to know about one table and camera: the colour palette and the lens.

- :mod:`calibration.palette`: colour classes and cell classification with an honest
  confidence (:mod:`calibration.models`: the class models and how cells compare with them;
  :mod:`calibration.learning`: learning from labelled layouts, the default deck profile);
- :mod:`calibration.counts`: palettes from layouts whose counts alone are known;
- :mod:`calibration.features`: per-scene colour features robust to light, read against the
  white the scene shows (:mod:`calibration.whites`: each card's white rim as one light;
  :mod:`calibration.measure`: from pixels to measures; :mod:`calibration.colour`: colour
  arithmetic);
- :mod:`calibration.lens`: chessboard lens calibration and undistortion;
- :mod:`calibration.store`: where the files live;
- ``median``: ``np.median``'s numbers, fast on short arrays (vision's search uses it too);
- ``reading_step``: which pixels of a patch a palette reads (vision cuts only those).

Never imports vision or companion.
"""

from ._stats import median
from .lens import LensError, LensModel, calibrate_camera
from .measure import reading_step
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
    "median",
    "reading_step",
]
