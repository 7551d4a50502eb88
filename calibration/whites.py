"""The white a scene shows itself: the white rim of every card, read as one light.

Gem cards have a white border; SET cards are white. Each card's brightest rim pixels show
what white paper looks like in the light falling on that card. One card's rim is a thin
line, blurred and smeared by JPEG into the colours beside it, so its hue alone is a poor
guess; but every card is lit by the same lamp. So the rims of all cards are read as one
light colour ``light`` (log RGB, up to a common offset) and one brightness per card (a
shadow darkens some cards, it does not tint them):

    log white[k, c] = brightness[k] + light[c]

The light colour is the commonest hue among the rim pixels of all cards (a mode, so the
field colours and the cloth bleeding into the rims do not drag it). A channel the camera
clipped says only "at least this bright"; a channel clipped on most rims is *censored*:
only a lower bound is known, and the white may be brighter there than guessed.

Scenes with no white rims (stickers on black plastic, whose brightest pixels are just their
own colour) are told apart by what the rims are white *to*: on gem and SET cards the body
or the art differs in colour from the rim; on stickers it does not (:func:`settle`).

>>> import numpy as np
>>> lamp = np.array([240.0, 160.0, 70.0])  # a warm lamp on white paper
>>> rims = np.stack([lamp, lamp * 0.5, lamp * 0.9, lamp]).T[:, :, None]  # a card in shadow
>>> w = read_whites(rims)
>>> w.rim.tolist(), np.round(np.exp(w.refs[1]), 1).tolist(), bool(w.bound.any())
([True, True, True, True], [120.0, 80.0, 35.0], False)
>>> yellow = np.exp(w.refs) * np.array([0.9, 0.8, 0.15])
>>> settle(w, yellow, yellow).has_rims
True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ._stats import median, quantile, row_counts, row_sums, where
from .colour import CLIPPED, FLOOR

_LOG_CLIP = float(np.log(CLIPPED))
_MATCH = 0.2  # a card's own white within this (log) of the scene's light is a white rim
_DIM = float(np.log(0.6))  # a white this much darker than the typical one is not trusted
_DIM_CLIPPED = float(np.log(0.8))  # ... than a typical one known only as "at least"
_TINT = 0.1  # a cell of one colour this far from white in hue is no white card
_COLOURED = 0.3  # body or ink this far (log chroma) from its white is no white itself
_MIN_RIMS = 3  # fewer white rims than this cannot tell a light from chance
_RIM_SHARE = 0.3  # ... nor fewer than this share of the cells
_MODE_WINDOWS = (0.15, 0.08, 0.04)  # the light's hue: a mean shift in shrinking windows
_CENSORED_SHARE = 0.5  # a channel clipped on more than this share of rim pixels is censored
_BRIGHT_QUANTILE = 0.9  # the bright rim pixels: white paper where the cards have rims
_DARKER_THAN_PAPER = float(np.log(3.0))  # deeper than any shadow over part of the grid
_OPPOSED = np.array([[1.0, -1.0, 0.0], [0.0, 1.0, -1.0]])  # log RGB -> (R-G, G-B)
_LOCUS_SLOPE = 1.0  # warm to cool light: G-B moves at least as much as R-G (black body)
# White paper under any lamp, through any white balance a camera keeps, is no further from
# grey than this in log R-G, and lies in this range of log G-B (a candle's flame under a
# daylight balance: about 0.55 and 1.3): a "white" beyond is a coloured sticker's own colour.
_LAMP_RED_GREEN = 0.9
_LAMP_GREEN_BLUE = (-0.8, 1.6)
_MAX_SECOND = 1.4  # a second light this far (log G-B) from the first at most (2700 K to 6500 K)
_CHROMA = np.array([[1.0, -1.0, 0.0], [0.5, 0.5, -1.0]])  # log RGB -> (u, v)
_UNREAD = 1e300  # sorts after every log value
_STAND_IN = np.float32(1e3)  # a clipped pixel's channel ratio in the mode: near no read one


@dataclass(frozen=True, eq=False)
class SceneWhites:
    """What white the scene shows, per cell. ``refs``: (N, 3) log RGB (0..255) of white paper
    in the light on each cell (its own rim's brightness where it has one, the scene's typical
    one where not); ``bound``: (N, 3) where ``refs`` is only a lower bound (the rim was
    clipped there); ``rim``: (N,) the cell's brightest rim pixels fit the scene's light;
    ``own``: (N,) and their brightness was read; ``has_rims``: the cards of this scene have
    white rims at all."""

    refs: np.ndarray
    bound: np.ndarray
    rim: np.ndarray
    own: np.ndarray
    has_rims: bool = False
    censored: np.ndarray | None = None  # (3,) the scene light's channels known only as "at least"

    @functools.cached_property
    def scene_white(self) -> np.ndarray:
        """Log RGB of white in the scene's typical light (the median cell's). Read-only."""
        if not len(self.refs):
            white = np.full(3, np.log(255.0))
        else:
            picked = self.refs[self.rim] if self.rim.any() else self.refs
            white = np.asarray(median(picked, axis=0), dtype=np.float64)
        white.flags.writeable = False
        return white

    @functools.cached_property
    def clipped_on_most(self) -> np.ndarray:
        """(3,) bool: the channels the camera clipped on most rims (the light's level there
        is a guess). Read-only."""
        rims = self._rim_bounds()
        out = rims.mean(axis=0) > _CENSORED_SHARE if len(rims) else np.ones(3, bool)
        out.flags.writeable = False
        return out

    @functools.cached_property
    def light_read(self) -> bool:
        """The rims show the scene's light in every channel: most of them read each channel
        unclipped, and its white lies within what the camera shows (not carried past the
        clip from the other channels: a guess, and so are its ratios to them); or, where the
        camera clipped most rims all over (a bright lamp), enough rims to tell a light read
        every channel unclipped: the light's colour is theirs, and a rim clipped all over is
        that light, brighter."""
        rims = self._rim_bounds()
        if not len(rims):
            return False
        if not (self.clipped_on_most.any() or (self.scene_white > _LOG_CLIP).any()):
            return True
        read = np.count_nonzero(~rims.any(axis=1))
        clipped_all_over = np.count_nonzero(rims.all(axis=1))
        return bool(
            (self.censored is None or not self.censored.any())
            and read + clipped_all_over == len(rims)
            and read >= max(_MIN_RIMS, _RIM_SHARE * len(self.bound))
        )

    def _rim_bounds(self) -> np.ndarray:
        """``bound`` of the cells with a white rim (of every cell where none has one)."""
        return self.bound[self.rim] if self.rim.any() else self.bound

    def typical(self, n: int) -> SceneWhites:
        """The scene's typical light on ``n`` more patches of it (bare table beside the grid)."""
        refs = np.empty((n, 3))
        refs[:] = self.scene_white
        bound = np.empty((n, 3), bool)
        if self.censored is not None:
            bound[:] = self.censored
        else:
            bound[:] = self.bound.all(axis=0) if len(self.bound) else True
        no = np.zeros(n, bool)
        return SceneWhites(refs, bound, no, no, self.has_rims, self.censored)


