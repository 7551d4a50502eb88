"""The exact value of every Desert Sands position: each player's chance to win with best play.

A position is the bag (stones left per colour) and both scores seen from the player about to
call (the *mover*). The table holds, for every bag that fits in the full bag and every pair of
score classes, ``W`` = P(mover wins) and ``L`` = P(mover loses); a draw (D6) is the rest.

Best play: each player maximises their own chance to win; among calls whose chances to win are
equal (within ``TIE``) the one with the smaller chance to lose (a draw beats a loss), then the
first in D3's order red, yellow, green, lilac. W and L do not depend on that last tie-break.

Scores are kept as classes 0..15 and ``HOT`` (16): 16 or more without having won, which only
penalties give (D5). Why the exact score past 16 never matters to the table, although D6
compares scores: with one stone left the player to call knows its colour (the bag is public).
A hot player then calls it and wins. A cold player facing a hot one wins if that stone's points
bring 16, and otherwise loses by D6 whatever the margin (16 or more beats 15 or less). Two
cold players are compared on exact scores. So every position with one stone left has a value
free of the excess, and by induction on the stones left so has every position with stones
left. The margin only matters right after a call that empties the bag, such as a deliberate
wrong call with the last stone; ``companion.sands.advice`` plays those out with the exact
scores through ``companion.rules.sands``. The table's empty-bag row, which only its own
arithmetic uses, calls hot against hot a draw: no best call ever leads there.

The bags are solved layer by layer (by stones left) in batches of numpy arrays; a layer only
needs the one before it, so a layer can go to disk as soon as it is done (``solve_layers``).
Table rows are in that order: by stones left, then red, yellow, green, lilac counts.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from companion.errors import BadInput
from companion.rules.sands import CALLS, COLOURS, GOAL, Bag

SOLVER_VERSION = 1
# The table holds every bag of stones left: (r+1)(y+1)(g+1)(l+1) rows of 2 x 17 x 17 values.
# 16 of each colour is 185 MB on disk (12 of each, the game's own bag: 63 MB); more would
# fill a Pi's memory card and take minutes to solve.
MOST_OF_A_COLOUR = 16
MAX_BAGS = (MOST_OF_A_COLOUR + 1) ** 4
HOT = GOAL
SIDE = GOAL + 1
"""Score classes per player: 0..15 and HOT."""
TIE = 1e-12
"""Chances closer than this count as equal when choosing a call."""
WIN, LOSE = 0, 1
BLOCK = 64
"""Bags solved in one batch."""


def score_class(score: int) -> int:
    return min(score, HOT)


@dataclass(frozen=True, eq=False)
class Layout:
    """Where each bag's row is: bags by stones left, then by counts, for one full bag."""

    full: Bag
    shape: tuple[int, int, int, int]
    order: np.ndarray  # table row -> flat bag index (C order of the counts)
    rank: np.ndarray  # flat bag index -> table row
    starts: np.ndarray  # first table row of each layer (stones left), plus the end

    @classmethod
    def of(cls, full: Bag) -> Layout:
        """The layout of ``full``'s table; a ValueError for a bag too big to solve here.

        >>> Layout.of(Bag(1, 1, 1, 1)).rows
        16
        """
        shape = (full.red + 1, full.yellow + 1, full.green + 1, full.lilac + 1)
        positions = math.prod(shape)
        if positions > MAX_BAGS:
            raise BadInput(
                f"the bag {full} has {positions} positions of stones left; at most "
                f"{MAX_BAGS} ({MOST_OF_A_COLOUR} of each colour) can be solved here"
            )
        totals = np.indices(shape).sum(axis=0).ravel()
        order = np.argsort(totals, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        starts = np.searchsorted(totals[order], np.arange(full.total + 2))
        return cls(full, shape, order, rank, starts)

    @property
    def rows(self) -> int:
        return int(self.order.size)

    def row(self, bag: Bag) -> int:
        if not bag.within(self.full):
            raise BadInput(f"bag {bag} does not fit in the full bag {self.full}")
        return int(self.rank[np.ravel_multi_index(bag.counts(), self.shape)])

    def layer(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The flat indices and the counts per colour of the bags with ``n`` stones left."""
        flat = self.order[self.starts[n] : self.starts[n + 1]]
        return flat, np.stack(np.unravel_index(flat, self.shape), axis=1)


def terminal_values() -> np.ndarray:
    """The empty bag (D6): the higher class wins; HOT beats any cold score."""
    s = np.arange(SIDE)
    out = np.zeros((1, 2, SIDE, SIDE))
    out[0, WIN] = s[:, None] > s[None, :]
    out[0, LOSE] = s[:, None] < s[None, :]
    return out


def _sum_plan() -> list[tuple[frozenset[str], frozenset[str], str]]:
    """How to build every call's success and failure colour sets, one addition each.

    Each step is (set, a set already built, the colour added); single colours are given.
    """
    done = {frozenset({c}) for c in COLOURS}
    plan = []

    def build(colours: frozenset[str]) -> None:
        if colours in done:
            return
        base = next((colours - {c} for c in COLOURS if colours - {c} in done), None)
        if base is None:
            base = colours - {next(c for c in COLOURS if c in colours)}
            build(base)
        plan.append((colours, base, next(iter(colours - base))))
        done.add(colours)

    for colour in COLOURS:
        hits = frozenset(CALLS[colour].succeeds_on)
        build(hits)
        build(frozenset(COLOURS) - hits)
    return plan


SUM_PLAN = _sum_plan()


class _Work:
    """The arrays one batch of bags needs, made once: fresh ones per batch cost more than sums."""

    def __init__(self, size: int) -> None:
        shape = (size, 2, SIDE, SIDE)
        self.sets = {frozenset({c}): np.empty(shape) for c in COLOURS}
        self.sets.update({colours: np.empty(shape) for colours, _, _ in SUM_PLAN})
        self.calls = [np.empty(shape) for _ in COLOURS]
        self.top = np.empty((size, SIDE, SIDE))
        self.low = np.empty((size, SIDE, SIDE))


def _add_success(out: np.ndarray, hit: np.ndarray, p_hit: np.ndarray, points: int) -> None:
    """Mover's (W, L) over successes: the same mover goes on, or wins at 16 (D4, D5)."""
    cold = GOAL - points  # classes that are still below 16 after the points
    if cold > 0:
        out[:, :, :cold] = hit[:, :, points:GOAL]
    out[:, WIN, cold:] = p_hit[:, None, None]
    out[:, LOSE, cold:] = 0.0


def _add_failure(out: np.ndarray, miss: np.ndarray, penalty: int) -> None:
    """Mover's (W, L) over failures: the other player calls next (D3), ``penalty`` points up."""
    # The other's (W, L) at (their class, ours) is our (L, W) at (ours, theirs).
    swapped = miss[:, ::-1].transpose(0, 1, 3, 2)
    if not penalty:
        out += swapped
        return
    # Their class o becomes o + penalty, held at HOT.
    kept = SIDE - penalty
    out[:, :, :, :kept] += swapped[:, :, :, penalty:]
    out[:, :, :, kept:] += swapped[:, :, :, HOT:]


def call_values(work: _Work, p: dict[str, np.ndarray]) -> list[np.ndarray]:
    """Each call's (W, L) for the first len(p) bags of the batch, in COLOURS order.

    ``work.sets[{c}]`` holds P(draw c) times the next layer's values at the bag without one
    c; ``p[c]`` is P(draw c).
    """
    size = len(p[COLOURS[0]])
    sets = {colours: array[:size] for colours, array in work.sets.items()}
    for colours, base, added in SUM_PLAN:
        np.add(sets[base], sets[frozenset({added})], out=sets[colours])
    out = []
    for colour, value in zip(COLOURS, work.calls, strict=True):
        row = CALLS[colour]
        hits = frozenset(row.succeeds_on)
        value = value[:size]
        p_hit = np.sum([p[c] for c in hits], axis=0)
        _add_success(value, sets[hits], p_hit, row.points)
        _add_failure(value, sets[frozenset(COLOURS) - hits], row.penalty)
        out.append(value)
    return out


def best_of(values: list[np.ndarray], out: np.ndarray, work: _Work) -> None:
    """Best play into ``out``: the highest W; among W within TIE of it, the lowest L."""
    top, low = work.top[: len(out)], work.low[: len(out)]
    np.copyto(top, values[0][:, WIN])
    for value in values[1:]:
        np.maximum(top, value[:, WIN], out=top)
    out[:, WIN] = top
    top -= TIE
    out[:, LOSE] = np.inf
    for value in values:
        low.fill(np.inf)
        np.copyto(low, value[:, LOSE], where=value[:, WIN] >= top)
        np.minimum(out[:, LOSE], low, out=out[:, LOSE])


def solve_layers(layout: Layout) -> Iterator[np.ndarray]:
    """Each layer's values (rows, 2, SIDE, SIDE), the empty bag first.

    The arrays are reused: use each one before asking for the next but one.
    """
    widest = int(np.diff(layout.starts).max())
    buffers = [np.empty((widest, 2, SIDE, SIDE)) for _ in range(2)]
    work = _Work(BLOCK)
    strides = np.array([int(np.prod(layout.shape[i + 1 :])) for i in range(4)])
    prev = terminal_values()
    yield prev
    for n in range(1, layout.full.total + 1):
        flat, counts = layout.layer(n)
        here = buffers[n % 2][: flat.size]
        prev_start = layout.starts[n - 1]
        for start in range(0, flat.size, BLOCK):
            block = slice(start, start + BLOCK)
            p = {}
            for i, colour in enumerate(COLOURS):
                left = counts[block, i]
                p[colour] = left / n
                # A colour not in the bag has weight 0: any row of the layer will do.
                at = np.where(left > 0, layout.rank[flat[block] - strides[i]] - prev_start, 0)
                drawn = work.sets[frozenset({colour})][: left.size]
                np.take(prev, at, axis=0, out=drawn)
                drawn *= p[colour][:, None, None, None]
            best_of(call_values(work, p), here[block], work)
        yield here
        prev = here


def solve(full: Bag) -> np.ndarray:
    """The whole table in memory: shape (rows, 2, SIDE, SIDE), rows as ``Layout.row``."""
    layout = Layout.of(full)
    table = np.empty((layout.rows, 2, SIDE, SIDE))
    for n, values in enumerate(solve_layers(layout)):
        table[layout.starts[n] : layout.starts[n + 1]] = values
    return table
