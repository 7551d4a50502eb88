"""The colour palette: what each class of card looks like, learned from samples.

A class is whatever tells its cards apart (a coloured field, coloured art on a white card,
a sticker on black plastic); a palette holds, per class letter, a Gaussian over the
features of :mod:`calibration.features` (mean and spread of each feature). Reading cells:

1. Guess how this scene's light differs from the light the palette learned under, as a
   shift in log RGB: no change, the change that makes this scene's white the palette's
   white, or the one that matches the average card; keep the guess under which the cells
   fit the classes best (a small prior prefers small changes), then refine it from the
   cells themselves (each read cell says how far its colour is from its class).
2. Each cell gets the class of highest likelihood. Its confidence is that class's posterior
   among all classes times a factor falling to 0 as the cell's distance to the class grows
   past ``max_distance`` (out of distribution: a hand, a glare spot, a foreign object).
   Below ``min_confidence`` the cell reads ``?``.
3. ``.`` (empty: the table shows) competes as one more class, modelled on the ``table``
   patches of the same scene when given, else on cells labelled ``.`` when learning.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ._files import check_header, load_json_file, write_json_atomic
from .deck import NOMINAL_RGB
from .features import FEATURES, OPPONENT, OPPONENT_INV, Scene, light_coordinates, prepare

VERSION = 1
"""Version of the palette file format; other versions are refused, not guessed at."""

EMPTY = "."
UNSURE = "?"

PRIOR_SCALE = np.array([0.25, 0.10, 0.10, 0.2, 0.2, 0.25, 0.2, 0.2, 0.40, 0.20, 0.3])
"""Typical spread of each feature within one class in one scene: the spread a class gets
before it has samples, and the floor its learned spread shrinks towards."""

_PRIOR_WEIGHT = 4.0  # the prior spread counts as this many samples
_MIN_SCALE = 0.5  # learned spreads never fall below half the prior
_DEFAULT_WIDTH = 2.0  # the default deck profile is this much wider: no camera was seen
# The table seen in this very scene needs less benefit of the doubt than a card class,
# (a hand over an empty cell must not pass for the table).
_TABLE_PRIOR = PRIOR_SCALE * 0.6
_SHIFT_SCALE = np.array([0.7, 0.35, 0.35])  # prior on a light change (I, u, v of the shift)
_MAX_WHITE_SHIFT = 1.2  # a "white" further than this from the palette's white is no white
_EMPTY_STRICTNESS = 0.35  # "." needs a cell within this share of max_distance of the table
_FRAME = FEATURES.index("frame")
_FRAME_WEIGHT = 0.5
_STRANGER_WEIGHT = 0.5
_MIN_WEIGHT = 0.05  # no feature is ignored outright: a hand may differ only there
_REFINE_CLIP = np.array([0.5, 0.3, 0.3])  # one cell moves the light guess at most this much

DEFAULT_MAX_DISTANCE = 40.0
DEFAULT_MIN_CONFIDENCE = 0.6


class PaletteError(ValueError):
    """A palette cannot be made, read or used: the message says what is wrong."""


@dataclass(frozen=True)
class CellReads:
    """Per cell, in the order given: a class letter, ``.`` or ``?``; and a confidence 0..1."""

    labels: tuple[str, ...]
    confidence: np.ndarray


@dataclass(frozen=True, eq=False)
class ClassModel:
    """One class: mean and spread of each feature, from ``samples`` cells."""

    letter: str
    mean: np.ndarray
    scale: np.ndarray
    samples: int

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
        raise PaletteError(f"class {letter!r} has no samples")
    base = width * PRIOR_SCALE if prior is None else prior
    mean = x.mean(axis=0)
    scatter = ((x - mean) ** 2).sum(axis=0)
    var = (scatter + _PRIOR_WEIGHT * base**2) / (n - 1 + _PRIOR_WEIGHT)
    scale = np.maximum(np.sqrt(var), _MIN_SCALE * width * PRIOR_SCALE)
    return ClassModel(letter, mean, scale, n)


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
    weights[_FRAME] = _FRAME_WEIGHT
    return weights


def max_distance_for(weights: np.ndarray) -> float:
    """The squared distance beyond which a cell is out of distribution: far in the tail of
    a chi-square with as many degrees of freedom as the weights add up to."""
    dof = max(float(weights.sum()), 3.0)
    return dof + 4.0 * np.sqrt(2.0 * dof) + 6.0


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


class Palette:
    """Named colour classes and how to tell them apart; immutable. See the module docstring."""

    def __init__(
        self,
        models: Iterable[ClassModel],
        white: Sequence[float] = (0.0, 0.0, 0.0),
        grey: Sequence[float] = (0.0, 0.0, 0.0),
        max_distance: float = DEFAULT_MAX_DISTANCE,
        min_confidence: float = DEFAULT_MIN_CONFIDENCE,
        white_borders: bool = False,
        weights: Sequence[float] | np.ndarray | None = None,
    ) -> None:
        models = tuple(models)
        letters = [m.letter for m in models]
        if not models:
            raise PaletteError("a palette needs at least one class")
        for letter in letters:
            if len(letter) != 1 or letter.isspace() or letter in (UNSURE, "/"):
                raise PaletteError(f"{letter!r} cannot name a class: use one character")
        if len(set(letters)) != len(letters):
            raise PaletteError(f"class letters repeat: {''.join(letters)}")
        if all(m == EMPTY for m in letters):
            raise PaletteError("a palette needs at least one class besides '.'")
        for m in models:
            if m.mean.shape != (len(FEATURES),) or m.scale.shape != (len(FEATURES),):
                raise PaletteError(f"class {m.letter!r} needs {len(FEATURES)} features")
            if not (np.all(np.isfinite(m.mean)) and np.all(m.scale > 0)):
                raise PaletteError(f"class {m.letter!r} has non-finite or non-positive values")
        self._models = models
        self._means = np.stack([m.mean for m in models])
        self._scales = np.stack([m.scale for m in models])
        self._white = np.asarray(white, dtype=np.float64)
        self._grey = np.asarray(grey, dtype=np.float64)
        self.max_distance = float(max_distance)
        self.min_confidence = float(min_confidence)
        self.white_borders = bool(white_borders)
        self.weights = np.ones(len(FEATURES)) if weights is None else np.asarray(weights, float)
        if self.weights.shape != (len(FEATURES),) or not np.all(self.weights >= 0):
            raise PaletteError(f"a palette needs {len(FEATURES)} non-negative feature weights")

    # -- what it holds -------------------------------------------------------------------

    @property
    def classes(self) -> tuple[str, ...]:
        """The card classes' letters (``.`` not included even when the palette learned it)."""
        return tuple(m.letter for m in self._models if m.letter != EMPTY)

    @property
    def models(self) -> tuple[ClassModel, ...]:
        return self._models

    @property
    def samples(self) -> int:
        """How many cells the palette learned from (0 for the default deck profile)."""
        return sum(m.samples for m in self._models)

    def __repr__(self) -> str:
        return f"<Palette {''.join(self.classes)} from {self.samples} samples>"

    # -- reading cells -------------------------------------------------------------------

    def classify(self, patches: np.ndarray, table: np.ndarray | None = None) -> CellReads:
        """Read each patch (one scene: (N, P, P, 3) BGR, or (N, 3) BGR colours).

        ``table``: patches of bare table from the same scene (may be None or empty); with
        them, a cell showing the table reads ``.``.
        """
        scene = prepare(patches)
        shift, x = self._read_light(scene)
        models = self._models
        if table is not None and len(table):
            table_model = fit_class(EMPTY, prepare(table).features(shift), prior=_TABLE_PRIOR)
            models = tuple(m for m in models if m.letter != EMPTY) + (table_model,)
        return self._decide(x, models)

    def light_shift(self, scene: Scene) -> np.ndarray:
        """The log-RGB shift that best takes this scene's light to the palette's."""
        return self._read_light(scene)[0]

    def _read_light(self, scene: Scene) -> tuple[np.ndarray, np.ndarray]:
        """The light shift and the scene's features under it."""
        candidates = [np.zeros(3)]
        expected = np.zeros(3)  # the light change believed before looking at the cells
        to_white = self._white - scene.white
        if np.hypot(*(OPPONENT[1:] @ to_white)) <= _MAX_WHITE_SHIFT:
            candidates.append(to_white)
            if self.white_borders and scene.shared_white:
                expected = to_white
        if len(scene):
            candidates.append(self._grey - scene.grey)
        best_fit = np.inf
        shift, x = candidates[0], scene.features(candidates[0])
        for c in candidates:
            xc = scene.features(c)
            fit = self._misfit(xc, c - expected)
            if fit < best_fit:
                best_fit, shift, x = fit, c, xc
        for _ in range(2):
            refined = self._refine(x, shift)
            xr = scene.features(refined)
            fit = self._misfit(xr, refined - expected)
            if fit >= best_fit - 1e-6:
                break
            best_fit, shift, x = fit, refined, xr
        return shift, x

    @property
    def stranger_weights(self) -> np.ndarray:
        """Feature weights for telling a stranger (a hand) from every class: a feature that
        does not tell the classes apart (a flat deck's smoothness) still tells a card from
        what is no card, so none counts for less than _STRANGER_WEIGHT here."""
        return np.maximum(self.weights, _STRANGER_WEIGHT)

    def _distances(
        self, x: np.ndarray, models: Sequence[ClassModel], weights: np.ndarray | None = None
    ) -> np.ndarray:
        if models is self._models:
            means, scales = self._means, self._scales
        else:
            means = np.stack([m.mean for m in models])
            scales = np.stack([m.scale for m in models])
        z = (x[:, None, :] - means[None]) / scales[None]
        # A card stands out from its rim at least as much as its class did; standing out more
        # (a card lying a little off its place shows more table) is no sign of a stranger.
        z[..., _FRAME] = np.minimum(z[..., _FRAME], 0.0)
        return np.einsum("nkf,nkf,f->nk", z, z, self.weights if weights is None else weights)

    def _misfit(self, x: np.ndarray, surprise: np.ndarray) -> float:
        """How badly the cells fit the classes under a light shift (lower is better), plus
        how far the shift is from the expected one (``surprise``)."""
        if not len(x):
            return 0.0
        d2 = self._distances(x, self._models).min(axis=1)
        prior = ((OPPONENT @ surprise) / _SHIFT_SCALE) ** 2
        return float(np.minimum(d2, self.max_distance).sum() + prior.sum())

    def _refine(self, x: np.ndarray, shift: np.ndarray) -> np.ndarray:
        """The shift moved so the well-read cells sit, on average, on their classes' colours."""
        d2 = self._distances(x, self._models)
        d2[:, [m.letter == EMPTY for m in self._models]] = np.inf
        best = d2.argmin(axis=1)
        good = d2[np.arange(len(x)), best] < self.max_distance
        if not good.any():
            return shift
        target = light_coordinates(self._means)[best[good]]
        residual = np.clip(target - light_coordinates(x[good]), -_REFINE_CLIP, _REFINE_CLIP)
        step = np.median(residual, axis=0)
        return shift + OPPONENT_INV @ step

    def _decide(self, x: np.ndarray, models: Sequence[ClassModel]) -> CellReads:
        n = len(x)
        if n == 0:
            return CellReads((), np.zeros(0))
        d2 = self._distances(x, models)
        log_norm = np.array([np.log(m.scale) @ self.weights for m in models])
        loglik = -0.5 * d2 - log_norm[None]
        loglik -= loglik.max(axis=1, keepdims=True)
        post = np.exp(loglik)
        post /= post.sum(axis=1, keepdims=True)
        best = post.argmax(axis=1)
        rows = np.arange(n)
        dist = self._distances(x, models, self.stranger_weights)[rows, best]
        # The table is seen in this very frame: a cell reads "." only if it looks just like it.
        limit = np.array(
            [self.max_distance * (_EMPTY_STRICTNESS if m.letter == EMPTY else 1.0) for m in models]
        )[best]
        inside = 1.0 / (1.0 + np.exp(np.clip((dist - limit) / (limit / 8.0), -50, 50)))
        confidence = post[rows, best] * inside
        labels = tuple(
            models[k].letter if c >= self.min_confidence else UNSURE
            for k, c in zip(best.tolist(), confidence.tolist(), strict=True)
        )
        return CellReads(labels, confidence)

    # -- files ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, object]:
        return {
            "format": "nizam-palette",
            "version": VERSION,
            "features": list(FEATURES),
            "white": self._white.tolist(),
            "grey": self._grey.tolist(),
            "max_distance": self.max_distance,
            "min_confidence": self.min_confidence,
            "white_borders": self.white_borders,
            "weights": [round(v, 6) for v in self.weights.tolist()],
            "classes": [
                {
                    "letter": m.letter,
                    "mean": [round(v, 6) for v in m.mean.tolist()],
                    "scale": [round(v, 6) for v in m.scale.tolist()],
                    "samples": m.samples,
                }
                for m in self._models
            ],
        }

    @classmethod
    def from_json(cls, obj: object) -> Palette:
        obj = check_header(obj, "nizam-palette", "palette", VERSION, PaletteError)
        if obj.get("features") != list(FEATURES):
            raise PaletteError("palette was made with other features; calibrate again")
        try:
            models = [
                ClassModel(
                    str(c["letter"]),
                    np.asarray(c["mean"], dtype=np.float64),
                    np.asarray(c["scale"], dtype=np.float64),
                    int(c["samples"]),
                )
                for c in obj["classes"]
            ]
            return cls(
                models,
                white=np.asarray(obj["white"], dtype=np.float64).reshape(3),
                grey=np.asarray(obj["grey"], dtype=np.float64).reshape(3),
                max_distance=float(obj["max_distance"]),
                min_confidence=float(obj["min_confidence"]),
                white_borders=bool(obj["white_borders"]),
                weights=np.asarray(obj["weights"], dtype=np.float64),
            )
        except PaletteError:
            raise
        except (KeyError, TypeError, ValueError) as err:
            raise PaletteError(f"palette is damaged: {type(err).__name__}: {err}") from None

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the palette as versioned JSON, atomically (never a half file)."""
        write_json_atomic(path, self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Palette:
        """Read a palette file; PaletteError saying what is wrong otherwise."""
        return load_json_file(path, "palette", PaletteError, cls.from_json)


# -- learning ------------------------------------------------------------------------------


def _check_labels(labels: str, n: int) -> str:
    labels = "".join(str(labels).split("/"))
    if len(labels) != n:
        raise PaletteError(f"{len(labels)} labels for {n} cells")
    for ch in labels:
        if ch.isspace():
            raise PaletteError("labels hold a space: use one character per cell")
    return labels


def _align(scenes: Sequence[Scene], labels: Sequence[str]) -> list[np.ndarray]:
    """Light shifts putting every image in the first one's light, from cells of shared classes.

    Images taken minutes apart under one lamp still differ in exposure; aligned, a class's
    samples from all images form one tight cluster.
    """
    shifts = [np.zeros(3) for _ in scenes]
    for i, scene in enumerate(scenes[1:], start=1):
        if scene.shared_white and scenes[0].shared_white:  # white borders: align the whites
            shifts[i] = scenes[0].white - scene.white
    for _ in range(3):
        feats = [s.features(c) for s, c in zip(scenes, shifts, strict=True)]
        x = np.concatenate(feats)
        y = np.array([ch for lab in labels for ch in lab])
        colours = light_coordinates(x)
        means = {ch: colours[y == ch].mean(axis=0) for ch in set(y) if ch not in (UNSURE,)}
        for i in range(1, len(scenes)):
            lab = np.array(list(labels[i]))
            keep = np.isin(lab, [ch for ch in means if np.sum(y == ch) > np.sum(lab == ch)])
            if not keep.any():
                continue
            target = np.stack([means[ch] for ch in lab[keep]])
            step = np.median(target - light_coordinates(feats[i][keep]), axis=0)
            shifts[i] = shifts[i] + OPPONENT_INV @ step
    return shifts


def learn_palette(samples: Sequence[tuple[np.ndarray, str]]) -> Palette:
    """A palette from images whose layout is known.

    ``samples``: per image, (its patches (N, P, P, 3) BGR in reading order, or (N, 3) BGR
    colours; a string of N letters, rows optionally joined by "/"). Any letters name classes;
    ``.`` marks an empty cell (the palette then knows the table), ``?`` a cell to ignore.
    """
    if not samples:
        raise PaletteError("no samples to learn from")
    scenes: list[Scene] = []
    labels: list[str] = []
    for patches, lab in samples:
        scene = prepare(patches)
        scenes.append(scene)
        labels.append(_check_labels(lab, len(scene)))
    shifts = _align(scenes, labels)
    x = np.concatenate([s.features(c) for s, c in zip(scenes, shifts, strict=True)])
    y = np.array([ch for lab in labels for ch in lab])
    letters = sorted(set(y) - {UNSURE}, key=lambda ch: (ch == EMPTY, ch))
    cards = np.isin(y, letters) & (y != EMPTY)
    prior = pooled_scale(x[cards], y[cards]) if cards.any() else PRIOR_SCALE
    models = [fit_class(str(ch), x[y == ch], prior=prior) for ch in letters]
    whites = np.stack([s.white + c for s, c in zip(scenes, shifts, strict=True)])
    shared = np.array([s.shared_white for s in scenes])
    if shared.any():
        white = whites[shared].mean(axis=0)
    else:  # no scene showed a white for sure: take the brightest, most neutral guess
        chroma = np.hypot(*(whites @ OPPONENT[1:].T).T)
        white = whites[np.argmax(whites @ OPPONENT[0] - 2.0 * chroma)]
    grey = np.mean([s.grey + c for s, c in zip(scenes, shifts, strict=True)], axis=0)
    borders = bool(shared.sum() * 2 > len(scenes))
    weights = feature_weights(models, prior)
    return Palette(
        models,
        white=white,
        grey=grey,
        white_borders=borders,
        weights=weights,
        max_distance=max_distance_for(np.maximum(weights, _STRANGER_WEIGHT)),
    )


def nominal_features(letters: Sequence[str]) -> np.ndarray | None:
    if not all(ch in NOMINAL_RGB for ch in letters):
        return None
    bgr = np.array([NOMINAL_RGB[ch][::-1] for ch in letters], dtype=np.uint8)
    return prepare(bgr).features()


def default_palette() -> Palette:
    """The default deck profile: the gems of RULES.md at their nominal colours, wide spreads.

    >>> default_palette().classes
    ('R', 'O', 'Y', 'G', 'C', 'B', 'V', 'P', '*')
    """
    letters = list(NOMINAL_RGB)
    feats = nominal_features(letters)
    assert feats is not None
    models = [
        ClassModel(ch, f, _DEFAULT_WIDTH * PRIOR_SCALE, 0)
        for ch, f in zip(letters, feats, strict=True)
    ]
    # The nominal colours are under white light; the average card is the gems' average.
    gems = np.array([NOMINAL_RGB[ch][::-1] for ch in letters if ch != "*"], dtype=np.uint8)
    grey = prepare(gems).body_median.mean(axis=0)
    weights = feature_weights(models, _DEFAULT_WIDTH * PRIOR_SCALE)
    return Palette(
        models,
        white=np.zeros(3),
        grey=grey,
        white_borders=True,
        weights=weights,
        max_distance=max_distance_for(np.maximum(weights, _STRANGER_WEIGHT)),
    )


def learn_palette_from_counts(
    patches: np.ndarray | Sequence[np.ndarray], counts: Mapping[str, int] | str, seed: int = 0
) -> Palette:
    """A palette from images whose counts of each class alone are known: see
    :func:`calibration.counts.cluster_by_counts` (how cells are assigned, how classes named)."""
    from .counts import learn_palette_from_counts as learn  # counts builds on this module

    return learn(patches, counts, seed)