def read_whites(candidates: np.ndarray, voters: np.ndarray | None = None) -> SceneWhites:
    """The scene's light from each cell's brightest rim pixels ``candidates`` (3, N, K: the
    planes R, G, B of K pixels per cell, linear 0..255). ``has_rims`` is left False:
    :func:`settle` decides it. ``voters`` (N,) bool: the cells whose rims first guess the
    light's colour (where a card's outline shows, if enough do: a hand over the others
    leaves its skin the brightest thing round them, and over most of the grid its hue was
    taken for the lamp's, a beige light under which pinks read violet); it is then read
    from every rim that fits that guess. None, or fewer than ``_MIN_RIMS``: every cell
    guesses. Where every rim fits the voters' guess, the light is read as if none were
    given."""
    pixels = np.asarray(candidates, dtype=np.float32)
    n = pixels.shape[1]
    if n == 0:
        none = np.zeros(0, bool)
        return SceneWhites(np.zeros((0, 3)), np.zeros((0, 3), bool), none, none)
    logs = np.log(np.maximum(pixels, 1.0))
    clipped = pixels >= CLIPPED
    half = pixels.shape[2] // 2
    middle = np.partition(candidates, half, axis=2)[:, :, half]
    middle = middle.T.astype(np.float64)
    own = np.log(np.maximum(middle, 1.0))  # (N, 3) each cell's own white, its median
    seen = middle < CLIPPED - 4  # its channels read, not clipped
    # the light read from every (voter's) cell's rim pixels finds the cells whose rims are
    # white; it is then read again from those rims alone (of every cell: a card's rim is
    # white paper whether or not its outline showed)
    light, censored, brightness, fits = _guessed(logs, clipped, own, seen, voters)
    if 2 <= fits.sum() < n:
        light, censored = _light_colour(logs[:, fits], clipped[:, fits])
        brightness, fits = _brightness(own, seen, censored, light)
    refs = brightness[:, None] + light[None, :]
    second = _second_light(own, seen, light, fits)
    refs[second] = own[second]
    main_fits = fits
    fits = fits | second
    lit = (seen & ~censored).any(axis=1)  # the cell's brightness was read, not guessed
    known = fits & lit
    if fits.any():
        typical = median(brightness[known] if known.any() else brightness[fits])
        refs[~fits] = typical + light
    bound = censored[None, :] | (~lit & fits)[:, None]
    bound[second] = False  # read in every channel, unclipped: no "at least" about it
    return SceneWhites(refs, bound, fits, known, censored=censored if main_fits.any() else None)


