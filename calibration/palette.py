"""The colour palette: what each class of card looks like, learned from samples.

A class is whatever tells its cards apart (a coloured field, coloured art on a white card,
a sticker on black plastic); a palette holds, per class letter, a Gaussian over the
features of :mod:`calibration.features` (:mod:`calibration.models`). Reading cells:

1. The light (:mod:`calibration.light`): read on each card's white rim where the cards show
   one, guessed where they show none or the camera clipped it. With no white rims a light
   cannot be told from a camera's tone curve turned steeper or flatter, which moves each
   colour its own way: the scene is read as it is and as each of ``TONE_CURVES`` would
   have shown it, and a card read otherwise by two readings that fit nearly as well is
   unsure.
2. Each cell gets the class of highest likelihood. The spread each class allows a cell is
   the class's own, plus what camera noise does to that cell's colour (the blue of a yellow
   card under a warm lamp is a few noisy levels) and what is unsure about its light (a cell
   with no white rim of its own may lie in a shadow). Its confidence is that class's
   posterior among all classes (the odds flattened when even the best class fits badly),
   times a factor falling to 0 as the cell's distance to the class grows past
   ``max_distance`` (out of distribution: a hand, a glare spot, a foreign object; the
   features that tell a card from no card count there too: its white border showing on
   every side, one colour all over, standing out from the table), and to 0 as the cell
   lies near halfway to the next class. Below ``min_confidence`` the cell reads ``?``:
   a card between two classes (yellow and orange under a lamp no one calibrated for) is
   unsure, never a confident wrong letter.
3. Where cells read ``?`` and the cards read sure show that the camera renders colours
   otherwise than it did at calibration (a flatter tone curve, duller colours: each class
   moved its own way, :mod:`calibration.rendering`), the ``?`` cells are read again in the
   scene put back as the calibrated camera would have shown it; a card read sure keeps its
   reading.
4. ``.`` (empty: the table shows) competes as one more class, modelled on the ``table``
   patches of the same scene when given, else on cells labelled ``.`` when learning; the
   table patches also tell the light apart from one that makes the cloth look like a card.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from ._stats import median
from .colour import CLIPPED, decode
from .deck import NOMINAL_RGB
from .errors import CameraError
from .features import COLOUR, FEATURES, LIGHT, Scene, prepare_with_table
from .files import check_header, load_json_file, write_json_atomic
from .light import RIVAL_MISFIT, Light, LightGuess, light_voters
from .models import (
    EDGES,
    EMPTY,
    LIGHT_COST,
    PRIOR_SCALE,
    Cells,
    ClassModel,
    Comparison,
    classes,
    compare,
    fit_class,
    sheened,
    veil_held,
)
from .rendering import Rendering, ToneCurve, as_log, worth_undoing
from .rendering import learn_rendering as rendering_of
from .whites import SceneWhites

VERSION = 2
"""Version of the palette file format; other versions are refused, not guessed at. Version
2 measures cells that show no white of their own (stickers, stones) otherwise than 1 did
(against a grey, and the scene's white no longer wrapped round in 8 bits); cards with white
borders are measured as before, so their version 1 palettes are read as they are."""

UNSURE = "?"

# The table seen in this very scene needs less benefit of the doubt than a card class,
# (a hand over an empty cell must not pass for the table).
_TABLE_PRIOR = PRIOR_SCALE * 0.6
TONE_CURVES = (1.3, 1 / 1.3)
"""How much steeper or flatter than at calibration a camera's tone curve may have turned
(a phone's contrast, an exposure program's curve), as a gamma: a scene with no white rims
is also read as the camera would have shown it so (``Palette._under_tone_curves``)."""
_RIVAL_CONFIDENCE = 0.3
_LOG_CLIP = float(np.log(CLIPPED))  # a white this bright was clipped: a lower bound
_RENDERING_ROUNDS = 2  # a scene put back through a rendering learned, at most
_NEAR_CLIP = CLIPPED - 6  # a body this bright may be clipped (as the features read it)
_TABLE_OUTLIER = 3.0  # a table patch this many spreads from the median one is no bare table
_AMBIGUOUS = 0.45  # a cell this far of the way from its nearest class to the next is unsure
_EMPTY_STRICTNESS = 0.35  # "." needs a cell within this share of max_distance of the table
STRANGER_WEIGHT = 0.5
"""The least a feature counts in telling a stranger (a hand) from the classes."""
_EDGES_WEIGHT = 1.5  # a card's white border hidden on one side: a hand over it

DEFAULT_MAX_DISTANCE = 40.0
DEFAULT_MIN_CONFIDENCE = 0.6


class PaletteError(CameraError):
    """A palette cannot be made, read or used: the message says what is wrong."""


@dataclass(frozen=True)
class CellReads:
    """Per cell, in the order given: a class letter, ``.`` or ``?``; and a confidence 0..1.
    ``features``: each cell's features (N, F) in the light the palette read the scene
    under, NaN in its colour where the camera clipped the card (or its white, the light
    guessed there: see :meth:`Palette.classify`): what a palette learns from
    (:mod:`calibration.adapt`); None when not worked out. ``nearest``: the card class each
    cell is likeliest to be, read ``?`` or not (the best guess at a card the palette is
    unsure of: it is asked of cells where a card's outline shows, so never the bare
    table), or ``?`` where the cell looks like no card at all (skin over a card's outline);
    empty when not worked out. A cell read anew as a rendering undone
    (:meth:`Palette.classify`) is likeliest what it was read as."""

    labels: tuple[str, ...]
    confidence: np.ndarray
    features: np.ndarray | None = None
    nearest: tuple[str, ...] = ()
    best: tuple[str, ...] = ()
    """The likeliest class of each cell, the bare table (``.``) among them, however unsure
    (empty when not worked out)."""
    sheen: tuple[str, ...] = ()
    """Where a cell's white rim shows a lamp's sheen, the cell read as if the white light on
    it were that sheen on a glossy card (:func:`calibration.models.sheened`); ``?``
    elsewhere, and where a reading nearly as good doubts it. Empty when not worked out (no
    cell read ``?``, none whose rim shows a sheen, cards that are not flat). Only a lamp's
    reflection, a card or two, may be read so: see :func:`vision.reader.read_cells`."""


class _Read(NamedTuple):
    """What ``Palette._read`` tells of a scene: its cells read, the light read on them, the
    cells seen in it, the light on the bare table (None without one), how badly the light
    fits (``Palette._tries``), and the scene read (its cells and bare table)."""

    reads: CellReads
    light: Light
    seen: Cells
    table_light: Light | None
    misfit: float
    cells: Scene
    bare: Scene


def stranger_floor(weights: np.ndarray) -> np.ndarray:
    """Each feature weight at least STRANGER_WEIGHT, the light features only as the palette
    uses them (the light cost, or none)."""
    out = np.maximum(weights, STRANGER_WEIGHT)
    out[LIGHT] = weights[LIGHT]
    return out


def stranger_weights(weights: np.ndarray, white_borders: bool) -> np.ndarray:
    """Feature weights for telling a stranger (a hand) from every class (see
    :attr:`Palette.stranger_weights`)."""
    out = stranger_floor(weights)
    out[EDGES] = _EDGES_WEIGHT if white_borders else 0.0
    return out


class Palette(LightGuess):
    """Named colour classes and how to tell them apart; immutable. See the module docstring."""

    def __init__(
        self,
        models: Iterable[ClassModel],
        white: Sequence[float] | np.ndarray = (0.0, 0.0, 0.0),
        grey: Sequence[float] | np.ndarray = (0.0, 0.0, 0.0),
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
            if len(m.at_least) != 3 or not all(isinstance(v, (bool, np.bool_))
                                               for v in m.at_least):
                raise PaletteError(f"class {m.letter!r}: at_least needs three true or false "
                                   "values, one per channel")
            if m.letter == EMPTY and any(m.at_least):
                raise PaletteError("the bare table ('.') has no colour the camera could clip: "
                                   "its at_least must be all false")
        self._models = models
        self._means = np.stack([m.mean for m in models])
        self._scales = np.stack([m.scale for m in models])
        self._white = np.asarray(white, dtype=np.float64)
        # learned against whites the camera clipped in every channel: their light a guess too
        self._learned_clipped = bool((self._white >= _LOG_CLIP - 1e-6).all())
        self._grey = np.asarray(grey, dtype=np.float64)
        for name, colour in (("white", self._white), ("grey", self._grey)):
            if colour.shape != (3,) or not np.all(np.isfinite(colour)):
                raise PaletteError(f"a palette's {name} is three finite numbers")
        self.max_distance = float(max_distance)
        self.min_confidence = float(min_confidence)
        if not (math.isfinite(self.max_distance) and self.max_distance > 0):
            raise PaletteError(f"max_distance must be above 0, not {self.max_distance}")
        if not 0.0 <= self.min_confidence <= 1.0:  # NaN fails too
            raise PaletteError(f"min_confidence must be 0 to 1, not {self.min_confidence}")
        self.white_borders = bool(white_borders)
        self.weights = np.ones(len(FEATURES)) if weights is None else np.asarray(weights, float)
        if self.weights.shape != (len(FEATURES),) or not (
            np.all(self.weights >= 0) and np.all(np.isfinite(self.weights))
        ):
            raise PaletteError(f"a palette needs {len(FEATURES)} non-negative feature weights")
        self._cards = np.array([m.letter != EMPTY for m in models])
        self._shaded = np.array([m.shaded for m in models])
        self._table_scale = self._scales[self._cards].max(axis=0)
        as_light = bool(self.weights[LIGHT_COST] > 0)
        unveil = veil_held(self._means[:, LIGHT], np.array([m.samples for m in models]),
                           _nominal_light(m.letter for m in models))
        at_least = np.array([m.at_least for m in models], bool) & self._cards[:, None]
        self._classes = classes(self._means, self._scales, self._cards, self._shaded,
                                as_light=as_light, unveil=unveil, at_least=at_least)
        # The light is searched for with no class holding a veil: a class that may fit cards
        # less veiled than itself would give cells that fit nothing a cheap place under a
        # wrong light (a light lifted in red won, reds read as greens and violets). The
        # cells are read in the light found with it.
        self._search = (self._classes if not (as_light and unveil.any()) else
                        classes(self._means, self._scales, self._cards, self._shaded,
                                as_light=as_light, at_least=at_least))
        self._stranger = stranger_weights(self.weights, self.white_borders)
        self._stranger.flags.writeable = False
        # the palette as calibrated, which this one's classes were moved from (with_models):
        # what a camera's rendering since calibration is learned against
        self._origin: Palette = self

    # -- what it holds -------------------------------------------------------------------

    @property
    def classes(self) -> tuple[str, ...]:
        """The card classes' letters (``.`` not included even when the palette learned it)."""
        return tuple(m.letter for m in self._models if m.letter != EMPTY)

    @property
    def models(self) -> tuple[ClassModel, ...]:
        return self._models

    def veil_held(self, letter: str) -> float:
        """The white light the class ``letter``'s colour may hold from a glare on the one
        card it was learned from (:func:`calibration.models.veil_held`): its cards may be
        that much less veiled. 0 for a class that holds none, or not compared as light."""
        unveil = self._classes.unveil
        index = [m.letter for m in self._models].index(letter)
        return 0.0 if unveil is None else float(unveil[index])

    def nearer_than_class(self, x: np.ndarray, other: np.ndarray, letters: Sequence[str]
                          ) -> np.ndarray:
        """(N,) bool: whether each cell of features ``x`` (N, F: ``CellReads.features``),
        read as ``letters``, lies nearer the features ``other`` (N, F) than the centre of its
        class, in that class's own spreads and the stranger weights (what tells a card from
        what is none). False where either is unknown (NaN: clipped) or the class is shaded
        (its depth of colour tells nothing)."""
        by_letter = {m.letter: m for m in self._models}
        out = np.zeros(len(letters), bool)
        for i, letter in enumerate(letters):
            m = by_letter.get(letter)
            if m is None or m.shaded:
                continue
            own = float((self._stranger * ((x[i] - m.mean) / m.scale) ** 2).sum())
            near = float((self._stranger * ((x[i] - other[i]) / m.scale) ** 2).sum())
            out[i] = near < own  # NaN compares False
        return out

    def with_models(self, models: Iterable[ClassModel]) -> Palette:
        """This palette with other class models (the same letters, say, moved a little:
        :func:`calibration.adapt.adapt`), its white, weights and thresholds kept."""
        out = Palette(models, white=self._white, grey=self._grey, max_distance=self.max_distance,
                      min_confidence=self.min_confidence, white_borders=self.white_borders,
                      weights=self.weights)
        out._origin = self._origin
        return out

    @property
    def samples(self) -> int:
        """How many cells the palette learned from (0 for the default deck profile)."""
        return sum(m.samples for m in self._models)

    @property
    def over_exposed(self) -> bool:
        """Learned from a picture whose white rims the camera clipped in every channel: it
        showed no colour of the light, only "at least this bright", so every reading must
        guess the light, and close colours (yellow and orange, pink and red) are told
        apart less surely than under a picture one step darker."""
        return self._learned_clipped and self.white_borders and self.samples > 0

    def __repr__(self) -> str:
        return f"<Palette {''.join(self.classes)} from {self.samples} samples>"

    # -- reading cells -------------------------------------------------------------------

    def classify(
        self, patches: np.ndarray, table: np.ndarray | None = None,
        cards: np.ndarray | None = None, *, as_read: bool = False,
    ) -> CellReads:
        """Read each patch (one scene: (N, P, P, 3) BGR, or (N, 3) BGR colours).

        ``table``: patches of bare table from the same scene (may be None or empty); with
        them, a cell showing the table reads ``.``. ``cards``: (N,) bool, the cells where a
        card is surely seen (its outline found): where there are enough of them, only they
        guess the light, so that a hand over other cells cannot pull the light towards
        making it look like a card (skin fits a red card better under a redder light).
        ``as_read``: the patches (and table patches) hold only the pixels a palette reads
        of them (every n-th of rows and columns, :func:`calibration.reading_step`), cut so:
        cutting fewer pixels costs less.
        """
        outlined = None if cards is None else np.asarray(cards, bool).reshape(-1)
        cells, bare = prepare_with_table(patches, table, as_read, light_voters(outlined))
        if not len(cells):
            return CellReads((), np.zeros(0))
        first = self._read(cells, bare, outlined)
        # one card alone is as well explained by a light as by a tone curve (a stone)
        if not first.light.rims and sum(x != EMPTY for x in first.reads.labels) > 1 \
                and patches.ndim == 4 and patches.dtype == np.uint8:
            first = self._under_tone_curves(patches, table, as_read, outlined, first)
        reads, light, seen, table_light, _, cells, bare = first
        # A card's colour against a white the camera clipped, the light guessed, tells how far
        # off the guess was as much as what the card is: it teaches only a palette that
        # learned its colours against clipped whites too, like for like (learned from, a
        # drifting guess pulled a red class's red 3 spreads down, and reds read '?').
        guessed = light.rims and not self._learned_clipped and light.free > 0
        if UNSURE in reads.labels:
            reads = self._as_rendered(cells, bare, reads, light, seen, outlined, table_light)
        return CellReads(reads.labels, reads.confidence, _as_seen(seen, guessed), reads.nearest,
                         reads.best, first.reads.sheen)

    def _read(self, cells: Scene, bare: Scene, outlined: np.ndarray | None) -> _Read:
        """The scene read (``_Read``). ``outlined``: (N,) bool, the cells where a card's
        outline shows, or None."""
        voters = light_voters(outlined)
        light, seen, comparison, rivals, misfit = self._read_light(cells, bare, voters)
        cards_alone = comparison  # before the bare table joins it
        models = self._models
        bare_light = None
        table: Comparison | None = None
        if len(bare):
            bare_light = self._light_for(bare, light.shift)
            empty = _bare_table(bare.features(bare_light.ref))
            table_model = fit_class(EMPTY, empty, prior=_TABLE_PRIOR)
            # The bare table is read in the scene's typical light, and so is each cell when
            # held against it: an empty cell's own "white" is only cloth whose hue happens
            # to match the lamp's in the channels the camera did not clip. That light lies
            # alike on every bare patch: the table's, on as many patches as there are cells.
            as_table = self._cells(cells, bare_light.on(len(cells)))
            table = compare(as_table, table_model.mean[None], table_model.scale[None],
                            np.zeros(1, bool))
            comparison = comparison.only(self._cards).joined(table)
            models = tuple(m for m in models if m.letter != EMPTY) + (table_model,)
        reads = self._doubt_rivals(self._decide(comparison, models, outlined), rivals)
        # A card under a lamp's sheen stands out from the cloth less than its colour would
        # and reads '?'; read as if the white light on it were the sheen, it may read
        # sure. Only where its white rim shows the lamp too: else a pink, white light on a
        # red, would read red so.
        glossy = _lamp_on_rim(cells.whites) if UNSURE in reads.labels else np.zeros(0, bool)
        sheen = sheened(cards_alone, seen, self._classes) if glossy.any() else None
        if sheen is not None:
            if table is not None:
                sheen = sheen.only(self._cards).joined(table)
            # a light that explains the scene nearly as well doubts it as much
            labels = self._doubt_rivals(self._decide(sheen, models, outlined), rivals).labels
            reads = replace(reads, sheen=tuple(np.where(glossy, labels, UNSURE).tolist()))
        return _Read(reads, light, seen, bare_light, misfit, cells, bare)

    def _as_rendered(
        self, cells: Scene, bare: Scene, reads: CellReads, light: Light, seen: Cells,
        outlined: np.ndarray | None, table_light: Light | None,
    ) -> CellReads:
        """The cells read ``?`` read again as the palette's own camera would have shown
        them, where the cards read sure show that this camera renders colours otherwise
        (:mod:`calibration.rendering`): a tone curve or a colour matrix changed since
        calibration moves each class its own way, which no light explains. A rendering that
        reads otherwise a card read sure that lies on it contradicts itself: it is not
        trusted at all. Nor is a map in log reflectance that reads otherwise a card it never
        saw (a channel clipped, its colour only "at least"): a straight line through the
        colours it was shown, it guesses beyond them (pale pinks brighter than any card it
        saw read violet under a map of a steeper tone curve); a tone curve moves each
        channel on its own, pinned at black and full scale, and puts such a card back as
        surely as any. A cell read sure (a card, or the bare table) that the rendering was
        not learned from (left out far off it; for a curve also unseen: clipped, outline not
        found, a shaded class) and reads otherwise is read ``?``, likeliest what the
        rendering reads (under a phone's S curve pinks read red, sure, as calibrated: the
        curve the other cards show leaves them out and reads them pink); a next round, with
        the cards read again among those that show the rendering, may read it."""
        first = np.array(reads.labels)
        labels, confidence = first.copy(), np.asarray(reads.confidence, float)
        likeliest = first.copy()  # of a cell sent to '?': what the rendering read it as
        usable = ~np.any(seen.rgb >= seen.cap - 1e-6, axis=1)
        voters = light_voters(outlined)
        if voters is not None:
            usable &= voters
        calibrated = self._origin
        colours = as_log(calibrated._classes.linear[calibrated._cards])
        table_ref = None if table_light is None else table_light.ref
        # the cards read again join those read sure in showing the rendering, once
        for _ in range(_RENDERING_ROUNDS):
            k = calibrated._letters_index(labels)
            sure = usable & (k >= 0)
            sure[sure] &= ~calibrated._shaded[k[sure]]
            learned = rendering_of(calibrated._classes.linear[k[sure]], cells.body[sure],
                                   np.exp(light.ref[sure]), k[sure])
            if learned is None or not worth_undoing(learned.rendering, colours):
                break
            rendering = learned.rendering
            undone_bare = bare if table_ref is None else _undone(bare, rendering, table_ref)
            again, *_ = calibrated._read(_undone(cells, rendering, light.ref), undone_bare,
                                           outlined)
            now = np.array(again.labels)
            read = labels != UNSURE
            otherwise = read & (now != labels) & (now != UNSURE)
            on_it = np.zeros(len(labels), bool)
            on_it[sure] = learned.on_it
            unseen = otherwise & ~sure
            if (otherwise & on_it).any() or (unseen.any() and isinstance(rendering, Rendering)):
                break  # it reads otherwise a card that lies on it, or guesses beyond it
            labels = np.where(otherwise, UNSURE, labels)
            likeliest = np.where(otherwise, now, likeliest)
            confidence = np.where(otherwise, np.minimum(confidence, _RIVAL_CONFIDENCE), confidence)
            take = ~read & (now != UNSURE)
            if not (take | otherwise).any():
                break
            labels = np.where(take, now, labels)
            confidence = np.where(take, again.confidence, confidence)
        if (labels == first).all():
            return reads
        changed = labels != first
        doubted = changed & (labels == UNSURE)
        best = np.where(doubted, likeliest, np.where(changed, labels, np.array(reads.best)))
        # the likeliest card: never the bare table
        card = doubted & (likeliest != EMPTY)
        nearest = np.where(card, likeliest,
                           np.where(changed & ~doubted, labels, np.array(reads.nearest)))
        return CellReads(tuple(labels.tolist()), confidence, nearest=tuple(nearest.tolist()),
                         best=tuple(best.tolist()))

    def _letters_index(self, labels: np.ndarray) -> np.ndarray:
        """(N,) each label's card class's index among the models, -1 for none (``?``, ``.``)."""
        index = {m.letter: i for i, m in enumerate(self._models) if m.letter != EMPTY}
        return np.array([index.get(str(x), -1) for x in labels.tolist()], dtype=np.intp)

    def _under_tone_curves(
        self, patches: np.ndarray, table: np.ndarray | None, as_read: bool,
        outlined: np.ndarray | None, first: _Read,
    ) -> _Read:
        """A scene with no white rims read as it is (``first``) and as the camera would have
        shown it with each of ``TONE_CURVES``: as it is, unless one of those fits so much
        better that as it is fits no better than a rival (``RIVAL_MISFIT``) would; a card
        read otherwise in a reading that fits nearly as well as the one taken reads ``?``.
        A light moves each channel of every cell alike; a tone curve steeper than at
        calibration moves each colour away from its white its own way, which no light
        undoes, and with no white rim beside the cards nothing tells the two apart but how
        well the colours then fit (a face of reds and oranges, the curve steeper: the
        oranges read red, sure, under a light guessed redder).
        """
        tried = [first]
        voters = light_voters(outlined)
        for gamma in TONE_CURVES:
            toned_table = None if table is None else _toned(table, gamma)
            tried.append(self._read(*prepare_with_table(_toned(patches, gamma), toned_table,
                                                        as_read, voters), outlined))
        best = min(tried, key=lambda r: r.misfit)
        if first.misfit <= RIVAL_MISFIT * best.misfit:
            best = first  # as it is, unless that is not even a rival
        letters = np.array(best.reads.labels)
        doubt = np.zeros(len(letters), bool)
        for other in tried:
            if other is not best and other.misfit <= RIVAL_MISFIT * best.misfit:
                theirs = np.array(other.reads.labels)
                doubt |= (theirs != letters) & ~np.isin(theirs, (UNSURE, EMPTY))
        doubt &= ~np.isin(letters, (UNSURE, EMPTY))
        return best._replace(reads=_doubted(best.reads, doubt))

    def _doubt_rivals(self, reads: CellReads, rivals: Sequence[Comparison]) -> CellReads:
        """A card read one way in the light chosen and another way in a light that explains
        the scene nearly as well is read ``?``: without white borders, a scene of few
        colours (a cube face of yellow and green) can be explained by a bluer light over
        white and blue as well as by the true one, and which one won says nothing."""
        if not rivals:
            return reads
        letters = np.array([m.letter for m in self._models])
        doubt = np.zeros(len(reads.labels), bool)
        for rival in rivals:
            d2 = rival.distances(self.weights)
            d2[:, ~self._cards] = np.inf
            doubt |= letters[d2.argmin(axis=1)] != np.array(reads.labels)
        read = np.array([lab not in (UNSURE, EMPTY) for lab in reads.labels])
        return _doubted(reads, doubt & read)

    def scene_features(self, scene: Scene) -> np.ndarray:
        """The scene's features (N, F) in the light this palette reads it under."""
        return self._read_light(scene)[1].x

    @property
    def stranger_weights(self) -> np.ndarray:
        """Feature weights for telling a stranger (a hand) from every class: a feature that
        does not tell the classes apart (a flat deck's smoothness) still tells a card from
        what is no card, so none counts for less than STRANGER_WEIGHT here. A white rim
        going missing says "something over the card" only where cards have white rims.
        Worked out once (read-only)."""
        return self._stranger

    def _decide(self, comparison: Comparison, models: Sequence[ClassModel],
                outlined: np.ndarray | None = None) -> CellReads:
        d2 = comparison.distances(self.weights)
        norms = comparison.log_norms(self.weights)
        table = np.array([m.letter == EMPTY for m in models])
        if outlined is not None and outlined.any() and 0 < table.sum() < len(table):
            # Where a card's outline shows, the cell holds a card (the reader never takes
            # "." there). The bare table's spread comes from a few patches of the cloth
            # round the grid, as alike as one cloth a hand apart: its tightness alone must
            # not outweigh a card it fits worse (an orange nearer its class than the cloth
            # lost the odds to the cloth, then read '?'). Elsewhere that tightness stays:
            # skin fits the cloth's odds no better, and reads '?', not as an orange.
            norms = norms.copy()
            norms[np.ix_(outlined, table)] = median(norms[outlined][:, ~table], axis=1)[:, None]
        loglik = -0.5 * d2 - norms
        loglik -= loglik.max(axis=1, keepdims=True)
        # A cell that fits even its best class badly is no clean draw from these Gaussians:
        # the odds between two classes then say less, as if the spreads were wider.
        fits = d2.min(axis=1, keepdims=True) / max(float(self.weights.sum()), 1.0)
        post = np.exp(loglik / np.maximum(fits, 1.0))
        post /= post.sum(axis=1, keepdims=True)
        best = post.argmax(axis=1)
        rows = np.arange(len(d2))
        strange = comparison.distances(self.stranger_weights)
        dist = strange[rows, best]
        # The table is seen in this very frame: a cell reads "." only if it looks just like it.
        limit = np.array(
            [self.max_distance * (_EMPTY_STRICTNESS if m.letter == EMPTY else 1.0) for m in models]
        )[best]
        inside = 1.0 / (1.0 + np.exp(_clip50((dist - limit) / (limit / 8.0))))
        # Between two classes: where the cell lies on the way from the nearest class to the
        # next (0 on the first, 1/2 halfway), however sure the odds seem.
        if d2.shape[1] > 1:
            # the way from the class read to the nearest other one: past halfway when the
            # odds chose a class the cell is further from (a tight table beside a wide class)
            near = np.sqrt(np.maximum(d2[rows, best], 0.0))
            others = d2.copy()
            others[rows, best] = np.inf
            other = np.sqrt(np.maximum(others.min(axis=1), 0.0))
            way = near / np.maximum(near + other, 1e-9)
            inside *= 1.0 / (1.0 + np.exp(_clip50((way - _AMBIGUOUS) / 0.02)))
        confidence = post[rows, best] * inside
        read = [models[k].letter for k in best.tolist()]
        labels = tuple(
            x if c >= self.min_confidence else UNSURE
            for x, c in zip(read, confidence.tolist(), strict=True)
        )
        # The guess at a card the cell may hold: a green card on green cloth may look more
        # like the cloth than like any card, but where its outline shows it is a card, if
        # it looks like one at all (skin over a card's outline is no card's colour).
        card = np.array([m.letter != EMPTY for m in models])
        likeliest = np.where(card, loglik, -np.inf).argmax(axis=1) if card.any() else best
        like_one = strange[rows, likeliest] <= self.max_distance
        nearest = tuple(models[k].letter if ok else UNSURE
                        for k, ok in zip(likeliest.tolist(), like_one.tolist(), strict=True))
        return CellReads(labels, confidence, nearest=nearest, best=tuple(read))

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
                    "shaded": m.shaded,
                    "at_least": [bool(v) for v in m.at_least],
                }
                for m in self._models
            ],
        }

    @classmethod
    def from_json(cls, obj: object) -> Palette:
        if isinstance(obj, dict) and obj.get("format") == "nizam-palette" and obj.get(
            "version"
        ) == 1:
            if obj.get("white_borders") is not True:
                raise PaletteError("palette version 1 measured stickers and stones otherwise than "
                                   "this version does; calibrate again")
            obj = {**obj, "version": VERSION}
        obj = check_header(obj, "nizam-palette", "palette", VERSION, PaletteError)
        if obj.get("features") != list(FEATURES):
            raise PaletteError("palette was made with other features; calibrate again")
        try:
            models = [
                ClassModel(
                    _letter(c),
                    _held(c["mean"], f"the mean of class {c['letter']!r}"),
                    _held(c["scale"], f"the scale of class {c['letter']!r}"),
                    int(c["samples"]),
                    bool(c.get("shaded", False)),
                    _channels_at_least(c),
                )
                for c in obj["classes"]
            ]
            return cls(
                models,
                white=_held(obj["white"], "its white").reshape(3),
                grey=_held(obj["grey"], "its grey").reshape(3),
                max_distance=float(_held(obj["max_distance"], "its max_distance")),
                min_confidence=float(obj["min_confidence"]),
                white_borders=bool(obj["white_borders"]),
                weights=_held(obj["weights"], "its weights"),
            )
        except PaletteError:
            raise
        except (KeyError, TypeError, ValueError, OverflowError) as err:
            raise PaletteError(f"palette is damaged: {type(err).__name__}: {err}") from None

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the palette as versioned JSON, atomically (never a half file)."""
        write_json_atomic(path, self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Palette:
        """Read a palette file; PaletteError saying what is wrong otherwise."""
        return load_json_file(path, "palette", PaletteError, cls.from_json)


PALETTE_BOUND = 1e3
"""What a palette file's numbers lie within: log colours, their spreads, feature weights and
the distance limit are all a few units. Far past it the file is damaged, and reading a frame
with it would overflow."""


def _held(values: object, what: str) -> np.ndarray:
    """A palette file's numbers as an array; PaletteError when one lies past PALETTE_BOUND
    (a NaN is left to the palette's own check for non-finite values)."""
    array = np.asarray(values, dtype=np.float64)
    far = array[np.abs(array) > PALETTE_BOUND]
    if far.size:
        raise PaletteError(f"palette is damaged: {what} holds {far.flat[0]:g}; a palette's "
                           f"numbers lie within ±{PALETTE_BOUND:g}")
    return array


def _letter(c: Mapping[str, object]) -> str:
    """A class's letter as a palette file holds it: text (a number would show as a label)."""
    letter = c["letter"]
    if not isinstance(letter, str):
        raise PaletteError(f"palette is damaged: a class letter is text, not {letter!r}")
    return letter


def _channels_at_least(c: Mapping[str, object]) -> tuple[bool, bool, bool]:
    """A class's ``at_least`` as a palette file holds it: three true or false values (files
    written before it was kept have none: no channel known clipped)."""
    value = c.get("at_least", [False, False, False])
    if not isinstance(value, (list, tuple)) or len(value) != 3 or not all(
            isinstance(v, bool) for v in value):
        raise ValueError(f"class {c.get('letter')!r}: at_least must be three true or false "
                         f"values, not {value!r}")
    return (value[0], value[1], value[2])


def _as_seen(cells: Cells, guessed: np.ndarray | bool) -> np.ndarray:
    """The cells' features (worked out anyway), NaN where the camera clipped the card: its
    colour there is only a lower bound, nothing to learn it by; and NaN where its white was
    ``guessed`` ((N, 3), or one for all)."""
    low = (cells.rgb >= cells.cap - 1e-6) | guessed
    if not low.any():
        return cells.x
    x = cells.x.copy()
    x[:, LIGHT] = np.where(low, np.nan, x[:, LIGHT])
    x[low.any(axis=1), COLOUR] = np.nan
    return x


_SHEEN_RIM_SPREADS = 3.0  # a white rim this many of the rims' typical spreads brighter ...
_SHEEN_RIM_LEAST = 0.03  # ... and at least this much (log) brighter shows a lamp's sheen


def _lamp_on_rim(whites: SceneWhites) -> np.ndarray:
    """(N,) bool: the cells whose white rim shows a lamp's sheen: brighter than the scene's
    rims by far more than they differ among themselves (the glossy border catches the lamp
    with the card; a pink is no red under a sheen while its border is as white as the
    others'). No cell where the cards show no white rims: a sticker's brightest pixels are
    its own colour, not paper.

    >>> w = SceneWhites(np.log([[200.0] * 3, [204.0] * 3, [198.0] * 3, [236.0] * 3]),
    ...                 np.zeros((4, 3), bool), np.ones(4, bool), np.ones(4, bool), True)
    >>> _lamp_on_rim(w).tolist()
    [False, False, False, True]
    >>> _lamp_on_rim(replace(w, has_rims=False)).tolist()
    [False, False, False, False]
    """
    level = whites.refs.mean(axis=1)
    if not (whites.has_rims and whites.rim.any()):
        return np.zeros(len(level), bool)
    typical = float(median(level[whites.rim]))
    spread = float(median(np.abs(level[whites.rim] - typical)))
    brighter = level - typical > max(_SHEEN_RIM_SPREADS * spread, _SHEEN_RIM_LEAST)
    return np.asarray(brighter & whites.rim)


def _undone(scene: Scene, rendering: Rendering | ToneCurve, ref: np.ndarray) -> Scene:
    """The scene as the palette's camera would have shown it: each body and ink against
    its white ``ref`` (N, 3, log) put back through ``rendering``; what was below clipping
    stays below it."""

    def back(colour: np.ndarray) -> np.ndarray:
        out = rendering.put_back(colour, np.exp(ref))
        return np.where(colour < _NEAR_CLIP, np.minimum(out, _NEAR_CLIP - 0.1), out)

    return Scene(back(scene.body), back(scene.ink), scene.rim, scene.fixed, scene.whites,
                 scene.white, scene.grey)


def _doubted(reads: CellReads, doubt: np.ndarray) -> CellReads:
    """``reads`` with the cells ``doubt`` (N,) bool read ``?``, at a rival's confidence at
    most: another reading that explains the scene nearly as well reads them otherwise."""
    if not doubt.any():
        return reads
    labels = tuple(UNSURE if d else lab for d, lab in zip(doubt, reads.labels, strict=True))
    confidence = np.where(doubt, np.minimum(reads.confidence, _RIVAL_CONFIDENCE),
                          reads.confidence)
    sheen = tuple(UNSURE if d else x for d, x in zip(doubt, reads.sheen, strict=True)) \
        if reads.sheen else ()
    return CellReads(labels, confidence, nearest=reads.nearest, best=reads.best, sheen=sheen)


def _toned(patches: np.ndarray, gamma: float) -> np.ndarray:
    """uint8 patches as a camera whose tone curve is ``gamma`` times flatter would show them
    (each value's share of full scale to the power ``1 / gamma``)."""
    lut = np.round(255.0 * (np.arange(256) / 255.0) ** (1.0 / gamma)).astype(np.uint8)
    return lut[patches]


def _clip50(x: np.ndarray) -> np.ndarray:
    """np.clip(x, -50, 50), without np.clip's own overhead (a palette reads every frame)."""
    return np.minimum(np.maximum(x, -50.0), 50.0)


def _bare_table(x: np.ndarray) -> np.ndarray:
    """The table patches (features (M, F)) that show bare table: a card pile, a coin or a pen
    lying beside the grid is far from the others (the median patch), in some feature."""
    centre = median(x, axis=0)
    spread = np.maximum(1.4826 * median(np.abs(x - centre), axis=0), _TABLE_PRIOR)
    far = (np.abs(x - centre) / spread).max(axis=1)
    bare = far <= max(_TABLE_OUTLIER, float(median(far)))  # the nearer half at least
    return x[bare]


# -- learning (calibration.learning does it; these are the palette's own entry points) -----


def _nominal_light(letters: Iterable[str]) -> np.ndarray:
    """(K, 3) each letter's gem colour in the deck as light against pure white (its sRGB
    decoded), NaN for a letter no gem of the deck."""
    rows = [decode(np.array(NOMINAL_RGB[ch], dtype=np.float64) / 255.0) if ch in NOMINAL_RGB
            else np.full(3, np.nan) for ch in letters]
    return np.array(rows, dtype=np.float64).reshape(-1, 3)


def learn_palette(samples: Sequence[tuple[np.ndarray, str]]) -> Palette:
    """A palette from images whose layout is known: see :func:`calibration.learning.learn`."""
    from .learning import learn  # learning builds on this module

    return learn(samples)


def default_palette() -> Palette:
    """The default deck profile: the gems of RULES.md at their nominal colours, wide spreads.

    >>> default_palette().classes
    ('R', 'O', 'Y', 'G', 'C', 'B', 'V', 'P', '*')
    """
    from .learning import deck_profile

    return deck_profile()


def learn_palette_from_counts(
    patches: np.ndarray | Sequence[np.ndarray], counts: Mapping[str, int] | str, seed: int = 0
) -> Palette:
    """A palette from images whose counts of each class alone are known: see
    :func:`calibration.counts.cluster_by_counts` (how cells are assigned, how classes named)."""
    from .counts import learn_palette_from_counts as learn  # counts builds on this module

    return learn(patches, counts, seed)
