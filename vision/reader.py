"""Frame in, ``GridReading`` out: find the grid, cut out its cells, read them with a palette.

The palette (``calibration``) says which class each cell's colours fit and how sure it is.
Vision adds what only the geometry knows: a cell whose card outline cannot be found (a
hand or arm over it, something lying on it) or whose card is partly out of the frame is
read ``?`` whatever its colours say, so a hand is never read as a confident gem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .cells import extract_patches, extract_table_patches, inside_frame
from .lattice import GridGeometry, search_grid
from .visible import cards_in_view, like_table

if TYPE_CHECKING:
    from calibration import LensModel, Palette

UNSURE = "?"
EMPTY = "."


@dataclass(frozen=True, eq=False)
class GridReading:
    """What one frame shows.

    ``cells``: one string per row (class letters, ``.`` empty, ``?`` unsure), or None when
    no grid was found (``reason`` says why). ``confidence``: (rows, cols) floats 0..1
    (zeros without a grid). ``corners``: TL TR BR BL of the grid in frame pixels, or None.
    """

    rows: int
    cols: int
    corners: np.ndarray | None
    cells: tuple[str, ...] | None
    confidence: np.ndarray
    reason: str = ""
    geometry: GridGeometry | None = field(default=None, repr=False)

    @property
    def found(self) -> bool:
        return self.cells is not None

    @property
    def unsure(self) -> int:
        """How many cells read ``?`` (all of them when no grid was found)."""
        if self.cells is None:
            return self.rows * self.cols
        return sum(row.count(UNSURE) for row in self.cells)

    def to_json(self) -> dict[str, Any]:
        """The ``companion detect --json`` object (without ``image``)."""
        out: dict[str, Any] = {"rows": self.rows, "cols": self.cols}
        out["corners"] = (
            None
            if self.corners is None
            else [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]
        )
        out["cells"] = None if self.cells is None else list(self.cells)
        out["confidence"] = [[round(float(v), 3) for v in row] for row in self.confidence]
        if self.cells is None:
            out["reason"] = self.reason
        return out

    def __repr__(self) -> str:
        if self.cells is None:
            return f"<GridReading {self.rows}x{self.cols} none: {self.reason}>"
        return f"<GridReading {self.rows}x{self.cols} {'/'.join(self.cells)}>"


def no_reading(rows: int, cols: int, reason: str) -> GridReading:
    return GridReading(rows, cols, None, None, np.zeros((rows, cols)), reason)


def read_grid(
    frame: np.ndarray,
    palette: Palette,
    rows: int = 5,
    cols: int = 5,
    lens: LensModel | None = None,
) -> GridReading:
    """Find the rows x cols grid in ``frame`` (BGR uint8) and read every cell."""
    if lens is not None:
        frame = lens.undistort(frame)
    search = search_grid(frame, rows, cols)
    geometry = search.geometry
    if geometry is None:
        return no_reading(rows, cols, search.reason)
    return read_cells(frame, geometry, palette)


def read_cells(frame: np.ndarray, geometry: GridGeometry, palette: Palette) -> GridReading:
    """Read the cells of a grid already found in ``frame``."""
    rows, cols = geometry.rows, geometry.cols
    patches = extract_patches(frame, geometry)
    table = extract_table_patches(frame, geometry)
    reads = palette.classify(patches, table)
    labels = np.array(reads.labels, dtype=object).reshape(rows, cols)
    confidence = np.asarray(reads.confidence, float).reshape(rows, cols).copy()
    in_frame = inside_frame(frame, geometry)
    gem = (labels != EMPTY) & (labels != UNSURE)
    # A gem where no card outline was seen: look again, closer; if still no card, distrust it.
    in_view = geometry.seen | cards_in_view(frame, geometry, only=gem & ~geometry.seen & in_frame)
    distrust = (gem & ~in_view) | ~in_frame
    # Bare table by its colours, but a card outline is there, or it does not look like the
    # table around the grid (a hand the colour of the wood): something is there.
    empty = labels == EMPTY
    distrust |= empty & geometry.seen
    if empty.any():
        flat = np.flatnonzero(empty.ravel())
        distrust.ravel()[flat[~like_table(patches[flat], table)]] = True
    labels[distrust] = UNSURE
    confidence[distrust] = 0.0
    cells = tuple("".join(row) for row in labels)
    return GridReading(rows, cols, geometry.corners.copy(), cells, confidence, "", geometry)
