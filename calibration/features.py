"""What a cell looks like, as a short vector of numbers that light changes little.

Every patch passed in one call is one *scene*: the same light falls on all of them, so the
scene can say what white looks like (its brightest pixels: white card borders, a pearl,
white stickers) and what its cards look like on average. Colours are taken in log space,
where a change of light colour or exposure (the von Kries model) is the same shift ``c``
(one number per channel) added to every pixel; :meth:`Scene.features` takes that shift, so a
palette can try several guesses of the light and keep the one that fits.

Per patch, from its *body* (the central part, where the card is):

- ``I, u, v``: brightness and two colour-opponent axes (red-green, yellow-blue) of the
  body's per-channel median: the colour of a coloured field;
- ``hue_u, hue_v``: the hue of the body's *ink*: its pixels furthest in colour from the
  patch's own white (its brightest pixels, card border included). For coloured art on a
  white card that is the art, for a flat card the card. Its strength is squashed into the
  unit disc, so that faint and bold art of one hue land close together;
- ``rel_I, rel_u, rel_v``: the darkness and hue of the pixels furthest in colour from the
  white right around them (each channel's brightest value within two pixels): symbols
  against their own card, whatever light falls on that part of the card;
- ``texture``: log spread of brightness (a flat card is smooth, symbols and hands are not);
- ``ink``: the share of body pixels whose colour stands clearly apart from that local white;
- ``frame``: how far the patch's rim (the gaps between cards: table, a cube's black
  plastic) differs from its body. A card stands out from its surroundings; a hand or an arm
  covers rim and body alike.

Which of these tell a deck's classes apart is for the palette to learn (a SET deck's
classes differ in hue, not in shading; a flat deck's in body colour).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

FEATURES = ("I", "u", "v", "hue_u", "hue_v", "rel_I", "rel_u", "rel_v", "texture", "ink", "frame")
"""Names of the feature vector's entries, in order."""

BODY_FRACTION = 0.5
"""Side of the body square as a share of the patch side: the card, not the gaps around it."""

_OFFSET = 16.0  # added before the log: dark channels keep finite, calm colour (sensor noise)
_LOG = np.log((np.arange(256) + _OFFSET) / (255.0 + _OFFSET)).astype(np.float32)
_LOG.flags.writeable = False
_DARK = float(np.log((24.0 + _OFFSET) / (255.0 + _OFFSET)))  # too dark to trust its hue
_INK_SHARE = 0.06  # the 6 % of body pixels furthest in colour from the patch's white
_INK_SQUASH = 0.12  # ink this strong (log chroma) is 0.76 of the way to pure hue
_REL_SQUASH = 0.12
_HUE_FLOOR = 0.06  # chroma below this is sensor noise around a grey
_INK_APART = 0.35  # chroma from the patch's white beyond which a pixel counts as ink
_SCENE_WHITE_SHARE = 0.03  # the brightest 3 % of a scene's pixels estimate its white
_OWN_WHITE_SHARE = 0.1  # a patch's brightest 10 % are its own white, if it has one
_SHARED_SPREAD = 0.12  # patches whose own whites sit this close (median, log chroma) share one
_MIN_SHARING = 4  # fewer patches than this cannot tell a shared white from chance
_RIM_GAP = 40  # a body pixel this far (in some channel) from the rim's colour is card
_MIN_CARD = 0.25  # ... if at least this share of the body is; else the body is read whole
_CLIPPED = 250  # a pixel with a channel this high is glare or an over-exposed white
_MAX_GLARE = 0.35  # clipped pixels are glare when they cover at most this share of a body
_MAX_SIDE = 48
_NEAR = np.ones((5, 5), np.uint8)  # "close around a pixel": 2 pixels of a 48-pixel patch

# Rows of OPPONENT turn log (R, G, B) into (I, u, v).
OPPONENT = np.array([[1 / 3, 1 / 3, 1 / 3], [1.0, -1.0, 0.0], [0.5, 0.5, -1.0]])
OPPONENT_INV = np.linalg.inv(OPPONENT)
_OPP_BGR = OPPONENT[:, ::-1].T.astype(np.float32)  # log B, G, R -> I, u, v


