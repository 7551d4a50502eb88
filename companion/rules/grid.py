"""The 5×5 grid of gem cards and its notation (RULES.md, "Components and notation").

>>> g = Grid.parse("RROGY/CBVPR/GGYOC/BVPRO/YGCBV")
>>> g.at(2, 3)
'V'
>>> Grid.parse(str(g)) == g
True
>>> g
Grid('RROGY/CBVPR/GGYOC/BVPRO/YGCBV')
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .errors import BadInput

SIZE = 5
GEMS = "ROYGCBVP"
PEARL = "*"
EMPTY = "."
GEM_NAMES = {
    "R": "ruby",
    "O": "amber",
    "Y": "topaz",
    "G": "emerald",
    "C": "turquoise",
    "B": "sapphire",
    "V": "amethyst",
    "P": "spinel",
}
CELL_LETTERS = GEMS + PEARL + EMPTY

Cell = tuple[int, int]
"""(row, col), both counted from 1 as in RULES.md."""


class NotationError(BadInput):
    """A grid or shift string that does not follow RULES.md's notation."""


@dataclass(frozen=True, slots=True)
class Grid:
    """Immutable 5×5 grid; ``cells`` holds the 25 letters in reading order.

    ``Grid("RROGY/CBVPR/...")`` with the row slashes is the same as ``Grid.parse``.
    """

    cells: str

    def __post_init__(self) -> None:
        if "/" in self.cells:
            object.__setattr__(self, "cells", Grid.parse(self.cells).cells)
        if len(self.cells) != SIZE * SIZE:
            raise NotationError(f"a grid has {SIZE * SIZE} cells, not {len(self.cells)}")
        for i, letter in enumerate(self.cells):
            if letter not in CELL_LETTERS:
                raise NotationError(
                    f"cell r{i // SIZE + 1}c{i % SIZE + 1}: {letter!r} is not one of "
                    f"{CELL_LETTERS}"
                )

    @classmethod
    def parse(cls, text: str) -> Grid:
        """Read ``RROGY/CBVPR/...``: five rows of five letters, top to bottom.

        >>> Grid.parse("RROGY/CBVPR/GGYOC/BVPRO/YGCBX")
        Traceback (most recent call last):
        ...
        companion.rules.grid.NotationError: grid: character 29 'X' is not a gem letter, '*' or '.'
        """
        rows = text.split("/")
        for pos, ch in enumerate(text, start=1):
            if ch != "/" and ch not in CELL_LETTERS:
                raise NotationError(
                    f"grid: character {pos} {ch!r} is not a gem letter, {PEARL!r} or {EMPTY!r}"
                )
        if len(rows) != SIZE:
            raise NotationError(f"grid {text!r}: {len(rows)} rows, a grid has {SIZE}")
        for r, row in enumerate(rows, start=1):
            if len(row) != SIZE:
                raise NotationError(
                    f"grid {text!r}: row {r} has {len(row)} cells, a row has {SIZE}"
                )
        return cls("".join(rows))

    def __str__(self) -> str:
        return "/".join(self.cells[r * SIZE : (r + 1) * SIZE] for r in range(SIZE))

    def __repr__(self) -> str:
        return f"Grid({str(self)!r})"

    def at(self, row: int, col: int) -> str:
        """The letter at (row, col), counted from 1."""
        return self.cells[(row - 1) * SIZE + (col - 1)]

    def row(self, row: int) -> str:
        return self.cells[(row - 1) * SIZE : row * SIZE]

    def column(self, col: int) -> str:
        return self.cells[col - 1 :: SIZE]

    def replace(self, changes: dict[Cell, str]) -> Grid:
        """A new grid with some cells changed; this one stays as it is."""
        letters = list(self.cells)
        for (row, col), letter in changes.items():
            letters[(row - 1) * SIZE + (col - 1)] = letter
        return Grid("".join(letters))

    def positions(self) -> Iterator[tuple[Cell, str]]:
        """Every cell with its letter, in reading order."""
        for i, letter in enumerate(self.cells):
            yield (i // SIZE + 1, i % SIZE + 1), letter

    def empty_cells(self) -> list[Cell]:
        """The empty cells in reading order (the order N9 refills them)."""
        return [cell for cell, letter in self.positions() if letter == EMPTY]

    def count(self, letter: str) -> int:
        return self.cells.count(letter)
