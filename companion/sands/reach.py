"""Which positions a game can reach: a bag and two scores with the first player to call.

A position can happen when some sequence of calls and draws from the full bag at 0-0 leads
to it with the game still on, whichever player called first. The search runs over the bags
between the full bag and the given one, layer by layer, with the scores held at most at the
given ones (scores never go down).
"""

from __future__ import annotations

import numpy as np

from companion.rules.sands import CALLS, COLOURS, GOAL, Bag

LIMIT = 40_000_000
"""Cells the exact search may use; past it only the quick necessary checks are made."""


def max_points(colour: str) -> int:
    """The most points one drawn stone of ``colour`` can bring: a success or a penalty (D3)."""
    return max(c.points if colour in c.succeeds_on else c.penalty for c in CALLS.values())


def effects(colour: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What drawing ``colour`` can do (D3): the caller's points on a success, and the
    opponent's on a failure (0 for a plain one)."""
    calls = CALLS.values()
    return (tuple(sorted({c.points for c in calls if colour in c.succeeds_on})),
            tuple(sorted({c.penalty for c in calls if colour not in c.succeeds_on})))


def why_impossible(full: Bag, bag: Bag, scores: tuple[int, int]) -> str | None:
    """None when the position can happen, else the reason in a few words."""
    drawn = [f - n for f, n in zip(full.counts(), bag.counts(), strict=True)]
    ceiling = sum(n * max_points(c) for n, c in zip(drawn, COLOURS, strict=True))
    if sum(scores) > ceiling:
        return f"the {sum(drawn)} stones drawn bring at most {ceiling} points in all"
    x, y = scores
    span = np.array(drawn) + 1
    if 2 * (x + 1) * (y + 1) * int(np.prod(span)) > LIMIT:
        return None
    if reachable_scores(full, bag, x, y)[x, y]:
        return None
    return "no sequence of calls from 0-0 leads there with the first player to call"


def reachable_scores(full: Bag, bag: Bag, x: int, y: int) -> np.ndarray:
    """Which scores up to (x, y) a game can have with ``bag`` left, the first player to call.

    Breadth-first over the bags from ``full`` down to ``bag``; states (turn, x, y), turn 0
    being the player to call at the end.
    """
    span = tuple(f - n + 1 for f, n in zip(full.counts(), bag.counts(), strict=True))
    strides = np.array([int(np.prod(span[i + 1 :])) for i in range(4)])
    above = np.indices(span).reshape(4, -1).T  # each bag's counts above the given bag
    drawn = (np.array(span) - 1).sum() - above.sum(axis=1)
    reach = np.zeros((above.shape[0], 2, x + 1, y + 1), dtype=bool)
    reach[-1, :, 0, 0] = True  # the full bag; either player may have made the first call
    for k in range(1, int(drawn[0]) + 1):
        rows = np.flatnonzero(drawn == k)
        here = np.zeros((rows.size, *reach.shape[1:]), dtype=bool)
        for i, colour in enumerate(COLOURS):
            has = above[rows, i] + 1 < span[i]  # the bag one stone of this colour earlier
            if has.any():
                part = np.zeros((int(has.sum()), *reach.shape[1:]), dtype=bool)
                _draw(reach[rows[has] + strides[i]], part, colour)
                here[has] |= part
        reach[rows] = here
    scores: np.ndarray = reach[0, 0]
    return scores


def _draw(src: np.ndarray, dst: np.ndarray, colour: str) -> None:
    """Add to ``dst`` every state one draw of ``colour`` leads to from ``src`` (batched)."""
    points, penalties = effects(colour)
    x, y = src.shape[2] - 1, src.shape[3] - 1
    for p in points:
        # Success (D4): the mover scores and goes on; reaching 16 wins (D5), which ends it.
        cx, cy = min(x - p, GOAL - 1 - p), min(y - p, GOAL - 1 - p)
        if cx >= 0:
            dst[:, 0, p : p + cx + 1, :] |= src[:, 0, : cx + 1, :]
        if cy >= 0:
            dst[:, 1, :, p : p + cy + 1] |= src[:, 1, :, : cy + 1]
    for p in penalties:
        # Failure (D3): the turn passes, and the opponent may get points.
        if y >= p:
            dst[:, 1, :, p:] |= src[:, 0, :, : y + 1 - p]
        if x >= p:
            dst[:, 0, p:, :] |= src[:, 1, : x + 1 - p, :]
