"""Only readings that hold still count: a stability filter for live video.

A frame's reading counts once the same cells, with no ``?`` among them (or no more than
``unsure``), have been read in ``k`` frames in a row. A hand moving over the grid, a card
half laid, a frame with no grid found: each breaks the run, and the count starts again.

>>> f = StabilityFilter(3)
>>> [f.push(cells) for cells in (("RG", "B."), ("RG", "B."), ("RG", "B."), ("RG", "B."))]
[None, None, ('RG', 'B.'), ('RG', 'B.')]
>>> f.push(("RG", "B?")), f.push(("RG", "B.")), f.stable
(None, None, ('RG', 'B.'))
>>> g = StabilityFilter(2, unsure=1)
>>> [g.push(cells) for cells in (("RG", "B?"), ("RG", "B?"), ("R?", "B?"))]
[None, ('RG', 'B?'), None]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

UNSURE = "?"


class StabilityFilter:
    """``push`` each frame's cells (row strings, None when no grid was found, or a reading
    with a ``cells`` attribute); it returns the cells once they have held for ``k`` frames
    with no more than ``unsure`` cells ``?``, else None. ``stable`` keeps the last reading
    that counted."""

    def __init__(self, k: int = 3, unsure: int = 0) -> None:
        if k < 1:
            raise ValueError(f"a reading must hold for at least 1 frame, not {k}")
        self.k = k
        self.unsure = unsure
        self._last: tuple[str, ...] | None = None
        self._run = 0
        self.stable: tuple[str, ...] | None = None

    def __repr__(self) -> str:
        return f"StabilityFilter({self.k}, unsure={self.unsure})"

    def push(self, reading: Sequence[str] | Any | None) -> tuple[str, ...] | None:
        cells = getattr(reading, "cells", reading)
        if cells is None or sum(row.count(UNSURE) for row in cells) > self.unsure:
            self.reset()
            return None
        cells = tuple(cells)
        if cells == self._last:
            self._run += 1
        else:
            self._last, self._run = cells, 1
        if self._run < self.k:
            return None
        self.stable = cells
        return cells

    def reset(self) -> None:
        """Forget the current run (the last stable reading is kept)."""
        self._last, self._run = None, 0

    @property
    def run(self) -> int:
        """How many frames in a row the current cells have been read."""
        return self._run
