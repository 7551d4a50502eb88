"""Is the card in a cell really in view? A second, closer look at cells the lattice search
did not see a card outline in.

The lattice search works on a small copy of the whole frame with cuts chosen for the whole
frame; a card under a glare spot or across a shadow's edge can slip through there. Here the
cell alone is warped top-down at a fixed resolution and cut with thresholds of its own, and
the card counts as visible when a region of the card's expected size, place and squareness
turns up. A hand or arm over the card breaks that rectangle, so its cells stay unseen and
their colour is not trusted.

>>> import numpy as np
>>> from vision.lattice import GridGeometry
>>> h = np.array([[100.0, 0, 0], [0, 100.0, 0], [0, 0, 1]])
>>> centres = np.stack(np.meshgrid(np.arange(2) + 0.5, np.arange(2) + 0.5), -1)
>>> g = GridGeometry(2, 2, np.zeros((4, 2)), h, (0.8, 0.8), np.zeros((2, 2), bool), centres)
>>> frame = np.full((200, 200, 3), 40, np.uint8)
>>> _ = cv2.rectangle(frame, (10, 10), (90, 90), (220, 220, 220), -1)     # cell (0, 0)
>>> _ = cv2.rectangle(frame, (110, 10), (190, 90), (220, 220, 220), -1)   # cell (0, 1) ...
>>> _ = cv2.line(frame, (150, 50), (150, 199), (90, 140, 200), 50)        # ... under an arm
>>> cards_in_view(frame, g).tolist()
[[True, False], [False, False]]
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np

from calibration import median

from .candidates import Channels, canny, local_cut, otsu_cut
from .plane import out_of_frame

if TYPE_CHECKING:  # the lattice search calls back in here to check its cells are cards
    from .lattice import GridGeometry

LOOK = 64  # pixels per cell pitch in the close look
REACH = 1.4  # the close look covers this many pitches around the cell
SIZE_TOL = 0.15  # a region may be this much bigger than the card ...
FIELD_MIN = 0.7  # ... or as small as a coloured field inside the card's border
PLACE_TOL = 0.2  # and its centre lie this far (pitches) from where the card should be
MIN_FILL = 0.85
MIN_EDGE_SUPPORT = 0.85  # every side of the card on an edge for this share of its length
EDGE_STEP = 10.0  # an edge: brightness (or whiteness, or colour) steps by this per pixel
EDGE_BAND = 2  # pixels either side of where a side should be
TABLE_COLOUR = 12.0  # CIELAB units a bare cell may differ from some table sample
TABLE_TEXTURE = 0.7  # and log ratio of their texture (lightness gradient)
MIN_SHARE = FIELD_MIN * FIELD_MIN * MIN_FILL  # quick reject: less area than any field
RIM_BLOCK = LOOK // 4 | 1  # a card's border is whiter than this around it (odd: a box filter)
MIN_IN_VIEW = 0.7  # a card the frame's edge cuts off counts as seen with this share in view
APART_STEP = 8.0  # a region of a local cut differs in whiteness from its rim by this much
_APART_RING = np.ones((7, 7), np.uint8)  # the rim: 3 px round the region


def cards_in_view(
    frame: np.ndarray, geometry: GridGeometry, only: np.ndarray | None = None,
    edges: bool = True,
) -> np.ndarray:
    """(rows, cols) bool: a card outline is found in the cell. ``only`` (rows, cols) bool
    limits the look to those cells (the others come back False); ``edges``: see
    :func:`card_in_cell`."""
    out = np.zeros((geometry.rows, geometry.cols), bool)
    for r in range(geometry.rows):
        for c in range(geometry.cols):
            if only is None or only[r, c]:
                out[r, c] = card_in_cell(frame, geometry, r, c, edges)
    return out


def outlines_in_view(
    frame: np.ndarray, geometry: GridGeometry, only: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`cards_in_view` of the cells ``only`` (rows, cols bool) with ``edges`` and
    without, at once: each look finds a whole region before it looks for edges, and the
    look without them stops there; the second costs nothing more (a busy cloth's cells
    are asked both)."""
    card = np.zeros((geometry.rows, geometry.cols), bool)
    region = card.copy()
    for r, c in np.argwhere(only).tolist():
        outline = _outline_in_cell(frame, geometry, r, c, True)
        card[r, c], region[r, c] = bool(outline), outline == _REGION
    return card, region


