"""Small statistics, fast on the short arrays of one scene.

``numpy.median`` costs ten times a partition (of 8-bit values, a radix sort) on arrays of a
few hundred values, and ``numpy.quantile`` more still; ``numpy.count_nonzero`` along rows of
a few hundred and ``numpy.where`` cost several times OpenCV's row sums and masked copies. A
palette reads every frame, and vision's grid search takes many medians per frame, so these
give the very same numbers with one partition, one sort or one OpenCV call. ``median`` is
the package's (``calibration.median``): vision's search uses it too.

>>> import numpy as np
>>> median(np.array([[3.0, 1.0], [2.0, 5.0], [9.0, 4.0]]), axis=0).tolist()
[3.0, 4.0]
>>> float(median(np.array([1.0, 2.0, 4.0, 10.0])))
3.0
>>> quantile(np.array([1.0, 2.0, 4.0, 10.0], np.float32), 0.9)
8.199999809265137
>>> row_counts(np.array([[True, False, True], [False, False, False]])).tolist()
[2, 0]
>>> where(np.array([[True, False]]), np.array([[2.5, 3.5]], np.float32), -1.0).tolist()
[[2.5, -1.0]]
>>> sum3(np.array([[0.1, 0.2, 0.3]])).tolist() == np.array([[0.1, 0.2, 0.3]]).sum(axis=-1).tolist()
True
"""

from __future__ import annotations

import math

import cv2
import numpy as np


def median(values: np.ndarray, axis: int = 0) -> np.ndarray:
    """``np.median(values, axis=axis)``, the same numbers: the mean of the two middle values
    for an even count, in the array's own float type; integers give float64, their two
    middle values added as such (in 8 bits 250 + 252 would wrap round to 246).

    >>> median(np.array([[250], [252], [10], [254]], np.uint8)).tolist()
    [251.0]
    >>> median(np.array([3, 1, 2], np.uint8)).tolist()
    2.0
    """
    a = np.asarray(values)
    n = a.shape[axis]
    if n == 0:
        raise ValueError("median of nothing")
    k = (n - 1) // 2
    exact = a.dtype.kind in "biu"
    # the array's own methods: numpy's functions add several Python steps to each call, and
    # the lattice search takes dozens of medians of a few values a frame
    part = a.copy()
    if exact and a.dtype.itemsize <= 2:
        # a stable sort of 8- or 16-bit values is a radix sort: many times a partition's speed
        part.sort(axis=axis, kind="stable")
    else:
        part.partition(k if n % 2 else [k, k + 1], axis=axis)
    at = (slice(None),) * (axis % a.ndim)  # index along ``axis``
    low = part[at + (k,)]
    if exact:
        low = low.astype(np.float64)
    if n % 2:
        return np.asarray(low)
    return np.asarray(0.5 * (low + part[at + (k + 1,)]))


def quantile(values: np.ndarray, q: float) -> float:
    """``float(np.quantile(values, q))`` of a 1-D array, to the last bit: numpy's default
    (linear) method, with its very arithmetic, in the array's own dtype."""
    n = len(values)
    if n == 0:
        raise ValueError("quantile of nothing")
    at = (n - 1) * q
    low = min(math.floor(at), n - 1)
    high = min(low + 1, n - 1)
    part = np.partition(values, (low, high) if high > low else low)
    a, b = part[low], part[high]
    t = at - low
    # numpy's lerp: from the nearer end, so that q = 1 gives the maximum exactly
    return float(b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t)


def row_counts(mask: np.ndarray) -> np.ndarray:
    """(M,) int32: how many entries are set in each row of a bool ``mask`` (M, K), as
    ``np.count_nonzero(mask, axis=1)``."""
    if not mask.size:
        return np.zeros(len(mask), np.int32)
    if mask.T.flags.c_contiguous and not mask.flags.c_contiguous:  # laid out column by column
        return cv2.reduce(mask.T.view(np.uint8), 0, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[0]
    rows = np.ascontiguousarray(mask).view(np.uint8)
    return cv2.reduce(rows, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[:, 0]


def row_sums(values: np.ndarray) -> np.ndarray:
    """values.sum(axis=1) of float32 ``values`` (M, K), to the last bit. Laid out column by
    column (and M > 1), numpy adds the columns one after another, as OpenCV's column sums
    do, faster; otherwise numpy's own (pairwise) sum."""
    if values.flags.c_contiguous or not values.T.flags.c_contiguous:
        return values.sum(axis=1)
    return cv2.reduce(values.T, 0, cv2.REDUCE_SUM, dtype=cv2.CV_32F)[0]


def where(keep: np.ndarray, values: np.ndarray, other: float) -> np.ndarray:
    """np.where(keep, values, other) of float32 ``values`` and bool ``keep`` (M, K), laid out
    in memory as ``values`` is: OpenCV's masked copy, a few times faster than numpy's."""
    if values.dtype != np.float32 or keep.shape != values.shape or not values.size:
        flip = None
    elif keep.flags.c_contiguous and values.flags.c_contiguous:
        flip = False
    elif keep.T.flags.c_contiguous and values.T.flags.c_contiguous:
        flip, keep, values = True, keep.T, values.T  # laid out column by column: as (K, M)
    else:
        flip = None
    if flip is None:
        return np.where(keep, values, np.float32(other))
    out = cv2.copyTo(values, keep.view(np.uint8), np.full(values.shape, other, np.float32))
    return out.T if flip else out


def sum3(values: np.ndarray) -> np.ndarray:
    """values.sum(axis=-1) of a last axis of three, to the bit: numpy adds them as
    ``(a0 + a1) + a2``, but reducing along so short an axis costs it several times two adds
    (a palette sums channels of every cell and class under every light it tries)."""
    return np.asarray((values[..., 0] + values[..., 1]) + values[..., 2])
