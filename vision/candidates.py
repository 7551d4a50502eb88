"""Card-like quadrilaterals in a (downscaled) frame: the raw material the lattice is fitted to.

A card or tile stands out from what surrounds it in *some* channel, but which one depends on
the scene: white cards on dark cloth (brightness), coloured stickers on black plastic
(chroma), cards on a busy tablecloth (their outline). So the frame is cut several ways and
every closed region that is convex, nearly rectangular and of a plausible size becomes a
candidate. Duplicates found by several cuts are merged; the number of cuts that found a
region (``votes``) is kept as a hint of how clearly it stands out.

>>> import numpy as np
>>> img = np.zeros((240, 320, 3), np.uint8)
>>> for x in (40, 120, 200):
...     _ = cv2.rectangle(img, (x, 60), (x + 60, 150), (230, 230, 230), -1)
>>> cands = find_candidates(img, expected_cells=3)
>>> card = (np.abs(cands.areas / (61 * 91) - 1) < 0.1) & (np.abs(cands.centres[:, 1] - 105) < 2)
>>> sorted(int(round(x)) for x in cands.centres[card, 0])
[70, 150, 230]
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from .halves import halve

MIN_FILL = 0.85  # contour area / its enclosing quadrilateral: round corners pass, discs do not
MIN_SOLIDITY = 0.90  # contour area / convex hull: rejects L-shapes and notched regions
PARALLEL = 0.94  # cosine: opposite sides of a card within 20 degrees of parallel ...
SIDE_RATIO = 1.5  # ... and of like length, however the camera tilts
MAX_ASPECT = 2.8  # a 2:3 card seen at 35 degrees tilt stays well below this; stripes do not
MIN_SIDE = 7.0  # pixels in the working image; below this nothing can be read anyway


@dataclass(frozen=True)
class Candidates:
    """Parallel arrays, one entry per candidate region (working-image pixels)."""

    centres: np.ndarray  # (N, 2) float
    areas: np.ndarray  # (N,) float, contour area
    boxes: np.ndarray  # (N, 4, 2) float, corners of the enclosing quadrilateral, in order
    votes: np.ndarray  # (N,) int, how many cuts found it

    def __len__(self) -> int:
        return len(self.areas)

    @functools.cached_property
    def points(self) -> np.ndarray:
        """(N, 5, 2) each centre and then its box's corners: what the lattice search maps
        into grid units, several times over (read-only)."""
        out = np.concatenate([self.centres[:, None], self.boxes], axis=1)
        out.flags.writeable = False
        return out


class Channels:
    """An image lightly blurred, as its whiteness (the smallest channel: a white border
    stays apart from a saturated cloth under warm light), its brightness (the largest:
    saturated dark colours still stand out from black) and its chroma (their difference);
    each made when first asked for (the first stage of the search, and most of a cell's
    close looks, cut whiteness alone)."""

    def __init__(self, img: np.ndarray) -> None:
        # A light blur first: sensor noise and cloth weave would otherwise cut flat areas into
        # thousands of specks (each a contour to look at) while a card's rim survives it.
        blurred = cv2.GaussianBlur(img, (3, 3), 0)
        # Into planes made here: planes cv2.split makes itself it copies once more on return.
        planes = [np.empty(img.shape[:2], np.uint8) for _ in range(3)]
        self._b, self._g, self._r = cv2.split(blurred, planes)
        self.lo = cv2.min(cv2.min(self._b, self._g), self._r)

    @functools.cached_property
    def hi(self) -> np.ndarray:
        return cv2.max(cv2.max(self._b, self._g), self._r)

    @functools.cached_property
    def chroma(self) -> np.ndarray:
        return cv2.subtract(self.hi, self.lo)

    @property
    def all(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.hi, self.lo, self.chroma


def otsu_cut(channel: np.ndarray) -> np.ndarray:
    """Above Otsu's threshold of ``channel``: 255, else 0."""
    return cv2.threshold(channel, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[1]


def local_cut(channel: np.ndarray, block: int) -> np.ndarray:
    """Brighter than the mean around by more than 6: ``cv2.adaptiveThreshold(channel, 255,
    ADAPTIVE_THRESH_MEAN_C, THRESH_BINARY, block, -6)``, the same pixels, for two thirds of
    its cost (its last step looks each pixel up in a table; a saturating subtraction and a
    threshold run many pixels at a time).

    >>> img = np.random.default_rng(0).integers(0, 256, (60, 80)).astype(np.uint8)
    >>> ref = cv2.adaptiveThreshold(img, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 15, -6)
    >>> bool((local_cut(img, 15) == ref).all())
    True
    """
    # Local contrast survives a shadow across the grid and a lamp's falloff.
    mean = cv2.boxFilter(
        channel, -1, (block, block), borderType=cv2.BORDER_REPLICATE | cv2.BORDER_ISOLATED
    )
    return cv2.threshold(cv2.subtract(channel, mean), 6, 255, cv2.THRESH_BINARY)[1]


def _outlines(channel: np.ndarray) -> np.ndarray:
    """Regions enclosed by edges: cards that differ from a busy cloth in texture more than
    in level."""
    return cv2.bitwise_not(cv2.dilate(canny(channel, 40, 100), np.ones((3, 3), np.uint8)))


def canny(channel: np.ndarray, low: float, high: float) -> np.ndarray:
    """``cv2.Canny(channel, low, high)``, the same edges, from gradients computed here.

    OpenCV 4.14's Canny on an 8-bit image corrupts the heap for some images when it runs on
    one thread (the process dies later, somewhere else); given the gradients it does not.

    >>> img = np.zeros((40, 60), np.uint8); img[10:30, 20:40] = 200
    >>> bool((canny(img, 40, 100) == cv2.Canny(img, 40, 100)).all())
    True
    """
    dx = cv2.Sobel(channel, cv2.CV_16S, 1, 0, borderType=cv2.BORDER_REPLICATE)
    dy = cv2.Sobel(channel, cv2.CV_16S, 0, 1, borderType=cv2.BORDER_REPLICATE)
    return cv2.Canny(dx, dy, low, high)


CUTS = (
    "colour",
    "local_white",
    "coarse_white",
    "white",
    "local_bright",
    "outline",
    "coarse_bright",
    "coarse_outline",
    "bright",
    "dark",
    "local_colour",
    "outline_white",
)
FIRST_CUTS = CUTS[:3]  # enough for most frames; the rest when these leave the grid unclear
# The search adds cuts in stages and stops once the grid is clear: a local cut of whiteness
# alone shows most grids (card borders against the table, whatever the light).
STAGES = (("local_white", "coarse_white"), FIRST_CUTS, CUTS)


class CandidateFinder:
    """Runs cuts on one image on demand and keeps every region found so far, so a search
    can start cheap and add cuts only when it needs them."""

    def __init__(self, img: np.ndarray, expected_cells: int) -> None:
        self.img = img
        h, w = img.shape[:2]
        self.max_area = 1.3 * h * w / max(1, expected_cells)
        self.done: set[str] = set()
        # Per cut that found any: centres (N, 2), areas (N,), boxes (N, 4, 2), frame pixels.
        self.found: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self._fine: Channels | None = None
        self._coarse: Channels | None = None
        self._bright: dict[float, np.ndarray] = {}  # Otsu cut of brightness, per scale
        self._merged: tuple[int, Candidates] | None = None  # len(found) then, and the merge

    def add(self, names: Sequence[str]) -> Candidates:
        """Run the cuts not run yet; all regions so far, merged."""
        for name in names:
            if name in self.done:
                continue
            self.done.add(name)
            cut, f = self.cut(name)
            self._collect(cut, f)
        # The regions merged last, while no cut found more: the reader asks once more for
        # the first cuts, which a search that went past its first stage ran already.
        if self._merged is None or self._merged[0] != len(self.found):
            self._merged = len(self.found), _merge(self.found)
        return self._merged[1]

    def cut(self, name: str) -> tuple[np.ndarray, float]:
        """The binary image of cut ``name`` (one of ``CUTS``), and how many image pixels
        one of its pixels spans (2 for the coarse cuts)."""
        if name.startswith("coarse_"):
            if self._coarse is None:
                # At half size a fine check or weave averages out; cards keep their shape.
                self._coarse = Channels(halve(self.img))
            ch = self._coarse
            kind, f = name[len("coarse_") :], 2.0
        else:
            if self._fine is None:
                self._fine = Channels(self.img)
            ch = self._fine
            kind, f = name, 1.0
        block = (min(ch.lo.shape) // 4) | 1
        if kind in ("bright", "dark"):
            if f not in self._bright:
                self._bright[f] = otsu_cut(ch.hi)
            bright = self._bright[f]
            return (bright if kind == "bright" else cv2.bitwise_not(bright)), f
        makers = {
            "white": lambda: otsu_cut(ch.lo),
            "colour": lambda: otsu_cut(ch.chroma),
            "local_bright": lambda: local_cut(ch.hi, block),
            "local_white": lambda: local_cut(ch.lo, block),
            # Saturation falls with the light: a shadowed card's field needs a local cut.
            "local_colour": lambda: local_cut(ch.chroma, block),
            "outline": lambda: _outlines(ch.hi),
            # A yellow or pink field is as bright as the white border; not as white.
            "outline_white": lambda: _outlines(ch.lo),
        }
        if kind not in makers:
            raise ValueError(f"unknown cut {name!r}")
        return makers[kind](), f

    def _collect(self, cut: np.ndarray, f: float) -> None:
        min_side = MIN_SIDE / f
        # No opening first: a card's white rim may be under two pixels wide here.
        contours, keep, areas, _ = outlines(cut, min_side, self.max_area / (f * f))
        quads, kept = [], []
        # One pass per contour, cheapest test first: a textured cut leaves dozens here. The
        # hull first: every test asks only about it (the rectangle too: minAreaRect takes the
        # hull of what it is given), and it has a few points where the outline has dozens.
        for k, area in zip(keep.tolist(), areas.tolist(), strict=True):
            hull = cv2.convexHull(contours[k])
            if area < MIN_SOLIDITY * cv2.contourArea(hull):
                continue
            rw, rh = cv2.minAreaRect(hull)[1]
            short = min(rw, rh)
            # Fill of the best enclosing rectangle, not of the upright one: seen at a
            # slant a card is a parallelogram; a disc or a blob still fills too little.
            if short < min_side or max(rw, rh) > MAX_ASPECT * short or area < 0.65 * rw * rh:
                continue
            quads.append(_quad(hull))
            kept.append(area)
        if not quads:
            return
        # One join of their bytes (each is 4 points: a region that passed holds a quadrilateral;
        # a triangle fills at most half its rectangle).
        raw = b"".join(quads)  # type: ignore[arg-type]  # arrays are buffers
        boxes = np.frombuffer(raw, np.int32).reshape(-1, 4, 2).astype(np.float64)
        area = np.array(kept)
        # The region fills its quadrilateral (round corners pass, discs do not): all at once.
        ok = (area >= MIN_FILL * quad_areas(boxes)) & _parallelograms(boxes)
        if not ok.any():  # _merge reads an empty entry as a region: nothing to add
            return
        boxes = boxes[ok] * f
        self.found.append((boxes.mean(axis=1), area[ok] * f * f, boxes))


def _quad(hull: np.ndarray) -> np.ndarray:
    """``cv2.approxPolyN(hull, 4)`` of a hull as ``cv2.convexHull`` gives it: the same
    corners, for a sixth less, as OpenCV's would take the hull of the hull first.

    >>> blob = np.array([[[0, 0]], [[9, 1]], [[12, 8]], [[7, 9]], [[5, 5]], [[1, 8]]], np.int32)
    >>> hull = cv2.convexHull(blob)
    >>> bool((_quad(hull) == cv2.approxPolyN(hull, 4)).all())
    True
    """
    try:
        return cv2.approxPolyN(hull, 4, ensure_convex=False)
    except cv2.error:  # a hull OpenCV's own test does not take for convex: take it again
        return cv2.approxPolyN(hull, 4)


def quad_areas(quads: np.ndarray) -> np.ndarray:
    """(N,) areas of quads (N, 4, 2), all at once and to the bit as ``cv2.contourArea``
    gives them one by one (the same products, summed in the same order).

    >>> q = np.array([[[0, 0], [4, 0], [5, 3], [1, 3]]], np.float64)
    >>> quad_areas(q).tolist(), cv2.contourArea(q[0].astype(np.float32))
    ([12.0], 12.0)
    """
    prev = quads[:, [3, 0, 1, 2]]  # each corner's predecessor
    term = prev[..., 0] * quads[..., 1] - prev[..., 1] * quads[..., 0]
    return 0.5 * np.abs(term[:, 0] + term[:, 1] + term[:, 2] + term[:, 3])


def _parallelograms(quads: np.ndarray) -> np.ndarray:
    """(N,) bool for quads (N, 4, 2): opposite sides nearly parallel and of like length, a
    card seen at a slant, not a region with a corner bitten off (by a glare spot, a shadow,
    a finger).

    >>> slanted = [[0, 0], [10, 0], [13, 15], [3, 15]]
    >>> bitten = [[0, 0], [10, 0], [10, 8], [3, 15]]  # a corner cut off the first
    >>> _parallelograms(np.array([slanted, bitten], np.float64)).tolist()
    [True, False]
    """
    sides = quads[:, [1, 2, 3, 0]] - quads  # side i runs from corner i to corner i + 1
    length = np.hypot(sides[..., 0], sides[..., 1])
    # Both pairs of opposite sides at once: sides 0 and 1 against sides 2 and 3.
    la, lb = length[:, :2], length[:, 2:]
    ok = (la > 0) & (lb > 0) & (np.maximum(la, lb) <= SIDE_RATIO * np.minimum(la, lb))
    # Opposite sides of a parallelogram run opposite ways.
    product = sides[:, :2] * sides[:, 2:]
    dot = product[..., 0] + product[..., 1]
    ok &= -dot >= PARALLEL * la * lb
    return ok[:, 0] & ok[:, 1]


def outlines(
    cut: np.ndarray, min_side: float, max_area: float
) -> tuple[Sequence[np.ndarray], np.ndarray, np.ndarray, np.ndarray]:
    """The outlines of the regions of a binary ``cut`` (both ways: a card's field inside
    its border counts too), the indices of those whose area and extent could be a card's,
    their areas and upright bounding boxes (see ``_plausible``)."""
    contours, _ = cv2.findContours(cut, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    return (contours, *_plausible(contours, min_side, max_area))


def find_candidates(img: np.ndarray, expected_cells: int, cuts: Sequence[str] = CUTS) -> Candidates:
    """Card-like regions in ``img`` (BGR); ``expected_cells`` bounds how big one may be."""
    return CandidateFinder(img, expected_cells).add(cuts)


def _plausible(
    contours: Sequence[np.ndarray], min_side: float, max_area: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Indices of contours whose area and bounding box could belong to a card, their areas
    and their upright bounding boxes (N, 2, 2: least and greatest x, y of their outline):
    all contours at once in numpy, since a textured cloth gives thousands and most are
    specks."""
    if not contours:
        return np.zeros(0, int), np.zeros(0), np.zeros((0, 2, 2))
    joined = Joined(contours)
    area = joined.areas()
    ok = (joined.lengths >= 4) & (area >= min_side * min_side) & (area <= max_area)
    keep = np.flatnonzero(ok)
    # Bounding boxes only of those left: most specks are gone by now.
    lo, hi = joined.bounds(keep)
    side = hi - lo + 1
    box = side[:, 0] * side[:, 1]
    # A card's rectangle fills at least half its upright bounding box (at 45 degrees).
    ok = (np.minimum(side[:, 0], side[:, 1]) >= min_side) & (area[keep] >= 0.4 * box)
    return keep[ok], area[keep[ok]], np.stack([lo[ok], hi[ok]], axis=1)


class Joined:
    """A list of contours (int32 points, as ``cv2.findContours`` gives them) as one array of
    points, to measure them all at once: a textured cut gives thousands of contours, and a
    numpy step per contour would cost more than all the arithmetic.

    >>> square = np.array([[[0, 0]], [[4, 0]], [[4, 3]], [[0, 3]]], np.int32)
    >>> dot = np.array([[[7, 7]]], np.int32)
    >>> j = Joined([square, dot, square + 1])
    >>> j.lengths.tolist(), j.areas().tolist()
    ([4, 1, 4], [12.0, 0.0, 12.0])
    >>> [a.tolist() for a in j.bounds(np.array([0, 2]))]
    [[[0.0, 0.0], [1.0, 1.0]], [[4.0, 3.0], [5.0, 4.0]]]
    """

    def __init__(self, contours: Sequence[np.ndarray]) -> None:
        self.lengths = np.fromiter(map(len, contours), int, len(contours))
        # One join of their bytes: numpy's concatenate costs several times more per array.
        raw = b"".join(contours)  # type: ignore[arg-type]  # arrays are buffers
        points = np.frombuffer(raw, np.int32).reshape(-1, 2)
        self.points = points.astype(np.int64)  # products and sums of these stay exact
        self.ends = np.cumsum(self.lengths)
        self.starts = self.ends - self.lengths

    def areas(self) -> np.ndarray:
        """(N,) the area each contour encloses, as ``cv2.contourArea`` gives it."""
        x, y = self.points[:, 0], self.points[:, 1]
        # The shoelace sum: a running sum of the sides from each point to the next over all
        # contours, taken between each contour's first and last point, and its closing side.
        run = np.zeros(len(x), np.int64)
        np.cumsum(x[:-1] * y[1:] - x[1:] * y[:-1], out=run[1:])
        first, last = self.starts, self.ends - 1
        closing = x[last] * y[first] - x[first] * y[last]
        return 0.5 * np.abs((run[last] - run[first] + closing).astype(np.float64))

    def bounds(self, which: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Least and greatest x, y (len(which), 2 each, float) of the contours ``which``
        (indices, ascending)."""
        if not len(which):
            return np.zeros((0, 2)), np.zeros((0, 2))
        first, last = self.starts[which], self.ends[which] - 1
        # Reduced over [first, last) and the gaps between (dropped), then the last point.
        at = np.empty(2 * len(which), np.intp)
        at[0::2], at[1::2] = first, last
        lo = np.minimum(np.minimum.reduceat(self.points, at)[0::2], self.points[last])
        hi = np.maximum(np.maximum.reduceat(self.points, at)[0::2], self.points[last])
        return lo.astype(np.float64), hi.astype(np.float64)


def _merge(found: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> Candidates:
    """One candidate per region: the same region found by several cuts counts once, with
    votes. Cuts disagree on a region's extent (a local threshold bleeds, an edge cut
    shrinks, another finds only a card's coloured field), so a group is represented by its
    median-sized member."""
    if not found:
        return Candidates(np.zeros((0, 2)), np.zeros(0), np.zeros((0, 4, 2)), np.zeros(0, int))
    centres = np.concatenate([c for c, _, _ in found])
    areas = np.concatenate([a for _, a, _ in found])
    boxes = np.concatenate([b for _, _, b in found])
    order = np.argsort(-areas, kind="stable")  # label i < j means i is at least as big
    centres, areas, boxes = centres[order], areas[order], boxes[order]
    first, second = _same_region_pairs(centres, areas)
    label = np.arange(len(areas))
    for _ in range(len(areas)):
        low = np.minimum(label[first], label[second])
        new = label.copy()
        np.minimum.at(new, first, low)
        np.minimum.at(new, second, low)
        if np.array_equal(new, label):
            break
        label = new
    # np.unique(label, return_inverse=True, return_counts=True), for labels below n
    count = np.bincount(label, minlength=len(label))
    votes = count[count > 0]
    inverse = (np.cumsum(count > 0) - 1)[label]
    # Members come in descending area. A cut that bled makes a member too big, one that
    # caught only part of the card (a shadow, a glossy patch) too small: take the biggest
    # member not much bigger than the group's middle one.
    rank = np.argsort(inverse, kind="stable")
    starts = np.concatenate([[0], np.cumsum(votes)[:-1]])
    middle = areas[rank[starts + votes // 2]]
    fits = areas[rank] <= 1.1 * middle[inverse[rank]]
    first_fit = np.minimum.reduceat(np.where(fits, np.arange(len(rank)), len(rank)), starts)
    idx = rank[first_fit]
    return Candidates(centres[idx], areas[idx], boxes[idx], votes.astype(int))


def _same_region_pairs(centres: np.ndarray, areas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index pairs of regions with nearly the same centre and area within a factor two.
    A pair lies closer than the smaller region's radius, so closer in x than either's: sorted
    along x, each region is compared with those after it up to its own radius (a big region
    found once would otherwise pair every small one with hundreds), all pairs at once."""
    radius = 0.2 * np.sqrt(areas)
    by_x = np.argsort(centres[:, 0], kind="stable")
    xs = centres[by_x, 0]
    reach = xs + radius[by_x]
    after = np.searchsorted(xs, reach, side="right") - np.arange(1, len(xs) + 1)
    k = np.repeat(np.arange(len(xs)), after)  # positions along x: k and a later one
    later = k + 1 + np.arange(len(k)) - np.repeat(np.cumsum(after) - after, after)
    i, j = by_x[k], by_x[later]
    d = np.hypot(*(centres[i] - centres[j]).T)
    small = np.minimum(areas[i], areas[j])
    ok = (d < 0.2 * np.sqrt(small)) & (np.maximum(areas[i], areas[j]) < 2.0 * small)
    return i[ok], j[ok]
