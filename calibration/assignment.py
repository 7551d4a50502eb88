"""Minimum-cost assignment (the Hungarian method with potentials), numpy only.

Learning a palette from counts alone needs "give each cell a class so that every class gets
exactly its count and the total distance is least": an assignment of cells to count slots.
SciPy would do it, but it is a large install on a Raspberry Pi for one function.

>>> import numpy as np
>>> min_cost_assignment(np.array([[4, 1, 3], [2, 0, 5], [3, 2, 2]])).tolist()
[1, 0, 2]
"""

from __future__ import annotations

import numpy as np


def min_cost_assignment(cost: np.ndarray) -> np.ndarray:
    """For an (n, m) cost matrix with n <= m, the column of each row in a least-cost matching.

    Each row gets a distinct column. O(n^2 m); the inner loop over columns is vectorised.
    """
    cost = np.asarray(cost, dtype=np.float64)
    if cost.ndim != 2:
        raise ValueError(f"cost must be a 2-D matrix, not shape {cost.shape}")
    n, m = cost.shape
    if n > m:
        raise ValueError(f"more rows ({n}) than columns ({m}): not every row can be matched")
    if not np.all(np.isfinite(cost)):
        raise ValueError("cost matrix holds a NaN or infinite entry")
    # 1-based arrays as in the textbook method; index 0 is the virtual start column.
    row_pot = np.zeros(n + 1)
    col_pot = np.zeros(m + 1)
    owner = np.zeros(m + 1, dtype=np.int64)  # owner[j]: the row matched to column j (0: none)
    way = np.zeros(m + 1, dtype=np.int64)
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        minv = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = owner[j0]
            reduced = cost[i0 - 1] - row_pot[i0] - col_pot[1:]
            free = ~used[1:]
            better = free & (reduced < minv[1:])
            minv[1:][better] = reduced[better]
            way[1:][better] = j0
            candidates = np.where(free, minv[1:], np.inf)
            j1 = int(np.argmin(candidates)) + 1
            delta = candidates[j1 - 1]
            row_pot[owner[used]] += delta
            col_pot[used] -= delta
            minv[1:][free] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    result = np.empty(n, dtype=np.int64)
    matched = np.nonzero(owner[1:])[0]
    result[owner[1:][matched] - 1] = matched
    return result


def assign_with_counts(cost: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Class of each item for an (items, classes) cost so that class k is used counts[k] times.

    >>> import numpy as np
    >>> assign_with_counts(np.array([[0., 1.], [0., 5.], [0., 9.]]), np.array([1, 2])).tolist()
    [1, 1, 0]
    """
    cost = np.asarray(cost, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.int64)
    if cost.shape[1] != len(counts):
        raise ValueError(f"{cost.shape[1]} classes in the cost but {len(counts)} counts")
    if np.any(counts < 0) or counts.sum() != cost.shape[0]:
        raise ValueError(f"counts add up to {counts.sum()}, not to the {cost.shape[0]} items")
    slot_class = np.repeat(np.arange(len(counts)), counts)
    return slot_class[min_cost_assignment(cost[:, slot_class])]
