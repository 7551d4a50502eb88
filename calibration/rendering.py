"""How the camera renders colours today, learned from the cards it reads sure in one scene.

A palette learns each class's colour once. A change of light after that (exposure, white
balance, a tint) moves every channel by its own factor: each card read against its own white,
or the light guessed per scene, takes it away. A change of the camera's colour *rendering*
does not: a flatter tone curve (a gamma) scales every card's log reflectance towards its
white, a duller colour matrix pulls every card towards its grey, and each class moves its own
way. Reds then lie between ruby and spinel, dull greens between emerald and the table.

Such a rendering is, in log reflectance per channel, nearly an affine map, the same for every
card of the scene (a gamma is exactly one: ``log x' = g log x``). The cards read sure in the
scene show it: each sits where the map puts its class's colour. :func:`learn` fits it from
them, robustly (a few cards read as a near class do not pull it), and only where they show
it well: enough cards, of enough classes, a map that can be undone and that stays within
what a camera does. :meth:`Rendering.undo` then puts any cell back in the palette's own
rendering, to be read again.

A contrastier or flatter tone curve of another shape (a phone's S: shadows darker, highlights
brighter) is no affine map in log reflectance: it bends camera values, and how far it moves a
card's colour against its white depends on how bright that white is in each channel. It is
one curve for every channel and every card (a camera curves R, G and B alike), which the
cards read sure show as well: :func:`learn_tone_curve` fits it, smooth and rising
(:func:`learn_rendering` asks for it first, then for a map).

>>> classes = np.array([[-0.1, -2.0, -2.0], [-0.2, -0.3, -2.1], [-2.0, -0.4, -0.3],
...                     [-0.5, -1.5, -0.2], [-1.9, -0.5, -1.8]])
>>> seen = 0.7 * classes[[0, 1, 2, 3, 4, 0, 1, 2, 3, 4]]
>>> r = learn(classes[[0, 1, 2, 3, 4, 0, 1, 2, 3, 4]], seen)
>>> r is not None and float(np.abs(r.undo(0.7 * classes) - classes).max()) < 0.02
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ._stats import median
from .colour import CLIPPED

MIN_CARDS = 8
"""Fewer cards read sure than this cannot show a rendering: chance would."""
MIN_CLASSES = 4
"""... nor cards of fewer classes than this: an affine map in three channels needs four
colours that do not lie on one plane to be pinned down."""
_GAIN = (1 / 3, 3.0)  # how far a camera's rendering stretches or shrinks colours, at most
_OFFSET = 1.0  # ... and moves them (log), at most: more is no rendering, a wrong reading
_NOTICE = 0.1  # a rendering moving no class's colour further than this (log) is no change
_OUTLIER = 3.0  # a card this many (robust) spreads off the map does not count
_MIN_SPREAD = 0.03  # the spread of cards about the map never counts as less (log)
_EVIDENT = 0.3  # a map foresees classes it was not shown this much better than a light, at least
_NO_CHANGE = np.vstack([np.eye(3), np.zeros((1, 3))])  # gain 1, offset 0: as calibrated
_NO_CHANGE_PULL = np.diag([1.0, 1.0, 1.0, 0.0])  # ... the gain pulled towards it, not the offset
_RIDGE = 0.01  # the map is pulled towards no change this much (a few classes, little pull)
LOG_FLOOR = 0.01
"""Added to a share of white before its log, where a rendering is learned (:func:`as_log`)."""


@dataclass(frozen=True, eq=False)
class Rendering:
    """The map from a palette's log reflectance to what the scene shows: ``seen = colour @
    gain.T + offset`` (log RGB per channel, ``gain`` (3, 3), ``offset`` (3,))."""

    gain: np.ndarray
    offset: np.ndarray

    def __repr__(self) -> str:
        return (f"Rendering(gain=np.array({np.round(self.gain, 3).tolist()}), "
                f"offset=np.array({np.round(self.offset, 3).tolist()}))")

    def undo(self, seen: np.ndarray) -> np.ndarray:
        """Colours seen (..., 3 log reflectance) as the palette's rendering would show them."""
        return np.asarray(np.linalg.solve(self.gain, (seen - self.offset).reshape(-1, 3).T).T
                          .reshape(seen.shape))

    def moves(self, colours: np.ndarray) -> float:
        """How far (log, largest channel) this rendering moves any of ``colours`` (K, 3)."""
        return float(np.abs(colours @ self.gain.T + self.offset - colours).max(initial=0.0))

    def put_back(self, colour: np.ndarray, white: np.ndarray) -> np.ndarray:
        """Colours seen (camera values, (N, 3)) as the palette's rendering would show them
        against the same whites (camera values, (N, 3))."""
        return np.maximum(np.exp(self.undo(as_log(colour / white))) - LOG_FLOOR, 0.0) * white


