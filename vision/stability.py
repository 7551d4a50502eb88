"""Only readings that hold still count: a stability filter for live video.

A frame's reading counts once ``k`` frames in a row have read the same grid, with no more
than ``unsure`` cells ``?`` among them. A card read in some frames and ``?`` in others (a
glare, a colour near the edge of its class, a hand passing) is the same card in all of them:
frames agree where one read a card ``?`` and another read it. Such a cell counts as that card
once most of the last ``k`` frames have read it so, and ``?`` once none of them has; in
between the grid is not held yet. So one frame's misread of a card the others cannot read
is no reading, a card a hand has just left is not taken for one the camera cannot read,
and a card that turned unreadable (a glare) is. The cells read ``?`` anywhere in the
run count towards ``unsure`` together, so a hand that moves (over some cells, then over
others, while a row is shifted under it) cannot stitch a grid that never lay on the table
out of the frames' halves. An empty cell read ``?`` is a card being
laid or a hand: it breaks the run, as does a cell read as two cards or a frame with no grid
found; the count starts again.

>>> f = StabilityFilter(3)
>>> [f.push(cells) for cells in (("RG", "B."), ("RG", "B."), ("RG", "B."), ("RG", "B."))]
[None, None, ('RG', 'B.'), ('RG', 'B.')]
>>> f.push(("RG", "B?")), f.push(("RG", "B.")), f.stable
(None, None, ('RG', 'B.'))
>>> g = StabilityFilter(2, unsure=1)
>>> [g.push(cells) for cells in (("RG", "B?"), ("RG", "B?"), ("RG", "BY"), ("RG", "BY"))]
[None, ('RG', 'B?'), ('RG', 'BY'), ('RG', 'BY')]
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Sequence
from typing import Any

UNSURE = "?"
EMPTY = "."


class StabilityFilter:
    """``push`` each frame's cells (row strings, None when no grid was found, or a reading
    with a ``cells`` attribute); it returns the grid once ``k`` frames in a row have shown
    it, with no more than ``unsure`` cells ``?`` in all of them, else None. ``stable`` keeps
    the last reading that counted."""

    def __init__(self, k: int = 3, unsure: int = 0) -> None:
        if k < 1:
            raise ValueError(f"a reading must hold for at least 1 frame, not {k}")
        self.k = k
        self.unsure = unsure
        self._widths: tuple[int, ...] = ()
        self._reads: list[Counter[str]] = []  # per cell of the run: how often each card read
        self._doubted: set[int] = set()  # cells read ``?`` in some frame of the run
        self._recent: deque[str] = deque(maxlen=k)  # the run's last k frames, flat
        self._run = 0
        self.stable: tuple[str, ...] | None = None

    def __repr__(self) -> str:
        return f"StabilityFilter({self.k}, unsure={self.unsure})"

    def push(self, reading: Sequence[str] | Any | None) -> tuple[str, ...] | None:
        cells = getattr(reading, "cells", reading)
        if cells is None or sum(row.count(UNSURE) for row in cells) > self.unsure:
            self.reset()
            return None
        widths = tuple(len(row) for row in cells)
        flat = "".join(cells)
        if not (self._run and widths == self._widths and self._holds(flat)):
            self.reset()
            self._widths = widths
            self._reads = [Counter() for _ in flat]
        for cell, x in enumerate(flat):
            if x == UNSURE:
                self._doubted.add(cell)
            else:
                self._reads[cell][x] += 1
        self._recent.append(flat)
        self._run += 1
        grid = self._grid() if self._run >= self.k else None
        if grid is not None:
            self.stable = grid
        return grid

    def _holds(self, flat: str) -> bool:
        """Whether this frame shows the run's grid: no cell read as another card (an empty
        cell is no card), and no more cells ``?`` in all than allowed."""
        doubted = set(self._doubted)
        for cell, x in enumerate(flat):
            seen = self._reads[cell]
            if x == UNSURE:
                if EMPTY in seen:
                    return False
                doubted.add(cell)
            elif seen and x not in seen or x == EMPTY and cell in doubted:
                return False
        return len(doubted) <= self.unsure

    def _grid(self) -> tuple[str, ...] | None:
        """The run's grid: each cell as read; a cell some frames read ``?``, as the card
        most of the last ``k`` frames read there, ``?`` where none of them did; None while
        fewer did."""
        flat = []
        for cell, seen in enumerate(self._reads):
            if cell not in self._doubted:
                (card,) = seen
            else:
                times = sum(frame[cell] != UNSURE for frame in self._recent)
                if 0 < times and 2 * times < len(self._recent):
                    return None
                card = next(iter(seen)) if times else UNSURE
            flat.append(card)
        rows, start = [], 0
        for width in self._widths:
            rows.append("".join(flat[start:start + width]))
            start += width
        return tuple(rows)

    def reset(self) -> None:
        """Forget the current run (the last stable reading is kept)."""
        self._reads, self._doubted, self._run = [], set(), 0
        self._recent.clear()

    @property
    def run(self) -> int:
        """How many frames in a row have shown the current grid."""
        return self._run
