"""Learning a palette: from images whose layout is known, and the default deck profile.

Cards with white rims (gem cards, SET cards) are learned against their own white, as they
will be read; cells of images without (stickers) are put in the first image's light.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ._stats import median
from .colour import OPPONENT, PURE_WHITE
from .deck import NOMINAL_RGB
from .features import FEATURES, Scene, prepare
from .models import (
    EMPTY,
    LIGHT_COST,
    PRIOR_SCALE,
    ClassModel,
    feature_weights,
    fit_class,
    max_distance_for,
    pooled_scale,
    with_shading,
)
from .palette import UNSURE, Palette, PaletteError, stranger_floor
from .sheen import without_sheen

_DEFAULT_WIDTH = 2.0  # the default deck profile is this much wider: no camera was seen
# A deck whose typical card has at least this share of its body in ink is coloured all over
# (gem cards: about two thirds, the ink share's most); symbols on white paper (SET) show
# under a tenth.
_FLAT_INK = 0.3
_INK = FEATURES.index("ink")


def _check_labels(labels: str, n: int) -> str:
    labels = "".join(str(labels).split("/"))
    if len(labels) != n:
        raise PaletteError(f"{len(labels)} labels for {n} cells")
    for ch in labels:
        if ch.isspace():
            raise PaletteError("labels hold a space: use one character per cell")
    return labels


def _align(scenes: Sequence[Scene], labels: Sequence[str]) -> list[np.ndarray]:
    """Reference whites (log RGB) putting every image in the first one's light, from cells
    of shared classes: images with no white rims taken minutes apart under one lamp still
    differ in exposure; aligned, a class's samples from all images form one tight cluster."""
    lights = [PURE_WHITE.copy() for _ in scenes]
    y = np.array([ch for lab in labels for ch in lab])
    for _ in range(3):
        colours = [s.colour(c)[0] for s, c in zip(scenes, lights, strict=True)]
        every = np.concatenate(colours)
        means = {ch: every[y == ch].mean(axis=0) for ch in set(y) if ch != UNSURE}
        for i in range(1, len(scenes)):
            lab = np.array(list(labels[i]))
            keep = np.isin(lab, [ch for ch in means if np.sum(y == ch) > np.sum(lab == ch)])
            if not keep.any():
                continue
            target = np.stack([means[ch] for ch in lab[keep]])
            lights[i] = lights[i] + median(colours[i][keep] - target, axis=0)
    return lights


def learn(samples: Sequence[tuple[np.ndarray, str]]) -> Palette:
    """A palette from images whose layout is known.

    ``samples``: per image, (its patches (N, P, P, 3) BGR in reading order, or (N, 3) BGR
    colours; a string of N letters, rows optionally joined by "/"). Any letters name classes;
    ``.`` marks an empty cell (the palette then knows the table), ``?`` a cell to ignore.
    Cards with white rims are learned against their own white; otherwise all images are
    put in the first one's light.
    """
    if not samples:
        raise PaletteError("no samples to learn from")
    scenes: list[Scene] = []
    labels: list[str] = []
    for patches, lab in samples:
        scene = prepare(patches)
        scenes.append(scene)
        labels.append(_check_labels(lab, len(scene)))
    rims = np.array([s.whites.has_rims for s in scenes])
    borders = bool(rims.sum() * 2 > len(scenes))
    if borders:
        white = np.mean([s.white for s, r in zip(scenes, rims, strict=True) if r], axis=0)
        refs = [s.whites.refs if r else s.white for s, r in zip(scenes, rims, strict=True)]
        offsets = [s.white - white for s in scenes]
    else:
        refs = _align(scenes, labels)
        offsets = [r - refs[0] for r in refs]
        whites = np.stack([s.white - c for s, c in zip(scenes, offsets, strict=True)])
        chroma = np.hypot(*(whites @ OPPONENT[1:].T).T)
        white = whites[np.argmax(whites @ OPPONENT[0] - 2.0 * chroma)]
    y = np.array([ch for lab in labels for ch in lab])
    letters = sorted(set(y) - {UNSURE}, key=lambda ch: (ch == EMPTY, ch))
    read = [s.read(r) for s, r in zip(scenes, refs, strict=True)]
    x = np.concatenate([features for features, *_ in read])
    if borders and _flat_deck(x, y):
        # a flat card's colour learned without a lamp's sheen on it (SET's symbols differ
        # from card to card in shading as a sheen would make them: they are left as seen)
        unsheened = without_sheen(scenes, refs, labels)
        read = [was if s is seen else s.read(r) for s, seen, was, r
                in zip(unsheened, scenes, read, refs, strict=True)]
        scenes = unsheened
        x = np.concatenate([features for features, *_ in read])
    clipped = np.concatenate([rgb >= cap - 1e-6 for _, rgb, cap, *_ in read])
    cards = np.isin(y, letters) & (y != EMPTY)
    prior = pooled_scale(x[cards], y[cards]) if cards.any() else PRIOR_SCALE
    # Every letter comes from the labels, so each class has samples: a ValueError from the
    # fit is a bug, not a damaged calibration, and is raised as one.
    models = with_shading([_at_least(fit_class(str(ch), x[y == ch], prior=prior),
                                     clipped[y == ch]) for ch in letters],
                          [x[y == ch] for ch in letters])
    grey = np.mean([s.grey - c for s, c in zip(scenes, offsets, strict=True)], axis=0)
    return _palette(models, prior, white, grey, borders)


def _flat_deck(x: np.ndarray, y: np.ndarray) -> bool:
    """Are the deck's cards (features ``x``, named ``y``) coloured all over (gem cards), not
    symbols on white paper (SET)? The typical card's body is mostly ink: at least
    ``_FLAT_INK`` of it."""
    cards = (y != EMPTY) & (y != UNSURE)
    return bool(cards.any()) and float(np.median(x[cards, _INK])) >= _FLAT_INK


def _at_least(model: ClassModel, clipped: np.ndarray) -> ClassModel:
    """The class knowing which channels the camera clipped on most of its cards (N, 3):
    there its colour is only a lower bound. The bare table is never one."""
    if model.letter == EMPTY or not len(clipped):
        return model
    most = clipped.mean(axis=0) > 0.5
    return replace(model, at_least=(bool(most[0]), bool(most[1]), bool(most[2])))


def _palette(
    models: Sequence[ClassModel], spread: np.ndarray, white: np.ndarray, grey: np.ndarray,
    borders: bool,
) -> Palette:
    """A palette of these classes: feature weights from how far apart they lie against the
    ``spread`` within a class, and the stranger distance those weights give."""
    weights = feature_weights(models, spread)
    if borders and not any(m.shaded for m in models):
        # flat cards read against their own white: their colours compared as light
        weights[LIGHT_COST] = 1.0
    return Palette(
        models,
        white=white,
        grey=grey,
        white_borders=borders,
        weights=weights,
        max_distance=max_distance_for(stranger_floor(weights)),
    )


def nominal_features(letters: Sequence[str]) -> np.ndarray | None:
    """Features of the default deck's nominal colours (seen against pure white), or None
    when some letter is no gem of the deck."""
    if not all(ch in NOMINAL_RGB for ch in letters):
        return None
    bgr = np.array([NOMINAL_RGB[ch][::-1] for ch in letters], dtype=np.uint8)
    return prepare(bgr).features()


def deck_profile() -> Palette:
    """The default deck profile: the gems of RULES.md at their nominal colours, wide spreads,
    read against their white borders.

    >>> deck_profile().white_borders
    True
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
    return _palette(models, _DEFAULT_WIDTH * PRIOR_SCALE, PURE_WHITE, prepare(gems).grey, True)