def _guessed(
    logs: np.ndarray, clipped: np.ndarray, own: np.ndarray, seen: np.ndarray,
    voters: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`read_whites`' first guess of the light (its colour, censored channels) and
    each cell's brightness in it and whether its rim fits it: from the ``voters``' rims,
    unless they are too few or every rim fits what they guess (then from every rim)."""
    n = logs.shape[1]
    if voters is not None:
        voting = np.asarray(voters, bool)
        if voting.shape != (n,):
            raise ValueError(f"voters for {voting.shape} cells, not {n}")
        if _MIN_RIMS <= voting.sum() < n:
            light, censored = _light_colour(logs[:, voting], clipped[:, voting])
            brightness, fits = _brightness(own, seen, censored, light)
            if not fits.all():
                return light, censored, brightness, fits
    light, censored = _light_colour(logs, clipped)
    return (light, censored, *_brightness(own, seen, censored, light))


def settle(whites: SceneWhites, body: np.ndarray, ink: np.ndarray) -> SceneWhites:
    """The whites once the cells' colours are known (``body``, ``ink``: N, 3 camera R, G, B).

    The scene's cards have white rims if enough cells show a rim in one light and their
    bodies or art stand apart in colour from it (a sticker's brightest pixels are its own
    colour, not a white). And a cell all of one colour with a "white" far darker than the
    others', or a tinted one, is no white card (in a shadow) but grey cloth in an empty
    cell, or a hand: its brightness is not trusted.
    """
    n = len(whites.refs)
    scale = np.exp(-whites.refs)
    tint = _tint(body, scale)
    coloured = (tint > _COLOURED) | (_tint(ink, scale) > _COLOURED)
    rims = int(whites.rim.sum())
    has = bool(
        rims >= max(_MIN_RIMS, _RIM_SHARE * n)
        and (coloured & whites.rim).sum() >= max(2, 0.2 * rims)
        and _lamp_like(whites.scene_white, whites.censored)
    )
    if not whites.own.any():
        return SceneWhites(whites.refs, whites.bound, whites.rim, whites.own, has, whites.censored)
    brightness = whites.refs.mean(axis=1)
    typical = median(brightness[whites.own])
    # where most rims are clipped, the typical white is only a lower bound: a far darker
    # "white" is then darker still against it
    clipped = np.count_nonzero(whites.bound.all(axis=1) & whites.rim) * 2 > rims
    dim = whites.own & ~coloured & (
        (brightness < typical + (_DIM_CLIPPED if clipped else _DIM)) | (tint > _TINT)
    )
    refs = whites.refs.copy()
    refs[dim] += typical - brightness[dim, None]
    return SceneWhites(refs, whites.bound, whites.rim, whites.own & ~dim, has, whites.censored)


def _lamp_like(white: np.ndarray, censored: np.ndarray | None = None) -> bool:
    """Whether ``white`` (log R, G, B) is a colour some lamp gives white paper: a face of
    red and orange stickers shows its brightest pixels orange, which is no lamp's. Channels
    known only as "at least" (``censored``, 3) are left out.

    >>> _lamp_like(np.log([255.0, 180.0, 110.0])), _lamp_like(np.log([200.0, 40.0, 17.0]))
    (True, False)
    """
    read = np.ones(3, bool) if censored is None else ~np.asarray(censored, bool)
    red_green, green_blue = (_OPPOSED @ white).tolist()
    low, high = _LAMP_GREEN_BLUE
    return not ((read[0] and read[1] and abs(red_green) > _LAMP_RED_GREEN)
                or (read[1] and read[2] and not low <= green_blue <= high))


def _light_colour(logs: np.ndarray, clipped: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The light's colour (log RGB, up to a common offset) as the mode of rim pixel hues
    (``logs``, ``clipped``: (3, ...) planes R, G, B), and which channels were censored."""
    logs, clipped = logs.reshape(3, -1), clipped.reshape(3, -1)
    counts = (logs.shape[1] - row_counts(clipped)).tolist()
    base = max(range(3), key=lambda c: (counts[c], c == 1))  # the least clipped; green on ties
    if counts[base] <= _CENSORED_SHARE * logs.shape[1]:  # rims clipped in every channel
        return np.full(3, _LOG_CLIP), np.ones(3, bool)
    others = [c for c in range(3) if c != base]
    read = ~clipped[base]
    # Paper is the brightest thing on the table: a rim pixel far darker than the bright ones
    # is cloth showing in an empty cell or between cards, whose hue must not pass for the
    # lamp's (it would, wherever the camera clipped the paper in another channel).
    if read.any():
        top = quantile(logs[base, read], _BRIGHT_QUANTILE)
        dark = read & (logs[base] < top - _DARKER_THAN_PAPER)
        if np.count_nonzero(read & ~dark) >= 3:
            read &= ~dark
    # (2, K) per rim pixel read, each other channel to the base: planes, so that every step
    # runs along one row of memory (numpy is many times slower along a short axis of two)
    chosen = np.compress(read, logs, axis=1)  # (np.compress: numpy's fast path)
    ratio = chosen[others] - chosen[base]
    lost = np.compress(read, clipped[others], axis=1)
    # a channel clipped on most rims is known only as "at least": its median is kept
    censored = row_counts(lost) > _CENSORED_SHARE * lost.shape[1]
    # Clipped ratios are only lower bounds: they take no part in the mode. The mode starts
    # from the median with each clipped ratio at its bound: sorted last instead, a channel
    # clipped on nearly half the rims would start it at the top of the read ones, where
    # the few odd pixels are (a card's field beside the rim), and it would stay there.
    bounded = np.where(lost & ~censored[:, None], _STAND_IN, ratio)
    centre = median(ratio, axis=1)
    free = ~censored
    for window in _MODE_WINDOWS:
        near = np.abs(bounded - centre[:, None]) < window
        count = row_counts(near)
        # laid out pixel by pixel, the sums run one pixel after another, to the bit as ever
        moved = row_sums(np.asfortranarray(where(near, ratio, 0.0))) / np.maximum(count, 1)
        centre = np.where((count >= 3) & free, moved, centre).astype(np.float32)
    light = np.zeros(3)
    light[others] = centre
    out = np.zeros(3, bool)
    out[others] = censored
    return light, out


def _brightness(
    own: np.ndarray, seen: np.ndarray, censored: np.ndarray, light: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's brightness (its white is brightness + light) and whether its own white
    fits the light (a white rim) or not (a hand, an empty cell, glare on the rim)."""
    usable = seen & ~censored[None, :]
    offsets = own - light[None, :]
    count = usable.sum(axis=1)
    some = count > 0
    # the channels read, sorted, the others after them (a finite stand-in, never picked
    # where some channel was read, so that no inf - inf is ever taken)
    ordered = np.sort(np.where(usable, offsets, _UNREAD), axis=1)
    rows = np.arange(len(own))
    last = ordered[rows, np.maximum(count - 1, 0)]
    low_mid, high_mid = ordered[rows, np.maximum(count - 1, 0) // 2], ordered[rows, count // 2]
    brightness = np.where(
        some, 0.5 * (low_mid + np.where(count > 1, high_mid, low_mid)), np.max(_LOG_CLIP - light)
    )  # a white clipped all over is at least as bright as that
    # how far apart the channels put the brightness: a white fits the light in every one
    fit = np.where(count > 1, last - ordered[:, 0], 0.0)
    # a clipped channel must be one the light makes bright enough to clip; and where the
    # light is known only as "at least" (censored), a white is no darker than that
    expected = brightness[:, None] + light[None, :]
    low = np.maximum(
        np.where(~seen, _LOG_CLIP - expected, 0.0).max(axis=1),
        np.where(seen & censored[None, :], expected - own, 0.0).max(axis=1),
    )
    if censored.all():
        # rims clipped in every channel at once: a light near the camera's own balance, so
        # a white seen unclipped (in a shadow) is near grey; skin is not
        spread = np.where(seen, own, -np.inf).max(axis=1) - np.where(seen, own, np.inf).min(axis=1)
        low = np.maximum(low, np.where(seen.sum(axis=1) > 1, spread, 0.0))
    # with the light's colour unread, only a rim clipped somewhere is surely bright and white
    return brightness, (fit <= _MATCH) & (low <= _MATCH) & (some | ~seen.all(axis=1))


def _second_light(
    own: np.ndarray, seen: np.ndarray, light: np.ndarray, fits: np.ndarray
) -> np.ndarray:
    """(N,) the cells whose own white misses the scene's light as a second lamp would: a
    window's daylight over part of a table lit by a warm lamp. Such a white is cooler than
    the light, along the way from warm to cool (bluer more than it is less red), and more
    than one card shows it."""
    out = np.zeros(len(own), bool)
    candidates = ~fits & seen.all(axis=1)
    if np.count_nonzero(candidates) < 2:  # (nearly always: the tests below only drop more)
        return out
    if fits.any():
        # paper under a window, not cloth showing in an empty cell: as bright as paper
        level = own.mean(axis=1)
        candidates &= level >= median(level[fits]) - _DARKER_THAN_PAPER
    if candidates.sum() < 2:
        return out
    step = (own - light[None, :]) @ _OPPOSED.T  # (N, 2): red-green, green-blue
    rg, gb = step[:, 0], step[:, 1]
    # Only a cooler one: wood, skin and cream cloth all pass for paper under a warmer lamp.
    along = (gb < 0) & (-gb >= _LOCUS_SLOPE * np.abs(rg)) & (rg <= 0) & (-gb <= _MAX_SECOND)
    picked = np.flatnonzero(candidates & along)
    for i in picked:
        if (np.abs(step[picked] - step[i]).max(axis=1) <= _MATCH).sum() >= 2:
            out[i] = True
    return out


def _tint(colour: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """(N,) how far the colour stands apart, in hue, from the white of its cell (``scale``:
    exp(-white))."""
    r = np.log(np.asarray(colour, dtype=np.float64) * scale + FLOOR)  # reflectance()
    return np.asarray(np.hypot(*(r @ _CHROMA.T).T))
