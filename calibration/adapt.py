"""Colours that follow the light through a game: a palette adapted to cells the game confirmed.

A palette is calibrated once; then the lamp, the daylight, the camera's white balance and
exposure drift. Each card is read against its own white, which takes most of that away,
but not all (a veil of flare, a lamp's sheen, the camera's own colour processing). Cells
whose true card the game confirmed (a grid the rules accepted, a cell a player fixed) show
what each class looks like today: :func:`adapt` moves each class's colour towards them.

Within bounds, and reversibly:

- Always from the calibrated palette, never from an adapted one: what was learned never
  piles up, and with no samples the calibrated palette comes back as it was.
- A class's colour moves at most ``bound`` (ADAPT_BOUND) of its own learned spread in each
  colour feature, and never as far as ``TOWARDS`` of the way to another class's colour: the
  moved colour stays nearer its own calibrated colour than any other class's (in its own
  spreads), so no flood of samples can make one class into another.
- A sample that disagrees with its label badly (much nearer another class's colour than
  its own, or far from every class: a hand over a cell the rules "confirmed") is ignored;
  a colour the camera clipped (NaN in ``CellReads.features``) teaches nothing.
- :class:`Confirmed` keeps the samples of the last ``window`` confirmations (ADAPT_WINDOW):
  old ones age out, so the colours follow the light both ways; a confirmation the players
  take back (an undo, a fixed card) is dropped with :meth:`Confirmed.keeping`.

>>> from calibration.learning import deck_profile
>>> p = deck_profile()
>>> adapt(p, Confirmed()) is p
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from .features import FEATURES, LIGHT
from .models import LIGHT_COST, ClassModel
from .palette import CellReads, Palette

ADAPT_BOUND = 3.0
"""How far a class's colour may follow the cells confirmed, in its own learned spreads, in
each feature: a class learned tight moves little."""
ADAPT_WINDOW = 6
"""How many confirmations (accepted grids, fixed cells) are kept: older ones age out."""
TOWARDS = 0.35
"""The share of the way to another class's colour a class may move at most (below a half:
it stays nearer its own)."""
# A sample this many times further from its own class than from another disagrees with its
# label badly (an orange "confirmed" as a ruby); one between the two (a card the palette
# was unsure of, fixed by a player) teaches its class.
_DISAGREE = 1.5
_STRANGER = 4.0  # a sample further than this (root mean square, own spreads) is no card of it
_PRIOR_SAMPLES = 2.0  # the calibrated colour counts as this many samples against today's
_SHORTEN_ROUNDS = 4  # a step shortened this often is dropped: halved three times, then none
_AS_LIGHT = np.array([FEATURES.index(f) for f in ("hue_u", "hue_v", *FEATURES[LIGHT])])
_AS_LOG = np.array([FEATURES.index(f) for f in ("u", "v", "hue_u", "hue_v")])


def adapted_features(palette: Palette) -> np.ndarray:
    """The features that adapt: those of a card's colour the palette tells classes by (its
    ink's hue, and its colour as light where it compares cards so, else its log colour
    without brightness); texture, ink share, edges and frame are the card's own, and the
    brightness is the light's level."""
    return _AS_LIGHT if palette.weights[LIGHT_COST] > 0 else _AS_LOG


@dataclass(frozen=True, eq=False)
class ReadFrom:
    """What a palette read one grid from (the arguments of :meth:`Palette.classify`, cut
    as read): its cells' patches (N, P, P, 3), the bare table's beside it (T, P, P, 3) and
    which cells showed a card's outline (N,) bool. A confirmation keeps it so that colours
    learned can be checked on the very cards that taught them, read as the reader reads."""

    cells: np.ndarray
    table: np.ndarray
    outlined: np.ndarray
    _calibrated: dict[Palette, tuple[str, ...]] = field(
        default_factory=dict, init=False, repr=False)

    def classify(self, palette: Palette) -> CellReads:
        """The cells as ``palette`` reads them."""
        return palette.classify(self.cells, self.table, self.outlined, as_read=True)

    def read(self, palette: Palette) -> tuple[str, ...]:
        """Each cell's reading by ``palette``."""
        return self.classify(palette).labels

    def read_calibrated(self, palette: Palette) -> tuple[str, ...]:
        """:meth:`read`, kept: every adaptation of one calibrated palette asks again."""
        if palette not in self._calibrated:
            self._calibrated.clear()
            self._calibrated[palette] = self.read(palette)
        return self._calibrated[palette]