def learn(colours: np.ndarray, seen: np.ndarray, classes: np.ndarray | None = None
          ) -> Rendering | None:
    """The rendering that takes each card's class colour (``colours``, (M, 3) log
    reflectance) to where the scene shows it (``seen``, (M, 3)), or None where the cards
    cannot show one: fewer than MIN_CARDS, of fewer than MIN_CLASSES classes (``classes``:
    (M,) labels, default told by the colours), a map that cannot be undone or that
    stretches, shrinks or moves colours further than any camera's rendering does, or one that
    foresees the cards of a class it was not shown not much better than a change of light
    does (:func:`_predicts`). Cards far off the map (a card read as a near class) are left
    out."""
    learned = _learn(colours, seen, classes)
    return None if learned is None else learned[0]


def _learn(colours: np.ndarray, seen: np.ndarray, classes: np.ndarray | None
           ) -> tuple[Rendering, np.ndarray] | None:
    """:func:`learn`, and which cards lie on the map learned ((M,) bool)."""
    colours = np.asarray(colours, float)
    seen = np.asarray(seen, float)
    if classes is None:
        labels = np.unique(colours, axis=0, return_inverse=True)[1].reshape(-1)
    else:
        labels = np.asarray(classes).reshape(-1)
    keep = np.ones(len(colours), bool)
    for _ in range(2):
        if keep.sum() < MIN_CARDS or len(set(labels[keep].tolist())) < MIN_CLASSES:
            return None
        fit = _fit(colours[keep], seen[keep])
        off = np.abs(colours @ fit.gain.T + fit.offset - seen).max(axis=1)
        # the cards it was shown, at least, far better placed than by a change of light
        # (a scene rendered as calibrated stops here, at the cost of one small fit)
        if _off(fit, colours[keep], seen[keep]) > _EVIDENT * _off(
                _light(colours[keep], seen[keep]), colours[keep], seen[keep]):
            return None
        spread = max(1.4826 * float(median(off[keep])), _MIN_SPREAD)
        inside = off <= _OUTLIER * spread
        if (inside == keep).all():
            break
        keep = inside
    if not _bounded(fit):
        return None
    return (fit, inside) if _predicts(colours[keep], seen[keep], labels[keep]) else None


def worth_undoing(rendering: Rendering | ToneCurve | None, colours: np.ndarray) -> bool:
    """Whether a rendering learned moves some class's colour (``colours``, (K, 3)) enough
    to read a cell otherwise: a scene rendered as calibrated shows one near no change."""
    return rendering is not None and rendering.moves(colours) > _NOTICE


def _predicts(colours: np.ndarray, seen: np.ndarray, labels: np.ndarray) -> bool:
    """Whether a map learned without each class puts that class's cards where the scene
    shows them far better (``_EVIDENT``, all classes together) than a change of light
    learned without it does (one offset for every card). A camera's rendering is one map
    for every class: it must foresee a class it was not shown, as it will have to for the
    cells read again. A map that only fits the cards' scatter (a scene rendered as
    calibrated) or bends to a few cards read as a near class foresees none."""
    return _foresees(
        labels,
        lambda shown, hidden: _off(_fit(colours[shown], seen[shown]), colours[hidden],
                                   seen[hidden]),
        lambda shown, hidden: _off(_light(colours[shown], seen[shown]), colours[hidden],
                                   seen[hidden]),
    )


def _foresees(labels: np.ndarray, by_map: Callable[[np.ndarray, np.ndarray], float],
              by_light: Callable[[np.ndarray, np.ndarray], float]) -> bool:
    """:func:`_predicts` for any kind of map: ``by_map(shown, hidden)`` and
    ``by_light(shown, hidden)`` (cards as (M,) bool) say how far the map and the change of
    light learned from the cards shown place the hidden ones."""
    off_map = off_light = 0.0
    for label in set(labels.tolist()):
        out = labels == label
        off_map += by_map(~out, out)
        off_light += by_light(~out, out)
    return off_map <= _EVIDENT * off_light


