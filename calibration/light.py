"""The light on a scene, read where the cards' white rims show it and guessed where they do
not: the first step of reading cells (:class:`calibration.palette.Palette`).

Where the cards show white rims (gem cards, SET cards: :mod:`calibration.whites`), each card
is read against its own white, in the light the whole scene shows; only channels the camera
clipped on every white are left to guess (from a few starts, each refined; where two explain
the scene nearly as well, a card they read differently is unsure; a guess that makes a white
of no lamp is refused). Where they show none (stickers), guess how this scene's light differs
from the light the palette learned under, as a shift in log RGB: no change, the change that
makes this scene's brightest white the palette's white, or the one that matches the average
card; keep the guess under which the cells fit the classes best (a prior prefers small
changes). Either way the guess is then refined from the cells themselves.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ._stats import sum3
from .colour import OPPONENT, PURE_WHITE
from .features import Scene
from .models import (
    Cells,
    Classes,
    Comparison,
    Steady,
    compare,
    compare_classes,
    extra_variance,
    steady_of,
    unveiled,
)

_SHIFT_SCALE = np.array([0.7, 0.35, 0.35])  # prior on a light change (I, u, v of the shift)
_RIM_SCALE = 0.05  # ... on the light left to guess where the white rims show it (per channel)
_CENSORED_SCALE = 0.6  # ... in a channel clipped on every white (only brighter is possible)
# Lights guessed for a scene without white rims whose misfit is within this factor of the
# best one's explain it about as well: a card they read otherwise is read '?'.
RIVAL_MISFIT = 1.6
# ... and for a scene whose white rims the camera clipped in some channel everywhere: its
# light is read but for how much brighter those channels are, and the starts tried for that
# differ in nothing else; two that explain the scene this nearly as well leave real doubt
_CLIPPED_RIVAL_MISFIT = 1.1
# Cells surely holding a card guess the light alone where there are at least this many of
# them: fewer cannot outvote chance. However few they are among the cells, the rest have no
# say: a cell with no outline is likeliest under the hand, and a hand over more of the grid
# would pull harder (an arm across 13 of 25 cells made pinks violet under a bluer light).
_MIN_VOTERS = 6
# ... and only if their cards show at least this many colours between them: cards of one or
# two colours fit as well under a light that makes them a neighbouring colour (seven reds
# all read orange under a redder light), which a few colours more would refuse.
_MIN_VOTER_COLOURS = 3
_MAX_WHITE_SHIFT = 1.2  # a "white" further than this from the palette's white is no white
# Lamps differ along one line, from warm to cool (Planck's law at the camera's primaries,
# 2700 to 10000 K: v about twice u). A guessed change of light further than this off it (a
# green or magenta cast) is no lamp's: it would read a face of one colour the palette does
# not know as white stickers under a light of that colour.
_LAMP_LINE = np.array([1.0, 2.05]) / np.hypot(1.0, 2.05)
_OFF_LAMP = 0.5
# ... and where white rims read the light in the channels the camera did not clip: the cast
# guessed in the clipped ones is only a lamp's tint (the benches' green and magenta casts lie
# 0.13 and 0.15 off the line; the other renderer's lights, through every camera change
# bench_dev_variants makes, 0.14 at most). A tone curve moves no rim's colour, so the room
# the stickers' guess needs for one is not needed here.
_OFF_LAMP_RIMS = 0.25
_REFINE_CLIP = 0.5  # one cell moves the light guess at most this much (log, per channel)
_REFINE_STEPS = 3  # refinements of the light guess, at most
_STEP_PARTS = (1.0, 0.5, 0.25)  # how far along each refinement's pull is tried
# Brighter lights (log) tried in channels clipped on every white, spaced so that the cells' pull
# reaches any level between them: an exposure drift of 15 % (0.14) lay between 0 and 0.3.
_CLIPPED_STARTS = (0.15, 0.3, 0.6)
# Doubt about the light on one cell, as variances of (I, u, v): the light of a cell whose
# own white rim was read, of one whose rim the camera clipped (it lies in the bright part
# of the scene, whose level the cells tell), of a cell in a white-rimmed scene without a
# rim of its own (a shadow may fall on it), and of every cell of a scene with no white
# rims at all.
_DOUBT_OWN = np.array([0.08, 0.03, 0.03]) ** 2
_DOUBT_CLIPPED = np.array([0.15, 0.04, 0.04]) ** 2
_DOUBT_SCENE = np.array([0.35, 0.04, 0.04]) ** 2
_DOUBT_GUESS = np.array([0.10, 0.04, 0.04]) ** 2


@dataclass(frozen=True)
class Light:
    """A guess of the light on a scene: each cell's reference white (log RGB) ``base``, the
    shift left to guess on top of it where ``free`` (N, 3: 1 where the base is only a lower
    bound, or a guess), and how sure each cell's light is (``doubt``: variances of I, u, v;
    ``lift``: of a brighter I than the base says)."""

    base: np.ndarray  # (N, 3)
    free: np.ndarray  # (N, 3)
    shift: np.ndarray  # (3,)
    doubt: np.ndarray  # (N, 3)
    lift: np.ndarray  # (N,)
    rims: bool  # the base is each card's own white: the shift may only brighten clipped ones

    @property
    def ref(self) -> np.ndarray:
        return self.base + self.free * self.shift

    def moved(self, shift: np.ndarray) -> Light:
        if self.rims:  # a white the camera clipped is at least as bright as the clip
            shift = np.maximum(shift, 0.0)
        return Light(self.base, self.free, shift, self.doubt, self.lift, self.rims)

    def on(self, n: int) -> Light:
        """This light on ``n`` patches, on each as on the first of these: the scene's typical
        light, where it lies alike on every patch (those that show no white of their own)."""
        rows = (n, 3)
        return Light(np.broadcast_to(self.base[0], rows), np.broadcast_to(self.free[0], rows),
                     self.shift, np.broadcast_to(self.doubt[0], rows),
                     np.broadcast_to(self.lift[0], (n,)), self.rims)

    def of_a_lamp(self) -> bool:
        """Whether the change of light guessed could be a lamp's: its colour near the line
        lamps take, from warm to cool. Where the white rims show the light in every channel
        (none clipped) the guess moves nothing and passes; where the camera clipped them,
        it is the light's colour there that is guessed, as where there are no rims."""
        if self.rims and not self.free.any():
            return True
        u, v = OPPONENT[1:] @ self.shift
        off = _OFF_LAMP_RIMS if self.rims else _OFF_LAMP
        return bool(abs(u * _LAMP_LINE[1] - v * _LAMP_LINE[0]) <= off)

    def surprise(self) -> float:
        d = self.shift
        if not self.rims:
            return float((((OPPONENT @ d) / _SHIFT_SCALE) ** 2).sum())
        return float(_rim_surprise(d))