Grid = tuple[Hashable, ReadFrom, tuple[str, ...], tuple[Hashable, ...]]
"""A confirmation's grid: its source, what its cells were read from, each cell's letter
confirmed (``?``: none) and tag."""


@dataclass(frozen=True, eq=False)
class Confirmed:
    """Cells whose true class the game confirmed, as samples: per sample its ``letters``
    entry, its features (``features``: M, F, as ``CellReads.features`` gives them), the
    confirmation it came from (``sources``: any hashable, one per accepted reading or fix)
    and a ``tags`` entry its owner may use (which card it was). Immutable: every change
    is a new value. Only the samples of the newest ``window`` sources are kept.
    ``grids``: of each source that gave one, what its cells were read from, each cell's
    letter confirmed (``?`` none, or no longer: a card fixed since) and its tag, in the
    order it was read."""

    letters: tuple[str, ...] = ()
    features: np.ndarray = field(default_factory=lambda: np.zeros((0, len(FEATURES))))
    sources: tuple[Hashable, ...] = ()
    tags: tuple[Hashable, ...] = ()
    window: int = ADAPT_WINDOW
    grids: tuple[Grid, ...] = ()

    def __post_init__(self) -> None:
        n = len(self.letters)
        if self.window < 1:
            raise ValueError(f"a window keeps at least 1 confirmation, not {self.window}")
        if self.features.shape != (n, len(FEATURES)) or len(self.sources) != n or (
                len(self.tags) != n):
            raise ValueError(f"{n} samples need {n} features of {len(FEATURES)}, sources, tags")

    def __len__(self) -> int:
        return len(self.letters)

    def __repr__(self) -> str:
        return (f"<Confirmed {len(self)} samples of {''.join(sorted(set(self.letters)))} from "
                f"{len(set(self.sources))} confirmations, window {self.window}>")

    def add(self, source: Hashable, letters: Sequence[str], features: np.ndarray,
            tags: Sequence[Hashable] | None = None, read_from: ReadFrom | None = None,
            ) -> Confirmed:
        """These samples added as one confirmation (``source``); the oldest confirmation
        beyond the window dropped. Cells with no class (``.`` empty, ``?``) are left out.
        ``read_from``: what the cells (all of them, in this order) were read from."""
        x = np.asarray(features, dtype=np.float64).reshape(len(letters), len(FEATURES))
        tags = tuple(tags) if tags is not None else (None,) * len(letters)
        keep = [i for i, ch in enumerate(letters) if ch not in (".", "?")]
        grids = self.grids
        if read_from is not None and keep and len(read_from.cells) == len(letters):
            grids = (*grids, (source, read_from, tuple(letters), tags))
        out = replace(self, letters=self.letters + tuple(letters[i] for i in keep),
                      features=np.concatenate([self.features, x[keep]]),
                      sources=self.sources + (source,) * len(keep),
                      tags=self.tags + tuple(tags[i] for i in keep), grids=grids)
        newest = list(dict.fromkeys(reversed(out.sources)))[: self.window]
        return out.keeping(lambda s, tag, letter: s in newest)

    def keeping(self, keep: Callable[[Hashable, Hashable, str], bool]) -> Confirmed:
        """Only the samples ``keep(source, tag, letter)`` says (a confirmation taken back,
        a card fixed since: dropped); in the grids, a cell whose sample is dropped is
        confirmed no more (``?``), and a grid with none left is dropped."""
        kept = [i for i, k in enumerate(zip(self.sources, self.tags, self.letters, strict=True))
                if keep(*k)]
        grids = []
        for source, read_from, letters, tags in self.grids:
            now = tuple(x if x in ".?" or keep(source, tag, x) else "?"
                        for x, tag in zip(letters, tags, strict=True))
            if any(x not in ".?" for x in now):
                grids.append((source, read_from, now, tags))
        if len(kept) == len(self) and [g[2] for g in grids] == [g[2] for g in self.grids]:
            return self
        return replace(self, letters=tuple(self.letters[i] for i in kept),
                       features=self.features[kept],
                       sources=tuple(self.sources[i] for i in kept),
                       tags=tuple(self.tags[i] for i in kept), grids=tuple(grids))


