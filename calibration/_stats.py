"""Small statistics, fast on the short arrays of one scene.

``numpy.median`` costs ten times a partition on arrays of a few hundred values; a palette
reads every frame, so these do the same with one partition.

>>> import numpy as np
>>> median(np.array([[3.0, 1.0], [2.0, 5.0], [9.0, 4.0]]), axis=0).tolist()
[3.0, 4.0]
>>> float(median(np.array([1.0, 2.0, 4.0, 10.0])))
3.0
"""

from __future__ import annotations

import numpy as np


def median(values: np.ndarray, axis: int = 0) -> np.ndarray:
    """The median along ``axis`` (the mean of the two middle values for an even count)."""
    a = np.asarray(values)
    n = a.shape[axis]
    if n == 0:
        raise ValueError("median of nothing")
    k = (n - 1) // 2
    if n % 2:
        return np.asarray(np.take(np.partition(a, k, axis=axis), k, axis=axis))
    part = np.partition(a, [k, k + 1], axis=axis)
    return np.asarray(0.5 * (np.take(part, k, axis=axis) + np.take(part, k + 1, axis=axis)))
