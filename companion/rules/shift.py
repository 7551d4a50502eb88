"""Shifts of a row or column and their notation (RULES.md N4, N5).

>>> s = Shift.parse("c4^!3")
>>> s
Shift.parse('c4^!3')
>>> str(s), s.edge, s.wildcard
('c4^!3', (1, 4), True)
>>> Shift.parse("r1<").apply(Grid.parse("ROYGC/BVPRO/YGCBV/PROYG/CBVPR"))
Grid('OYGCR/BVPRO/YGCBV/PROYG/CBVPR')
"""

from __future__ import annotations

from dataclasses import dataclass

from .grid import SIZE, Cell, Grid, NotationError

ROW_DIRECTIONS = "<>"
COLUMN_DIRECTIONS = "^v"
OPPOSITE = {"<": ">", ">": "<", "^": "v", "v": "^"}
WILDCARD_SUFFIX = "!3"
WILDCARD_COST = 3
"""N5: any three cards pay for one shift."""


@dataclass(frozen=True, slots=True)
class Shift:
    """One shift: ``line`` 'r' or 'c', ``index`` 1–5, ``direction`` one of < > ^ v.

    ``wildcard`` is True when it was paid with three cards (N5) instead of one matching card.
    """

    line: str
    index: int
    direction: str
    wildcard: bool = False

    def __post_init__(self) -> None:
        allowed = ROW_DIRECTIONS if self.line == "r" else COLUMN_DIRECTIONS
        if self.line not in ("r", "c") or self.direction not in allowed:
            raise NotationError(f"no shift {self.line}{self.index}{self.direction}")
        if not 1 <= self.index <= SIZE:
            raise NotationError(f"shift {self}: index must be 1 to {SIZE}")

    @classmethod
    def parse(cls, text: str) -> Shift:
        """Read ``r2<``, ``r2>``, ``c4^``, ``c4v``, each optionally suffixed ``!3``.

        >>> Shift.parse("r6<")
        Traceback (most recent call last):
        ...
        companion.rules.grid.NotationError: shift 'r6<': character 2 '6' is not a line number 1-5
        """
        if not text:
            raise NotationError("empty shift")
        line = text[0]
        if line not in ("r", "c"):
            raise NotationError(f"shift {text!r}: character 1 {line!r} is not 'r' or 'c'")
        if len(text) < 2 or not "1" <= text[1] <= str(SIZE):
            got = repr(text[1]) if len(text) > 1 else "nothing"
            raise NotationError(
                f"shift {text!r}: character 2 {got} is not a line number 1-{SIZE}"
            )
        allowed = ROW_DIRECTIONS if line == "r" else COLUMN_DIRECTIONS
        if len(text) < 3 or text[2] not in allowed:
            got = repr(text[2]) if len(text) > 2 else "nothing"
            raise NotationError(
                f"shift {text!r}: character 3 {got} is not a direction ({' '.join(allowed)})"
            )
        rest = text[3:]
        if rest not in ("", WILDCARD_SUFFIX):
            raise NotationError(
                f"shift {text!r}: character 4 {rest[0]!r} starts {rest!r}, only "
                f"{WILDCARD_SUFFIX!r} may follow a shift"
            )
        return cls(line, int(text[1]), text[2], rest == WILDCARD_SUFFIX)

    def __str__(self) -> str:
        return f"{self.line}{self.index}{self.direction}{WILDCARD_SUFFIX if self.wildcard else ''}"

    def __repr__(self) -> str:
        return f"Shift.parse({str(self)!r})"

    @property
    def edge(self) -> Cell:
        """The edge card that moves to the opposite end: the one a matching card pays for."""
        far = {"<": 1, ">": SIZE, "^": 1, "v": SIZE}[self.direction]
        return (self.index, far) if self.line == "r" else (far, self.index)

    @property
    def cost(self) -> int:
        """Cards paid from hand: one matching card, or three with the wildcard."""
        return WILDCARD_COST if self.wildcard else 1

    def opposite(self) -> Shift:
        """The shift that undoes this one (same payment kind)."""
        return Shift(self.line, self.index, OPPOSITE[self.direction], self.wildcard)

    def plain(self) -> Shift:
        """The same move without its payment suffix."""
        return Shift(self.line, self.index, self.direction, False)

    def with_wildcard(self, wildcard: bool = True) -> Shift:
        return Shift(self.line, self.index, self.direction, wildcard)

    def apply(self, grid: Grid) -> Grid:
        """The grid after this shift; ``grid`` itself is unchanged."""
        cells = list(grid.cells)
        if self.line == "r":
            idx = [(self.index - 1) * SIZE + c for c in range(SIZE)]
        else:
            idx = [r * SIZE + (self.index - 1) for r in range(SIZE)]
        values = [cells[i] for i in idx]
        moved = values[1:] + values[:1] if self.direction in "<^" else values[-1:] + values[:-1]
        for i, v in zip(idx, moved, strict=True):
            cells[i] = v
        return Grid("".join(cells))


ALL_SHIFTS: tuple[Shift, ...] = tuple(
    Shift(line, index, direction)
    for line, directions in (("r", ROW_DIRECTIONS), ("c", COLUMN_DIRECTIONS))
    for index in range(1, SIZE + 1)
    for direction in directions
)
"""The 20 shifts of RULES.md, each with its ordinary (one matching card) payment."""


def parse_shifts(text: str) -> tuple[Shift, ...]:
    """Read a space-separated list such as ``"r2< c3^!3"``."""
    return tuple(Shift.parse(part) for part in text.split())


def format_shifts(shifts: tuple[Shift, ...] | list[Shift]) -> str:
    return " ".join(str(s) for s in shifts)
