"""Cut the grid's cells out of a frame as small top-down patches.

A patch is one cell pitch square (the card and a little of the gap around it), warped so
the card is upright and centred: where the lattice saw the card itself, on the card's own
centre (cards lie a few millimetres off their place), else on the lattice point.

>>> import numpy as np
>>> from vision.lattice import GridGeometry
>>> h = np.array([[100.0, 0, 10], [0, 100.0, 20], [0, 0, 1]])  # 100 px per cell
>>> centres = np.stack(np.meshgrid(np.arange(2) + 0.5, np.arange(2) + 0.5), -1)
>>> g = GridGeometry(2, 2, np.zeros((4, 2)), h, (0.8, 0.8), np.ones((2, 2), bool), centres)
>>> frame = np.zeros((300, 300, 3), np.uint8); frame[120:220, 110:210] = 255  # cell (1, 1)
>>> p = extract_patches(frame, g, size=16)
>>> p.shape, bool(p[3].mean() > 240), int(p[0].max())
((4, 16, 16, 3), True, 0)
"""

from __future__ import annotations

import cv2
import numpy as np

from .halves import halved_to
from .lattice import GridGeometry, find_grid
from .plane import out_of_frame, warped_in_frame

PATCH_SIZE = 48
TABLE_OFFSET = 0.75  # table samples sit this many cell pitches outside the grid's edge
TABLE_GAP = 0.1  # no card of the grid reaches further past its edge than this (pitches)
NEAR_TABLE = 0.5  # ... where the frame leaves no whole pitch beyond it: samples this wide
# A card the frame's edge cuts off is read while the middle of its cell, this share of a
# pitch, is in the frame: what is cut off then reaches less far in than the middle, and the
# card's other side, turned half round, shows it (extract_patches).
IN_VIEW = 0.4


