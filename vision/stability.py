"""Only readings that hold still count: a stability filter for live video.

A frame's reading counts once ``k`` frames in a row have read the same grid, with no ``?``
among a frame's cells (or no more than ``unsure``). A card read in one frame and ``?`` in the
next (a glare, a colour near the edge of its class) is the same card in both: frames agree
where either read ``?``, and the reading that counts takes every cell any of them read. A
hand moving over the grid, a card half laid, a cell read as two cards, a frame with no grid
found: each breaks the run, and the count starts again.

>>> f = StabilityFilter(3)
>>> [f.push(cells) for cells in (("RG", "B."), ("RG", "B."), ("RG", "B."), ("RG", "B."))]
[None, None, ('RG', 'B.'), ('RG', 'B.')]
>>> f.push(("RG", "B?")), f.push(("RG", "B.")), f.stable
(None, None, ('RG', 'B.'))
>>> g = StabilityFilter(2, unsure=1)
>>> [g.push(cells) for cells in (("RG", "B?"), ("R?", "BY"), ("RG", "B?"))]
[None, ('RG', 'BY'), ('RG', 'BY')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

UNSURE = "?"


class StabilityFilter:
    """``push`` each frame's cells (row strings, None when no grid was found, or a reading
    with a ``cells`` attribute); it returns the cells once they have held for ``k`` frames
    with no more than ``unsure`` cells ``?`` in each, else None. ``stable`` keeps the last
    reading that counted."""

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
        held = None if self._last is None else agreed(self._last, cells)
        if held is not None:
            self._last = held
            self._run += 1
        else:
            self._last, self._run = cells, 1
        if self._run < self.k:
            return None
        self.stable = self._last
        return self._last

    def reset(self) -> None:
        """Forget the current run (the last stable reading is kept)."""
        self._last, self._run = None, 0

    @property
    def run(self) -> int:
        """How many frames in a row the current cells have been read."""
        return self._run


def agreed(a: Sequence[str], b: Sequence[str]) -> tuple[str, ...] | None:
    """The grid two readings both show, each cell as either read it (``?`` only where both
    did), or None where they read a cell as two things or differ in shape.

    >>> agreed(("R?", "B."), ("RG", "?."))
    ('RG', 'B.')
    >>> agreed(("RG",), ("RY",)) is None
    True
    """
    if len(a) != len(b) or any(len(x) != len(y) for x, y in zip(a, b, strict=True)):
        return None
    rows = []
    for x, y in zip(a, b, strict=True):
        if x == y:
            rows.append(x)
            continue
        row = []
        for p, q in zip(x, y, strict=True):
            if p != q and UNSURE not in (p, q):
                return None
            row.append(q if p == UNSURE else p)
        rows.append("".join(row))
    return tuple(rows)