_Tried = tuple[float, Light, Cells, Comparison, "int | None"]
"""A light tried: how badly the cells fit under it, it, and the cells seen in it with their
comparison: those of all the lights tried at once, and which of them it was (None: it was
tried alone). :func:`_seen` picks its own out, only when asked: most lights tried are
dropped."""


def _seen(tried: _Tried) -> tuple[Cells, Comparison]:
    """The cells seen in a light tried, and their comparison."""
    _, _, cells, comparison, b = tried
    return (cells, comparison) if b is None else (cells.at(b), comparison.at(b))


class LightGuess:
    """How a palette reads and guesses the light on a scene (a part of :class:`Palette`,
    kept apart: it asks only these of the palette)."""

    _white: np.ndarray
    _grey: np.ndarray
    white_borders: bool
    weights: np.ndarray
    max_distance: float
    _classes: Classes
    _search: Classes
    _cards: np.ndarray
    _shaded: np.ndarray
    _means: np.ndarray
    _scales: np.ndarray

    def _cells(self, scene: Scene, lights: Light | Sequence[Light]) -> Cells:
        """The scene's cells under a light; under several (that differ only in their shift),
        read at once (see :class:`Cells`), or under the one if only one."""
        if isinstance(lights, Light):
            light, ref = lights, lights.ref
        elif len(lights) == 1:
            light, ref = lights[0], lights[0].ref
        else:
            light = lights[0]
            ref = light.base + light.free * np.array([t.shift for t in lights])[:, None, :]
        x, rgb, cap, noise, white = scene.read(ref)
        var = extra_variance(noise, light.doubt[:, 1:])
        return Cells(x, rgb, cap, var, scene.table_rims, ref, light.doubt[:, 0], light.lift, white)

    def _rims(self, scene: Scene) -> bool:
        return self.white_borders and scene.whites.has_rims

    def _light_for(self, scene: Scene, shift: np.ndarray) -> Light:
        """The light on a scene: its cards' own whites, or the palette's own guessed."""
        n = len(scene)
        if self._rims(scene):
            w = scene.whites
            clipped = w.rim & w.bound.all(axis=1)  # a rim clipped all over: "at least this"
            # A rim clipped all over among rims that were read lies in the bright part of
            # the scene (a lamp's hot spot): at least as bright as the least light that
            # clips it. Where every rim clipped, none shows a level to be brighter than:
            # the scene's level is guessed for all cells at once, and each cell is lit at
            # that level as surely as a cell by the white it read (left free, each cell's
            # brightness took up a level guessed far too bright, and under it every card
            # looked dim, pinks like reds in a veil). Where only some clipped, how much
            # brighter each is its rim cannot tell either, and left open cell by cell (a
            # lift of 0.3), each took the brightness that made its card the darker of two
            # colours (over-exposed pinks on the lit side of a shadow's edge read violet,
            # sure): it too is lit at that least light as surely as by a white it read
            # (a lift of 0.08). A brighter light is then found only where it is searched
            # for the whole scene at once: in the channels most rims clipped (below);
            # where most rims were read in every channel, a hot spot far brighter than its
            # rims' clip is not (the benches' glare spots and sheens read as before).
            every = bool(clipped[w.rim].all())
            doubt = np.where(
                w.own[:, None], _DOUBT_OWN,
                np.where(clipped[:, None], _DOUBT_OWN if every else _DOUBT_CLIPPED, _DOUBT_SCENE),
            )
            lift = np.where(clipped, _DOUBT_OWN[0], doubt[:, 0])
            # Where the rims show the light in every channel, a rim clipped all the same
            # (a glare spot, the lamp's hot spot) is lit by that light, brighter: only its
            # brightness is in doubt (lift, above), not its colour. Elsewhere the clipped
            # part is a guess, but only in channels most rims clipped: a channel most rims
            # read is the light's on the others too (guessed apart, the light of a few
            # bright cells was free to make a yellow there orange).
            free = (np.zeros(w.bound.shape) if w.light_read
                    else (w.bound & w.clipped_on_most).astype(float))
            return Light(w.refs, free, shift, doubt, lift, True)
        base = np.broadcast_to(self._base, (n, 3))
        doubt = np.broadcast_to(_DOUBT_GUESS, (n, 3))
        return Light(base, np.ones((n, 3)), shift, doubt, doubt[:, 0], False)

    @property
    def _base(self) -> np.ndarray:
        """The reference white of a scene that shows none: the palette's own."""
        return self._white if self.white_borders else PURE_WHITE

    def _read_light(
        self, scene: Scene, bare: Scene | None = None, voters: np.ndarray | None = None
    ) -> tuple[Light, Cells, Comparison, list[Comparison], float]:
        """The light on a scene, its cells seen in it, and how they compare with the classes;
        how they compare in the other lights tried that explain the scene nearly as well; and
        how badly the light fits (``_tries``)
        (a scene whose white rims show its light, unclipped, has none: it is read, not
        guessed).
        ``bare``: patches of the scene's bare table, which must look like the table the
        palette knows (if it learned one): a light that makes the cloth look like a card is
        no likely light. ``voters``: the cells that alone guess the light (``voters``),
        unless the light they guess shows their cards in fewer than ``_MIN_VOTER_COLOURS``
        colours: then every cell guesses it."""
        start = self._light_for(scene, np.zeros(3))
        guess = bool(start.free.any())  # where every white was read, nothing is left to guess
        candidates = [np.zeros(3)]
        if not start.rims:
            to_white = scene.white - self._white
            if np.hypot(*(OPPONENT[1:] @ to_white)) <= _MAX_WHITE_SHIFT:
                candidates.append(to_white)
            if len(scene):
                candidates.append(scene.grey - self._grey)
        elif guess:
            # Channels clipped on every white hide how much brighter the light is there; the
            # cells' pull finds the rest only from a start near enough.
            clipped = start.free.all(axis=0).astype(float)
            candidates += [lift * clipped for lift in _CLIPPED_STARTS]
        steady = (steady_of(scene.fixed[:, :4], start.doubt[:, 0], start.lift, self._classes)
                  if self._classes.flat else None)  # the same under every light tried
        if guess:
            tried = self._tries(scene, [start.moved(c) for c in candidates], bare, steady,
                                voters)
        else:  # the one light there is: how well it fits weighs it against no other
            cells = self._cells(scene, start)
            tried = [(0.0, start, cells, compare_classes(cells, self._search, steady), None)]
        best = min(tried, key=lambda t: t[0])
        # With rims clipped each start is refined: they differ only in what the clipped
        # channels hide. Without rims only the best one: a finer search would make it look
        # surer than its rivals, which carry the doubt there (a cube read under another
        # camera: 1 wrong instead of 0).
        if start.rims and guess:
            tried = self._refine(scene, tried, bare, steady, voters)
            best = min(tried, key=lambda t: t[0])
        elif guess:
            best = self._refine(scene, [best], bare, steady, voters, steps=2, parts=(1.0,))[0]
        if voters is not None and self._colours_among(best, voters) < _MIN_VOTER_COLOURS:
            return self._read_light(scene, bare, None)
        # whites clipped in every channel tell no more of the light than no whites at all
        some_read = start.rims and not start.free.all(axis=0).all()
        near = _CLIPPED_RIVAL_MISFIT if some_read else RIVAL_MISFIT
        rivals = [_seen(t) for t in tried if t is not best and t[0] <= near * best[0]]
        seen, comparison = _seen(best)
        if self._search is not self._classes:
            # the classes searched with hold no veil: only the light cost differs
            comparison = unveiled(comparison, seen, self._classes, steady)
            rivals = [(c, unveiled(r, c, self._classes, steady)) for c, r in rivals]
        return best[1], seen, comparison, [r for _, r in rivals], best[0]

    def _colours_among(self, tried: _Tried, voters: np.ndarray) -> int:
        """How many card classes the ``voters`` (N,) bool read as in a light tried, counting
        only the cells that tell the light (``_telling``)."""
        best, good = self._telling(_seen(tried)[1].distances(self.weights))
        return len(np.unique(best[good & voters]))

    def _telling(self, d2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Of cells' distances to the classes (..., K), the nearest card class of each, and
        whether the cell fits it and it can say what the light is (a shaded class's colour
        runs from faint to full: it cannot)."""
        if not self._classes.every:
            d2 = np.where(self._cards, d2, np.inf)
        best = d2.argmin(axis=-1)
        fits = np.take_along_axis(d2, best[..., None], -1)[..., 0] < self.max_distance
        return best, fits & ~self._shaded[best]

    def _no_white(self, light: Light, ref: np.ndarray) -> np.ndarray:
        """Whether a light guessed brighter in channels the camera clipped on the whites makes
        any of them a white of no lamp: a cast further from the palette's own white than
        any light it could be under (the cells of a hand under a red guess fit better than
        under the true light, so the fit alone would not refuse it). ``ref``: the light's
        whites (N, 3), or those of several lights that differ only in their shift (B, N, 3):
        then a bool for each."""
        lifted = light.free.any(axis=1)
        if not (light.rims and lifted.any()):
            return np.zeros(ref.shape[:-2], bool)
        cast = (ref[..., lifted, :] - self._white) @ OPPONENT[1:].T
        return np.asarray((np.hypot(cast[..., 0], cast[..., 1]) > _MAX_WHITE_SHIFT).any(axis=-1))

    def _refine(
        self, scene: Scene, starts: Sequence[_Tried], bare: Scene | None, steady: Steady | None,
        voters: np.ndarray | None = None, steps: int = _REFINE_STEPS,
        parts: Sequence[float] = _STEP_PARTS,
    ) -> list[_Tried]:
        """Light guesses each moved, step by step (at most ``steps``), the way its cells pull
        it (a ``part`` of the pull, whichever fits best) while the fit gets better. The
        guesses take their steps side by side, each step's lights all tried at once."""
        best = list(starts)
        moving: list[int] = list(range(len(best)))
        for _ in range(steps):
            if not moving:
                break
            steps_ = self._steps([best[i] for i in moving], voters)
            pulls = [(i, step) for i, step in zip(moving, steps_, strict=True) if step.any()]
            if not pulls:
                break
            # The median pull of the cells points the way, but cells read as the wrong class
            # (a pink as violet under a white guessed too red) pull past the light that
            # explains them best: go only as far along it as the fit keeps getting better.
            tried = self._tries(scene, [best[i][1].moved(best[i][1].shift + part * step)
                                        for i, step in pulls for part in parts], bare, steady,
                               voters)
            moving = []
            for j, (i, _) in enumerate(pulls):
                again = min(tried[j * len(parts) : (j + 1) * len(parts)], key=lambda t: t[0])
                if not again[0] >= best[i][0] - 1e-6:
                    best[i] = again
                    moving.append(i)
        return best

    def _tries(
        self, scene: Scene, lights: Sequence[Light], bare: Scene | None, steady: Steady | None,
        voters: np.ndarray | None = None,
    ) -> list[_Tried]:
        """How badly the cells fit the classes under each light (lower is better: each cell's
        distance to its nearest class, each bare table patch's to the table, plus how
        surprising that light is). The lights differ only in their shift: the cells are
        read under all of them at once."""
        cells = self._cells(scene, lights)
        comparison = compare_classes(cells, self._search, steady)
        d2 = comparison.distances(self.weights)
        comparison = comparison.knowing(self.weights, d2)
        nearest = np.minimum(d2.min(axis=-1), self.max_distance)
        if voters is not None:
            nearest = nearest[..., voters]
        misfits = (nearest.sum(axis=-1) if len(scene) else np.zeros(len(lights))).reshape(-1)
        refused = self._no_white(lights[0], cells.ref).reshape(-1)
        surprise = _surprises(lights)
        out: list[_Tried] = []
        for b, light in enumerate(lights):
            seen = (cells, comparison, None if len(lights) == 1 else b)
            if refused[b] or not light.of_a_lamp():
                out.append((math.inf, light, *seen))
                continue
            misfit = float(misfits[b])
            if bare is not None and len(bare) and not self._cards.all():
                table = ~self._cards
                far = compare(self._cells(bare, [self._light_for(bare, light.shift)]),
                              self._means[table], self._scales[table], self._cards[table])
                misfit += float(np.minimum(far.distances(self.weights), self.max_distance).sum())
            out.append((misfit + surprise[b], light, *seen))
        return out

    def _steps(self, tried: Sequence[_Tried], voters: np.ndarray | None = None) -> np.ndarray:
        """(C, 3) for each light tried (lights that differ only in their shift), how to move
        it so its well-read cells (of the ``voters``, if given) sit, in the median, on their
        classes' colours (channels clipped in the cell or in the class, or already known,
        left out)."""
        views = [_seen(t) for t in tried]
        best, good = self._telling(np.stack([v[1].distances(self.weights) for v in views]))
        if voters is not None:
            good &= voters
        target = self._classes.rgb[best]  # each class's colour, as log RGB
        seen = np.stack([v[0].rgb for v in views])
        cap = np.stack([v[0].cap for v in views])
        residual = np.minimum(np.maximum(seen - target, -_REFINE_CLIP), _REFINE_CLIP)
        unknown = ((seen >= cap - 1e-6) | (target >= cap) | (tried[0][1].free == 0)
                   | ~good[..., None])
        return _column_medians(np.where(unknown, np.inf, residual), (~unknown).sum(axis=-2))


def _surprises(lights: Sequence[Light]) -> list[float]:
    """:meth:`Light.surprise` of each light; of lights with white rims, all at once."""
    if len(lights) == 1 or not lights[0].rims:
        return [light.surprise() for light in lights]
    return _rim_surprise(np.array([light.shift for light in lights])).tolist()  # type: ignore[no-any-return]


def _rim_surprise(shift: np.ndarray) -> np.ndarray:
    """The prior's cost of shifts (..., 3) of a light whose white rims were read: a clipped
    white only hides a brighter light, never a darker one."""
    scale = np.where(shift < 0, _RIM_SCALE, _CENSORED_SCALE)
    return sum3((shift / scale) ** 2)


def light_voters(outlined: np.ndarray | None) -> np.ndarray | None:
    """The cells that alone guess the light: those where a card's outline shows, if enough
    do and not all (else every cell, None)."""
    if outlined is None or outlined.all():
        return None
    if outlined.sum() < _MIN_VOTERS:
        return None
    return outlined


def _column_medians(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """(..., K) the median of each column of ``values`` (..., N, K) over its first ``counts``
    (..., K) smallest entries (the rest are +inf: left out); 0 for a column with none."""
    ordered = np.sort(values, axis=-2)
    low = np.take_along_axis(ordered, (np.maximum(counts - 1, 0) // 2)[..., None, :], -2)
    high = np.take_along_axis(
        ordered, np.minimum(counts // 2, values.shape[-2] - 1)[..., None, :], -2)
    low, high = low[..., 0, :], high[..., 0, :]
    return np.where(counts > 0, 0.5 * (low + np.where(counts > 1, high, low)), 0.0)
