"""Palettes from layouts whose counts alone are known (the Pearl set-up of RULES.md P2:
three of each gem and the pearl, ``R3O3Y3G3C3B3V3P3*1``).

Balanced clustering: class centres and an assignment of cells to classes that respects the
counts (a min-cost assignment per image, :mod:`calibration.assignment`) are improved in turn
until they settle. Naming: the counts name the clusters when they differ; letters with equal
counts are matched to the default deck profile's nominal colours when it knows them, else
they keep the order in which their clusters were first seeded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from .assignment import assign_with_counts, min_cost_assignment
from .features import prepare
from .learning import nominal_features as _nominal_features
from .models import PRIOR_SCALE
from .palette import Palette, PaletteError, default_palette, learn_palette

CLUSTER_WEIGHTS = np.array([1.0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0])
"""Features that count when clustering by counts: body colour and ink hue. (Within one
scene the light is one, so the features meant to survive light changes add only noise.)"""
_CLUSTER_SCALE = np.sqrt(CLUSTER_WEIGHTS) / PRIOR_SCALE


def parse_counts(text: str) -> dict[str, int]:
    """Counts such as ``"R3O3Y3G3C3B3V3P3*1"`` as a dict, letters in order.

    >>> parse_counts("R3O3*1")
    {'R': 3, 'O': 3, '*': 1}
    """
    counts: dict[str, int] = {}
    i = 0
    text = text.strip()
    while i < len(text):
        letter = text[i]
        j = i + 1
        while j < len(text) and text[j].isdigit():
            j += 1
        if j == i + 1 or letter.isdigit() or letter.isspace():
            raise PaletteError(f"bad counts {text!r}: expected a letter then a number at {i}")
        if letter in counts:
            raise PaletteError(f"bad counts {text!r}: {letter!r} appears twice")
        counts[letter] = int(text[i + 1 : j])
        i = j
    if not counts:
        raise PaletteError("no counts given")
    return counts


def cluster_by_counts(
    patches: np.ndarray | Sequence[np.ndarray],
    counts: Mapping[str, int],
    seed: int = 0,
    restarts: int = 4,
) -> list[str]:
    """Label each cell so that every image holds exactly ``counts`` of each letter.

    Balanced clustering: class centres and an assignment of cells to classes that respects
    the counts (a min-cost assignment per image) are improved in turn until they settle;
    it starts from the default deck's nominal colours (when it knows the letters) and from
    ``restarts`` seeded random picks, and keeps the tightest result.

    Names: the counts name the clusters when they differ; letters with equal counts are
    matched to the default deck profile's nominal colours (when it knows those letters),
    else they follow the order of the first centre found for each. Returns one string of
    labels per image, in its cells' order.
    """
    images = [patches] if isinstance(patches, np.ndarray) else list(patches)
    if not images:
        raise PaletteError("no images to learn from")
    letters = list(counts)
    want = np.array([counts[ch] for ch in letters])
    default = default_palette()
    feats = []
    for img in images:
        scene = prepare(img)
        if len(scene) != want.sum():
            raise PaletteError(f"counts add up to {want.sum()} but an image has {len(scene)} cells")
        feats.append(default.scene_features(scene) * _CLUSTER_SCALE)
    x = np.concatenate(feats)
    rng = np.random.default_rng(seed)
    nominal = _nominal_features(letters)
    starts = [] if nominal is None else [nominal * _CLUSTER_SCALE]
    starts += [_spread_pick(x, len(letters), rng) for _ in range(restarts)]
    best_cost, best_labels = np.inf, None
    for centres in starts:
        cost, assigned = _balanced_kmeans(feats, centres, want)
        if cost < best_cost - 1e-9:
            best_cost, best_labels = cost, assigned
    assert best_labels is not None
    named = _name_equal_counts(x, np.concatenate(best_labels), letters, want, nominal)
    out, start = [], 0
    for f in feats:
        out.append("".join(letters[k] for k in named[start : start + len(f)]))
        start += len(f)
    return out


def learn_palette_from_counts(
    patches: np.ndarray | Sequence[np.ndarray], counts: Mapping[str, int] | str, seed: int = 0
) -> Palette:
    """A palette from images whose counts of each class alone are known (see cluster_by_counts)."""
    counts = parse_counts(counts) if isinstance(counts, str) else dict(counts)
    images = [patches] if isinstance(patches, np.ndarray) else list(patches)
    labels = cluster_by_counts(images, counts, seed=seed)
    return learn_palette(list(zip(images, labels, strict=True)))


def _spread_pick(x: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """k starting centres far apart (k-means++ seeding)."""
    picks = [x[rng.integers(len(x))]]
    for _ in range(1, k):
        d2 = np.min([((x - c) ** 2).sum(axis=1) for c in picks], axis=0)
        total = d2.sum()
        idx = rng.integers(len(x)) if total <= 0 else rng.choice(len(x), p=d2 / total)
        picks.append(x[idx])
    return np.stack(picks)


def _balanced_kmeans(
    feats: Sequence[np.ndarray], centres: np.ndarray, want: np.ndarray
) -> tuple[float, list[np.ndarray]]:
    centres = centres.copy()
    labels: list[np.ndarray] = []
    cost = np.inf
    for _ in range(30):
        new = []
        cost = 0.0
        for f in feats:
            d2 = ((f[:, None, :] - centres[None]) ** 2).sum(axis=2)
            lab = assign_with_counts(d2, want)
            cost += float(d2[np.arange(len(f)), lab].sum())
            new.append(lab)
        if labels and all(np.array_equal(a, b) for a, b in zip(labels, new, strict=True)):
            break
        labels = new
        every = np.concatenate(labels)
        x = np.concatenate(feats)
        for k in range(len(centres)):
            if np.any(every == k):
                centres[k] = x[every == k].mean(axis=0)
    return cost, labels


def _name_equal_counts(
    x: np.ndarray,
    assigned: np.ndarray,
    letters: Sequence[str],
    want: np.ndarray,
    nominal: np.ndarray | None,
) -> np.ndarray:
    if nominal is None:
        return assigned
    rename = np.arange(len(letters))
    for count in set(want.tolist()):
        group = np.nonzero(want == count)[0]
        if len(group) < 2:
            continue
        centres = np.stack([x[assigned == k].mean(axis=0) for k in group])
        cost = ((centres[:, None, :] - nominal[group][None] * _CLUSTER_SCALE) ** 2).sum(axis=2)
        rename[group] = group[min_cost_assignment(cost)]
    return rename[assigned]