def agreeing(palette: Palette, letter: str, features: np.ndarray) -> np.ndarray:
    """(M,) bool: which samples (M, F) of ``letter`` agree with the palette's class: not
    ``_DISAGREE`` times further from its colour than from any other class's (each in that
    class's own spreads, over the :func:`adapted_features` the camera did not clip), and
    not far from it (a hand over the cell)."""
    f = adapted_features(palette)
    x = features[:, f]
    seen = ~np.isnan(x)
    count = seen.sum(axis=1)
    models = {m.letter: m for m in palette.models if m.letter != "."}
    own = models[letter]

    def spreads(m: ClassModel) -> np.ndarray:
        z2 = np.where(seen, (x - m.mean[f]) / m.scale[f], 0.0) ** 2
        return np.sqrt(z2.sum(axis=1) / np.maximum(count, 1))

    held = palette.veil_held(letter) if f is _AS_LIGHT else 0.0
    if held > 0.0:
        # a class learned from one card under a glare: its cards seen without it are up to
        # that much white light darker in every channel (as the reader fits them)
        light = np.isin(f, np.arange(LIGHT.start, LIGHT.stop))
        read = seen[:, light]
        off = np.where(read, x[:, light] - own.mean[f][light], 0.0).sum(axis=1)
        veil = np.clip(off / np.maximum(read.sum(axis=1), 1), -held, 0.0)
        x = x.copy()
        x[:, light] -= veil[:, None]
    d = spreads(own)
    ok = (d <= _STRANGER) & (count > 0)
    for other in models.values():
        if other is not own:
            ok &= d <= _DISAGREE * spreads(other)
    return ok


def adapt(calibrated: Palette, confirmed: Confirmed, bound: float = ADAPT_BOUND) -> Palette:
    """The calibrated palette with each class's colour moved towards the samples confirmed
    for it (their median in each feature the camera did not clip, weighed against the
    calibration as ``_PRIOR_SAMPLES``), at most ``bound`` of its own spread in each feature
    and less than ``TOWARDS`` of the way to any other class; classes with no agreeing
    sample, and the bare table, stay as calibrated. ``calibrated`` itself when nothing
    moves."""
    f = adapted_features(calibrated)
    models = list(calibrated.models)
    cards = [m for m in models if m.letter != "."]
    steps: dict[int, np.ndarray] = {}
    held: list[tuple[str, np.ndarray]] = []  # the agreeing samples of each class
    for i, m in enumerate(models):
        if m.letter == "." or m.letter not in confirmed.letters:
            continue
        mine = np.array([ch == m.letter for ch in confirmed.letters])
        x = confirmed.features[mine]
        x = x[agreeing(calibrated, m.letter, x)]
        held.append((m.letter, x))
        x = x[:, f]
        step = np.zeros(len(f))
        for j in range(len(f)):
            seen = x[~np.isnan(x[:, j]), j]
            if len(seen):
                w = len(seen) / (len(seen) + _PRIOR_SAMPLES)
                step[j] = w * (float(np.median(seen)) - m.mean[f[j]]) / m.scale[f[j]]
        step = np.clip(step, -bound, bound)  # in its own spreads
        for other in cards:
            if other is m:
                continue
            way = (other.mean[f] - m.mean[f]) / m.scale[f]
            part = float(step @ way) / max(float(way @ way), 1e-12)
            if part > TOWARDS:
                step *= TOWARDS / part
        if step.any():
            steps[i] = step
    if not steps:
        return calibrated
    return _holding(calibrated, steps, held, confirmed.grids)


