"""Combinations on the grid and their points (RULES.md N6–N8, P5).

>>> grid = Grid.parse("RRRGY/CBVPG/GGYOG/BVPRG/YGCBV")
>>> for c in find_combinations(grid):
...     print(c.gem, c.cells, c.points)
R ((1, 1), (1, 2), (1, 3)) 3
G ((2, 5), (3, 5), (4, 5)) 3
>>> phase_points(find_combinations(grid), "flat")
7
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import BadInput
from .grid import GEMS, PEARL, SIZE, Cell, Grid

MIN_RUN = 3
POINTS = {3: 3, 4: 5, 5: 7}
"""N7: a combination of 3 scores 3, of 4 scores 5, of 5 scores 7."""


@dataclass(frozen=True, slots=True)
class Combination:
    """A maximal straight run of one gem type: ``cells`` (row, col) from 1, in order."""

    gem: str
    cells: tuple[Cell, ...]

    @property
    def points(self) -> int:
        """N7 points, without the N8 bonus."""
        return POINTS[len(self.cells)]

    @property
    def horizontal(self) -> bool:
        return self.cells[0][0] == self.cells[-1][0]

    def to_json(self, points: bool = True) -> dict[str, Any]:
        """DESIGN.md's ``rules check`` form; Pearl leaves ``points`` out."""
        out: dict[str, Any] = {"gem": self.gem, "cells": [list(cell) for cell in self.cells]}
        if points:
            out["points"] = self.points
        return out

    def __str__(self) -> str:
        first, last = self.cells[0], self.cells[-1]
        return f"{self.gem}×{len(self.cells)} r{first[0]}c{first[1]}-r{last[0]}c{last[1]}"


def _lines() -> Iterable[tuple[Cell, ...]]:
    for r in range(1, SIZE + 1):
        yield tuple((r, c) for c in range(1, SIZE + 1))
    for c in range(1, SIZE + 1):
        yield tuple((r, c) for r in range(1, SIZE + 1))


_LINES = tuple(_lines())


def _runs(letters: str, gem: str, joker: bool) -> Iterable[tuple[int, int]]:
    """(start, end) of each maximal run of ``gem`` (and the pearl as a joker) with a gem in it."""
    start = None
    for i, letter in enumerate(letters + "."):
        inside = letter == gem or (joker and letter == PEARL)
        if inside and start is None:
            start = i
        elif not inside and start is not None:
            if i - start >= MIN_RUN and gem in letters[start:i]:
                yield start, i
            start = None


def line_runs(letters: str, pearl: bool = False) -> Iterable[tuple[str, int, int]]:
    """Each combination along one row or column as (gem, start, end), ``end`` past its last
    card: what ``find_combinations`` finds line by line (N6; with ``pearl``, P5).

    >>> list(line_runs("RRR*G")), list(line_runs("RR*GG", pearl=True))
    ([('R', 0, 3)], [('R', 0, 3), ('G', 2, 5)])
    """
    for gem in GEMS:
        if gem in letters:
            for start, end in _runs(letters, gem, pearl):
                yield gem, start, end


def find_combinations(grid: Grid, pearl: bool = False) -> tuple[Combination, ...]:
    """Every combination on ``grid``, ordered by first cell (a row's before a column's).

    Classic (N6): maximal runs of 3–5 cards of one type along a row or column; a run of 5 is
    one combination, and runs that cross or touch are separate combinations.
    ``pearl=True`` (P5): the pearl joins any type, and may serve two combinations.

    >>> [str(c) for c in find_combinations(Grid.parse("RR*GG/OYCBV/PROYG/CBVPR/OYCBV"), True)]
    ['R×3 r1c1-r1c3', 'G×3 r1c3-r1c5']
    """
    found = []
    for line in _LINES:
        letters = "".join(grid.at(*cell) for cell in line)
        for gem, start, end in line_runs(letters, pearl):
            found.append(Combination(gem, line[start:end]))
    found.sort(key=lambda c: (c.cells[0], not c.horizontal))
    return tuple(found)


def bonus(index: int, rule: str) -> int:
    """N8: the bonus of the combination number ``index`` (from 0) in one scoring phase.

    >>> [bonus(k, "flat") for k in range(4)], [bonus(k, "rising") for k in range(4)]
    ([0, 1, 1, 1], [0, 1, 2, 3])
    """
    if rule == "flat":
        return 1 if index else 0
    if rule == "rising":
        return index
    raise BadInput(f"bonus: {rule!r} is not flat or rising")


def phase_points(combinations: Sequence[Combination], rule: str, scored_before: int = 0) -> int:
    """N7 points plus the N8 bonus; ``scored_before`` combinations of the same phase came
    earlier (N10 cascades continue the count)."""
    return sum(
        c.points + bonus(scored_before + k, rule) for k, c in enumerate(combinations)
    )


def cleared_cells(combinations: Iterable[Combination]) -> list[Cell]:
    """N9: the cells the combinations occupy, a shared cell once, in reading order."""
    return sorted({cell for c in combinations for cell in c.cells})