def to_log_rgb(bgr: np.ndarray) -> np.ndarray:
    """Log RGB (float32, channel order R, G, B) of uint8-scale BGR values; 0 is white.

    >>> to_log_rgb(np.array([255, 255, 255], dtype=np.uint8)).tolist()
    [0.0, 0.0, 0.0]
    """
    x = np.asarray(bgr)[..., ::-1]
    if x.dtype == np.uint8:
        return _LOG[x]
    return np.log((x.astype(np.float32) + _OFFSET) / (255.0 + _OFFSET)).astype(np.float32)


def as_patches(patches: np.ndarray) -> np.ndarray:
    """(N, P, P, 3) uint8 BGR patches from patches or from an (N, 3) array of BGR colours.

    A plain colour is a flat patch of one pixel, so colour samples (a sticker's measured RGB)
    and image patches go through the same features.
    """
    arr = np.asarray(patches)
    if arr.ndim == 2 and arr.shape[1] == 3:
        arr = arr[:, None, None, :]
    if arr.ndim != 4 or arr.shape[3] != 3 or arr.shape[1] < 1 or arr.shape[2] < 1:
        raise ValueError(f"patches must be (N, P, P, 3) BGR or (N, 3) colours, not {arr.shape}")
    if arr.dtype != np.uint8:
        arr = np.clip(np.rint(arr), 0, 255).astype(np.uint8)
    return arr


def body_slice(size: int) -> slice:
    """The rows (and columns) of a patch of side ``size`` that make its body."""
    side = max(1, int(round(size * BODY_FRACTION)))
    start = (size - side) // 2
    return slice(start, start + side)


def squash(vectors: np.ndarray, scale: float) -> np.ndarray:
    """2-D vectors kept in direction, their length mapped into [0, 1).

    Lengths below the noise floor map to 0 (the hue of a grey is noise); above, the length
    saturates quickly, so faint and bold colour of one hue land close together.
    """
    length = np.hypot(vectors[:, 0], vectors[:, 1])
    factor = np.tanh(np.maximum(length - _HUE_FLOOR, 0.0) / scale) / np.maximum(length, 1e-6)
    return vectors * factor[:, None]


@dataclass(frozen=True, eq=False)
class Scene:
    """The patches of one scene, measured once; features for any light shift ``c``.

    ``white`` and ``grey`` are the scene's own estimates, in log RGB, of a white surface and
    of its average card: the cues a palette uses to guess how this light differs from the
    light it learned under.
    """

    body_median: np.ndarray  # (N, 3) per-channel median log RGB of each body
    ink: np.ndarray  # (N, 2) mean opponent colour of each body's ink pixels
    fixed: np.ndarray  # (N, 6) rel_I, rel_u, rel_v, texture, ink, frame: the same under any shift
    white: np.ndarray  # (3,)
    grey: np.ndarray  # (3,)
    shared_white: bool = False  # the patches share one white (card borders): ``white`` is it

    def __len__(self) -> int:
        return len(self.body_median)

    def features(self, shift: np.ndarray | None = None) -> np.ndarray:
        """(N, len(FEATURES)) features as if ``shift`` (log RGB) were added to every pixel."""
        c = np.zeros(3) if shift is None else np.asarray(shift, dtype=np.float64)
        out = np.empty((len(self), len(FEATURES)), dtype=np.float64)
        out[:, 0:3] = (self.body_median + c) @ OPPONENT.T
        out[:, 3:5] = squash(self.ink + OPPONENT[1:] @ c, _INK_SQUASH)
        out[:, 5:] = self.fixed
        return out


def light_coordinates(features: np.ndarray) -> np.ndarray:
    """(N, 3) the features (N, F) that a light shift moves as (I, u, v) move: body colour.

    Palettes use them to see how far, in light, a cell is from its class.
    """
    return np.atleast_2d(features)[:, 0:3]