def _moved(calibrated: Palette, steps: dict[int, np.ndarray], share: dict[int, float]
           ) -> list[ClassModel]:
    """The calibrated models, each class ``i`` moved ``share[i]`` of its ``steps[i]``
    (in its own spreads, over the adapted features)."""
    f = adapted_features(calibrated)
    models = list(calibrated.models)
    for i, step in steps.items():
        m = models[i]
        mean = m.mean.copy()
        mean[f] += share[i] * step * m.scale[f]
        models[i] = replace(m, mean=mean)
    return models


def _holding(calibrated: Palette, steps: dict[int, np.ndarray],
             held: Sequence[tuple[str, np.ndarray]], grids: Sequence[Grid] = ()) -> Palette:
    """The palette moved by ``steps``, shortened (each step halved, then dropped) while a
    card the game confirmed would be read as another card, sure, where the calibrated
    palette did not read it so: read again from what it was read from (``grids``), or else
    (no confirmation kept them) as a sample nearer another class, by the weights the reader
    compares cards with. Every class moves towards its own samples' median, but a card
    that looks unlike its class's other cards (a ruby in a lamp's corner, half-way to an
    amber) may be left behind as its class moves to the rest while the neighbouring class
    moves towards it: the reader would then read a card the game confirmed as the other
    one, sure. The two classes are shortened first; when neither moves, the classes that
    do (a third class moving away let the card fall to another)."""
    index = {m.letter: i for i, m in enumerate(calibrated.models) if m.letter != "."}
    # one picture confirmed alike twice (a tracker keeps a reading while nothing moves)
    # is read once
    unique = list({(id(g[1]), g[2]): g for g in grids}.values())
    before = [read_from.read_calibrated(calibrated) for _, read_from, _, _ in unique]
    share = dict.fromkeys(steps, 1.0)
    while True:
        models = _moved(calibrated, steps, share)
        palette = calibrated.with_models(models)
        lost = _lost(calibrated, models, held) if not unique else set()
        for (_, read_from, letters, _), was in zip(unique, before, strict=True):
            for truth, old, new in zip(letters, was, read_from.read(palette), strict=True):
                if new != truth and new in index and truth in index and old != new:
                    lost |= {index[truth], index[new]}
        if not lost:
            return palette
        moving = {i for i, part in share.items() if part > 0}
        for i in (lost & moving) or moving:
            share[i] = share[i] / 2 if share[i] > 0.5 ** (_SHORTEN_ROUNDS - 1) else 0.0
        if not any(share.values()):
            return calibrated


def _lost(calibrated: Palette, models: Sequence[ClassModel],
          held: Sequence[tuple[str, np.ndarray]]) -> set[int]:
    """The indices of the classes (a sample's own and the one it now lies nearer) where a
    confirmed sample of ``held`` nearest its own class under ``calibrated`` lies nearer
    another class under ``models``."""
    index = {m.letter: i for i, m in enumerate(models) if m.letter != "."}
    out: set[int] = set()
    for letter, x in held:
        if not len(x):
            continue
        own = index[letter]
        was = _weighted(calibrated, calibrated.models, x).argmin(axis=1) == own
        now = _weighted(calibrated, models, x).argmin(axis=1)
        for k in np.unique(now[was & (now != own)]).tolist():
            out |= {own, k}
    return out


def _weighted(palette: Palette, models: Sequence[ClassModel], x: np.ndarray) -> np.ndarray:
    """(M, K) each sample's squared distance to each card class of ``models`` (the bare
    table as infinitely far), in the class's own spreads and the palette's weights,
    features the camera clipped (NaN) left out."""
    out = np.full((len(x), len(models)), np.inf)
    for k, m in enumerate(models):
        if m.letter == ".":
            continue
        z = (x - m.mean) / m.scale
        out[:, k] = (palette.weights * np.where(np.isnan(z), 0.0, z) ** 2).sum(axis=1)
    return out
