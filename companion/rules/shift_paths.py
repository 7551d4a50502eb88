"""The shortest sequences of shifts between two grids (RULES.md N4): the search under
:func:`companion.rules.explain.explain`.

Meet-in-the-middle: breadth-first from both grids at once, each grid a 25-byte string and
each shift a fixed permutation of the 25 positions, so grids 4 shifts apart need about
2 × 400 grids instead of 20⁴.

Most searches the session makes find no way (each other name of a card the camera may have
misread, tried against the players' next reading): both sides then grow to their full depth,
so the layers are grown as sets of grids, in C-level loops, and the way back from a grid is
worked out only for the few grids where the two sides meet.

>>> shortest(b"abcdefghijklmnopqrstuvwxy", b"bcdeafghijklmnopqrstuvwxy", 4)
[(0,)]
"""

from __future__ import annotations

from operator import itemgetter

from .grid import EMPTY, SIZE
from .shift import ALL_SHIFTS, Shift


def permutation(shift: Shift) -> tuple[int, ...]:
    """Where each cell's card comes from: after ``shift``, cell i holds the card of cell p[i].

    Cells are numbered 0–24 in reading order.

    >>> permutation(Shift.parse("r1<"))[:5]
    (1, 2, 3, 4, 0)
    >>> permutation(Shift.parse("c1v"))[::5]
    (20, 0, 5, 10, 15)
    """
    if shift.line == "r":
        line = [(shift.index - 1) * SIZE + c for c in range(SIZE)]
    else:
        line = [r * SIZE + (shift.index - 1) for r in range(SIZE)]
    step = 1 if shift.direction in "<^" else -1
    source = list(range(SIZE * SIZE))
    for k, cell in enumerate(line):
        source[cell] = line[(k + step) % SIZE]
    return tuple(source)


def _edge_cell(shift: Shift) -> int:
    row, col = shift.edge
    return (row - 1) * SIZE + (col - 1)


# One entry per shift of ALL_SHIFTS, by index: moving a grid is one C-level gather.
MOVE = tuple(itemgetter(*permutation(s)) for s in ALL_SHIFTS)
EDGE = tuple(_edge_cell(s) for s in ALL_SHIFTS)
_OPPOSITE = tuple(ALL_SHIFTS.index(s.opposite()) for s in ALL_SHIFTS)
_EMPTY_BYTE = ord(EMPTY)


def shortest(start: bytes, target: bytes, max_shifts: int) -> list[tuple[int, ...]]:
    """All shortest sequences from ``start`` to ``target`` as tuples of shift indices (of
    ``ALL_SHIFTS``), sorted; [] if none within ``max_shifts``; [()] when they are the same."""
    if start == target:
        return [()]
    fwd, bwd = _Side(start, True), _Side(target, False)
    for _ in range(max_shifts):
        # Grow the smaller frontier; the meeting grids then lie on its new layer and on the
        # other side's last layer (any earlier meeting would have been found a step before).
        grow, other = (fwd, bwd) if len(fwd.layers[-1]) <= len(bwd.layers[-1]) else (bwd, fwd)
        if not grow.layers[-1]:
            return []
        grow.grow()
        meeting = grow.layers[-1] & other.layers[-1]
        if meeting:
            return sorted(p + q for g in meeting for p in fwd.paths(g) for q in bwd.paths(g))
    return []


class _Side:
    """The grids reached from a root, layer by layer: the forward side from the grid before,
    by shifts; the backward side from the grid after, by the shifts that undo one (a legal
    shift i leaves its card on the edge of the opposite shift, so the backward side runs the
    opposite shifts under the same empty-edge rule). Only the layers are kept while the
    search grows: the way back from a grid (``paths``) is worked out for the few grids where
    the two sides meet."""

    __slots__ = ("forward", "open_edges", "layers", "seen", "_memo")

    def __init__(self, root: bytes, forward: bool) -> None:
        # Every grid a side reaches holds its root's cards: without an empty cell, every
        # shift of every grid is legal, and the layers grow with no edge looked at.
        self.forward, self.open_edges = forward, _EMPTY_BYTE not in root
        self.layers: list[set[bytes]] = [{root}]
        self.seen = {root}
        self._memo: dict[bytes, list[tuple[int, ...]]] = {root: [()]}

    def grow(self) -> None:
        if self.open_edges:
            new = {bytes(move(grid)) for grid in self.layers[-1] for move in MOVE}
        else:
            new = {bytes(MOVE[i](grid)) for grid in self.layers[-1]
                   for i in range(len(ALL_SHIFTS)) if grid[EDGE[i]] != _EMPTY_BYTE}
        new -= self.seen
        self.seen |= new
        self.layers.append(new)

    def _links(self, grid: bytes, depth: int) -> list[tuple[bytes, int]]:
        """The grids one layer nearer the root that one shift joins to ``grid`` (at
        ``depth``), each with that shift as made from start: from the grid before it
        (forward), from ``grid`` itself (backward)."""
        before = self.layers[depth - 1]
        found = []
        for i in range(len(ALL_SHIFTS)):
            undone = _OPPOSITE[i]
            prev = bytes(MOVE[undone](grid))
            if prev in before and prev[EDGE[i]] != _EMPTY_BYTE:
                # the shift that made grid from prev (forward), or prev from grid (backward)
                found.append((prev, i if self.forward else undone))
        return found

    def paths(self, grid: bytes, depth: int | None = None) -> list[tuple[int, ...]]:
        """Shortest shift sequences root → grid (forward) or grid → root (backward)."""
        memo = self._memo.get(grid)
        if memo is None:
            if depth is None:
                depth = len(self.layers) - 1
            links = self._links(grid, depth)
            if self.forward:
                memo = [p + (i,) for prev, i in links for p in self.paths(prev, depth - 1)]
            else:
                memo = [(i,) + p for prev, i in links for p in self.paths(prev, depth - 1)]
            self._memo[grid] = memo
        return memo
