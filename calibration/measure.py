"""From the pixels of a scene's patches to the few colours and shares a palette reads.

Per patch (one cell pitch, the card roughly centred): its *body* (the central square, where
the card is), its *ring* (all the rest: the card's white border, the gaps) and its *rim*
(the outer band: the table between the cards).

- the patch's own white: the brightest pixels of its ring (a card's white border, a white
  card), read as one light over the scene by :mod:`calibration.whites`;
- the body's *field*: its colourful pixels round the centre (where a gem card's art is
  drawn), those of the commonest hue among them; and how many were of another hue (a card
  half under a sleeve is two colours at once);
- the body's *ink*: its pixels furthest in colour from the patch's own white (the symbols of
  a white SET card, the field of a flat card);
- how much white paper each side band shows (a hand reaching over a card hides its border
  on one side or more), the spread of brightness, the table's colour.

Pixels are held as colour planes (3, patches, pixels; B, G, R), so that every step runs
over long rows of one channel: numpy is many times slower along a short last axis of three.
In memory they lie plane by plane, and in each plane pixel by pixel (channel, pixel, patch):
a group of pixels (the body, the ring) is then one gather of whole rows, a step on a plane
runs over one stretch of memory, and numpy sums over pixels run across all patches at once,
adding the pixels one after another (float32 sums come out the same to the bit only so:
keep the layout when changing these steps). A palette reads every frame, so this
is written for few, long numpy steps.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from ._stats import median, row_counts, row_sums, where
from .colour import CLIPPED, FLOOR, PIXEL_LOG, PIXEL_OFFSET, PURE_WHITE, frame_distance
from .whites import SceneWhites, read_whites, settle

BODY_FRACTION = 0.7
"""Side of the body square as a share of the patch side: the card, not the gaps around it."""

_MAX_SIDE = 48  # bigger patches are read on every n-th pixel
_DARK = float(np.log(0.1))  # a pixel this much darker than its white: too dark for its hue
_INK_SHARE = 0.06  # the 6 % of body pixels furthest in colour from the patch's white
_INK_APART = 0.35  # chroma from the patch's white beyond which a pixel counts as ink
_WHITE_SHARE = 0.15  # the brightest 15 % of a patch's ring are its own white, if it has one
_INNER_FRACTION = 0.6  # ink is looked for this far in: a card's edge may show the table
_ART_FRACTION = 0.45  # a card's art (a gem) fills about this much of the patch's centre
_FIELD_SHARE = 0.6  # field pixels are at least this colourful, as a share of the boldest
# The bold pixels round the art stand for a field only where they are this share of all the
# bold ones at least: a SET card's symbols lie mostly in the middle, and the few of their
# pixels that reach past it (a tip or an edge, more or fewer as the card lies) are no field.
_FIELD_ROUND = 0.25
_HUE_WINDOWS = (0.4,)  # the commonest hue of a field: a mean shift in these windows
_SIDE = 0.25  # a side band of a patch: this share of its side
_PAPER_HUE = 0.2  # a pixel this close in hue to the white ...
_PAPER_LEVEL = float(np.log(0.45))  # ... and at least this bright against it is white paper
_SCENE_WHITE_SHARE = 0.03  # the brightest 3 % of a scene's pixels guess its white
_RIM_GAP = 40  # a body pixel this far (in some channel) from the rim's colour is card
_MIN_CARD = 0.25  # ... if at least this share of the body is; else the body is read whole
_MAX_GLARE = 0.35  # clipped pixels are glare when they cover at most this share of a body


@dataclass(frozen=True, eq=False)
class Measures:
    """What was measured of M patches, the first of them cells, the rest bare table."""

    body: np.ndarray  # (M, 3) camera R, G, B of each body's field
    ink: np.ndarray  # (M, 3) camera R, G, B of each body's ink
    rim: np.ndarray  # (M, 3) camera R, G, B of each patch's rim (the table around it)
    fixed: np.ndarray  # (M, 5) texture, ink share, mixed, edges, frame
    whites: SceneWhites  # of the cells (the bare table lies in their typical light)
    white: np.ndarray  # (3,) log R, G, B: the scene's white, or its brightest pixels
    grey: np.ndarray  # (3,) log R, G, B: the cells' average field


@dataclass(frozen=True)
class _Layout:
    """Where things are in a patch of h x w pixels (as read), as flat pixel indices."""

    body: np.ndarray
    ring: np.ndarray  # every other pixel of the ring (a border runs along it: plenty)
    rim: np.ndarray
    outer: np.ndarray  # (len(body),) bool: body pixels outside the centre, where art is drawn
    inner: np.ndarray  # (len(body),) bool: body pixels clear of its edge (table slips in there)
    edge: np.ndarray  # pixels of the four side bands, every other one along each band
    sides: np.ndarray  # (len(edge), 4) float: which lie in the top, bottom, left and right
    # side bands, each column summing to 1
    lone: bool  # a patch of a pixel or so (a colour sample): no ring at all


def body_slice(size: int, fraction: float = BODY_FRACTION) -> slice:
    """The rows (and columns) of a patch of side ``size`` that make its body.

    >>> body_slice(24)
    slice(3, 20, None)
    """
    side = max(1, int(round(size * fraction)))
    start = (size - side) // 2
    return slice(start, start + side)


@functools.lru_cache(maxsize=16)
def _layout(h: int, w: int) -> _Layout:
    body = np.zeros((h, w), bool)
    body[body_slice(h), body_slice(w)] = True
    centre = np.zeros((h, w), bool)
    side_h, side_w = round(h * _ART_FRACTION), round(w * _ART_FRACTION)
    centre[(h - side_h) // 2 : (h + side_h) // 2, (w - side_w) // 2 : (w + side_w) // 2] = True
    band = min(h, w) // 8
    rim = np.ones((h, w), bool)
    if band:
        rim[band : h - band, band : w - band] = False
    lone = not (~body).any()
    ring = np.flatnonzero(body if lone else ~body)
    # a border runs along each side band: every other pixel along it is plenty
    rows, cols = np.mgrid[0:h, 0:w]
    bh, bw = max(1, round(h * _SIDE)), max(1, round(w * _SIDE))
    bands = np.stack([(rows < bh) & (cols % 2 == 0), (rows >= h - bh) & (cols % 2 == 0),
                      (cols < bw) & (rows % 2 == 0), (cols >= w - bw) & (rows % 2 == 0)])
    edge = np.flatnonzero(bands.any(axis=0))
    member = bands.reshape(4, -1)[:, edge].T
    sides = (member / np.maximum(member.sum(axis=0), 1)).astype(np.float32)
    inner = np.zeros((h, w), bool)
    inner[body_slice(h, _INNER_FRACTION), body_slice(w, _INNER_FRACTION)] = True
    at = np.flatnonzero(body)
    return _Layout(at, ring[::2], np.flatnonzero(rim), ~centre.ravel()[at],
                   inner.ravel()[at] | lone, edge, sides, lone)


def measure(arr: np.ndarray, n: int, as_read: bool = False, voters: np.ndarray | None = None
            ) -> Measures:
    """Measure uint8 BGR patches ``arr`` (M, P, P, 3), of which the first ``n`` are cells
    (their rims tell the light: first guessed from the ``voters``' rims, if given, then read
    from every rim that fits it, :func:`read_whites`) and the rest bare table (lit as the
    cells are). ``as_read``: the patches hold only the pixels that are read
    (:func:`reading_step`), cut so."""
    return measure_scene(arr[:n], arr[n:], as_read, voters)


def measure_scene(cells: np.ndarray, table: np.ndarray, as_read: bool = False,
                  voters: np.ndarray | None = None) -> Measures:
    """:func:`measure` of cells and bare table patches of one size, (N, P, P, 3) and
    (T, P, P, 3), without first copying them into one array."""
    n = len(cells)
    m = n + len(table)
    if m == 0:
        empty = np.zeros((0, 3))
        return Measures(empty, empty, empty, np.zeros((0, 5)), read_whites(np.zeros((3, 0, 1))),
                        PURE_WHITE, PURE_WHITE)
    if not as_read:
        cells, table = _shrink(cells), _shrink(table)
    h, w = cells.shape[1:3]
    at = _layout(h, w)
    pixels: np.ndarray = np.empty((3, h, w, m), np.uint8)  # (channel, pixel, patch) read
    pixels[..., :n] = cells.transpose(3, 1, 2, 0)
    pixels[..., n:] = table.transpose(3, 1, 2, 0)
    pixels = pixels.reshape(3, -1, m)
    # np.take: a gather of whole rows, twice as fast as indexing
    rim_bgr = _plane_means(np.take(pixels, at.rim, axis=1))  # (3, M) the table around the card

    # the body: its pixels, glare left out, the card told from table showing beside it
    body_pixels = np.take(pixels, at.body, axis=1)
    raw = _planes(body_pixels)
    raw_f = raw.astype(np.float32)
    keep = _unclipped(np.maximum(np.maximum(raw[0], raw[1]), raw[2]))
    card = keep & _unlike(raw_f, rim_bgr)
    logs = _planes(_pixel_logs(body_pixels))  # (3, M, B) log B, G, R of single pixels
    bright = logs[0] + logs[1] + logs[2]

    # the patch's own white: the brightest of its ring. A white is bright in every channel
    # at once.
    ring = np.take(pixels, at.ring, axis=1)  # (3, R, M)
    ring_logs = _planes(_pixel_logs(ring))
    ring_bright = ring_logs[0] + ring_logs[1] + ring_logs[2]
    r = ring.shape[1]
    k = max(1, round(r * _WHITE_SHARE))
    # (M, k); rows in C order spare numpy a copy of each (the partition is the same)
    brightest = np.argpartition(_c_rows(ring_bright), r - k, axis=1)[:, r - k :]
    # (3, M, k) those pixels' planes, in C order
    candidates = np.take(ring, (brightest * m + np.arange(m)[:, None])
                         + (np.arange(3) * (r * m))[:, None, None])
    whites = read_whites(candidates[::-1, :n], voters)
    own = _pixel_logs(candidates).mean(axis=2)  # (3, M) log B, G, R
    usable = (bright > own.sum(axis=0)[:, None] + 3 * _DARK) & keep

    # ink: the body pixels furthest in colour from the patch's own white. The cards have
    # white rims if they stand apart from them in body or in ink (a sticker's brightest
    # pixels are its own colour).
    apart = where(usable & at.inner, _hue_distance2(logs, own[:, :, None]), -1.0)
    inked = apart >= _row_quantile(apart, 1.0 - _INK_SHARE)
    ink, plain = (x[::-1].T for x in _mean_planes(body_pixels, inked, card))
    whites = settle(whites, plain[:n], ink[:n]) if not at.lone else whites
    if whites.has_rims:
        white = whites.scene_white
        refs = np.empty((m, 3))  # each cell's white, then the typical one on the bare table
        refs[:n], refs[n:] = whites.refs, white
    else:
        white = _brightest(_planes(pixels)[:, :n])
        # Fields are picked against a grey as bright as those pixels, not against their
        # colour: with no white in the scene they are a sticker's own (a face of red and
        # orange, a yellow stone), and against its own colour a sticker shows none.
        refs = np.broadcast_to(np.full(3, white.max()), (m, 3))

    # the body against its patch's white, as colour.reflectance() reads a colour
    scale = np.exp(-refs.T[::-1]).astype(np.float32)[:, :, None]  # (3, M, 1) B, G, R
    # in place: raw_f is done with (fewer big temporaries)
    every = np.multiply(raw_f, scale, out=raw_f)
    every += np.float32(FLOOR)
    np.log(every, out=every)
    hue_u = every[2] - every[1]
    hue_v = 0.5 * (every[2] + every[1]) - every[0]
    colourful = where(usable & card, np.sqrt(hue_u * hue_u + hue_v * hue_v), -1.0)

    # the field: the colourful pixels round the art (not the lighter facets of a gem, nor a
    # white border slipping in), of the commonest hue among them
    bold = (colourful >= _FIELD_SHARE * _row_quantile(colourful, 0.9)) & card
    field = bold & at.outer
    around = row_counts(field)
    field = _rows_where((around >= 3) & (around >= _FIELD_ROUND * row_counts(bold)), field, bold)
    field, mixed = _commonest(hue_u, hue_v, field, bold)
    body = _field_colour(raw, field)[::-1].T

    # the texture of the card itself: white paper slipping into the body (or clipping,
    # and left out as glare) would make it
    paper = (colourful < _PAPER_HUE) & (every[0] + every[1] + every[2] > 3 * _PAPER_LEVEL)
    art = keep & ~paper
    count = np.maximum(row_counts(art), 1)
    level = where(art, bright, 0.0) / 3.0
    mean = row_sums(level) / count
    spread = np.sqrt(np.maximum(row_sums(level * level) / count - mean**2, 0.0))
    rim = rim_bgr[::-1].T.astype(np.float64)
    kept = np.maximum(row_counts(keep), 1)
    fixed = np.empty((m, 5))  # texture, ink share, mixed, edges, frame
    fixed[:, 0] = np.log(spread + 0.03)
    fixed[:, 1] = row_counts(apart > _INK_APART**2) / kept
    fixed[:, 2] = mixed
    fixed[:, 3] = _edges(_planes(_pixel_logs(np.take(pixels, at.edge, axis=1))), refs, at.sides)
    fixed[:, 4] = frame_distance(rim, body)
    grey = np.log(np.maximum(body[:n], 1.0)).mean(axis=0) if n else PURE_WHITE
    return Measures(body, ink, rim, fixed, whites, white, grey)


def reading_step(side: int) -> int:
    """Of a patch ``side`` pixels across, every how many-th pixel (of rows and of columns) is
    read: every other one (every n-th of big patches), so that a card's thin white border
    keeps pixels of pure white (averaging would blend it with the colours beside it).

    >>> reading_step(48), reading_step(8)
    (2, 1)
    """
    step = -(-side // _MAX_SIDE)
    if side // step >= 16:
        step *= 2
    return step


def _shrink(arr: np.ndarray) -> np.ndarray:
    """Patches (M, P, P, 3) at the size they are read at (:func:`reading_step`)."""
    step = reading_step(max(arr.shape[1:3]))
    return arr[:, ::step, ::step]


def _commonest(
    u: np.ndarray, v: np.ndarray, keep: np.ndarray, among: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The ``keep`` pixels (M, K) near the densest hue (``u``, ``v``: M, K) of each patch,
    found by a mean shift in shrinking windows from their mean hue; and the share of the
    ``among`` pixels (M, K) far from that hue (M,)."""
    # the counts as float32 (exact), so that the mean hues are float32 divisions as ever
    weight = keep.astype(np.float32)
    count = np.maximum(row_counts(keep), 1).astype(np.float32)
    cu, cv = row_sums(weight * u) / count, row_sums(weight * v) / count
    near, total = keep, count
    for window in _HUE_WINDOWS:
        du, dv = u - cu[:, None], v - cv[:, None]
        near = keep & (du * du + dv * dv < window * window)
        w = near.astype(np.float32)
        total = row_counts(near).astype(np.float32)
        found = total >= 3
        cu = np.where(found, row_sums(w * u) / np.maximum(total, 1), cu)
        cv = np.where(found, row_sums(w * v) / np.maximum(total, 1), cv)
    near = _rows_where(total >= 3, near, keep)
    du, dv = u - cu[:, None], v - cv[:, None]
    far = among & (du * du + dv * dv >= _HUE_WINDOWS[-1] ** 2)
    return near, row_counts(far) / np.maximum(row_counts(among), 1)


