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


def inverse(m: np.ndarray) -> np.ndarray:
    """``np.linalg.inv`` of a 3x3 map, the same to rounding, by OpenCV's closed form (its
    determinant and adjugate): the lattice search inverts a map several times a frame, and
    numpy's checks cost it five times the arithmetic. Raises ``np.linalg.LinAlgError``, as
    numpy does, for a singular map.

    >>> inverse(np.array([[2.0, 0, 1], [0, 4, 0], [0, 0, 1]])).tolist()
    [[0.5, 0.0, -0.5], [0.0, 0.25, 0.0], [0.0, 0.0, 1.0]]
    """
    ok, inv = cv2.invert(np.asarray(m, np.float64))
    if not ok:
        raise np.linalg.LinAlgError("singular map")
    return inv


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
    """Least-squares homography src -> dst: the direct linear transform on normalised points
    (each set centred, its mean distance from its centre scaled to sqrt 2).

    Written for few numpy steps: the lattice search fits several a frame, each to a few dozen
    points, and numpy's overhead per step outweighs its arithmetic. So the null vector is
    taken as the smallest eigenvector of the 9x9 normal matrix (one OpenCV call) rather than
    the last singular vector of the 2n x 9 design matrix: the same vector to rounding, for
    half the work. The normalisation is undone on plain floats.

    >>> src = np.array([[0, 0], [1, 0], [1, 1], [0, 1], [2, 1]], float)
    >>> h = np.array([[30.0, 2, 100], [1, 25, 50], [0.01, 0.02, 1]])
    >>> dst = apply(h, src)
    >>> bool(np.abs(apply(homography(src, dst), src) - dst).max() < 1e-9)
    True
    """
    n = len(src)
    pts = np.concatenate([src, dst], axis=1)  # both sets side by side: normalised at once
    centre = pts.sum(axis=0) / n
    d = pts - centre
    dist = np.hypot(d[:, 0::2], d[:, 1::2]).sum(axis=0) / n
    ss, sd = (math.sqrt(2) / max(x, 1e-9) for x in dist.tolist())
    csx, csy, cdx, cdy = centre.tolist()
    d *= (ss, ss, -sd, -sd)  # normalised src, and dst negated as its rows take it
    rows = np.zeros((n, 2, 9))  # the two rows of each point
    a = rows[:, 0, 0:3]
    a[:, 0:2], a[:, 2] = d[:, 0:2], 1.0
    rows[:, 1, 3:6] = a
    rows[:, :, 6:9] = a[:, None, :] * d[:, 2:4, None]
    m = rows.reshape(2 * n, 9)
    _, _, vectors = cv2.eigen(m.T @ m)  # eigenvalues descending: the last is the null vector
    h0, h1, h2, h3, h4, h5, h6, h7, h8 = vectors[8].tolist()
    # Undo the normalisations: dst = Td^-1 H' Ts src, with Ts = [[ss, 0, -ss csx], [0, ss,
    # -ss csy], [0, 0, 1]] and Td^-1 = [[1/sd, 0, cdx], [0, 1/sd, cdy], [0, 0, 1]].
    g0, g1, g2 = ss * h0, ss * h1, h2 - ss * (csx * h0 + csy * h1)
    g3, g4, g5 = ss * h3, ss * h4, h5 - ss * (csx * h3 + csy * h4)
    g6, g7, g8 = ss * h6, ss * h7, h8 - ss * (csx * h6 + csy * h7)
    r0 = (g0 / sd + cdx * g6, g1 / sd + cdx * g7, g2 / sd + cdx * g8)
    r1 = (g3 / sd + cdy * g6, g4 / sd + cdy * g7, g5 / sd + cdy * g8)
    det = (
        r0[0] * (r1[1] * g8 - r1[2] * g7)
        - r0[1] * (r1[0] * g8 - r1[2] * g6)
        + r0[2] * (r1[0] * g7 - r1[1] * g6)
    )
    if abs(g8) < 1e-12 or abs(det) < 1e-12:
        return None
    return np.array([r0, r1, (g6, g7, g8)]) / g8