def _off(rendering: Rendering, colours: np.ndarray, seen: np.ndarray) -> float:
    """How far (log, the median card) ``rendering`` places the cards from where seen."""
    return _typical(colours @ rendering.gain.T + rendering.offset - seen)


def _light(colours: np.ndarray, seen: np.ndarray) -> Rendering:
    """A change of light: one offset for every card (their median)."""
    return Rendering(np.eye(3), median(seen - colours, axis=0))


def _fit(colours: np.ndarray, seen: np.ndarray) -> Rendering:
    """Least squares, each channel of ``seen`` from the three of ``colours`` and a constant,
    pulled a little towards no change (which also keeps it solvable: the sums it solves are
    positive definite for any cards)."""
    design = np.column_stack([colours, np.ones(len(colours))])
    pull = _RIDGE * len(colours) * _NO_CHANGE_PULL
    coef = np.linalg.solve(design.T @ design + pull, design.T @ seen + pull @ _NO_CHANGE)
    return Rendering(coef[:3].T.copy(), coef[3].copy())


def _bounded(r: Rendering) -> bool:
    """A camera's rendering: undone without blowing up, within _GAIN and _OFFSET."""
    s = np.linalg.svd(r.gain, compute_uv=False)
    return bool(s.min() >= _GAIN[0] and s.max() <= _GAIN[1]
                and np.abs(r.offset).max() <= _OFFSET and np.linalg.det(r.gain) > 0)


def as_log(share: np.ndarray) -> np.ndarray:
    """Log of colours as a share of their white, the darkest kept apart from nought: where a
    camera's tone curve is a straight line."""
    return np.asarray(np.log(np.maximum(share, 0.0) + LOG_FLOOR))


# ---------------------------------------------------------------- a tone curve changed

TONE_KNOTS = np.array([0.0, 0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 1.0])
"""Camera values (a share of full scale) where a tone curve is pinned: closer together in the
dark, where a curve bends most and a card's darkest channel lies."""
_TONE_SMOOTH = 0.001  # how much a curve's slope is kept from changing from knot to knot ...
_TONE_PULL = 0.002  # ... and the curve pulled towards no change (per card's channel)
_TONE_STEPS = 15  # Gauss-Newton steps of a fit, at most ...
_TONE_SETTLED = 1e-4  # ... until none moves the curve this much (a share of full scale)
_TONE_ROUNDS = 3  # fits, each without the cards the one before placed far off
# A curve bends nearer a few cards read as a near class than a map does (three pinks read red
# under a phone's S lay within three spreads of the curve through them): fewer spreads here.
_TONE_OUTLIER = 2.0


@dataclass(frozen=True, eq=False)
class ToneCurve:
    """A change of the camera's tone curve: ``back`` holds, at each of ``TONE_KNOTS``, the
    camera value the palette's camera would have shown where this one shows that knot (a
    share of full scale, rising, 0 and 1 kept), the same for every channel.

    >>> curve = ToneCurve(np.sqrt(TONE_KNOTS))
    >>> curve.put_back(np.array([[64.0, 128.0, 255.0]]), np.full((1, 3), 255.0)).round()
    array([[127., 181., 255.]])
    """

    back: np.ndarray

    def __repr__(self) -> str:
        return f"ToneCurve(back=np.array({np.round(self.back, 3).tolist()}))"

    def put_back(self, colour: np.ndarray, white: np.ndarray) -> np.ndarray:
        """Colours seen (camera values, (N, 3)) as the palette's camera would have shown
        them, against the same whites (camera values, (N, 3)): the white is put back too,
        and the colour keeps its share of it. A white beyond full scale (a light guessed
        brighter than the camera's clip) is no camera value: both cameras show full scale
        there, and the curve, pinned there, moves it no further.

        >>> same = ToneCurve(TONE_KNOTS)
        >>> same.put_back(np.array([[100.0, 100.0, 100.0]]), np.array([[200.0, 300.0, 400.0]]))
        array([[100., 100., 100.]])
        """
        w = white / 255.0
        put = np.where(w < 1.0, self._values(w), w)
        share = self._values(colour / 255.0) / np.maximum(put, 1e-6)
        return share * white

    def moves(self, colours: np.ndarray) -> float:
        """How far (log, largest channel) this curve moves any of ``colours`` (K, 3 log
        shares of a white at full scale)."""
        share = np.exp(colours) - LOG_FLOOR
        seen = np.interp(np.clip(share, 0.0, 1.0), self.back, TONE_KNOTS)
        return float(np.abs(as_log(seen) - colours).max(initial=0.0))

    def _values(self, seen: np.ndarray) -> np.ndarray:
        return np.interp(np.clip(seen, 0.0, 1.0), TONE_KNOTS, self.back)


