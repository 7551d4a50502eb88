"""Find a rows x cols lattice of cards or tiles in a camera frame.

Grid units: cell (r, c) covers ``[c, c+1] x [r, r+1]``, so a card's centre sits at
``(c + 0.5, r + 0.5)``. ``GridGeometry.homography`` maps grid units to image pixels.

How: card-like regions are found on a downscaled copy of the frame (``vision.candidates``),
a few cuts at a time: the search stops at the first stage that shows the grid clearly.
From a seed region, the nearest regions of like size give two lattice steps; the lattice
grows outwards, each round mapping every region back into grid units through the current
fit (affine while little is known, then a homography) and taking those that fall near a
lattice point with a card-like size. Several seeds are tried and the lattice with the most
cards in a rows x cols window wins. Cells under a hand or left empty are simply missing;
the fit is rejected when too few cells back it, when the lattice seen is not rows x cols,
or when it does not reach every row and column, or when a line at the window's edge holds
no card (the cards span a line less: the grid could as well lie a line over).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from calibration import median
from calibration.errors import CameraError

from .candidates import MIN_SIDE, STAGES, CandidateFinder, Candidates
from .halves import halve
from .plane import apply, convex, fit_model, inverse, jacobian_area
from .visible import LOOK, card_in_cell

WORK_PIXELS = 512 * 288  # size of the image the lattice is searched in
SNAP = 0.24  # how far (grid units) a card centre may sit from its lattice point
SNAP_AFFINE = 0.4  # ... while the lattice is still an affine guess
MIN_SUPPORT = 0.4  # share of cells that must show a card for the lattice to count
CONFIDENT_SUPPORT = 0.8  # with this share seen, stop looking for a better lattice
MIN_CELL_FILL = 0.3  # a card covers at least this share of its cell (gaps up to 80% of a card)
RING_PATTERN = 0.4  # this share of the cells around the grid alike to its cards: a pattern
MAX_SEEDS = 12
SAME_LOOK = 2.0  # close-look pixels a look may move and still count as taken
STRAY = 0.2  # a card this far (grid units) from where the other cards put its cell is not in it
AXIS_COS = 0.9  # a neighbour lies along a side of the seed card within 25 degrees
SQUARE_DEGREES = 15.0  # a card's sides run this close to the lattice's axes in grid units
CARD_SIZE = (0.7, 1.4)  # a card's width and height to the grid's cards' (each)
# While the lattice is an affine guess from a few near cards, a steep tilt (cards of the far
# row half the size of the near row's) skews and scales the cards further off: looser bounds
# then. The lattice is refitted as a homography as soon as it spans 3 x 3, and every card
# checked again under the strict ones.
AFFINE_SIZE = (0.55, 1.8)  # ... while the lattice is an affine guess
AFFINE_SQUARE_DEGREES = 25.0


@dataclass(frozen=True, eq=False)
class GridGeometry:
    """Where the grid is in the frame.

    ``corners``: TL TR BR BL of the outer boundary of the cards (image pixels).
    ``homography``: grid units -> image pixels. ``card_size``: a card's width and height in
    grid units. ``seen``: (rows, cols) bool, a card outline was found in that cell.
    ``card_centres``: (rows, cols, 2) grid-unit centre of the card found in each cell
    (the cell's own centre where none was seen).
    """

    rows: int
    cols: int
    corners: np.ndarray
    homography: np.ndarray
    card_size: tuple[float, float]
    seen: np.ndarray
    card_centres: np.ndarray
    residual: float = 0.0

    def to_image(self, points: np.ndarray) -> np.ndarray:
        """Grid-unit points (..., 2) -> image pixels."""
        return apply(self.homography, points)

    def cell_quad(self, r: int, c: int) -> np.ndarray:
        """The cell's whole pitch (card and half the gaps around it) as TL TR BR BL pixels."""
        return self.to_image(np.array([[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]], float))

    def card_quad(self, r: int, c: int) -> np.ndarray:
        """The card in cell (r, c), from the lattice's card size, as TL TR BR BL pixels."""
        cx, cy = self.card_centres[r, c]
        hw, hh = self.card_size[0] / 2, self.card_size[1] / 2
        quad = [[cx - hw, cy - hh], [cx + hw, cy - hh], [cx + hw, cy + hh], [cx - hw, cy + hh]]
        return self.to_image(np.array(quad, float))

    @property
    def support(self) -> float:
        """Share of cells in which a card was seen."""
        return float(self.seen.mean())

    def __repr__(self) -> str:
        corners = ", ".join(f"({x:.0f}, {y:.0f})" for x, y in self.corners)
        return f"<GridGeometry {self.rows}x{self.cols} corners=[{corners}] seen={self.seen.sum()}>"


@dataclass(frozen=True)
class GridSearch:
    """What ``search_grid`` found: a geometry, or None and the reason."""

    geometry: GridGeometry | None
    reason: str = ""
    candidates: Candidates | None = field(default=None, repr=False)
    # Work-image pixels (where the candidates are) -> frame pixels.
    to_frame: np.ndarray = field(default_factory=lambda: np.eye(3), repr=False)
    # The geometry is a lattice the frames before held with a card in every line at its
    # edge (vision.tracker): a line the players clear since keeps its place.
    anchored: bool = False
    # The cuts of the frame made so far, to make more of on demand (vision.air).
    finder: CandidateFinder | None = field(default=None, repr=False, compare=False)


def find_grid(frame: np.ndarray, rows: int = 5, cols: int = 5) -> GridGeometry | None:
    """The rows x cols grid in ``frame`` (BGR), or None (``search_grid`` says why)."""
    return search_grid(frame, rows, cols).geometry


class GridSizeError(CameraError):
    """A grid size the search does not look for: 2x2 to 12x12 cells."""


def search_grid(frame: np.ndarray, rows: int = 5, cols: int = 5) -> GridSearch:
    """Look for the rows x cols grid; on failure the result carries a one-line reason."""
    if not (2 <= rows <= 12 and 2 <= cols <= 12):
        raise GridSizeError(f"grid size {rows}x{cols} out of range 2x2..12x12")
    if frame is None or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise ValueError("frame must be a BGR uint8 image")
    small = too_small(frame, rows, cols)
    if small:
        return GridSearch(None, small)
    finder, to_frame = cutter(frame, rows * cols)
    work = finder.img
    best = GridSearch(None, "no card-like shapes in the image", None, to_frame, finder=finder)
    looked: _Looked = {}
    tied = False  # the best lattice's window could as well lie a line or more over
    for stage in STAGES:
        cands = finder.add(stage)
        if len(cands) < 3:
            continue
        if best.geometry is not None and not _could_add(cands, best.geometry, to_frame):
            continue  # the same lattice would come back, with no more cards seen
        fits, reason = _fits(cands, rows, cols, work.shape)
        for fit in fits:
            geometry = _geometry(cands, fit, rows, cols, to_frame)
            if geometry is None:
                reason = "lattice fit is degenerate"
            elif not _cards_in_cells(frame, geometry, looked):
                reason = "the lattice's cells hold no card-shaped things"
            else:
                break
        else:
            geometry = None
        if geometry is None:
            if best.geometry is None:
                best = GridSearch(None, reason, cands, to_frame, finder=finder)
            continue
        # the lattice most cards show, and whether they leave its placement in doubt; of
        # two that show as many, one they settle
        if (best.geometry is None or geometry.support > best.geometry.support
                or (geometry.support == best.geometry.support and tied and fit.margin > 0)):
            best = GridSearch(geometry, "", cands, to_frame, finder=finder)
            tied = fit.margin == 0
        # a placement a card missed could turn round is looked at in more cuts
        if geometry.support >= CONFIDENT_SUPPORT and fit.margin > 1:
            break
    if tied:
        return replace(best, geometry=None, reason=TIED)
    return best


TIED = "the cards fit the grid as well a row or column over: move loose cards away from it"


def too_small(frame: np.ndarray, rows: int, cols: int) -> str:
    """Why ``frame`` is too small to show a rows x cols grid of cards the search can see
    (each at least ``MIN_SIDE`` pixels a side), or "" (an empty frame from a camera's
    glitch is one: no grid, no error)."""
    h, w = frame.shape[:2]
    if w < cols * MIN_SIDE or h < rows * MIN_SIDE:
        return f"the picture is {w}x{h} pixels: too small to show a {rows}x{cols} grid"
    return ""


def cutter(frame: np.ndarray, cells: int) -> tuple[CandidateFinder, np.ndarray]:
    """The frame shrunk to the image the lattice is searched in, to be cut into card-like
    regions on demand (for a grid of ``cells`` cards), and the map from its pixels to the
    frame's."""
    work = downscale(frame)
    # Pixel centres: work pixel i spans frame pixels around (i + 0.5) / s - 0.5.
    sx, sy = work.shape[1] / frame.shape[1], work.shape[0] / frame.shape[0]
    to_frame = np.array([[1 / sx, 0, 0.5 / sx - 0.5], [0, 1 / sy, 0.5 / sy - 0.5], [0, 0, 1]])
    return CandidateFinder(work, cells), to_frame


def _could_add(cands: Candidates, g: GridGeometry, to_frame: np.ndarray) -> bool:
    """Could these regions show a card in a cell of ``g`` where none was seen? Loosely, as
    a lattice still being grown would take one (near the cell's centre, about a card's
    size): where none could, fitting the lattice again can only find the same cards."""
    empty = ~g.seen
    if not empty.any():
        return False
    to_grid = inverse(g.homography) @ to_frame
    quads = apply(to_grid, cands.boxes)
    centres = quads.mean(axis=1) - 0.5
    near = np.round(centres)
    on_point = _both(np.abs(centres - near) < SNAP_AFFINE)
    r, c = near[:, 1].astype(int), near[:, 0].astype(int)
    inside = (r >= 0) & (r < g.rows) & (c >= 0) & (c < g.cols)
    size, _ = shape_in_grid(quads)
    ratio = size / np.array(g.card_size)
    small, big = AFFINE_SIZE
    card_sized = _both((ratio > small) & (ratio < big))
    hit = on_point & inside & card_sized
    return bool(empty[r[hit], c[hit]].any())


_Looked = dict[tuple[int, int], tuple[np.ndarray, np.ndarray, bool]]
"""Close looks the search took, per cell: where the look was (the cell's corners in the
frame), the card size it expected (grid units) and the answer."""


def _cards_in_cells(
    frame: np.ndarray, geometry: GridGeometry, looked: _Looked, sample: int = 3
) -> bool:
    """Look at a few cells where a card was seen, at full resolution and top-down: are they
    card-shaped there too? (Small discs of a polka-dot cloth pass for cards on the small
    image the lattice is searched in; not up close.) A cell ``looked`` at before in the
    same place, for a card of the same size (within ``SAME_LOOK`` pixels of the look: a
    later stage of the search often finds nearly the same lattice), is not looked at
    again, and such cells are asked first."""
    size = np.array(geometry.card_size)
    seen = np.argwhere(geometry.seen).tolist()
    spread = [seen[k] for k in np.linspace(0, len(seen) - 1, min(sample, len(seen))).round()
              .astype(int)]
    # Cells looked at already first, then cells spread over the grid.
    again = [rc for rc in seen if tuple(rc) in looked]
    picks = (again + [rc for rc in spread if rc not in again])[: len(spread)]
    need = (len(picks) + 1) // 2  # half of them, or more
    passed = failed = 0
    for r, c in picks:  # stop as soon as the answer is known
        cell = geometry.cell_quad(r, c)
        before = looked.get((r, c))
        # A look may move or expect another size by this much and still see the same:
        # well inside the look's own tolerances.
        pitch = float(np.linalg.norm(cell[1] - cell[0]) + np.linalg.norm(cell[3] - cell[0])) / 2
        if (
            before is not None
            and np.abs(before[0] - cell).max() < SAME_LOOK * pitch / LOOK
            and np.abs(before[1] - size).max() < SAME_LOOK / LOOK
        ):
            card = before[2]
        else:
            card = card_in_cell(frame, geometry, r, c)
            looked[(r, c)] = (cell, size, card)
        if card:
            passed += 1
        else:
            failed += 1
        if passed >= need or failed > len(picks) - need:
            break
    return passed >= need


def _fits(
    cands: Candidates, rows: int, cols: int, shape: tuple[int, ...]
) -> tuple[list[_Fit], str]:
    """Lattices grown from the likeliest seeds, placed as rows x cols windows, best first;
    or none and the commonest reason."""
    fits: list[_Fit] = []
    reasons: list[str] = []
    used = np.zeros(len(cands), bool)
    dead_ends = _DeadEnds()
    for seed in _seed_order(cands):
        if used[seed]:
            continue
        path: list[_Cells] = []
        grown = _grow(cands, int(seed), rows, cols, path, dead_ends)
        if not isinstance(grown, _Grown):  # none (None), or a dead end met: as it ended
            dead_ends.add(path, grown or "")
            if grown:
                reasons.append(grown)
            continue
        fit, why = _window(cands, grown, rows, cols, shape)
        if fit is None:
            # Not marked used: growing is path-dependent, and from another seed of this
            # lattice it may get past what stopped it (under a steep tilt an affine guess
            # from two near rows misses the third, one from a far and a near row does not).
            dead_ends.add(path, why)
            reasons.append(why)
            continue
        # Seeds on this lattice (a card found twice, its field apart from its border) would
        # only grow it again.
        used |= grown.on_lattice
        fits.append(fit)
        if len(fit.cells) >= CONFIDENT_SUPPORT * rows * cols:
            break
    fits.sort(key=lambda f: -f.score)
    if not fits:
        return [], max(reasons, key=reasons.count) if reasons else "no lattice of cards found"
    return fits, ""


def downscale(frame: np.ndarray, pixels: int = WORK_PIXELS) -> np.ndarray:
    """Shrink to about ``pixels`` pixels (the same work for any aspect ratio): halvings
    (cheap, no aliasing) first, then one linear step of less than two."""
    img = frame
    while img.shape[0] * img.shape[1] >= 4 * pixels:
        img = halve(img)
    f = math.sqrt(pixels / (img.shape[0] * img.shape[1]))
    if f < 1.0:
        size = (max(1, round(img.shape[1] * f)), max(1, round(img.shape[0] * f)))
        img = cv2.resize(img, size, interpolation=cv2.INTER_LINEAR)
    return img


# ---------------------------------------------------------------- lattice growing


@dataclass
class _Grown:
    model: np.ndarray  # lattice (a, b) -> work pixels, 3x3
    cells: dict[tuple[int, int], int]  # lattice point -> candidate index
    on_lattice: np.ndarray  # (N,) bool, candidates that fit some point of it


@dataclass
class _Fit:
    model: np.ndarray  # grid units -> work pixels
    cells: dict[tuple[int, int], int]  # (row, col) -> candidate index
    score: float
    residual: float
    # How many more cards the window holds than any other placement of it over the
    # lattice: read a line over, every card would be its neighbour's. Where it is 0 the
    # cards seen cannot tell which; where it is 1, one card missed could turn it round.
    margin: int


def _seed_order(c: Candidates) -> np.ndarray:
    """Candidates with many like-sized neighbours first: they sit inside a lattice."""
    side = np.sqrt(c.areas)
    d = np.hypot(*(c.centres[:, None, :] - c.centres[None, :, :]).transpose(2, 0, 1))
    ratio = c.areas[:, None] / c.areas[None, :]
    like = (ratio > 0.6) & (ratio < 1.67) & (d < 3.0 * side[:, None]) & (d > 0.5 * side[:, None])
    # Cards stand out in many cuts, and are seldom smaller than a cloth's dots or checks.
    size = np.log2(c.areas / median(c.areas))
    size = np.minimum(np.maximum(size, -2), 3)  # np.clip, without its Python-level checks
    score = c.votes + 0.25 * np.minimum(like.sum(axis=1), 8) + size
    return np.argsort(-score, kind="stable")[:MAX_SEEDS]


def _initial_steps(c: Candidates, seed: int) -> tuple[int, int] | None:
    """Two neighbours of the seed, one along each lattice axis. The seed card's own sides
    show which way the axes run: under a steep tilt a diagonal step can be shorter than a
    step along a column, so nearness alone would pick a skewed pair."""
    side = math.sqrt(c.areas[seed])
    vec = c.centres - c.centres[seed]
    dist = np.hypot(vec[:, 0], vec[:, 1])
    ratio = c.areas / c.areas[seed]
    ok = (ratio > 0.55) & (ratio < 1.8) & (dist > 0.6 * side) & (dist < 3.2 * side)
    box = c.boxes[seed]
    picks = []
    for edge in (box[1] - box[0], box[2] - box[1]):
        unit = edge / max(float(np.hypot(*edge)), 1e-9)
        along = np.abs(vec @ unit) >= AXIS_COS * np.maximum(dist, 1e-9)
        idx = np.flatnonzero(ok & along)
        if len(idx) == 0:
            return None
        picks.append(int(idx[np.argmin(dist[idx])]))
    return picks[0], picks[1]


def _grow(
    c: Candidates, seed: int, rows: int, cols: int, path: list[_Cells], dead_ends: _DeadEnds,
) -> _Grown | None | str:
    """The lattice grown from ``seed``, or None. ``path`` collects what it held at each
    step; where it holds what a growth of ``dead_ends`` held, that dead end's reason."""
    steps = _initial_steps(c, seed)
    if steps is None:
        return None
    cells = {(0, 0): seed, (1, 0): steps[0], (0, 1): steps[1]}
    limit = max(rows, cols) + 3  # a patterned cloth must not grow the lattice without end
    model = None
    for _ in range(4 * limit):
        if (why := dead_ends.reason(cells)) is not None:
            return why
        path.append(cells)
        lat = np.array(list(cells.keys()), float)
        model = fit_model(lat, c.centres[list(cells.values())])
        if model is None:
            return None
        # An affine guess is only good next to the cells it came from; a homography
        # already knows the perspective and may reach further.
        margin = 1 if model[2, 0] == 0.0 and model[2, 1] == 0.0 else 3
        snapped = _snap(c, model, cells, limit, margin)
        if snapped is None:
            return None
        new_cells, on_lattice = snapped
        if new_cells == cells:
            break
        cells = new_cells
    assert model is not None
    return _Grown(model, cells, on_lattice)


_Cells = dict[tuple[int, int], int]  # lattice point -> candidate index
_Held = tuple[tuple[int, int, int], ...]


class _DeadEnds:
    """What growths that came to nothing held, in one search, and why: a growth is led by
    the cards it holds and where alone, so one from another seed that comes to hold them
    so ends the same way (a hand over the grid leaves a dozen seeds growing into the same
    few dead ends: seeds of a lattice whose window fails are grown again, as growing is
    path-dependent)."""

    def __init__(self) -> None:
        # by the cards held, cheap to ask; where they lay is asked of those alone
        self._ends: dict[frozenset[int], list[tuple[_Cells, str]]] = {}

    def add(self, path: list[_Cells], why: str) -> None:
        for cells in path:
            self._ends.setdefault(frozenset(cells.values()), []).append((cells, why))

    def reason(self, cells: _Cells) -> str | None:
        """Why a growth holding ``cells`` came to nothing, or None if none held them."""
        ends = self._ends.get(frozenset(cells.values()))
        if not ends:
            return None
        held = _held(cells)
        return next((why for other, why in ends if _held(other) == held), None)


def _held(cells: _Cells) -> _Held:
    """The cards a growth holds and where, however its lattice is numbered (moved, turned
    or mirrored: each seed numbers it from itself, along its own card's sides): each card
    and its place from the first card's, in the least of the eight ways to number them.

    >>> _held({(0, 0): 4, (1, 0): 7, (0, 1): 2}) == _held({(3, 5): 7, (3, 4): 4, (2, 4): 2})
    True
    """
    (a0, b0), _ = min(cells.items(), key=lambda kv: kv[1])
    steps = [(k, a - a0, b - b0) for (a, b), k in cells.items()]
    steps.sort()
    return min(
        tuple((k, sa * (db if swap else da), sb * (da if swap else db)) for k, da, db in steps)
        for sa in (1, -1) for sb in (1, -1) for swap in (False, True)
    )


def _snap(
    c: Candidates, model: np.ndarray, cells: dict[tuple[int, int], int], limit: int, margin: int
) -> tuple[dict[tuple[int, int], int], np.ndarray] | None:
    """Candidates that fall on lattice points next to the current cells, one per point, and
    which candidates would fit a lattice point (the runners-up too).

    Seen in grid units, the cards of one grid all have about the same width and height and
    sit square to the lattice (each a few degrees off at most); a cloth's dots and flowers,
    spilled things and a hand do not, so those tests keep the lattice from wandering."""
    try:
        inv = inverse(model)
    except np.linalg.LinAlgError:
        return None
    # Centres and box corners through the inverse at once: (N, 5, 2). (A few dozen regions:
    # numpy's overhead per step outweighs its arithmetic, so there are few steps.)
    mapped = apply(inv, c.points)
    if not np.isfinite(mapped).all():
        return None
    lat, boxes = mapped[:, 0], mapped[:, 1:]
    near = lat.round()
    miss = np.abs(lat - near)
    off = np.maximum(miss[:, 0], miss[:, 1])
    a, b = zip(*cells, strict=True)
    # Within ``margin`` of the cells so far, and the whole no wider than ``limit``.
    lo = (max(min(a) - margin, max(a) - limit), max(min(b) - margin, max(b) - limit))
    hi = (min(max(a) + margin, min(a) + limit), min(max(b) + margin, min(b) + limit))
    inside = _both((near >= lo) & (near <= hi))
    affine = margin == 1
    size, square = shape_in_grid(boxes, AFFINE_SQUARE_DEGREES if affine else SQUARE_DEGREES)
    ref = median(size[list(cells.values())], axis=0)
    ratio = size / np.maximum(ref, 1e-9)
    small, big = AFFINE_SIZE if affine else CARD_SIZE
    size_ok = _both((ratio > small) & (ratio < big))
    if not affine:
        size_ok &= _both(size < 1.05)
    # An affine guess misses the perspective: a step further from the cells it knows lands
    # a little off, more so the steeper the tilt.
    snap = SNAP_AFFINE if affine else SNAP
    ok = inside & size_ok & square & (off < snap)
    pick = ok.nonzero()[0]
    log_ratio = np.abs(np.log(np.maximum(ratio[pick], 1e-9)))
    cost = off[pick] + 0.3 * (log_ratio[:, 0] + log_ratio[:, 1])
    # One candidate per lattice point: the cheapest.
    new_cells: dict[tuple[int, int], int] = {}
    keys = near[pick].astype(int).tolist()
    at = pick.tolist()
    for k in cost.argsort(kind="stable").tolist():
        new_cells.setdefault((keys[k][0], keys[k][1]), at[k])
    if len(new_cells) < 3:
        return None
    return new_cells, ok


def shape_in_grid(
    boxes: np.ndarray, within: float = SQUARE_DEGREES
) -> tuple[np.ndarray, np.ndarray]:
    """For boxes (N, 4, 2) in grid units: their (width, height) along the grid's axes, and
    whether their sides run within ``within`` degrees of those axes (both sides, one along
    each axis: a lattice sheared along the grid's diagonals keeps one side of every card
    square to it, not the other)."""
    # Both sides at once (N, 2, 2): from corner 0 to 1 and from 1 to 2; a few numpy steps
    # over all boxes, as the lattice search asks this of every region several times a frame.
    side = boxes[:, 1:3] - boxes[:, 0:2]
    x, y = side[..., 0], side[..., 1]
    # each side's angle to the nearest axis
    tilt = np.abs((np.arctan2(y, x) + np.pi / 4) % (np.pi / 2) - np.pi / 4)
    along_x = np.abs(x) >= np.abs(y)
    square = _both(tilt < math.radians(within)) & (along_x[:, 0] != along_x[:, 1])
    length = np.hypot(x, y)
    # (width, height): the first side's length first where it runs along x
    return np.where(along_x[:, :1], length, length[:, ::-1]), square


def _both(ok: np.ndarray) -> np.ndarray:
    """``ok.all(axis=1)`` for (N, 2) bools: the search asks this of every region many times
    a frame, and an elementwise and costs numpy half what a reduction does."""
    return ok[:, 0] & ok[:, 1]


def _window(
    c: Candidates, g: _Grown, rows: int, cols: int, shape: tuple[int, ...]
) -> tuple[_Fit | None, str]:
    """Orient the grown lattice (columns to the right, rows down) and place the rows x cols
    window on it."""
    lat = np.array(list(g.cells.keys()), float)
    p0, pa, pb = apply(g.model, lat.mean(axis=0) + np.array([[0, 0], [1, 0], [0, 1]]))
    da, db = pa - p0, pb - p0
    # Which lattice axis runs across the image: in-plane rotation is far below 45 degrees.
    if abs(da[0]) * abs(db[1]) >= abs(da[1]) * abs(db[0]):
        col_axis, row_axis, dc, dr = 0, 1, da, db
    else:
        col_axis, row_axis, dc, dr = 1, 0, db, da
    sc = 1 if dc[0] > 0 else -1
    sr = 1 if dr[1] > 0 else -1
    rc = np.array([[sr * k[row_axis], sc * k[col_axis]] for k in g.cells], int)
    idx = np.array(list(g.cells.values()))
    r0, c0 = rc.min(axis=0)
    span_r, span_c = rc.max(axis=0) - (r0, c0) + 1
    if span_r < rows or span_c < cols:
        if span_r >= cols and span_c >= rows and rows != cols:
            return None, f"lattice runs {span_r}x{span_c}, expected {rows}x{cols}: camera turned?"
        seen = (f"only {min(span_r, rows)} of {rows} rows and {min(span_c, cols)} of {cols}"
                " columns seen")
        # where a missing line would lie past the picture's edge, the player can be told
        # which way the grid runs out of view
        beside = []
        if span_c < cols:
            beside += [("left", r0 + span_r // 2, c0 - 1), ("right", r0 + span_r // 2, c0 + span_c)]
        if span_r < rows:
            beside += [("top", r0 - 1, c0 + span_c // 2), ("bottom", r0 + span_r, c0 + span_c // 2)]
        height, width = shape[:2]
        off = []
        for name, line_r, line_c in beside:
            at = np.zeros(2)
            at[row_axis], at[col_axis] = sr * line_r, sc * line_c
            x, y = apply(g.model, at[None])[0]
            if not (0 <= x < width and 0 <= y < height):
                off.append(name)
        if off:
            # the missing line may as well lie at the other side, hidden or not yet laid
            seen += (f": if the grid runs past the picture's {' or '.join(off)} edge, move"
                     " the camera so that all of it shows")
        return None, seen
    # Cards and votes in every rows x cols window over the lattice, by summed-area tables
    # (each lattice point holds one card: set, not added up).
    count = np.zeros((span_r + 1, span_c + 1))
    votes_at = np.zeros((span_r + 1, span_c + 1))
    point = (rc[:, 0] - r0 + 1, rc[:, 1] - c0 + 1)
    count[point] = 1
    votes_at[point] = c.votes[idx]

    def windows(table: np.ndarray) -> np.ndarray:
        t = table.cumsum(axis=0).cumsum(axis=1)
        return t[rows:, cols:] - t[:-rows, cols:] - t[rows:, :-cols] + t[:-rows, :-cols]

    in_window, votes_in = windows(count), windows(votes_at)
    # Most cards, then most votes; the first such window in reading order.
    k = int(np.argmax(in_window * 1e6 + votes_in))
    wr, wc = (int(v) for v in np.unravel_index(k, in_window.shape))
    n, votes = int(in_window.flat[k]), float(votes_in.flat[k])
    wr, wc = wr + int(r0), wc + int(c0)
    if len(rc) - n >= max(3, min(rows, cols)):
        return None, "a repeating pattern, not a grid of cards"
    need = max(min(4, rows * cols), math.ceil(MIN_SUPPORT * rows * cols))
    if n < need:
        return None, f"only {n} of {rows * cols} cells show a card"
    inside = (rc[:, 0] >= wr) & (rc[:, 0] < wr + rows) & (rc[:, 1] >= wc) & (rc[:, 1] < wc + cols)
    cells = {
        (r - wr, c - wc): i
        for (r, c), i in zip(rc[inside].tolist(), idx[inside].tolist(), strict=True)
    }
    # Grid units (x = col, y = row) -> lattice (a, b): cell (r, c) has grid centre
    # (c + .5, r + .5) and oriented lattice index (r + wr, c + wc), signs undone.
    to_lattice = np.zeros((3, 3))
    to_lattice[col_axis, 0] = sc
    to_lattice[row_axis, 1] = sr
    to_lattice[col_axis, 2] = sc * (wc - 0.5)
    to_lattice[row_axis, 2] = sr * (wr - 0.5)
    to_lattice[2, 2] = 1.0
    model = g.model @ to_lattice
    refit = _fit_without_strays(cells, c.centres)
    if refit is not None:
        model, cells = refit
    bare = np.ones((rows, cols), bool)
    bare[tuple(np.array(list(cells)).T)] = False
    if any(bare[line].all() for line in EDGE_LINES):
        # The cards span a line less than the grid: only something off the window (a deck
        # beside the grid, or a card held above it, left out as a stray) stretched the
        # lattice that far, and the missing line could as well lie on the other side.
        # Read there, every card would be its neighbour's.
        return None, "a line at the grid's edge shows no card: the grid may sit a line off"
    grid_pts = np.array([[cc + 0.5, r + 0.5] for (r, cc) in cells], float)
    img_pts = c.centres[list(cells.values())]
    res = np.hypot(*(apply(model, grid_pts) - img_pts).T)
    cell_area = jacobian_area(model, grid_pts)
    residual = float(median(res) / math.sqrt(median(cell_area)))
    # Cards fill most of their cell; a cloth's dots or sprigs, though as regular, do not.
    fill = float(median(c.areas[list(cells.values())] / cell_area))
    if fill < MIN_CELL_FILL:
        return None, "shapes too small for their cells: a cloth's pattern, not cards"
    why = _doubts(c, model, cells, rows, cols, shape)
    if why:
        return None, why
    score = n + 0.01 * votes - 2.0 * residual
    others = in_window.ravel().copy()
    others[k] = -1  # no window holds fewer cards than none
    margin = n - int(others.max()) if len(others) > 1 else n
    return _Fit(model, cells, score, residual, margin), ""


def _fit_without_strays(
    cells: dict[tuple[int, int], int], centres: np.ndarray
) -> tuple[np.ndarray, dict[tuple[int, int], int]] | None:
    """The lattice fitted to the cards of ``cells`` (grid units -> work pixels), without
    any card that does not lie where the others put its cell: one held just above the grid
    on its way to another cell is nearer the camera and off its cell by a third of a card
    or more, yet a fit that takes it in shifts its neighbours towards it. A card is left
    out when the lattice of the others puts it further than ``STRAY`` from its cell's
    centre; None when no lattice can be fitted."""
    cells = dict(cells)
    while True:
        keys = list(cells)
        grid_pts = np.array([[cc + 0.5, r + 0.5] for (r, cc) in keys], float)
        img_pts = centres[list(cells.values())]
        model = fit_model(grid_pts, img_pts)
        if model is None:
            return None
        off = np.hypot(*(apply(inverse(model), img_pts) - grid_pts).T)
        worst = int(np.argmax(off))
        # Sloppy placements and a lattice's own error stay well below this; ask the rest
        # of the lattice only about a card that stands out.
        if off[worst] < STRAY / 3 or len(cells) <= 6:
            return model, cells
        rest = np.arange(len(keys)) != worst
        without = fit_model(grid_pts[rest], img_pts[rest])
        if without is None:
            return model, cells
        alone = apply(inverse(without), img_pts[worst : worst + 1])[0]
        if np.hypot(*(alone - grid_pts[worst])) <= STRAY:
            return model, cells
        del cells[keys[worst]]


def _doubts(
    c: Candidates,
    model: np.ndarray,
    cells: dict[tuple[int, int], int],
    rows: int,
    cols: int,
    shape: tuple[int, ...],
) -> str:
    """Why this rows x cols window is no grid of cards, or "".

    A grid lies in the frame (a quarter of it outside means the camera sees something else,
    or too little of the grid to read). And it ends: the ring of cells just around it is
    bare table, bar a pile of cards here and there; a patterned cloth goes on."""
    h, w = shape[:2]
    pts = apply(model, cell_centres(rows, cols))
    inside = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
    if np.count_nonzero(inside) < 0.75 * len(inside):
        return "the grid runs out of the frame"
    mapped = apply(inverse(model), c.points)
    lat = mapped[:, 0] - 0.5
    near = np.round(lat)
    on_point = _both(np.abs(lat - near) < SNAP)
    size, square = shape_in_grid(mapped[:, 1:])
    ref = median(size[list(cells.values())], axis=0)
    ratio = size / np.maximum(ref, 1e-9)
    like = on_point & square & _both((ratio > CARD_SIZE[0]) & (ratio < CARD_SIZE[1]))
    r, k = near[:, 1], near[:, 0]
    ring = ((r == -1) | (r == rows)) & (k >= -1) & (k <= cols)
    ring |= ((k == -1) | (k == cols)) & (r >= -1) & (r <= rows)
    hits = len({(int(a), int(b)) for a, b in near[like & ring]})
    if hits < 3:  # too few for a pattern, however much of the ring is in the frame
        return ""
    sp = apply(model, ring_points(rows, cols))
    in_frame = int(((sp[:, 0] >= 0) & (sp[:, 0] < w) & (sp[:, 1] >= 0) & (sp[:, 1] < h)).sum())
    if hits >= RING_PATTERN * in_frame:
        return "the pattern goes on past the grid: a cloth's, not cards"
    return ""


EDGE_LINES = ((0, slice(None)), (-1, slice(None)), (slice(None), 0), (slice(None), -1))
"""The lines at a grid's edge, as indices into a (rows, cols) array: top, bottom, left, right."""


def empty_edge_lines(empty: np.ndarray) -> np.ndarray:
    """(rows, cols) bool: the cells of each line at the grid's edge that reads empty
    throughout. A search finds none such (``_window``), but a lattice followed from
    one may reach over a line where the cards read empty in colour though the search saw
    an outline there (an arm the colour of the table along it). (A line a combination
    cleared is refilled at once; only a lattice the frames before anchored,
    ``GridTracker``'s, knows where it was.)

    >>> e = np.array([[True, True, True], [False, True, False], [True, True, True]])
    >>> empty_edge_lines(e).astype(int).tolist()
    [[1, 1, 1], [0, 0, 0], [1, 1, 1]]
    """
    out = np.zeros_like(empty)
    for line in EDGE_LINES:
        if empty[line].all():
            out[line] = True
    return out


@functools.lru_cache(maxsize=16)
def cell_centres(rows: int, cols: int) -> np.ndarray:
    """Grid-unit centres of a rows x cols grid's cells, in reading order.

    >>> cell_centres(2, 3)[:4].tolist()
    [[0.5, 0.5], [1.5, 0.5], [2.5, 0.5], [0.5, 1.5]]
    """
    out = np.stack(np.meshgrid(np.arange(cols) + 0.5, np.arange(rows) + 0.5), -1).reshape(-1, 2)
    out.flags.writeable = False
    return out


@functools.lru_cache(maxsize=16)
def ring_points(rows: int, cols: int) -> np.ndarray:
    """Grid-unit centres of the ring of cells just around a rows x cols grid.

    >>> ring_points(2, 2).shape
    (12, 2)
    """
    spots = [(x + 0.5, -0.5) for x in range(-1, cols + 1)]
    spots += [(x + 0.5, rows + 0.5) for x in range(-1, cols + 1)]
    spots += [(-0.5, y + 0.5) for y in range(rows)] + [(cols + 0.5, y + 0.5) for y in range(rows)]
    out = np.array(spots, float)
    out.flags.writeable = False
    return out


def _geometry(
    c: Candidates, fit: _Fit, rows: int, cols: int, to_frame: np.ndarray
) -> GridGeometry | None:
    model = fit.model
    try:
        inv = inverse(model)
    except np.linalg.LinAlgError:
        return None
    seen = np.zeros((rows, cols), bool)
    centres = np.zeros((rows, cols, 2))
    centres[..., 0] = np.arange(cols)[None, :] + 0.5
    centres[..., 1] = np.arange(rows)[:, None] + 0.5
    keys = np.array(list(fit.cells.keys()))
    idx = np.array(list(fit.cells.values()))
    seen[keys[:, 0], keys[:, 1]] = True
    centres[keys[:, 0], keys[:, 1]] = apply(inv, c.centres[idx])
    size, _ = shape_in_grid(apply(inv, c.boxes[idx]))
    fw, fh = (float(min(1.0, v)) for v in median(size, axis=0))
    x0, x1 = 0.5 - fw / 2, cols - 0.5 + fw / 2
    y0, y1 = 0.5 - fh / 2, rows - 0.5 + fh / 2
    homography = to_frame @ model
    homography = homography / homography[2, 2]
    corners = apply(homography, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
    if not convex(corners):
        return None
    return GridGeometry(rows, cols, corners, homography, (fw, fh), seen, centres, fit.residual)