def prepare(patches: np.ndarray) -> Scene:
    """A :class:`Scene` of (N, P, P, 3) BGR patches (or (N, 3) BGR colours) under one light."""
    arr = as_patches(patches)
    n, h, w, _ = arr.shape
    if n == 0:
        empty = np.zeros((0, 3))
        return Scene(empty, np.zeros((0, 2)), np.zeros((0, 6)), np.zeros(3), np.zeros(3))
    step = -(-max(h, w) // _MAX_SIDE)  # big patches are read on every n-th pixel
    arr = np.ascontiguousarray(arr[:, ::step, ::step])
    n, h, w, _ = arr.shape
    rows, cols = body_slice(h), body_slice(w)
    # Most measures read every other pixel; the local white needs them all (thin outlines).
    near = _NEAR.shape[0] // 2
    top, left = max(rows.start - near, 0), max(cols.start - near, 0)
    framed = arr[:, top : rows.stop + near, left : cols.stop + near]
    fh, fw = framed.shape[1:3]
    local = cv2.dilate(_logs(framed).reshape(n * fh, fw, 3), _NEAR).reshape(n, fh, fw, 3)
    inner = (
        slice(rows.start - top, rows.stop - top, 2),
        slice(cols.start - left, cols.stop - left, 2),
    )
    raw = framed[:, inner[0], inner[1]].reshape(n, -1, 3)
    local = local[:, inner[0], inner[1]].reshape(n, -1, 3) @ _OPP_BGR
    keep = _unclipped(raw)
    sub = arr[:, ::2, ::2]
    rim_raw = _channel_medians(_rim(sub))
    body_median = _LOG[_channel_medians(raw, keep & _unlike(raw, rim_raw))][:, ::-1]  # R, G, B
    body = _logs(raw) @ _OPP_BGR
    usable = (body[..., 0] > _DARK) & keep  # the hue of a dark or clipped pixel is noise
    around = _logs(sub).reshape(n, -1, 3) @ _OPP_BGR
    own = _weighted_mean(around, _top_weights(around[..., 0], _OWN_WHITE_SHARE))
    white, shared = _scene_white(sub, own)

    # ink: the body pixels furthest in colour from the patch's own white
    from_own = body[..., 1:] - own[:, None, 1:].astype(np.float32)
    key = np.where(usable, np.hypot(from_own[..., 0], from_own[..., 1]), -1.0)
    ink = _weighted_mean(body[..., 1:], _top_weights(key, _INK_SHARE))

    # relative ink: against each pixel's local white, the brightest of each channel near it
    apart = body - local
    distance = np.where(usable, np.hypot(apart[..., 1], apart[..., 2]), -1.0)
    relative = _weighted_mean(apart, _top_weights(distance, _INK_SHARE))

    count = keep.sum(axis=1)
    brightness = np.where(keep, body[..., 0], 0.0)
    mean = brightness.sum(axis=1) / count
    spread = np.sqrt(np.maximum((brightness**2).sum(axis=1) / count - mean**2, 0.0))
    fixed = np.empty((n, 6))
    fixed[:, 0] = relative[:, 0]
    fixed[:, 1:3] = squash(relative[:, 1:], _REL_SQUASH)
    fixed[:, 3] = np.log(spread + 0.03)
    fixed[:, 4] = (distance > _INK_APART).sum(axis=1) / count
    rim = _LOG[rim_raw][:, ::-1]
    fixed[:, 5] = np.linalg.norm(rim - body_median, axis=1)
    return Scene(
        body_median=body_median.astype(np.float64),
        ink=ink.astype(np.float64),
        fixed=fixed,
        white=white,
        grey=body_median.mean(axis=0).astype(np.float64),
        shared_white=shared,
    )


def _logs(pixels: np.ndarray) -> np.ndarray:
    """Log of every channel value of uint8 pixels (..., 3), as float32."""
    flat = np.ascontiguousarray(pixels).reshape(-1, 1, 3)
    if len(flat) > 32000:  # cv2.LUT wants an image no taller than that
        return _LOG[pixels]
    return cv2.LUT(flat, _LOG).reshape(pixels.shape)


def _rim(arr: np.ndarray) -> np.ndarray:
    """(N, K, 3) the pixels of each patch's rim, the outer eighth of each side."""
    n, h, w, _ = arr.shape
    band = min(h, w) // 8
    if band == 0:  # a tiny patch is all body: its rim is itself
        return arr.reshape(n, -1, 3)
    parts = (
        arr[:, :band],
        arr[:, h - band :],
        arr[:, band : h - band, :band],
        arr[:, band : h - band, w - band :],
    )
    return np.concatenate([p.reshape(n, -1, 3) for p in parts], axis=1)


def _channel_medians(pixels: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
    """(N, 3) per-channel uint8 medians of each patch's ``pixels`` (N, ..., 3), over the kept
    ones (``keep`` (N, M) bool, or all)."""
    n = len(pixels)
    channels = np.ascontiguousarray(pixels.reshape(n, -1, 3).transpose(0, 2, 1))
    m = channels.shape[2]
    if keep is None or keep.all():
        return np.partition(channels, m // 2, axis=2)[:, :, m // 2]
    # left-out pixels sort last; the median is then the middle of the kept ones
    ordered = np.sort(np.where(keep[:, None, :], channels, 255), axis=2)
    middle = np.maximum(keep.sum(axis=1) - 1, 0) // 2
    return ordered[np.arange(n), :, middle]


def _unlike(raw: np.ndarray, rim: np.ndarray) -> np.ndarray:
    """(N, M) bool: body pixels unlike the patch's rim (the card, not the table showing
    beside a small or misplaced card); all of them when too few are (an empty cell, a hand)."""
    gap = np.abs(raw.astype(np.int16) - rim[:, None, :].astype(np.int16)).max(axis=2)
    unlike = gap > _RIM_GAP
    enough = unlike.sum(axis=1) >= _MIN_CARD * raw.shape[1]
    return unlike | ~enough[:, None]


def _top_weights(key: np.ndarray, share: float) -> np.ndarray:
    """(N, M) float weights: 1 on the ``share`` of each row's entries highest in ``key``."""
    m = key.shape[1]
    k = max(1, int(round(m * share)))
    threshold = np.partition(key, m - k, axis=1)[:, m - k]
    return (key >= threshold[:, None]).astype(np.float32)


def _weighted_mean(values: np.ndarray, weight: np.ndarray) -> np.ndarray:
    return np.einsum("nmc,nm->nc", values, weight) / weight.sum(axis=1)[:, None]


def _unclipped(raw: np.ndarray) -> np.ndarray:
    """(N, M) bool: pixels to read. Clipped pixels covering a small part of a body are glare
    and left out; covering much of it (a white card a little over-exposed) they are the card."""
    brightest = np.maximum(np.maximum(raw[..., 0], raw[..., 1]), raw[..., 2])
    clipped = brightest >= _CLIPPED
    m = clipped.shape[1]
    glared = clipped.any(axis=1) & (clipped.sum(axis=1) <= _MAX_GLARE * m)
    return ~(clipped & glared[:, None])


def _scene_white(patches: np.ndarray, own: np.ndarray) -> tuple[np.ndarray, bool]:
    """The scene's white in log RGB, and whether its patches share it.

    Cards with white borders (or white cards) each show the same white: then the median of
    the patches' own whites ``own`` is the scene's white, robust to a glare spot or a shadow.
    Otherwise (stickers, cards of one colour all over) the brightest pixels of the whole
    scene are the best guess, and may be no white at all.
    """
    centre = np.median(own, axis=0)
    spread = np.median(np.hypot(*(own[:, 1:] - centre[1:]).T))
    if len(own) >= _MIN_SHARING and spread <= _SHARED_SPREAD:
        return OPPONENT_INV @ centre, True
    flat = patches.reshape(-1, 3)
    total = flat[:, 0].astype(np.int32) + flat[:, 1] + flat[:, 2]
    # the threshold from a histogram of brightness: cheaper than sorting every pixel
    tally = np.cumsum(np.bincount(total, minlength=766)[::-1])
    need = max(1, int(round(len(flat) * _SCENE_WHITE_SHARE)))
    threshold = 765 - int(np.searchsorted(tally, need))
    brightest = flat[total >= threshold]
    return to_log_rgb(np.median(brightest, axis=0)).astype(np.float64), False
