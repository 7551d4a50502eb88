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

>>> classes = np.array([[-0.1, -2.0, -2.0], [-0.2, -0.3, -2.1], [-2.0, -0.4, -0.3],
...                     [-0.5, -1.5, -0.2], [-1.9, -0.5, -1.8]])
>>> seen = 0.7 * classes[[0, 1, 2, 3, 4, 0, 1, 2, 3, 4]]
>>> r = learn(classes[[0, 1, 2, 3, 4, 0, 1, 2, 3, 4]], seen)
>>> r is not None and float(np.abs(r.undo(0.7 * classes) - classes).max()) < 0.02
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._stats import median

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
    return fit if _predicts(colours[keep], seen[keep], labels[keep]) else None


def worth_undoing(rendering: Rendering | None, colours: np.ndarray) -> bool:
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
    by_map = by_light = 0.0
    for label in set(labels.tolist()):
        out = labels == label
        shown, hidden = (colours[~out], seen[~out]), (colours[out], seen[out])
        by_map += _off(_fit(*shown), *hidden)
        by_light += _off(_light(*shown), *hidden)
    return by_map <= _EVIDENT * by_light


def _off(rendering: Rendering, colours: np.ndarray, seen: np.ndarray) -> float:
    """How far (log, the median card) ``rendering`` places the cards from where seen."""
    placed = colours @ rendering.gain.T + rendering.offset
    return float(median(np.sqrt(((placed - seen) ** 2).sum(axis=1))))


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
