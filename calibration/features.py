"""What a cell looks like, as a short vector of numbers that light changes little.

Every patch passed in one call is one *scene*, under one light. Colours are read against a
white in that light (:mod:`calibration.colour`): gem cards and SET cards show it
themselves, each card against its own white rim (:mod:`calibration.whites`); stickers on
black plastic show none, and the palette then guesses the light of the whole scene.

Per patch (:mod:`calibration.measure` says how each is found):

- ``I, u, v``: brightness and two colour-opponent axes (red-green, yellow-blue) of the
  body's field, against the white;
- ``hue_u, hue_v``: the hue of the body's *ink* (the pixels furthest in colour from the
  patch's own white: coloured art on a white card, a flat card's field), its strength
  squashed into the unit disc so that faint and bold art of one hue land close together;
- ``texture``: log spread of brightness (a flat card is smooth, symbols and hands are not);
- ``ink``: the share of body pixels whose colour stands clearly apart from its white;
- ``mixed``: the share of the body's colourful pixels of another hue than its field's (a
  card half under a sleeve or a hand is two colours at once);
- ``edges``: the share of white paper on the patch's least white side (a card's white
  border runs round all four sides; a hand reaching over it hides one or more);
- ``light_r, light_g, light_b``: the body's red, green and blue as light (the camera's sRGB
  curve undone), each a share of its white's;
- ``frame``: how far the patch's rim (the table between the cards, a cube's black plastic)
  differs from its body. A card stands out from its surroundings; a hand or an arm covers
  rim and body alike.

Which of these tell a deck's classes apart is for the palette to learn (a SET deck's
classes differ in hue, not in shading; a flat deck's in body colour).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ._stats import median
from .colour import (
    CLIPPED,
    FLOOR,
    NOISE,
    OPPONENT,
    PURE_WHITE,
    as_patches,
    decode,
    squash,
)
from .measure import Measures, measure, measure_scene
from .whites import SceneWhites

FEATURES = (
    "I", "u", "v", "hue_u", "hue_v", "texture", "ink", "mixed", "edges", "frame",
    "light_r", "light_g", "light_b",
)
"""Names of the feature vector's entries, in order."""
COLOUR = slice(0, 3)
"""The features a change of light moves: the body's colour (I, u, v)."""
LIGHT = slice(10, 13)
"""The body's colour as light, a share of its white's per channel (the camera's curve
undone): what :func:`calibration.models.light_cost` compares flat cards by."""

_INK_SQUASH = 0.12  # ink this strong (log chroma) is 0.76 of the way to pure hue
# A field's median this close to clipping stands for a field partly clipped: "at least".
_NEAR_CLIP = CLIPPED - 6


