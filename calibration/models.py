"""Class models: per class letter, a Gaussian over the features of :mod:`calibration.features`
(mean and spread of each feature, the spread shrunk towards a prior), and how far a cell is
from each class once the camera's clipping and noise are taken into account.

>>> m = fit_class("Y", np.zeros((3, len(FEATURES))))
>>> m, m.scale.round(2).tolist()[:3]
(<ClassModel 'Y' from 3 samples>, [0.2, 0.08, 0.08])
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ._stats import sum3
from .colour import FLOOR, OPPONENT, OPPONENT_INV, apart, distance, encode, frame_distance
from .features import COLOUR, FEATURES, LIGHT

EMPTY = "."

PRIOR_SCALE = np.array([0.25, 0.10, 0.10, 0.2, 0.2, 0.40, 0.20, 0.12, 0.1, 0.3, 0.05, 0.05, 0.05])
"""Typical spread of each feature within one class in one scene: the spread a class gets
before it has samples, and the floor its learned spread shrinks towards."""

_PRIOR_WEIGHT = 4.0  # the prior spread counts as this many samples
_MIN_SCALE = 0.5  # learned spreads never fall below half the prior
FRAME = FEATURES.index("frame")
MIXED = FEATURES.index("mixed")
EDGES = FEATURES.index("edges")
STRANGER_ONLY = [MIXED, EDGES]
"""Features that tell a card from a stranger half over it, never one class from another."""
LIGHT_COST = LIGHT.start
"""Where a palette that compares its cards as light (:func:`light_cost`) puts that cost: the
weight of this feature is 1 in such a palette, 0 in any other; the other light features
never count on their own."""
_FRAME_WEIGHT = 0.5
_FRAME_SCALE = 0.3  # how far a card's frame may fall short of the one foreseen
_PALE_BODY = 0.35  # a body this close to white (u, v) is paper with art on it
_INKED = 0.3  # ... if its ink is this far towards a hue (squashed hue_u, hue_v)
_EDGES_SHOWN = 0.15  # white paper a whole card shows at least, on its least white side
_EDGES_SCALE = 0.05  # ... give or take
_MIN_WEIGHT = 0.05  # no feature is ignored outright: a hand may differ only there
_OPP_SQUARED = OPPONENT**2  # variances of log R, G, B -> of I, u, v (channels independent)


@dataclass(frozen=True, eq=False)
class ClassModel:
    """One class: mean and spread of each feature, from ``samples`` cells."""

    letter: str
    mean: np.ndarray
    scale: np.ndarray
    samples: int
    shaded: bool = False
    """Art on a white card whose colour runs from faint to full (SET's open, striped and
    solid symbols): the body's colour may lie anywhere on the way from white to the ink's
    hue, so only its hue counts, never how deep or bright it is."""
    at_least: tuple[bool, bool, bool] = (False, False, False)
    """Channels of its colour as light (R, G, B) the camera clipped on most of the cards it
    was learned from: there the class is only "at least this bright". A cell clipped in the
    same channel then misfits only where it is brighter than the class could be (a yellow
    calibrated under a bright lamp, red and green at 255, still fits a yellow clipped at 255
    under a brighter one)."""

    def __repr__(self) -> str:
        return f"<ClassModel {self.letter!r} from {self.samples} samples>"


def fit_class(
    letter: str, features: np.ndarray, width: float = 1.0, prior: np.ndarray | None = None
) -> ClassModel:
    """A class model from its samples' features (N, F).

    Its spreads are shrunk towards ``prior`` (default: PRIOR_SCALE times ``width``), so a
    class seen in two cells is not taken to be exactly as those two cells looked.
    """
    x = np.atleast_2d(np.asarray(features, dtype=np.float64))
    n = len(x)
    if n == 0:
        raise ValueError(f"class {letter!r} has no samples")
    base = width * PRIOR_SCALE if prior is None else prior
    mean = x.mean(axis=0)
    scatter = ((x - mean) ** 2).sum(axis=0)
    var = (scatter + _PRIOR_WEIGHT * base**2) / (n - 1 + _PRIOR_WEIGHT)
    scale = np.maximum(np.sqrt(var), _MIN_SCALE * width * PRIOR_SCALE)
    return ClassModel(letter, mean, scale, n)


def shading(x: np.ndarray) -> tuple[bool, bool]:
    """Of a class's samples (N, F): whether some is coloured art on white paper (a body
    nearly white, its ink of a hue), and whether some is deep in colour all over."""
    body = np.hypot(x[:, 1], x[:, 2])
    pale = (body < _PALE_BODY) & (np.hypot(x[:, 3], x[:, 4]) > _INKED)
    return bool(pale.any()), bool((body > 2 * _PALE_BODY).any())


def with_shading(models: Sequence[ClassModel], samples: Sequence[np.ndarray]) -> list[ClassModel]:
    """The models, marked shaded where the deck shows shading: some class of it was seen both
    faint and deep (SET's open and solid symbols). A deck of flat cards never is, so a white
    card with a little art (a pearl) keeps its own colour there."""
    seen = [shading(x) if m.letter != EMPTY else (False, False)
            for m, x in zip(models, samples, strict=True)]
    deck = any(pale and deep for pale, deep in seen)
    return [replace(m, shaded=deck and pale) for m, (pale, _) in zip(models, seen, strict=True)]


def pooled_scale(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Within-class spread of each feature, pooled over all classes and shrunk to the prior.

    What varies inside every class (the shading of symbols, the light across the table)
    varies inside a class seen only twice too: its prior spread is this pooled one.
    """
    scatter = np.zeros(x.shape[1])
    dof = 0
    for ch in set(y.tolist()):
        xs = x[y == ch]
        scatter += ((xs - xs.mean(axis=0)) ** 2).sum(axis=0)
        dof += len(xs) - 1
    var = (scatter + _PRIOR_WEIGHT * PRIOR_SCALE**2) / (dof + _PRIOR_WEIGHT)
    return np.maximum(np.sqrt(var), PRIOR_SCALE)


def feature_weights(models: Sequence[ClassModel], pooled: np.ndarray) -> np.ndarray:
    """How much each feature counts, in (0, 1]: how far apart the classes lie in it, beyond
    what chance gives classes seen in so few cells (an analysis of variance).

    Features that vary as much within a class as between classes (the shading of a SET
    card's symbols, where a card lies in its cell) count little; those that tell the
    classes apart count fully.
    """
    cards = [m for m in models if m.letter != EMPTY]
    if len(cards) < 2:
        return np.ones(len(FEATURES))
    sizes = np.array([max(m.samples, 1) for m in cards], dtype=np.float64)
    means = np.stack([m.mean for m in cards])
    centre = sizes @ means / sizes.sum()
    between = sizes @ (means - centre) ** 2 / (len(cards) - 1)
    signal = np.maximum(between / pooled**2 - 1.0, 0.0) / sizes.mean()
    weights = np.maximum(signal / (signal + 1.0), _MIN_WEIGHT)
    # Where a card lies in its cell changes its rim more than its class does: the frame
    # only tells cards from what is no card (a hand), never one class from another.
    weights[FRAME] = _FRAME_WEIGHT
    weights[STRANGER_ONLY] = 0.0
    weights[LIGHT] = 0.0  # they count only through light_cost, where a palette uses it
    return weights


def max_distance_for(weights: np.ndarray) -> float:
    """The squared distance beyond which a cell is out of distribution: far in the tail of
    a chi-square with as many degrees of freedom as the weights add up to."""
    dof = max(float(weights.sum()), 3.0)
    return float(dof + 3.0 * np.sqrt(2.0 * dof) + 4.0)


@dataclass(frozen=True)
class Cells:
    """What a palette compares with its classes: the cells' features (N, F), their colour as
    log reflectance per camera channel (N, 3) with the highest value each channel could
    show unclipped (N, 3), the variance of each feature that the camera's noise and the
    guess of the light add (N, F); and, to foresee how each class would stand out from the
    table around it, each cell's rim colour (N, 3 linear RGB) and white (N, 3 log RGB; as
    light, a share of full scale: ``white``).

    Cells read under several lights at once carry one more axis in front of each array that
    the light changes (x, rgb, cap, var, ref, white: (B, N, ...)); :meth:`at` picks one."""

    x: np.ndarray
    rgb: np.ndarray
    cap: np.ndarray
    var: np.ndarray
    rim: np.ndarray
    ref: np.ndarray
    shade: np.ndarray  # (N,) variance of each cell's brightness below its white's
    lift: np.ndarray  # (N,) ... and above it (a white clipped all over is a lower bound)
    white: np.ndarray  # (N, 3) decode(exp(ref) / 255): the white as light

    def __len__(self) -> int:
        return int(self.x.shape[-2])

    def at(self, b: int) -> Cells:
        """The cells under the ``b``-th of the lights they were read under."""
        return Cells(self.x[b], self.rgb[b], self.cap[b], self.var[b], self.rim, self.ref[b],
                     self.shade, self.lift, self.white[b])


def extra_variance(noise_rgb: np.ndarray, hue: np.ndarray) -> np.ndarray:
    """(N, F) variance added to each feature by camera noise on the colour (N, 3 per log
    channel) and by doubt about the hue of the light on each cell (N, 2: u, v)."""
    var = np.zeros(noise_rgb.shape[:-1] + (len(FEATURES),))
    var[..., COLOUR] = noise_rgb @ _OPP_SQUARED.T
    var[..., 1:3] += hue
    return var


@dataclass(frozen=True, eq=False)
class Comparison:
    """How cells compare with classes: per cell, class and feature the squared distance in
    spreads (N, K, F) and the variance it was measured in (N, K, F: ``var``, worked out
    when first asked for; ``variances`` is it or what works it out); and the price each
    class paid for the brightness it assumed on each cell (N, K; see :func:`compare`)."""

    z2: np.ndarray
    variances: np.ndarray | Callable[[], np.ndarray]
    shade: np.ndarray
    known: tuple[np.ndarray, np.ndarray] | None = None  # weights and the distances they give

    @functools.cached_property
    def var(self) -> np.ndarray:
        # only the light finally read needs them, not every light tried
        v = self.variances
        return v() if callable(v) else v

    def distances(self, weights: np.ndarray) -> np.ndarray:
        """(N, K) weighted squared distances (a copy of those :meth:`knowing` said)."""
        if self.known is not None and self.known[0] is weights:
            return self.known[1].copy()
        return np.asarray(self.z2 @ weights + weights[0] * self.shade)

    def knowing(self, weights: np.ndarray, distances: np.ndarray) -> Comparison:
        """This comparison, its :meth:`distances` by these very ``weights`` already worked
        out (a palette asks for them again of the light it moves on from)."""
        return Comparison(self.z2, self.variances, self.shade, (weights, distances))

    def log_norms(self, weights: np.ndarray) -> np.ndarray:
        """(N, K) half the weighted log variances: the normaliser of each likelihood."""
        return np.asarray(0.5 * (np.log(self.var) @ weights))

    def joined(self, other: Comparison) -> Comparison:
        """These classes and then ``other``'s, for the same cells."""
        z2, var, shade = (np.concatenate([a, b], axis=1) for a, b in
                          ((self.z2, other.z2), (self.var, other.var), (self.shade, other.shade)))
        return Comparison(z2, var, shade)

    def only(self, keep: np.ndarray) -> Comparison:
        if keep.all():
            return self
        return Comparison(self.z2[:, keep], self.var[:, keep], self.shade[:, keep])

    def at(self, b: int) -> Comparison:
        """Of cells read under several lights at once (see :class:`Cells`): under the
        ``b``-th."""
        v = self.variances
        var = v.at(b) if isinstance(v, _FlatVariances) else self.var[b]
        known = None if self.known is None else (self.known[0], self.known[1][b])
        return Comparison(self.z2[b], var, self.shade[b], known)


@dataclass(frozen=True, eq=False)
class Classes:
    """Classes as :func:`compare` holds cells against them, worked out once: a palette holds
    every frame's cells against the same classes."""

    means: np.ndarray  # (K, F)
    scales: np.ndarray  # (K, F)
    cards: np.ndarray  # (K,) bool: which are cards, not the bare table
    shaded: np.ndarray | None  # (K,) bool
    rgb: np.ndarray  # (K, 3) each class's colour as log reflectance per channel
    linear: np.ndarray  # (K, 3) ... as a share of its white
    var: np.ndarray  # (K, F) scales**2
    edges: np.ndarray  # (K,) the white paper a card of the class shows at least
    every: bool  # all of them are cards (numpy.where on cards spared) ...
    some: bool  # ... or some are
    as_light: bool = False  # the cards' colours compared by light_cost ...
    light_spread: np.ndarray | None = None  # (K,) ... with this spread of their brightness
    fit: _LightFit | None = None  # ... by these sums (every one a card, none shaded)
    frame_var: np.ndarray | None = None  # (K,) the frame's variance in a flat comparison
    steady_var: np.ndarray | None = None  # (K, 4) ... texture's, ink's, mixed's, edges'
    unveil: np.ndarray | None = None  # (K,) the white light each class's colour may hold
    at_least: np.ndarray | None = None  # (K, 3) channels of each class's colour only a bound

    @property
    def flat(self) -> bool:
        """Every class a card, compared as light: what :func:`steady_of` and the short way of
        :func:`compare_classes` are for."""
        return self.fit is not None


def classes(
    means: np.ndarray, scales: np.ndarray, cards: np.ndarray, shaded: np.ndarray | None = None,
    as_light: bool = False, unveil: np.ndarray | None = None,
    at_least: np.ndarray | None = None,
) -> Classes:
    """:class:`Classes` of these (see :func:`compare`); ``as_light``: the cards' colours are
    compared by :func:`light_cost`, each class holding ``unveil`` (K,) white light
    (:func:`veil_held`), ``at_least`` (K, 3) channels of theirs only a lower bound
    (:attr:`ClassModel.at_least`)."""
    rgb = means[:, COLOUR] @ OPPONENT_INV.T
    var = scales**2
    every = bool(cards.all())
    flat = as_light and every and (shaded is None or not shaded.any())
    unveil = np.where(cards, unveil, 0.0) if as_light and unveil is not None else None
    at_least = None if at_least is None or not np.any(at_least) else np.asarray(at_least, bool)
    fit, frame_var, steady_var = (_flat(means, var, unveil, at_least) if flat
                                  else (None, None, None))
    return Classes(means, scales, cards, shaded, rgb, np.exp(rgb) - FLOOR, var,
                   np.minimum(means[:, EDGES], _EDGES_SHOWN), every, bool(cards.any()),
                   as_light, _brightness_seen(means, scales) if as_light else None,
                   fit, frame_var, steady_var, unveil, at_least)


def veil_held(colours: np.ndarray, samples: np.ndarray, nominal: np.ndarray) -> np.ndarray:
    """(K,) how much white light (a share of the white, as :func:`light_cost`'s veil) each
    class's colour as light ``colours`` (K, 3) holds from the card it was learned from: a
    lamp's reflection washes a card out all over, and a class learned from that one card
    holds it, so its cards seen without the glare are that much less veiled than it. The
    white light is what the colour holds beyond its gem's colour in the deck (``nominal``,
    K x 3 as light against pure white, NaN for a letter no gem of the deck): the veil of the
    fit of one to the other (a brightness near 1 and white light, as :func:`light_cost`
    fits a card), at most the colour's darkest channel. A class learned from several cards
    (``samples``, K) holds a glare on one of them only in part, and letting all its cards
    be darker than it reaches towards darker classes (an orange towards red): none. Nor
    does a near-white class hold one (a pearl: its colour is its gem's, brighter or not).

    >>> violet = [0.223, 0.045, 0.402]  # the deck's, as light
    >>> washed = [0.31, 0.19, 0.49]  # one card learned under a glare
    >>> veil_held(np.array([washed, washed, violet]), np.array([1, 3, 1]),
    ...           np.array([violet] * 3)).round(2).tolist()
    [0.11, 0.0, 0.0]
    """
    x = np.asarray(colours, dtype=np.float64)
    n = np.asarray(nominal, dtype=np.float64)
    known = (np.asarray(samples) == 1) & np.isfinite(n).all(axis=1)
    n = np.where(known[:, None], n, 0.0)
    # each class's colour fitted to its own gem's (the diagonal of all against all)
    ps = np.array([[1.0 / LIGHT_BRIGHTNESS**2]])
    veil = np.diagonal(_LightFit.of(n).fit(x, np.zeros(x.shape, bool), ps)[1])
    darkest = np.maximum(x.min(axis=1), 0.0)
    return np.asarray(np.where(known, np.clip(veil, 0.0, darkest), 0.0))


def white_light(seen: np.ndarray, low: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """(N,) the white light (a share of the white) that cards' colours ``seen`` (N, 3, as
    light; ``low``: channels the camera clipped, left out) hold beyond ``colour`` (3,), as
    :func:`light_cost` fits a card to a class: a brightness near 1 times the colour, plus
    white light (of either sign here).

    >>> red = np.array([0.6, 0.04, 0.05])
    >>> seen = np.array([red, 0.95 * red + 0.2, red + 0.01])
    >>> (white_light(seen, np.zeros((3, 3), bool), red).round(2) + 0.0).tolist()  # no -0.0
    [0.0, 0.19, 0.01]
    """
    ps = np.array([[1.0 / LIGHT_BRIGHTNESS**2]])
    fit = _LightFit.of(np.asarray(colour, dtype=np.float64)[None])
    return np.asarray(fit.fit(np.asarray(seen, np.float64), np.asarray(low, bool), ps)[1][:, 0])


def _flat(means: np.ndarray, var: np.ndarray, unveil: np.ndarray | None = None,
          at_least: np.ndarray | None = None) -> tuple[_LightFit, np.ndarray, np.ndarray]:
    """What flat classes hold for :func:`compare_classes`' short way: the light fit, the
    frame's variance, and the variances of what no light changes."""
    return (_LightFit.of(means[:, LIGHT], unveil, at_least),
            np.maximum(var[:, FRAME], _FRAME_SCALE**2),
            np.column_stack([var[:, 5:8], np.full(len(var), _EDGES_SCALE**2)]))


def _brightness_seen(means: np.ndarray, scales: np.ndarray) -> np.ndarray:
    """(K,) how far each class's brightness varied when it was learned (its whites clipped
    show it at several): the spread of its brightest channel, as a share of it."""
    colours, spreads = means[:, LIGHT], scales[:, LIGHT]
    top = colours.argmax(axis=1)
    rows = np.arange(len(colours))
    return np.asarray(spreads[rows, top] / np.maximum(colours[rows, top], _DARK))


def compare(
    cells: Cells, means: np.ndarray, scales: np.ndarray, cards: np.ndarray,
    shaded: np.ndarray | None = None,
) -> Comparison:
    """Compare cells with classes (``means``, ``scales``: K, F; ``cards`` (K,) bool: which are
    cards, not the bare table; ``shaded`` (K,) bool: see :attr:`ClassModel.shaded`).

    A channel the camera clipped in the cell, or that the class would clip under this
    light, is compared only up to the clipping level: a clipped yellow says "at least this
    bright", not "exactly white".
    """
    return compare_classes(cells, classes(means, scales, cards, shaded))


def compare_classes(cells: Cells, k: Classes, steady: Steady | None = None) -> Comparison:
    """:func:`compare` with classes worked out beforehand (and, for :attr:`Classes.flat`
    ones, what no light changes: :func:`steady_of`, worked out once per scene)."""
    if k.flat:
        return _compare_flat(cells, k, _steady(cells, k) if steady is None else steady)
    cards, every, some = k.cards, k.every, k.some
    x = cells.x[..., None, :]
    diff = x - k.means
    lean, shade = _leaning(cells, k)
    delta = lean * shade / (shade + k.var[:, 0])
    cap = cells.cap[..., None, :]
    expected = np.minimum(k.rgb + delta[..., None], cap)
    diff[..., COLOUR] = (np.minimum(cells.rgb[..., None, :], cap) - expected) @ OPPONENT.T
    paid = delta**2 / np.maximum(shade, 1e-9)
    if k.shaded is not None and k.shaded.any():
        _on_the_way(diff, paid, cells.x, k.means, k.shaded)
    # A card of a class stands out from the table around it as that class's colour differs
    # from the table's; standing out more (a card lying a little off its place shows more
    # table) is no sign of a stranger, standing out less is (a hand covers rim and card
    # alike). The bare table stands out from nothing, and more counts against it.
    if some:
        framed = x[..., FRAME] - _foreseen(cells, k)
        diff[..., FRAME] = framed if every else np.where(cards, framed, diff[..., FRAME])
    # A card shows some white paper on each side, whatever the table: less than a little
    # (not less than its class showed, which depends on the cloth) is a hand over it.
    diff[..., EDGES] = x[..., EDGES] - k.edges
    var = _variances(cells, k)
    z2 = diff**2 / var
    # Only falling short counts: standing out from the table less than a card would, more
    # than one colour all over (a card half under a sleeve), less of a white rim showing
    # (a hand over it). An empty cell shows its neighbours' rims: no matter there.
    if some:
        z2[..., FRAME] = np.where((diff[..., FRAME] > 0) & cards, 0.0, z2[..., FRAME])
    z2[..., MIXED] = np.where(diff[..., MIXED] < 0, 0.0, z2[..., MIXED])
    z2[..., EDGES] = np.where((diff[..., EDGES] > 0) | ~cards, 0.0, z2[..., EDGES])
    var[..., 0] += shade
    z2[..., LIGHT] = 0.0
    if k.as_light and some:
        _as_light(z2, var, paid, cells, k)
    return Comparison(z2, var, paid)


def _leaning(cells: Cells, k: Classes) -> tuple[np.ndarray, np.ndarray]:
    """(N, K) the brightness each class would take on each cell (log, as its white says it),
    and how much that may differ (its variance: a shade, or a lift)."""
    # The light on a cell may be dimmer or brighter than its white says (a shadow over a
    # cell with no white of its own): each class gets the brightness that suits it best,
    # as far as the cell's doubt allows, and pays for it. Clipped channels say nothing here.
    rgb, cap = cells.rgb[..., None, :], cells.cap[..., None, :]
    free = (rgb < cap - 1e-6) & (k.rgb < cap)
    count = free.sum(axis=-1)
    lean = sum3(np.where(free, rgb - k.rgb, 0.0)) / np.maximum(count, 1)
    return lean, np.where(lean > 0, cells.lift[:, None], cells.shade[:, None])


def _variances(cells: Cells, k: Classes) -> np.ndarray:
    """(N, K, F) the variance each feature is measured in, but for the brightness doubt."""
    var = k.var + cells.var[..., None, :]
    if k.some:
        least = np.maximum(var[..., FRAME], _FRAME_SCALE**2)
        var[..., FRAME] = least if k.every else np.where(k.cards, least, var[..., FRAME])
    var[..., EDGES] = _EDGES_SCALE**2
    return var


def _foreseen(cells: Cells, k: Classes) -> np.ndarray:
    """(N, K) how far a card of each class would stand out from the table round each cell."""
    if k.as_light:
        return distance(_apart_as_light(cells.rim, k.means[:, LIGHT], cells.white))
    body = k.linear * np.exp(cells.ref)[..., None, :]
    return frame_distance(cells.rim[:, None, :], np.minimum(np.maximum(body, 0.0), 255.0))


def _apart_as_light(rim: np.ndarray, colours: np.ndarray, white: np.ndarray) -> np.ndarray:
    """(..., N, K, 3) :func:`calibration.colour.apart` of each cell's rim (N, 3) and a card of
    each class (``colours`` as light, K, 3) in the cell's white (as light, (..., N, 3)), as
    the camera shows it. Under several lights at once, a channel of a cell's white that no
    light changes (most: only clipped ones are guessed) is worked out once; the camera's
    curve is costly."""

    def seen(rim: np.ndarray, colours: np.ndarray, white: np.ndarray) -> np.ndarray:
        body = 255.0 * encode(colours * white)
        return apart(rim, np.minimum(np.maximum(body, 0.0), 255.0))

    if white.ndim < 3 or len(white) < 2:
        return seen(rim[:, None, :], colours, white[..., None, :])
    moves = (white != white[0]).any(axis=0)  # (N, 3)
    out = np.empty(white.shape[:-1] + colours.shape)
    out[:] = seen(rim[:, None, :], colours, white[0][:, None, :])
    n, c = np.nonzero(moves)
    # indexed so, the channels that move come first: (moving, lights, classes)
    out[:, n, :, c] = seen(rim[n, c][:, None, None], colours[:, c].T[:, None, :],
                           white[:, n, c].T[:, :, None])
    return out


@dataclass(frozen=True, eq=False)
class Steady:
    """What of a scene's comparison with flat classes no light changes (texture, ink share,
    mixed, edges: N, K, 4) and the prior on each class's brightness on each cell (N, K):
    a palette tries many lights on one scene."""

    z2: np.ndarray
    ps: np.ndarray


def _steady(cells: Cells, k: Classes) -> Steady:
    """:class:`Steady` of these cells (their first light, if several) and flat classes."""
    x = cells.x.reshape(-1, *cells.x.shape[-2:])[0]
    return steady_of(x[:, 5:9], cells.shade, cells.lift, k)


def steady_of(fixed: np.ndarray, shade: np.ndarray, lift: np.ndarray, k: Classes) -> Steady:
    """:class:`Steady` of cells' features that no light changes (``fixed``: texture, ink,
    mixed, edges, N, 4) and doubt about their brightness (``shade``, ``lift``: N)."""
    assert k.light_spread is not None and k.steady_var is not None  # flat classes
    d = np.empty((len(fixed), len(k.means), 4))
    d[..., 0:3] = fixed[:, None, 0:3] - k.means[:, 5:8]
    d[..., 3] = fixed[:, None, 3] - k.edges
    z2 = d**2 / k.steady_var
    z2[..., 2] = np.where(d[..., 2] < 0, 0.0, z2[..., 2])  # more than one colour: only more
    z2[..., 3] = np.where(d[..., 3] > 0, 0.0, z2[..., 3])  # less white paper: only less
    doubt = np.sqrt(np.maximum(shade, lift))
    cell = np.maximum(LIGHT_BRIGHTNESS, _LIGHT_PER_LOG * doubt)[:, None]
    brightness = np.sqrt(cell**2 + k.light_spread[None, :] ** 2)
    return Steady(z2, 1.0 / np.atleast_2d(brightness) ** 2)


def unveiled(comparison: Comparison, cells: Cells, k: Classes, steady: Steady | None
             ) -> Comparison:
    """:func:`compare_classes` of ``cells`` with classes ``k``, where ``comparison`` compared
    them with classes that differ from ``k`` only in the veil their colours hold (flat ones:
    only the light cost differs, the rest is taken over; else compared anew)."""
    if not k.flat or steady is None:
        return compare_classes(cells, k, steady)
    assert k.fit is not None
    z2 = comparison.z2.copy()
    z2[..., LIGHT_COST] = k.fit.cost(cells.x[..., LIGHT], cells.rgb >= cells.cap - 1e-6, steady.ps)
    return Comparison(z2, _FlatVariances(cells, k), comparison.shade)


def _compare_flat(cells: Cells, k: Classes, fixed: Steady) -> Comparison:
    """:func:`compare_classes` of flat classes (every one a card, compared as light): what
    the long way works out and then sets to 0, left out."""
    fit = k.fit
    assert fit is not None and k.frame_var is not None
    x = cells.x[..., None, :]
    z2 = np.zeros(cells.x.shape[:-1] + k.means.shape)  # 0 in COLOUR and LIGHT
    for f in range(HUE.start, HUE.stop):  # one plane at a time: numpy is slow along short axes
        hue = cells.x[..., f, None] - k.means[:, f]
        z2[..., f] = hue**2 / k.var[:, f] * _INK_REPEATS
    z2[..., 5:9] = fixed.z2
    z2[..., FRAME] = _falls_short(x[..., FRAME] - _foreseen(cells, k), k.frame_var)
    z2[..., LIGHT_COST] = fit.cost(cells.x[..., LIGHT], cells.rgb >= cells.cap - 1e-6, fixed.ps)
    return Comparison(z2, _FlatVariances(cells, k), np.zeros(z2.shape[:-1]))


def sheened(comparison: Comparison, cells: Cells, k: Classes) -> Comparison | None:
    """``comparison`` of ``cells`` with flat classes ``k`` as it would be if the white light
    each class's light fit takes on each cell were a lamp's sheen on the card: the glossy
    card catches it, the matte cloth round it does not, so a card of the class is foreseen
    to stand out from the table as its colour under that much white light (against its
    colour alone, a sheened card stands out less, as a hand over it would). None for
    classes that are not flat (no light fit, no white light)."""
    if not k.flat or k.fit is None or k.frame_var is None:
        return None
    low = cells.rgb >= cells.cap - 1e-6
    veil = np.maximum(k.fit.fit(cells.x[..., LIGHT], low, _steady(cells, k).ps)[1], 0.0)
    sheened_colours = k.means[:, LIGHT] + veil[..., None]  # (N, K, 3)
    foreseen = distance(_apart_as_light(cells.rim, sheened_colours, cells.white))
    z2 = comparison.z2.copy()
    z2[..., FRAME] = _falls_short(cells.x[..., None, FRAME] - foreseen, k.frame_var)
    return Comparison(z2, comparison.var, comparison.shade)


def _falls_short(framed: np.ndarray, frame_var: np.ndarray) -> np.ndarray:
    """The frame feature's z2 of cells standing out from the table ``framed`` more (+) or
    less (-) than a card of each class would: only standing out less counts."""
    return np.asarray(np.where(framed > 0, 0.0, framed**2 / frame_var))


@dataclass(frozen=True, eq=False)
class _FlatVariances:
    """The variances of a comparison with flat classes, worked out when asked for."""

    cells: Cells
    k: Classes

    def __call__(self) -> np.ndarray:
        var = _variances(self.cells, self.k)
        var[..., 0] += _leaning(self.cells, self.k)[1]
        var[..., LIGHT] = 1.0
        return var

    def at(self, b: int) -> _FlatVariances:
        return _FlatVariances(self.cells.at(b), self.k)


# A flat card's colour as light against its own white is its class's colour times a
# brightness near 1 (its white read a little off, a shade across the card), plus some white
# light (a veil over the picture, the sheen of a glossy card), plus what differs from card
# to card in every channel alike (print, art, JPEG): a few hundredths of the white. In log
# terms that last is a small change to a bright channel and a huge one to a dark channel
# (the blue of an orange card), so there the log of a dark channel said more than it knew.
LIGHT_NOISE = 0.05  # card to card, per channel, as a share of the white
LIGHT_BRIGHTNESS = 0.15  # spread of the brightness factor around 1
LIGHT_VEIL = 0.15  # spread of the white light over the card
_LIGHT_PER_LOG = 2.4  # light goes as the camera's value to this power: a log change in it
_DARK = 0.05  # a class no brighter than this in any channel has no brightness to speak of
_INK_REPEATS = 0.5  # what the ink's hue adds beside the light cost, on flat cards
HUE = slice(3, 5)  # hue_u, hue_v
# each of the 8 ways a cell's three channels can be clipped (bit c: channel c), as weights
_CLIPS = (np.arange(8)[:, None] >> np.arange(3)) & 1 == 1
_CLIP_BITS = np.array([1, 2, 4])
# A channel the camera clipped on a class's cards when it was learned hides how bright they
# are there: at least what was seen, and taken to be at most this much more (a print
# outshines the paper white beside it by little; with no ceiling an orange clipped in red
# passed for a yellow clipped in red seen at half the brightness).
_CLIPPED_HEADROOM = 1.35


def light_cost(
    seen: np.ndarray, colours: np.ndarray, low: np.ndarray | None = None,
    brightness: np.ndarray | float = LIGHT_BRIGHTNESS, unveil: np.ndarray | None = None,
    at_least: np.ndarray | None = None,
) -> np.ndarray:
    """(N, K) squared misfit of cells' colours ``seen`` (N, 3: light, a share of their
    white) to classes' ``colours`` (K, 3), under the brightness and white light that suit
    each class best, each paid for by its spread (``brightness``: the brightness factor's,
    for all, per cell (N, 1) or per cell and class (N, K)). Where ``low`` (the camera
    clipped the card) a channel is at least what is seen. White light only adds, but a
    class's colour may hold some (``unveil``, K: :func:`veil_held`): a card may be that
    much less veiled than its class. A channel clipped both in the cell and in the class
    when it was learned (``at_least``, K x 3) is "at least" on both sides: it misfits only
    where the cell is brighter than the class could be (``_CLIPPED_HEADROOM``).

    >>> orange, yellow = [0.9, 0.3, 0.02], [0.9, 0.8, 0.05]
    >>> light_cost(np.array([[0.8, 0.27, 0.03]]), np.array([orange, yellow])).round(1).tolist()
    [[0.5, 48.7]]
    """
    low = np.zeros(seen.shape, bool) if low is None else low
    ps = 1.0 / np.atleast_2d(np.asarray(brightness, dtype=np.float64)) ** 2  # (N|1, K|1)
    fit = _LightFit.of(np.asarray(colours, dtype=np.float64), unveil, at_least)
    return fit.cost(seen, low, ps)


@dataclass(frozen=True, eq=False)
class _LightFit:
    """:func:`light_cost` against one set of classes: the least squares of
    ``x = s * c + a + noise`` (s ~ 1, a ~ 0) for each cell and class, its sums over the
    classes' colours ``c`` worked out once for each way a cell can be clipped (a clipped
    channel is no part of the fit)."""

    c: np.ndarray  # (K, 3) the classes' colours as light
    planes: tuple[np.ndarray, np.ndarray, np.ndarray]  # ... each channel's (K,)
    weights: np.ndarray  # (8, 3) per way of clipping, each channel's weight in the fit
    cc: np.ndarray  # (8, K) sum of w c c
    c1: np.ndarray  # (8, K) sum of w c
    s11: np.ndarray  # (8,) sum of w, and the veil's prior
    least: np.ndarray | float  # (K,) the least veil of a card: minus what its class holds
    at_least: np.ndarray | None = None  # (K, 3) channels of the classes' colours only a bound

    @classmethod
    def of(cls, c: np.ndarray, unveil: np.ndarray | None = None,
           at_least: np.ndarray | None = None) -> _LightFit:
        """Of classes' colours as light (K, 3), holding ``unveil`` (K,) white light, their
        ``at_least`` (K, 3) channels only lower bounds."""
        planes = (c[:, 0].copy(), c[:, 1].copy(), c[:, 2].copy())
        least = 0.0 if unveil is None or not unveil.any() else -np.asarray(unveil, np.float64)
        w = np.where(_CLIPS, 0.0, 1.0) / LIGHT_NOISE**2
        bound = None if at_least is None or not np.any(at_least) else np.asarray(at_least, bool)
        return cls(c, planes, w, sum3(w[:, None, :] * c * c), sum3(w[:, None, :] * c),
                   sum3(w) + 1.0 / LIGHT_VEIL**2, least, bound)

    def fit(self, seen: np.ndarray, low: np.ndarray, ps: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(..., N, K) the brightness ``s`` and veil ``a`` that fit colours ``seen`` (..., N,
        3; ``low``: clipped) to each class best, whatever the veil's sign, ``ps`` (N, K, or
        one for all) the prior on each brightness; and the sums that fit ``s`` again to a
        veil ``a0`` given: ``(bxc - a0 * sc1) / scc``, as ``bxc, sc1, scc``."""
        clip = low @ _CLIP_BITS if low.any() else np.zeros(low.shape[:-1], int)
        # channel by channel, each (..., N, K): numpy is slow along an axis of three
        wx = self.weights[clip] * seen
        w0, w1, w2 = wx[..., 0, None], wx[..., 1, None], wx[..., 2, None]
        c0, c1, c2 = self.planes
        scc = self.cc[clip] + ps
        sc1 = self.c1[clip]
        s11 = self.s11[clip][..., None]
        bxc = (w0 * c0 + w1 * c1) + w2 * c2 + ps
        bx1 = (w0 + w1) + w2
        det = scc * s11 - sc1**2
        s = (bxc * s11 - bx1 * sc1) / det
        a = (scc * bx1 - sc1 * bxc) / det
        return s, a, bxc, sc1, scc

    def cost(self, seen: np.ndarray, low: np.ndarray, ps: np.ndarray) -> np.ndarray:
        """(..., N, K) the misfit of colours ``seen`` (..., N, 3; ``low``: clipped) to the
        classes, ``ps`` (N, K, or one for all) the prior on each brightness."""
        s, a, bxc, sc1, scc = self.fit(seen, low, ps)
        # white light only adds (beyond what the class holds): where the best veil would
        # take more away, fit with the least one
        least = self.least
        held = isinstance(least, np.ndarray)
        away = a < least
        refit = (bxc - least * sc1) / scc if held else bxc / scc
        cost = self._misfit(seen, low, ps, np.where(away, refit, s), np.where(away, least, a))
        if held and low.any():
            # The fit leaves a clipped channel out: a veil taken away may then foresee it
            # darker than the clip showed. With none taken away it may fit better.
            none = a < 0.0
            cost = np.minimum(cost, self._misfit(seen, low, ps, np.where(none, bxc / scc, s),
                                                 np.where(none, 0.0, a)))
        return cost

    def _misfit(self, seen: np.ndarray, low: np.ndarray, ps: np.ndarray, s: np.ndarray,
                a: np.ndarray) -> np.ndarray:
        """The misfit under brightness ``s`` and veil ``a``, each paid for by its prior."""
        misfit = np.zeros(())
        for ch, c in enumerate(self.planes):
            r = seen[..., ch, None] - (s * c + a)
            clipped = low[..., ch, None]
            if clipped.any():  # "at least what is seen": only a class foreseen darker misfits
                r = np.where(clipped, np.maximum(r, 0.0), r)
                if self.at_least is not None and self.at_least[:, ch].any():
                    # ... and the class "at least this" too: only a cell clipped above all
                    # the class could be misfits
                    room = np.maximum(s, 0.0) * c * (_CLIPPED_HEADROOM - 1.0)
                    above = np.maximum(r - room, 0.0)
                    r = np.where(clipped & self.at_least[:, ch], above, r)
            misfit = r * r if ch == 0 else misfit + r * r
        pa = 1.0 / LIGHT_VEIL**2
        return np.asarray(misfit / LIGHT_NOISE**2 + (s - 1.0) ** 2 * ps + a**2 * pa)


def _as_light(z2: np.ndarray, var: np.ndarray, paid: np.ndarray, cells: Cells, k: Classes) -> None:
    """The cards' colour terms (I, u, v and the brightness paid for) replaced by
    :func:`light_cost`, in the place of LIGHT_COST."""
    low = cells.rgb >= cells.cap - 1e-6
    # a cell whose white is guessed (a shadow may lie on it) or clipped: brightness open;
    # a class seen at several brightnesses when it was learned (its whites clipped): too
    doubt = np.sqrt(np.maximum(cells.shade, cells.lift))
    cell = np.maximum(LIGHT_BRIGHTNESS, _LIGHT_PER_LOG * doubt)[:, None]
    assert k.light_spread is not None  # worked out with as_light
    brightness = np.sqrt(cell**2 + k.light_spread[None, :] ** 2)
    cost = light_cost(cells.x[..., LIGHT], k.means[:, LIGHT], low, brightness, k.unveil,
                      k.at_least)
    cards = k.cards
    # their spreads stay: the odds against the bare table, held in I, u, v, keep their scale
    z2[..., cards, COLOUR] = 0.0
    var[..., cards, LIGHT] = 1.0
    z2[..., cards, LIGHT_COST] = cost[..., cards]
    # a flat card's ink is its field: its hue repeats what the light cost says of the body,
    # and evidence counted twice would make a close call look sure
    z2[..., cards, HUE] *= _INK_REPEATS
    paid[..., cards] = 0.0


def _on_the_way(
    diff: np.ndarray, paid: np.ndarray, x: np.ndarray, means: np.ndarray, shaded: np.ndarray
) -> None:
    """For shaded classes, keep of a cell's body colour only how far it lies off the way
    from white to the class's ink hue (where it lies on that side of white at all)."""
    hue = means[shaded][:, 3:5]
    way = hue / np.maximum(np.hypot(hue[:, 0], hue[:, 1]), 1e-9)[:, None]  # (S, 2)
    across = np.stack([-way[:, 1], way[:, 0]], axis=1)
    body = x[..., 1:3]
    along = body @ way.T  # (N, S)
    off = body @ across.T - (means[shaded][:, 1:3] * across).sum(axis=1)
    on_way = along > -_PALE_BODY
    k = np.flatnonzero(shaded)
    part = diff[..., k, :]
    part[..., 0] = np.where(on_way, 0.0, part[..., 0])
    part[..., 1] = np.where(on_way, off, part[..., 1])
    part[..., 2] = np.where(on_way, 0.0, part[..., 2])
    diff[..., k, :] = part
    paid[..., k] = np.where(on_way, 0.0, paid[..., k])