def jacobian_area(m: np.ndarray, lat: np.ndarray) -> np.ndarray:
    """Image area of one lattice cell around each lattice point (local |det J|)."""
    # the three sets of points through one call: each point is mapped on its own
    p, pa, pb = apply(m, np.stack([lat, lat + [1e-2, 0], lat + [0, 1e-2]]))
    ja, jb = (pa - p) / 1e-2, (pb - p) / 1e-2
    return np.abs(ja[:, 0] * jb[:, 1] - ja[:, 1] * jb[:, 0])


def convex(quad: np.ndarray) -> bool:
    cross = []
    for i in range(4):
        a, b, d = quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]
        cross.append((b[0] - a[0]) * (d[1] - b[1]) - (b[1] - a[1]) * (d[0] - b[0]))
    return all(x > 0 for x in cross) or all(x < 0 for x in cross)


def warped_in_frame(maps: np.ndarray, side: int, shape: tuple[int, ...]) -> np.ndarray:
    """(N,) bool: the side x side squares warped by ``maps`` (N, 3, 3; their pixels -> an
    image's of ``shape``, as ``cv2.WARP_INVERSE_MAP`` takes them) lie wholly in the image,
    in front of the camera, by their corners.

    >>> warped_in_frame(np.stack([np.eye(3), np.eye(3) + [[0, 0, 8], [0, 0, 0], [0, 0, 0]]]),
    ...                  4, (10, 10)).tolist()
    [True, False]
    """
    last = side - 1.0
    ends = np.array([[0, 0, 1], [last, 0, 1], [0, last, 1], [last, last, 1]])
    xyz = np.asarray(maps, float) @ ends.T  # (N, 3, 4): each square's corners in the image
    h, w = shape[:2]
    x, y, z = xyz[:, 0], xyz[:, 1], xyz[:, 2]
    zs = np.where(z > 0, z, 1.0)
    inside = (z > 0) & (x / zs >= 0) & (x / zs <= w - 1) & (y / zs >= 0) & (y / zs <= h - 1)
    return np.asarray(inside.all(axis=1))


def out_of_frame(m: np.ndarray, side: int, shape: tuple[int, ...]) -> np.ndarray | None:
    """(side, side) bool: the pixels of a side x side square warped from an image of
    ``shape`` by ``m`` (its pixels -> the image's, as ``cv2.WARP_INVERSE_MAP`` takes it)
    that lie past the image's edge, or behind the camera; None where none does.

    >>> out_of_frame(np.array([[1.0, 0, -2], [0, 1, 0], [0, 0, 1]]), 4, (10, 10))[0].tolist()
    [True, True, False, False]
    >>> out_of_frame(np.eye(3), 4, (10, 10)) is None
    True
    """
    m = np.asarray(m, float)
    if _well_inside(m, side, shape) or warped_in_frame(m[None], side, shape)[0]:
        return None
    h, w = shape[:2]
    u, v = np.meshgrid(np.arange(side, dtype=float), np.arange(side, dtype=float))
    p = np.stack([u, v, np.ones_like(u)], -1) @ m.T
    ahead = p[..., 2] > 0
    z = np.where(ahead, p[..., 2], 1.0)
    x, y = p[..., 0] / z, p[..., 1] / z
    return ~(ahead & (x >= 0) & (x <= w - 1) & (y >= 0) & (y <= h - 1))


def _well_inside(m: np.ndarray, side: int, shape: tuple[int, ...]) -> bool:
    """The side x side square warped by ``m`` lies in the image by a pixel or more all
    round, by its corners worked out on plain floats: what :func:`warped_in_frame` says
    of it then, whatever its rounding (far below a pixel), at a tenth of its numpy steps
    (most close looks lie well inside the frame)."""
    (a, b, c), (d, e, f), (g, k, m22) = m.tolist()
    last = side - 1.0
    h, w = shape[:2]
    for u, v in ((0.0, 0.0), (last, 0.0), (0.0, last), (last, last)):
        z = g * u + k * v + m22
        if not z > 1e-6 * (abs(g * u) + abs(k * v) + abs(m22)):
            return False
        x, y = (a * u + b * v + c) / z, (d * u + e * v + f) / z
        if not (1.0 <= x <= w - 2.0 and 1.0 <= y <= h - 2.0):
            return False
    return True