class Learned(NamedTuple):
    """A rendering learned from cards, and which of them lie on it ((M,) bool): the rest
    were left out, far off it (cards read as a near class, likeliest) or, for a curve,
    clipped in every channel."""

    rendering: Rendering | ToneCurve
    on_it: np.ndarray


def learn_rendering(shares: np.ndarray, seen: np.ndarray, white: np.ndarray,
                    classes: np.ndarray) -> Learned | None:
    """How the camera renders colours today, from the cards read sure: a tone curve
    (:func:`learn_tone_curve`) where one shows, else a map in log reflectance (:func:`learn`),
    else None (a gamma is both: the curve, the likelier change and the narrower, first).
    ``shares``: each card's class colour as a share of its white (M, 3);
    ``seen``, ``white``: the card's colour and its white in the scene (camera values, M, 3);
    ``classes``: (M,) labels."""
    curve = _learn_tone_curve(shares, seen, white, classes)
    if curve is not None:
        return Learned(*curve)
    found = _learn(as_log(shares), as_log(seen / white), classes)
    return None if found is None else Learned(*found)


def learn_tone_curve(shares: np.ndarray, seen: np.ndarray, white: np.ndarray,
                     classes: np.ndarray) -> ToneCurve | None:
    """The tone curve that puts each card back to its class's colour (arguments as
    :func:`learn_rendering`'s), or None where the cards cannot show one: as :func:`learn`,
    fewer than MIN_CARDS of MIN_CLASSES, a curve that stretches or shrinks camera values more
    than _GAIN allows anywhere, or one that places the cards, or foresees a class it was not
    shown, not much better than a change of light (``_EVIDENT``). A channel the camera
    clipped, on the card or its white, says only "at least" and is left out; so are cards
    far off the curve (a card read as a near class)."""
    learned = _learn_tone_curve(shares, seen, white, classes)
    return None if learned is None else learned[0]


def _learn_tone_curve(shares: np.ndarray, seen: np.ndarray, white: np.ndarray,
                      classes: np.ndarray) -> tuple[ToneCurve, np.ndarray] | None:
    """:func:`learn_tone_curve`, and which cards lie on the curve ((M,) bool)."""
    shares = np.asarray(shares, float)
    seen = np.asarray(seen, float)
    white = np.asarray(white, float)
    labels = np.asarray(classes).reshape(-1)
    read = (seen < CLIPPED) & (white < CLIPPED)  # (M, 3): the channels that say how bright
    usable = read.any(axis=1)
    keep = usable
    curve = None
    for _ in range(_TONE_ROUNDS):
        if keep.sum() < MIN_CARDS or len(set(labels[keep].tolist())) < MIN_CLASSES:
            return None
        curve = _fit_curve(shares[keep], seen[keep], white[keep], read[keep], curve)
        off = np.where(read, _curve_off(curve, shares, seen, white), 0.0).max(axis=1)
        # the spread of every card about the curve: a few far off do not move a median
        spread = max(1.4826 * float(median(off[usable])), _MIN_SPREAD)
        inside = (off <= _TONE_OUTLIER * spread) & usable
        if (inside == keep).all():
            break
        keep = inside
    assert curve is not None
    on_it = inside
    shares, seen, white, read, labels = (x[keep] for x in (shares, seen, white, read, labels))
    slopes = np.diff(curve.back) / np.diff(TONE_KNOTS)
    if slopes.min() < _GAIN[0] or slopes.max() > _GAIN[1]:
        return None
    colours, logs = as_log(shares), as_log(seen / white)

    def by_curve(shown: np.ndarray, hidden: np.ndarray) -> float:
        learned = curve if shown is hidden else _fit_curve(
            shares[shown], seen[shown], white[shown], read[shown], curve)
        return _typical(_curve_off(learned, shares[hidden], seen[hidden], white[hidden]),
                        read[hidden])

    def by_light(shown: np.ndarray, hidden: np.ndarray) -> float:
        moved, seen_at = logs[shown] - colours[shown], read[shown]
        light = np.array([float(median(moved[seen_at[:, ch], ch])) if seen_at[:, ch].any()
                          else 0.0 for ch in range(3)])
        return _typical(np.abs(colours[hidden] + light - logs[hidden]), read[hidden])

    every = np.ones(len(labels), bool)
    if by_curve(every, every) > _EVIDENT * by_light(every, every):
        return None
    return (curve, on_it) if _foresees(labels, by_curve, by_light) else None