def _edges(logs: np.ndarray, refs: np.ndarray, sides: np.ndarray) -> np.ndarray:
    """(M,) the share of white paper on each patch's least white side (``logs``: pixel logs
    of side band pixels, planes B, G, R: 3, M, K; ``refs``: each patch's white, log R, G, B:
    M, 3; ``sides``: which side band each pixel lies in, K, 4)."""
    ref = np.log((np.exp(refs.T[::-1]) + PIXEL_OFFSET) / (255.0 + PIXEL_OFFSET))
    d = logs - ref.astype(np.float32)[:, :, None]  # against the white, as pixels are read
    u, v = d[2] - d[1], 0.5 * (d[2] + d[1]) - d[0]
    paper = (u * u + v * v < _PAPER_HUE**2) & (d[0] + d[1] + d[2] > 3 * _PAPER_LEVEL)
    return np.asarray((paper.astype(np.float32) @ sides).min(axis=1))

def _hue_distance2(planes: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """(M, K) squared distance in hue of pixels (log B, G, R planes: 3, M, K) from ``centre``
    (log B, G, R: 3, M, 1)."""
    d = planes - centre
    u = d[2] - d[1]
    v = 0.5 * (d[2] + d[1]) - d[0]
    return np.asarray(u * u + v * v)


def _row_quantile(values: np.ndarray, q: float) -> np.ndarray:
    """(M, 1) the ``q`` quantile of each row of ``values`` (M, K)."""
    k = int(q * (values.shape[1] - 1))
    rows = _c_rows(values)  # a copy: partitioned in place
    rows.partition(k, axis=1)
    return rows[:, k, None]


def _c_rows(values: np.ndarray) -> np.ndarray:
    """A C-ordered copy of float32 ``values`` (M, K) (OpenCV's transpose where they lie pixel
    by pixel)."""
    if values.T.flags.c_contiguous and not values.flags.c_contiguous:
        return cv2.transpose(values.T)
    return values.copy()


def _mean_planes(rows: np.ndarray, *keeps: np.ndarray) -> np.ndarray:
    """(len(keeps), 3, M) means over each patch's kept pixels (``rows``: uint8 pixel rows
    3, K, M; each ``keep``: M, K), over all of them where none is kept."""
    k = rows.shape[1]
    means = []
    for keep in keeps:
        count = row_counts(keep)
        none = count == 0
        use = (keep.T | none).view(np.uint8)  # (K, M)
        means.append(_pixel_sums(rows * use) / np.where(none, k, count))  # 0 unless kept
    return np.stack(means)


def _field_colour(raw: np.ndarray, field: np.ndarray) -> np.ndarray:
    """(3, M) per-channel medians of each patch's field pixels (``raw``: 3, M, K uint8;
    ``field``: M, K), of all its pixels where it has none. The median, not the mean: the
    camera clipping part of a field leaves its median alone."""
    some = np.asarray(field.any(axis=1))
    field = field | ~some[:, None]
    m, k = field.shape
    # the other pixels made 255 sort after the field's; OpenCV sorts rows of bytes several
    # times faster than numpy
    rest = (~field).view(np.uint8) * np.uint8(255)
    ordered = cv2.sort((raw | rest).reshape(3 * m, k), cv2.SORT_EVERY_ROW | cv2.SORT_ASCENDING)
    middle = (row_counts(field) - 1) // 2
    # C order, as callers' reductions over it were written for
    return ordered.reshape(3, m, k)[:, np.arange(m), middle].astype(np.float64, order="C")


def _rows_where(rows: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """np.where(rows[:, None], a, b): row by row, ``a`` where ``rows`` holds (nearly always
    all of them: then ``a`` itself)."""
    return a if rows.all() else np.where(rows[:, None], a, b)


def _planes(rows: np.ndarray) -> np.ndarray:
    """(3, M, K) planes of pixel rows (3, K, M): a view, in memory still pixel by pixel."""
    return rows.transpose(0, 2, 1)


def _pixel_logs(pixels: np.ndarray) -> np.ndarray:
    """PIXEL_LOG[pixels] of C-ordered uint8 ``pixels`` (OpenCV's lookup: several times
    faster than numpy's indexing)."""
    return cv2.LUT(pixels.reshape(len(pixels), -1), PIXEL_LOG).reshape(pixels.shape)


def _plane_means(rows: np.ndarray) -> np.ndarray:
    """(3, M) float64 means over pixel rows (3, K, M) of uint8: their exact integer sums,
    then divided, as numpy's mean does."""
    return _pixel_sums(rows) / rows.shape[1]


def _pixel_sums(rows: np.ndarray) -> np.ndarray:
    """(3, M) int32 sums over pixel rows (3, K, M) of uint8. Sums of whole numbers, the same
    in any order: OpenCV adds them up, plane by plane (numpy's sum over a middle axis is
    several times slower)."""
    out = np.empty((3, rows.shape[2]), np.int32)
    for c in range(3):
        out[c] = cv2.reduce(rows[c], 0, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[0]
    return out


def _unlike(raw: np.ndarray, rim: np.ndarray) -> np.ndarray:
    """(M, K) bool: body pixels (planes 3, M, K) unlike the patch's rim (3, M): the card, not
    the table showing beside a small or misplaced card; all of them when too few are (an
    empty cell, a hand)."""
    gap = raw - rim[:, :, None].astype(np.float32)
    np.abs(gap, out=gap)
    unlike = np.maximum(np.maximum(gap[0], gap[1]), gap[2]) > _RIM_GAP
    enough = row_counts(unlike) >= _MIN_CARD * raw.shape[2]
    return np.asarray(unlike | ~enough[:, None])


def _unclipped(top: np.ndarray) -> np.ndarray:
    """(M, K) bool: pixels to read (``top``: each pixel's highest channel). Clipped pixels
    covering a small part of a body are glare and left out; covering much of it (a white
    card a little over-exposed) they are the card."""
    clipped = top >= CLIPPED
    count = row_counts(clipped)
    glared = (count > 0) & (count <= _MAX_GLARE * top.shape[1])
    return np.asarray(~(clipped & glared[:, None]))


def _brightest(planes: np.ndarray) -> np.ndarray:
    """Log R, G, B of the brightest few pixels of the whole scene (planes B, G, R: 3, M, K):
    the best guess of its white when no card shows one (stickers), maybe no white at all."""
    pixels = planes.reshape(3, -1).T
    if not len(pixels):
        return PURE_WHITE
    total = pixels.astype(np.int32).sum(axis=1)
    # the threshold from a histogram of brightness: cheaper than sorting every pixel
    tally = np.cumsum(np.bincount(total, minlength=766)[::-1])
    need = max(1, int(round(len(pixels) * _SCENE_WHITE_SHARE)))
    threshold = 765 - int(np.searchsorted(tally, need))
    rgb = median(pixels[total >= threshold], axis=0)[::-1]
    return np.asarray(np.log(np.maximum(rgb, 1.0)))