def _source(frame: np.ndarray, geometry: GridGeometry, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The frame, halved while a cell would still cover two patch widths (so warping does
    not skip pixels), and the homography onto it."""
    pitch = float(np.sqrt(abs(np.linalg.det(geometry.homography[:2, :2]))))
    return halved_to(frame, geometry.homography, pitch, 2.5 * size)


def _maps(h: np.ndarray, centres: np.ndarray, size: int, span: float = 1.0) -> np.ndarray:
    """(N, 3, 3): pixel of the ``size`` px patch of the square of ``span`` pitches around
    each of ``centres`` (N, 2) -> the frame's (as ``cv2.WARP_INVERSE_MAP`` takes it); worked
    out all at once (numpy's matmul takes them one by one, each as alone)."""
    step = span / size
    to_grid = np.zeros((len(centres), 3, 3))
    to_grid[:, 0, 0] = to_grid[:, 1, 1] = step
    to_grid[:, :2, 2] = centres - span / 2 + step / 2
    to_grid[:, 2, 2] = 1.0
    return h @ to_grid


def _warps(
    img: np.ndarray, h: np.ndarray, centres: np.ndarray, size: int, every: int = 1,
    span: float = 1.0, maps: np.ndarray | None = None,
) -> np.ndarray:
    """(N, side, side, 3), side = ceil(size / every): the squares of ``span`` pitches of
    grid units (one by default) around ``centres`` (N, 2) as ``size`` px patches (``maps``:
    their :func:`_maps`, if worked out); of each, only every ``every``-th pixel of rows and
    columns, each patch warped straight into its place."""
    maps = (_maps(h, centres, size, span) if maps is None else maps).copy()
    # pixel i of the smaller patch is pixel i * every of the whole one: OpenCV works out
    # its place as M @ (x, y, 1), and scaling a column of M by a power of two is exact
    # (``every`` is 2 at PATCH_SIZE)
    maps[:, :, :2] *= every
    side = -(-size // every)
    out = np.empty((len(centres), side, side, 3), np.uint8)
    for patch, m in zip(out, maps, strict=True):
        _warp(img, m, side, patch)
    return out


def _warp(img: np.ndarray, m: np.ndarray, side: int, dst: np.ndarray | None = None) -> np.ndarray:
    return cv2.warpPerspective(img, m, (side, side), dst=dst,
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


def _crossing(img: np.ndarray, maps: np.ndarray, size: int, every: int) -> np.ndarray:
    """(N,) bool: the patches (``maps``: their :func:`_maps`, ``every``-th pixels) that
    reach past the frame's edge, by their corners."""
    side = -(-size // every)
    return ~warped_in_frame(maps, every * (side - 1) + 1, img.shape)


def _turned_in(patches: np.ndarray, img: np.ndarray, maps: np.ndarray, size: int,
               every: int) -> None:
    """Where the frame's edge cuts a cell's patch (``maps``: the patches' :func:`_maps`),
    its pixels past the edge taken from the patch turned half round its centre (in place):
    a card's face is the same turned so (its gem in the middle, its field and border all
    round), so the part the edge cut off is seen on its other side, and the palette reads
    a whole card's share of field and border (the frame's last pixels repeated out past it
    would lengthen whatever reaches the edge: a gem's rim there, read as the card's field,
    made an orange card with a golden gem yellow)."""
    side = patches.shape[1]
    # subsampled pixel u -> whole-patch pixel every * u; turned half round: size - 1 - that
    scale = np.diag([float(every), float(every), 1.0])
    turn = np.array([[-every, 0, size - 1], [0, -every, size - 1], [0, 0, 1.0]])
    for k in np.flatnonzero(_crossing(img, maps, size, every)):
        hidden = out_of_frame(maps[k] @ scale, side, img.shape)
        if hidden is None:
            continue
        turned_hidden = out_of_frame(maps[k] @ turn, side, img.shape)
        fill = hidden if turned_hidden is None else hidden & ~turned_hidden
        patches[k][fill] = _warp(img, maps[k] @ turn, side)[fill]


def cut_by_the_edge(
    frame: np.ndarray, geometry: GridGeometry, size: int = PATCH_SIZE, every: int = 1
) -> np.ndarray:
    """(rows, cols) bool: the cell's patch (as :func:`extract_patches` cuts it) reaches
    past the frame's edge."""
    # asked of the frame itself: halving it for the patches (_source) moves no edge
    maps = _maps(geometry.homography, geometry.card_centres.reshape(-1, 2), size)
    return _crossing(frame, maps, size, every).reshape(geometry.rows, geometry.cols)


def extract_patches(
    frame: np.ndarray, geometry: GridGeometry, size: int = PATCH_SIZE, every: int = 1,
    only: np.ndarray | None = None, turned: bool = True,
) -> np.ndarray:
    """(rows*cols, size, size, 3) uint8 BGR, one patch per cell in reading order (fewer with
    ``only``; ``ceil(size / every)`` px with ``every``). ``every``:
    only every n-th pixel of rows and columns of each, the very pixels the whole patch
    holds there (a palette reads no more: :func:`calibration.reading_step`), cut for a
    fraction of the cost. ``only``: (rows, cols) bool, those cells' patches alone. Where
    the frame's edge cuts a patch, what lies past it is the patch turned half round (or,
    not ``turned``, the frame's last pixels repeated).

    >>> from vision.lattice import GridGeometry
    >>> h = np.array([[90.0, 3, 10], [-2, 95.0, 20], [0, 0, 1]])
    >>> centres = np.stack(np.meshgrid(np.arange(2) + 0.5, np.arange(2) + 0.5), -1)
    >>> g = GridGeometry(2, 2, np.zeros((4, 2)), h, (0.8, 0.8), np.ones((2, 2), bool), centres)
    >>> frame = np.random.default_rng(0).integers(0, 256, (300, 300, 3), np.uint8)
    >>> whole = extract_patches(frame, g, size=16)
    >>> bool((extract_patches(frame, g, size=16, every=2) == whole[:, ::2, ::2]).all())
    True
    >>> bool((extract_patches(frame, g, 16, only=np.eye(2, dtype=bool)) == whole[[0, 3]]).all())
    True
    """
    img, h = _source(frame, geometry, size)
    centres = geometry.card_centres if only is None else geometry.card_centres[only]
    maps = _maps(h, centres.reshape(-1, 2), size)
    patches = _warps(img, h, centres.reshape(-1, 2), size, every, maps=maps)
    if turned:
        _turned_in(patches, img, maps, size, every)
    return patches


SIDES = ("top", "bottom", "left", "right")


def table_points_by_side(geometry: GridGeometry, per_side: int = 2,
                         offset: float = TABLE_OFFSET) -> dict[str, np.ndarray]:
    """Grid-unit centres of the table samples on each side of the grid (``SIDES``), just
    outside its edge (a few are plenty to know the cloth, and each costs reading time)."""
    rows, cols, d = geometry.rows, geometry.cols, offset
    along_c = (np.arange(per_side) + 0.5) * cols / per_side
    along_r = (np.arange(per_side) + 0.5) * rows / per_side
    return {
        "top": np.array([(x, -d) for x in along_c], float),
        "bottom": np.array([(x, rows + d) for x in along_c], float),
        "left": np.array([(-d, y) for y in along_r], float),
        "right": np.array([(cols + d, y) for y in along_r], float),
    }


def table_points(geometry: GridGeometry, per_side: int = 2) -> np.ndarray:
    """Grid-unit centres of the table samples of every side, in ``SIDES`` order."""
    return np.concatenate(list(table_points_by_side(geometry, per_side).values()))


def extract_table_patches(
    frame: np.ndarray, geometry: GridGeometry, size: int = PATCH_SIZE
) -> np.ndarray:
    """(M, size, size, 3) patches of bare table around the grid, only those wholly in the
    frame (M may be 0)."""
    return extract_points(frame, geometry, table_points(geometry), size)


def extract_table_sides(
    frame: np.ndarray, geometry: GridGeometry, size: int = PATCH_SIZE
) -> dict[str, np.ndarray]:
    """:func:`extract_table_patches`, cut once and told apart by the side they lie on. Where
    the grid fills the frame so that no side shows a whole pitch of table, the strip
    between the grid's edge and the frame's is sampled instead, in ``NEAR_TABLE`` squares
    just clear of the cards (without any sample of the table, an empty cell has nothing to
    be told by and reads ``?``)."""
    out = _table_sides(frame, geometry, size, TABLE_OFFSET, 1.0)
    if not any(len(patches) for patches in out.values()):
        out = _table_sides(frame, geometry, size, TABLE_GAP + NEAR_TABLE / 2, NEAR_TABLE)
    return out


def _table_sides(
    frame: np.ndarray, geometry: GridGeometry, size: int, offset: float, span: float
) -> dict[str, np.ndarray]:
    """The squares of ``span`` pitches ``offset`` outside each side of the grid, those
    wholly in the frame, as ``size`` px patches."""
    sides = table_points_by_side(geometry, offset=offset)
    centres = np.concatenate(list(sides.values()))
    keep = squares_in_frame(frame, geometry, centres, span)
    patches = _cut(frame, geometry, centres[keep], size, span)
    out, start, taken = {}, 0, 0
    for side, points in sides.items():
        n = int(keep[start:start + len(points)].sum())
        out[side] = patches[taken:taken + n]
        start, taken = start + len(points), taken + n
    return out


def extract_points(
    frame: np.ndarray, geometry: GridGeometry, centres: np.ndarray, size: int = PATCH_SIZE
) -> np.ndarray:
    """(M, size, size, 3) patches one pitch square around grid-unit ``centres`` (N, 2),
    only those wholly in the frame (M may be fewer than N)."""
    return _cut(frame, geometry, centres[squares_in_frame(frame, geometry, centres)], size)


def _cut(
    frame: np.ndarray, geometry: GridGeometry, centres: np.ndarray, size: int, span: float = 1.0
) -> np.ndarray:
    """(N, size, size, 3) patches of the squares of ``span`` pitches (one by default) around
    grid-unit ``centres`` (N, 2)."""
    if not len(centres):
        return np.zeros((0, size, size, 3), np.uint8)
    img, h = _source(frame, geometry, size)
    return _warps(img, h, centres, size, span=span)


def squares_in_frame(
    frame: np.ndarray, geometry: GridGeometry, centres: np.ndarray, span: float = 1.0
) -> np.ndarray:
    """(N,) bool: the squares of ``span`` pitches (one by default) around grid-unit
    ``centres`` lie wholly in the frame."""
    square = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]) * span
    return _within(geometry.to_image(centres[:, None, :] + square[None]), frame.shape)


def _within(quads: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Which quads (N, 4, 2) lie wholly inside an image of ``shape``."""
    fh, fw = shape[:2]
    x, y = quads[..., 0], quads[..., 1]
    return np.all((x >= 0) & (y >= 0) & (x <= fw - 1) & (y <= fh - 1), axis=-1)


def inside_frame(frame: np.ndarray, geometry: GridGeometry, share: float = IN_VIEW) -> np.ndarray:
    """(rows, cols) bool: the middle ``share`` of the cell's patch lies in the frame (its
    card is read: :func:`extract_patches` shows the palette the rest of its face)."""
    half = share / 2
    corner = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    quads = geometry.to_image(geometry.card_centres[:, :, None, :] + corner)
    return _within(quads, frame.shape)


def layout_patches(frame: np.ndarray, rows: int, cols: int) -> np.ndarray | None:
    """The cell patches of a laid-out rows x cols grid (for calibration), or None when no
    such grid is in view."""
    geometry = find_grid(frame, rows, cols)
    return None if geometry is None else extract_patches(frame, geometry)