def _typical(off: np.ndarray, read: np.ndarray | None = None) -> float:
    """How far (log) the median card lies (``off``: (M, 3)), over the channels ``read``
    ((M, 3) bool; None: all of them)."""
    square = off * off if read is None else np.where(read, off * off, 0.0)
    return float(median(np.sqrt(square.sum(axis=1))))


def _curve_off(curve: ToneCurve, shares: np.ndarray, seen: np.ndarray, white: np.ndarray
               ) -> np.ndarray:
    """(M, 3) how far (log) the cards put back through ``curve`` lie from their classes."""
    return np.abs(as_log(curve.put_back(seen, white) / white) - as_log(shares))


def _fit_curve(shares: np.ndarray, seen: np.ndarray, white: np.ndarray, read: np.ndarray,
               start: ToneCurve | None = None) -> ToneCurve:
    """The smooth rising curve that best puts the cards back (least squares in log, each
    channel ``read`` of each card one equation), by Gauss-Newton from ``start`` (a curve
    fitted to nearly the same cards: a few steps) or from no change."""
    c = shares[read]
    at_card, at_white = _hats(seen[read] / 255.0), _hats(white[read] / 255.0)
    free = slice(1, len(TONE_KNOTS) - 1)  # black and full scale stay where they are
    bend = _BENDS
    n = len(c)
    keep_still = _TONE_PULL * n * np.eye(len(TONE_KNOTS) - 2)
    smooth = _TONE_SMOOTH * n * bend[:, free].T @ bend[:, free]
    back = TONE_KNOTS.copy() if start is None else start.back.copy()
    for _ in range(_TONE_STEPS):
        card, ref = at_card @ back, np.maximum(at_white @ back, 1e-4)
        share = card / ref
        residual = np.log(np.maximum(share, 0.0) + LOG_FLOOR) - np.log(c + LOG_FLOOR)
        slope = ((at_card * ref[:, None] - card[:, None] * at_white) / (ref * ref)[:, None]
                 / (np.maximum(share, 0.0) + LOG_FLOOR)[:, None])[:, free]
        pull = slope.T @ residual + keep_still @ (back[free] - TONE_KNOTS[free]) \
            + _TONE_SMOOTH * n * bend[:, free].T @ (bend @ back)
        step = -np.linalg.solve(slope.T @ slope + keep_still + smooth, pull)
        back = back.copy()
        back[free] += step
        back = np.maximum.accumulate(np.clip(back, 0.0, 1.0))
        if np.abs(step).max() < _TONE_SETTLED:
            break
    # strictly rising, so that it can be read backwards (ToneCurve.moves)
    return ToneCurve(back + np.arange(len(TONE_KNOTS)) * 1e-6)


def _hats(values: np.ndarray) -> np.ndarray:
    """(V, knots) the weights of linear interpolation between TONE_KNOTS at ``values``."""
    v = np.clip(values, 0.0, 1.0)
    k = np.clip(np.searchsorted(TONE_KNOTS, v, side="right") - 1, 0, len(TONE_KNOTS) - 2)
    t = (v - TONE_KNOTS[k]) / (TONE_KNOTS[k + 1] - TONE_KNOTS[k])
    out = np.zeros((len(v), len(TONE_KNOTS)))
    rows = np.arange(len(v))
    out[rows, k] = 1.0 - t
    out[rows, k + 1] = t
    return out


def _bends() -> np.ndarray:
    """(knots - 2, knots): how much a curve's slope changes at each inner knot."""
    h = np.diff(TONE_KNOTS)
    out = np.zeros((len(TONE_KNOTS) - 2, len(TONE_KNOTS)))
    for j in range(len(TONE_KNOTS) - 2):
        out[j, j], out[j, j + 2] = 1 / h[j], 1 / h[j + 1]
        out[j, j + 1] = -1 / h[j] - 1 / h[j + 1]
    return out


_BENDS = _bends()  # the same for every fit