@dataclass(frozen=True, eq=False)
class Scene:
    """The patches of one scene, measured once; features against any reference white.

    ``whites`` says what white the scene itself shows (per cell, when the cards have white
    rims); ``white`` and ``grey`` are log-RGB guesses of a white surface and of the average
    card in camera terms, the cues for guessing the light when the cards show no white.
    """

    body: np.ndarray  # (N, 3) camera R, G, B of each body's field
    ink: np.ndarray  # (N, 3) camera R, G, B of each body's ink
    rim: np.ndarray  # (N, 3) camera R, G, B of each patch's rim (the table around it)
    fixed: np.ndarray  # (N, 5) texture, ink, mixed, edges, frame: the same in any light
    whites: SceneWhites
    white: np.ndarray  # (3,)
    grey: np.ndarray  # (3,)

    def __len__(self) -> int:
        return len(self.body)

    def colour(self, reference: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Log reflectance (N, 3) of each body against ``reference`` (log RGB, (3,) or (N, 3)),
        the highest value a channel could show before the camera clips (N, 3), and the
        variance of each value from camera noise (N, 3)."""
        return self.read(reference)[1:4]

    def features(self, reference: np.ndarray | None = None) -> np.ndarray:
        """(N, len(FEATURES)) features against ``reference`` (log RGB white; None: 255)."""
        return self.read(PURE_WHITE if reference is None else reference)[0]

    def read(
        self, reference: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`features` and :meth:`colour` against one ``reference`` at once (the body's
        reflectance is in both), and the reference as light (decoded, a share of full
        scale): a palette reads a scene so under every light it tries. ``reference`` may
        also be several, (B, N, 3): then so is each result (B, N, ...)."""
        ref = np.asarray(reference, dtype=np.float64)
        if ref.shape[-2:] != self.body.shape:
            ref = np.broadcast_to(ref, self.body.shape)
        scale = np.exp(-ref)
        value = self.body * scale + FLOOR
        rgb = np.log(value)  # reflectance(self.body, ref)
        cap = np.log(_NEAR_CLIP * scale + FLOOR)
        var = (NOISE * scale / value) ** 2
        x = np.empty(ref.shape[:-1] + (len(FEATURES),), dtype=np.float64)
        x[..., COLOUR] = rgb @ OPPONENT.T
        ink = np.log(self.ink * scale + FLOOR)  # reflectance(self.ink, ref)
        x[..., 3:5] = squash(ink @ OPPONENT[1:].T, _INK_SQUASH)
        x[..., 5:10] = self.fixed
        white = decode(np.exp(ref) / 255.0)
        x[..., LIGHT] = self._body_light / np.maximum(white, 1e-6)
        return x, rgb, cap, var, white

    @functools.cached_property
    def _body_light(self) -> np.ndarray:
        """(N, 3) the bodies as light: the same under any white."""
        return decode(self.body / 255.0)

    @functools.cached_property
    def table_rims(self) -> np.ndarray:
        """(N, 3) the median patch's rim, for each patch: what the table around the grid
        looks like (a hand over a cell covers the cell's own rim too). Read-only."""
        rims = np.empty(self.rim.shape)
        rims[:] = median(self.rim, axis=0)
        rims.flags.writeable = False
        return rims


def _scenes(found: Measures) -> tuple[Scene, Scene]:
    """The scenes of the cells and of the bare table measured with them, in the cells' typical
    light."""
    n = len(found.whites.refs)

    def scene(part: slice, whites: SceneWhites) -> Scene:
        return Scene(found.body[part], found.ink[part], found.rim[part], found.fixed[part],
                     whites, found.white, found.grey)

    return (scene(slice(0, n), found.whites),
            scene(slice(n, None), found.whites.typical(len(found.body) - n)))


def prepare(patches: np.ndarray) -> Scene:
    """A :class:`Scene` of (N, P, P, 3) BGR patches (or (N, 3) BGR colours) under one light.

    >>> red = np.zeros((2, 8, 8, 3), np.uint8); red[..., 2] = 200
    >>> scene = prepare(red)
    >>> len(scene), scene.features().shape
    (2, (2, 13))
    """
    return prepare_with_table(patches)[0]


def prepare_with_table(
    patches: np.ndarray, table: np.ndarray | None = None, as_read: bool = False,
    voters: np.ndarray | None = None,
) -> tuple[Scene, Scene]:
    """Scenes of a grid's cells and of the bare ``table`` patches beside it (may be None):
    one light, read from the cells' white rims (first guessed from the ``voters``' rims, if
    given: where a card's outline shows; then read from every rim that fits the guess:
    :func:`calibration.whites.read_whites`); the table shows no white of its own.
    ``as_read``: the patches hold only the pixels that are read (see
    :func:`calibration.reading_step`)."""
    cells = as_patches(patches)
    bare = as_patches(table) if table is not None and len(table) else cells[:0]
    if len(bare) and bare.shape[1:] != cells.shape[1:]:  # measured apart, lit as the cells
        lit = measure(cells, len(cells), as_read, voters)
        alone = measure(bare, 0, as_read)
        whites = lit.whites.typical(len(bare))
        return _scenes(lit)[0], Scene(alone.body, alone.ink, alone.rim, alone.fixed, whites,
                                      lit.white, lit.grey)
    return _scenes(measure_scene(cells, bare, as_read, voters))
