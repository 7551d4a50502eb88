"""Points on the table's plane as the camera sees them: a 3x3 projective map (a homography,
or an affine map as its special case) applied to points, fitted to matched points, and the
two questions the lattice and the tracker ask of one (a cell's area in the image, a convex
outline).
"""

from __future__ import annotations

import math

import cv2
import numpy as np


def apply(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Points (..., 2) through the 3x3 map ``m``; a point the map sends to infinity comes
    out as (0, 0), as in ``cv2.perspectiveTransform`` (which does the work: the lattice
    search maps every candidate through several guesses, and numpy's per-call overhead
    would cost more than the arithmetic).

    >>> apply(np.array([[2.0, 0, 1], [0, 3, 0], [0, 0, 1]]), np.array([[1.0, 1.0]])).tolist()
    [[3.0, 3.0]]
    """
    pts = np.asarray(pts, float)
    if pts.size == 0:
        return pts.copy()
    out = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), np.asarray(m, float))
    return out.reshape(pts.shape)


def fit_model(lat: np.ndarray, img: np.ndarray) -> np.ndarray | None:
    """Lattice -> image: a homography when the points span enough of a 2-D lattice, else an
    affine map (a homography from few or nearly collinear points extrapolates wildly)."""
    a, b = lat.T.tolist()  # a few dozen points: Python's max and min beat numpy's calls
    span_a, span_b = int(max(a) - min(a) + 1), int(max(b) - min(b) + 1)
    if len(lat) >= 6 and span_a >= 3 and span_b >= 3 or len(lat) >= 4 and span_a == span_b == 2:
        h = homography(lat, img)
        if h is not None:
            return h
    if len(lat) < 3:
        return None
    design = np.column_stack([lat, np.ones(len(lat))])
    sol, _, rank, _ = np.linalg.lstsq(design, img, rcond=None)
    if rank < 3:
        return None
    return np.vstack([sol.T, [0.0, 0.0, 1.0]])


def homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray | None:
    """Least-squares homography src -> dst (direct linear transform on normalised points).
    Written for few numpy steps (the lattice search fits several a frame, each to a few
    dozen points: numpy's overhead per step outweighs its arithmetic)."""
    n = len(src)

    def norm(p: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        """Scale and centre that put the points' mean distance from their centre at sqrt 2,
        and the points less their centre. (Sums divided by n: numpy's mean, to the bit.)"""
        c = p.sum(axis=0) / n
        d = p - c
        square = d * d
        dist = float(np.sqrt(square[:, 0] + square[:, 1]).sum()) / n
        return math.sqrt(2) / max(dist, 1e-9), c, d

    ss, cs, a = norm(src)
    sd, cd, b = norm(dst)
    a *= ss
    b *= sd
    m = np.zeros((max(2 * n, 9), 9))  # four points: padded so the null vector is returned
    rows = m[: 2 * n].reshape(n, 2, 9)  # the two rows of each point
    rows[:, 0, 0:2], rows[:, 0, 2] = a, 1
    rows[:, 1, 3:5], rows[:, 1, 5] = a, 1
    rows[:, :, 6:8] = a[:, None, :] * -b[:, :, None]
    rows[:, :, 8] = -b
    _, _, vt = np.linalg.svd(m, full_matrices=False)
    # Undo the normalisations: dst = Td^-1 H' Ts src.
    (csx, csy), (cdx, cdy) = cs.tolist(), cd.tolist()
    ts = np.array([[ss, 0, -ss * csx], [0, ss, -ss * csy], [0, 0, 1]])
    td_inv = np.array([[1 / sd, 0, cdx], [0, 1 / sd, cdy], [0, 0, 1]])
    h = td_inv @ vt[-1].reshape(3, 3) @ ts
    if abs(h[2, 2]) < 1e-12 or abs(np.linalg.det(h)) < 1e-12:
        return None
    return h / h[2, 2]


def jacobian_area(m: np.ndarray, lat: np.ndarray) -> np.ndarray:
    """Image area of one lattice cell around each lattice point (local |det J|)."""
    p = apply(m, lat)
    pa = apply(m, lat + [1e-2, 0])
    pb = apply(m, lat + [0, 1e-2])
    ja, jb = (pa - p) / 1e-2, (pb - p) / 1e-2
    return np.abs(ja[:, 0] * jb[:, 1] - ja[:, 1] * jb[:, 0])


def convex(quad: np.ndarray) -> bool:
    cross = []
    for i in range(4):
        a, b, d = quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]
        cross.append((b[0] - a[0]) * (d[1] - b[1]) - (b[1] - a[1]) * (d[0] - b[0]))
    return all(x > 0 for x in cross) or all(x < 0 for x in cross)