def card_in_cell(
    frame: np.ndarray, geometry: GridGeometry, r: int, c: int, edges: bool = True
) -> bool:
    """Is there a card-shaped outline in cell (r, c)? (See the module's docstring.) Without
    ``edges``, only a whole region counts, not edges where the card's sides should be (a
    busy cloth has edges everywhere)."""
    return bool(_outline_in_cell(frame, geometry, r, c, edges))


_REGION, _EDGES = "region", "edges"


def _outline_in_cell(
    frame: np.ndarray, geometry: GridGeometry, r: int, c: int, edges: bool
) -> str:
    """What shows a card in cell (r, c): a whole card-shaped region (``_REGION``), only
    edges where its sides should be (``_EDGES``, looked for with ``edges``), or nothing
    ("")."""
    patch, expect, centre, to_frame = _close_look(frame, geometry, r, c)
    side = patch.shape[0]
    smallest = MIN_SHARE * expect[0] * expect[1]
    largest = (1 + SIZE_TOL) ** 2 * expect[0] * expect[1]
    channels = Channels(patch)
    # a card at the frame's edge: the look past the edge repeats the edge's pixels, which
    # would run any region there out to the look's border; regions end at the edge, and
    # one the edge cut off is made whole again where it went out of view
    past = out_of_frame(to_frame, side, frame.shape)
    hidden = None if past is None else past.astype(np.uint8) * 255
    lowest = smallest if hidden is None else smallest * MIN_IN_VIEW
    for cut, local in _cuts(channels):
        if hidden is not None:
            cut = cv2.bitwise_and(cut, cv2.bitwise_not(hidden))
        contours, _ = cv2.findContours(cut, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for k in _plausible(contours, lowest, largest):
            contour = contours[k] if hidden is None else _made_whole(contours[k], hidden, expect)
            if contour is not None and _is_card(contour, expect, centre, side) and (
                not local or _stands_apart(contours[k], channels.lo)
            ):
                return _REGION
    if edges and edge_support(patch, expect, centre, channels) >= MIN_EDGE_SUPPORT:
        return _EDGES
    return ""


def _made_whole(contour: np.ndarray, hidden: np.ndarray, expect: np.ndarray) -> np.ndarray | None:
    """``contour`` where the frame's edge cut it off grown out of view to the card's
    expected size: its box's sides that meet the edge moved out as far as the card would
    reach (a card seen whole, or cut off by no edge, comes back as it is); None when less
    than ``MIN_IN_VIEW`` of what it would be is in view."""
    x, y, w, h = cv2.boundingRect(contour)
    n = hidden.shape[0]
    x0, y0, x1, y1 = x, y, x + w, y + h
    ew, eh = int(round(expect[0])), int(round(expect[1]))
    if x0 > 0 and hidden[y0:y1, x0 - 1].mean() > 127:
        x0 = max(0, min(x0, x1 - ew))
    if x1 < n and hidden[y0:y1, x1].mean() > 127:
        x1 = min(n, max(x1, x0 + ew))
    if y0 > 0 and hidden[y0 - 1, x0:x1].mean() > 127:
        y0 = max(0, min(y0, y1 - eh))
    if y1 < n and hidden[y1, x0:x1].mean() > 127:
        y1 = min(n, max(y1, y0 + eh))
    if (x0, y0, x1, y1) == (x, y, x + w, y + h):
        return contour
    region = np.zeros(hidden.shape, np.uint8)
    cv2.drawContours(region, [contour], -1, 255, -1)
    seen = cv2.countNonZero(region)
    region[y0:y1, x0:x1] |= hidden[y0:y1, x0:x1]
    if seen < MIN_IN_VIEW * cv2.countNonZero(region):
        return None
    grown, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return max(grown, key=cv2.contourArea)


def edges_in_cell(frame: np.ndarray, geometry: GridGeometry, r: int, c: int) -> bool:
    """Do a card's four sides show as edges in cell (r, c), as the close look finds them?
    (Whatever lies there: a card, or a busy cloth.)"""
    patch, expect, centre, _ = _close_look(frame, geometry, r, c)
    return edge_support(patch, expect, centre) >= MIN_EDGE_SUPPORT


def _close_look(
    frame: np.ndarray, geometry: GridGeometry, r: int, c: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Cell (r, c) and around it top-down at ``LOOK`` pixels a pitch; the card's expected
    size and its centre there (pixels); the map of its pixels to the frame's."""
    side = int(LOOK * REACH)
    step = REACH / side
    x0, y0 = c + 0.5 - REACH / 2, r + 0.5 - REACH / 2
    to_frame = geometry.homography @ _look_to_grid(r, c)
    patch = cv2.warpPerspective(
        frame,
        to_frame,
        (side, side),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    expect = np.array(geometry.card_size) * LOOK
    centre = (np.array([c + 0.5, r + 0.5]) - [x0, y0]) / step
    return patch, expect, centre, to_frame


def _look_to_grid(r: int, c: int) -> np.ndarray:
    """Cell (r, c)'s close look: its pixels -> grid units."""
    side = int(LOOK * REACH)
    step = REACH / side
    x0, y0 = c + 0.5 - REACH / 2, r + 0.5 - REACH / 2
    return np.array([[step, 0, x0 + step / 2], [0, step, y0 + step / 2], [0, 0, 1]])


def _plausible(contours: Sequence[np.ndarray], smallest: float, largest: float) -> list[int]:
    """Indices of contours whose bounding box could hold a card of the expected area."""
    # OpenCV's box of each, mapped over them: a close look's cuts give a few dozen, rarely
    # a hundred, and numpy's joining of them costs more than the calls even then
    most = 2.0 * largest
    return [k for k, (_, _, w, h) in enumerate(map(cv2.boundingRect, contours))
            if smallest <= w * h <= most]


def edge_support(
    patch: np.ndarray, expect: np.ndarray, centre: np.ndarray, channels: Channels | None = None
) -> float:
    """How well the card's four sides show as edges: over placements of the expected
    rectangle near ``centre``, the best of (the weakest side's share of its length that
    lies on an edge). A card under a glare spot or a shadow's edge keeps most of its
    outline; under a hand it loses whole sides. ``channels``: the patch's, if already
    worked out (the cuts of a close look take the same)."""
    look = Channels(patch) if channels is None else channels
    # An edge pixel: brightness, whiteness or colour steps by more than EDGE_STEP a pixel
    # across it (a Sobel step is four pixels' worth). The steps are whole numbers of 8-bit
    # levels: one comparison with the integer Sobel, saturated to 8 bits (all it must tell
    # is whether it passes 4 * EDGE_STEP), over all three channels at once.
    step = int(4 * EDGE_STEP)
    gx = _any_above([cv2.Sobel(c, cv2.CV_16S, 1, 0) for c in look.all], step)
    gy = _any_above([cv2.Sobel(c, cv2.CV_16S, 0, 1) for c in look.all], step)
    # An edge pixel, spread across the side's direction to allow a few degrees of turn.
    band = np.ones((1, 2 * EDGE_BAND + 1), np.uint8)
    vertical = cv2.dilate(gx, band)  # for left/right sides
    horizontal = cv2.dilate(gy, band.T)  # top/bottom
    n = patch.shape[0]
    # counts of edge pixels along each column and row, from 0 (whole numbers: exact)
    col = np.zeros((vertical.shape[0] + 1, vertical.shape[1]), np.int32)
    np.cumsum(vertical, axis=0, dtype=np.int32, out=col[1:])
    row = np.zeros((horizontal.shape[0], horizontal.shape[1] + 1), np.int32)
    np.cumsum(horizontal, axis=1, dtype=np.int32, out=row[:, 1:])
    w, h = expect
    dx, dy = _SHIFTS
    left = np.rint(centre[0] + dx - w / 2).astype(int)
    right = np.rint(centre[0] + dx + w / 2).astype(int)
    top = np.rint(centre[1] + dy - h / 2).astype(int)
    bottom = np.rint(centre[1] + dy + h / 2).astype(int)
    ok = (left >= 0) & (top >= 0) & (right < n) & (bottom < n)
    if not ok.any():
        return 0.0
    left, right, top, bottom = left[ok], right[ok], top[ok], bottom[ok]
    # Sides are sampled between their corners, a little in from each end (round corners).
    m = np.rint(0.12 * min(w, h)).astype(int)
    span_y = np.maximum(bottom - top - 2 * m, 1)
    span_x = np.maximum(right - left - 2 * m, 1)
    sides = [
        (col[bottom - m, left] - col[top + m, left]) / span_y,
        (col[bottom - m, right] - col[top + m, right]) / span_y,
        (row[top, right - m] - row[top, left + m]) / span_x,
        (row[bottom, right - m] - row[bottom, left + m]) / span_x,
    ]
    weakest = np.minimum(np.minimum(sides[0], sides[1]), np.minimum(sides[2], sides[3]))
    return float(weakest.max())


# the placements of the expected rectangle tried: every 2 px up to PLACE_TOL pitches off
_OFF = np.arange(-PLACE_TOL * LOOK, PLACE_TOL * LOOK + 1, 2.0)
_SHIFTS = np.meshgrid(_OFF, _OFF)


def _any_above(steps: list[np.ndarray], level: int) -> np.ndarray:
    """(H, W) uint8, 1 where any of the int16 ``steps`` (H, W) is further from 0 than
    ``level`` (below 255), else 0."""
    most = cv2.convertScaleAbs(steps[0])
    for s in steps[1:]:
        most = cv2.max(most, cv2.convertScaleAbs(s))
    return cv2.threshold(most, level, 1, cv2.THRESH_BINARY)[1]


def _cuts(look: Channels) -> Iterator[tuple[np.ndarray, bool]]:
    """Binary cuts of the patch, made one at a time, each with whether it is a local cut
    (see ``_stands_apart``). A card counts when any of them shows it, so the order only
    sets the cost: the cuts that show most cards go first (over the cells looked at closely
    in the filmed game, the stills and the generator's frames, whiteness shows 82% of the
    cards seen, colour all but 6 of the rest), the edges, dearest to find, last."""
    white = otsu_cut(look.lo)
    yield white, False
    colour = otsu_cut(look.chroma)
    yield colour, False
    yield cv2.bitwise_not(colour), False
    yield cv2.bitwise_not(white), False
    bright = otsu_cut(look.hi)
    yield bright, False
    yield cv2.bitwise_not(bright), False
    # A glare or a shadow across the card splits its field at any one level; its white
    # border still stands above what lies within a third of a card round it, all the way
    # round.
    rim = local_cut(look.lo, RIM_BLOCK)
    yield rim, True
    yield cv2.bitwise_not(rim), True
    # Edges both ways: the regions they enclose, and the outline as a ring whose outside
    # is the card even when the gem's own edges cut up the inside.
    edges = canny(look.hi, 30, 90) | canny(look.lo, 30, 90) | canny(look.chroma, 30, 90)
    ring = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    yield ring, False
    yield cv2.bitwise_not(ring), False


def _stands_apart(contour: np.ndarray, whiteness: np.ndarray) -> bool:
    """Does the region inside ``contour`` differ in whiteness from a thin ring just outside
    it? A local cut marks only a band along the inside of any flat bright thing's edge:
    the hole it leaves is that thing shrunk, and a hand or a phone too big to be a card
    shrinks to a card's size. A card's field under its border, or a card on the cloth,
    differs from what rings it."""
    inside = np.zeros(whiteness.shape, np.uint8)
    cv2.drawContours(inside, [contour], -1, 255, -1)
    ring = cv2.subtract(cv2.dilate(inside, _APART_RING), inside)
    return abs(cv2.mean(whiteness, ring)[0] - cv2.mean(whiteness, inside)[0]) >= APART_STEP


def _is_card(contour: np.ndarray, expect: np.ndarray, centre: np.ndarray, side: int) -> bool:
    """A region the size of the card (or of its coloured field, inside a border), square to
    the grid, near the cell's centre, wholly inside the look (a hand's edge cut off by the
    look's border can be straight too)."""
    x, y, w_box, h_box = cv2.boundingRect(contour)
    if x <= 0 or y <= 0 or x + w_box >= side or y + h_box >= side:
        return False
    area = cv2.contourArea(contour)
    if area < MIN_SHARE * expect[0] * expect[1]:
        return False
    rect = cv2.minAreaRect(contour)
    # Its place first: that needs no corners.
    if np.hypot(rect[0][0] - centre[0], rect[0][1] - centre[1]) > PLACE_TOL * LOOK:
        return False
    box = cv2.boxPoints(rect)
    e1, e2 = box[1] - box[0], box[2] - box[1]
    tilt = abs((np.degrees(np.arctan2(e1[1], e1[0])) + 45) % 90 - 45)
    if tilt > 12:
        return False
    w, h = (
        (np.hypot(*e1), np.hypot(*e2))
        if abs(e1[0]) >= abs(e1[1])
        else (np.hypot(*e2), np.hypot(*e1))
    )
    rw, rh = w / expect[0], h / expect[1]
    if rw < FIELD_MIN or rh < FIELD_MIN or rw > 1 + SIZE_TOL or rh > 1 + SIZE_TOL:
        return False
    return bool(area >= MIN_FILL * w * h)


def like_table(patches: np.ndarray, table: np.ndarray | TableLook, surely: bool = False
               ) -> np.ndarray:
    """(N,) bool: each patch's middle could be bare table, judged against ``table`` patches
    of the same scene (or their ``TableLook``) by colour (lightness counts little: a shadow
    may fall on either) and by texture (a wood grain or a weave is not the smooth skin of a
    hand of the same hue): like one of the samples that count. ``surely``: like as many of
    them as a sample must be like of the others to count (``TableLook.enough``), what a
    cell read bare table must show before the reading is taken: like one sample alone, it
    may be like an arm the colour of the cloth that passed for the cloth (its texture near
    enough the weave's), a hand over the grid like the arm and like no sample of the cloth.
    (Not to doubt by: the samples of a spotted cloth differ with the spots in them, and a
    bare cell of it is like a few.) Without table patches nothing can be said, and every
    patch passes."""
    look = table if isinstance(table, TableLook) else TableLook(table)
    if len(patches) == 0 or len(look.surface) == 0:
        return np.ones(len(patches), bool)
    alike = _alike(_surface(patches), look.surface).sum(axis=1)
    return alike >= (look.enough if surely else 1)


def bare_inside(patches: np.ndarray, table: TableLook, blocks: bool = False) -> np.ndarray:
    """(N,) bool: each patch is bare table all over its inner half, judged block by block
    (each a quarter of the patch's side) as ``like_table`` judges a middle: whatever is
    not table lies along its edges only, as a neighbour's edge reaching in does; a hand or
    a card under it covers some inner block. ``blocks``: against the table's own blocks
    (``TableLook.blocks``), not its middles."""
    if len(patches) == 0 or len(table.surface) == 0:
        return np.zeros(len(patches), bool)
    n = len(patches)
    inner = _blocks(patches, (1, 2))
    alike = np.any(_alike(_surface(inner), table.blocks if blocks else table.surface), axis=1)
    return alike.reshape(4, n).all(axis=0)


def _blocks(patches: np.ndarray, lines: Sequence[int] = (0, 1, 2, 3)) -> np.ndarray:
    """The blocks a quarter of the patches' side across, in those rows and columns of
    blocks: block by block, each the patches' in order."""
    q = patches.shape[1] // 4
    return np.concatenate([patches[:, r * q:(r + 1) * q, c * q:(c + 1) * q]
                           for r in lines for c in lines])


def _alike(cell: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """(N, M) bool: surface N could be the same stuff as surface M."""
    colour = np.abs(cell[:, None, :3] - ref[None, :, :3]) * [0.3, 1.0, 1.0]
    texture = np.abs(np.log((cell[:, None, 3] + 1.0) / (ref[None, :, 3] + 1.0)))
    return (colour.max(axis=2) < TABLE_COLOUR) & (texture < TABLE_TEXTURE)


class TableLook:
    """What the bare table around the grid looks like (``like_table``'s reference), taken
    once from its patches (when first asked) for every cell asked about in one frame.

    Only samples like a third of the others or more count: the table is what most of the
    grid's surroundings show. A deck beside the grid, a pile of cards or the arm reaching
    in shows in one side's samples, and must not make whatever resembles it "table"."""

    def __init__(self, table: np.ndarray) -> None:
        self.table = table

    @functools.cached_property
    def _kept(self) -> tuple[np.ndarray, int]:
        if not len(self.table):
            return np.zeros((0, 4)), 1
        return _typical(_surface(self.table))

    @property
    def surface(self) -> np.ndarray:
        return self._kept[0]

    @property
    def enough(self) -> int:
        """How many of the samples that count (``surface``) a cell must be like to be
        surely table (``like_table``): as many as a sample must be like of the others to
        count, and no more than count (one, where there are four samples or fewer, or every
        sample differs and all of them count)."""
        return self._kept[1]

    @functools.cached_property
    def blocks(self) -> np.ndarray:
        """The table's surface block by block, what ``bare_inside`` holds a cell's blocks
        against on a busy cloth: a cloth of checks as big as a block shows one check in
        some blocks, two in others; a whole patch's middle mixes them."""
        if not len(self.table):
            return np.zeros((0, 4))
        return _typical(_surface(_blocks(self.table)))[0]


def _typical(every: np.ndarray) -> tuple[np.ndarray, int]:
    """The surfaces ``every`` (N, 4) like a third of the others or more, and how many of
    those a surface must be like to be surely the same stuff (``TableLook.enough``); all
    of them and 1, if none is.

    >>> ab = [(-6, 8), (-18, 26), (-25, -4), (5, 27), (-12, 0), (10, -4), (-18, 7), (27, 30),
    ...       (-8, 27), (-24, -2)]  # one alone is like three others, which count for no more
    >>> kept, enough = _typical(np.array([[50.0, a, b, 2.0] for a, b in ab]))
    >>> len(kept), enough
    (1, 1)
    """
    alike = _alike(every, every).sum(axis=1) - 1  # not counting itself
    enough = max(1, math.ceil((len(every) - 1) / 3))
    typical = alike >= enough
    if not typical.any():
        return every, 1
    # a sample may count for being like others that do not: never more than count
    return every[typical], min(enough, int(typical.sum()))


# CIELAB from 8-bit BGR: OpenCV stores L * 255 / 100 and a, b + 128. Its 8-bit conversion
# is a table lookup, several times faster than the float one, and its steps (under half a
# unit) are far below what tells table from card. Medians and gradients are taken on the
# 8-bit values and scaled after.
_LAB_SCALE = np.array([100.0 / 255.0, 1.0, 1.0])
_LAB_OFFSET = np.array([0.0, -128.0, -128.0])


def _surface(patches: np.ndarray) -> np.ndarray:
    """(N, 4): median L, a, b (CIELAB) and mean lightness gradient of each patch's middle."""
    n, size = patches.shape[:2]
    lo, hi = size // 5, size - size // 5
    middle = np.ascontiguousarray(patches[:, lo:hi, lo:hi])
    lab = cv2.cvtColor(middle.reshape(-1, hi - lo, 3), cv2.COLOR_BGR2Lab)
    lab = lab.reshape(n, hi - lo, hi - lo, 3)
    light = lab[..., 0].astype(np.int16)
    grad = np.abs(np.diff(light, axis=1)).mean(axis=(1, 2)) + np.abs(np.diff(light, axis=2)).mean(
        axis=(1, 2)
    )
    channels = lab.reshape(n, -1, 3).transpose(0, 2, 1)
    return np.column_stack([median(channels, -1) * _LAB_SCALE + _LAB_OFFSET, grad * _LAB_SCALE[0]])
