"""Layout cards a lamp's sheen washed out, taken back to how they look without it.

A glossy card under a lamp throws back some of the lamp's own white light off its surface
beside its colour: its field is the card's colour plus a veil of white (a red looks pink,
a blue lavender). A class learned from such a card holds the veil, and its cards seen
without it are read as a paler class or not at all (with three of a layout's four reds
under a lamp's glare, every red was read pink). Cards of one class differ otherwise only
by the light on them, which each card's own white rim takes out, and by a little print and
camera noise: the clearest card of a class (least light in its darkest channel) shows the
class's colour, and a card holding more white light than it, by more than that noise
gives, is under a sheen, which is taken off its field and its art before the class is
learned.

This is a sheen over a whole card (its field's colour is the median of its pixels: a small
glare spot on it changes little), and it is taken off the colours only: a sheen smooths a
card's texture too, which stays as seen.

>>> red = np.array([[0.60, 0.04, 0.05], [0.62, 0.30, 0.31], [0.59, 0.06, 0.06]])
>>> (sheen(red, np.zeros(red.shape, bool)).round(2) + 0.0).tolist()  # no -0.0
[0.0, 0.23, 0.01]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from .colour import decode, encode
from .features import LIGHT, Scene
from .models import EMPTY, LIGHT_NOISE, white_light
from .palette import UNSURE

VEIL_NOISE = 2 * LIGHT_NOISE
"""White light (a share of a card's white) by which cards of one class may differ with no
sheen on them: twice what differs from card to card in every channel alike (print, camera)
as the palette's light cost takes it, since the clearest of several noisy cards is the
reference. The seven calibration layouts of the development split (nizam-dev) show at most
0.045 so; its one card under its renderer's glare 0.13. A card holding more than the
clearest of its class is under a sheen, all of which is taken off."""
_NEUTRAL = 0.5
"""A class whose typical card's darkest channel is this share of its brightest or more is
near white (a pearl): white light over it only makes it brighter, which its white rim
already takes out."""


def sheen(light: np.ndarray, low: np.ndarray) -> np.ndarray:
    """(N,) the white light each of a class's cards holds beyond its clearest one, from their
    colours as light against their own white (N, 3; ``low``: channels the camera clipped,
    which show no more than a bound and are left out, on the card or on the clearest)."""
    k = _clearest(light)
    return white_light(light, low | low[k], light[k])


def _clearest(light: np.ndarray) -> int:
    """The card of a class with the least light in its darkest channel: the least sheen."""
    return int(np.argmin(light.min(axis=1)))


def without_sheen(scenes: Sequence[Scene], refs: Sequence[np.ndarray],
                  labels: Sequence[str]) -> list[Scene]:
    """The scenes of a layout (each read against ``refs``, its cells named by ``labels``)
    with the sheen on their cards taken off (:func:`sheen`, beyond ``VEIL_NOISE``)."""
    return [_without_sheen(s, r, lab) for s, r, lab in zip(scenes, refs, labels, strict=True)]


def _without_sheen(scene: Scene, ref: np.ndarray, labels: str) -> Scene:
    """:func:`without_sheen` of one photo. A sheen lies on some cards of a photo and not on
    others: its cards are held against the clearest of their class in the same photo
    (another photo's, read against whites the camera may have clipped otherwise, would be a
    lamp's colour apart). Classes seen once or near white, and cards the camera clipped in
    two channels or three, stay as seen."""
    x, rgb, cap, _, white = scene.read(ref)
    light, low = x[:, LIGHT], np.asarray(rgb >= cap - 1e-6)
    # a card with one channel read shows its brightness or its sheen, not both
    named = np.array([ch if int(low[k].sum()) < 2 else UNSURE for k, ch in enumerate(labels)])
    veils = np.zeros(len(scene))
    for letter in set(named.tolist()) - {EMPTY, UNSURE}:
        cards = np.flatnonzero(named == letter)
        # the typical card, not the clearest: a pearl's field may be read off its art
        typical = np.median(light[cards], axis=0)
        if len(cards) < 2 or typical.min() >= _NEUTRAL * typical.max():
            continue
        veil = sheen(light[cards], low[cards])
        # all of a card's sheen, where it is one (no more light than its darkest channel
        # holds): back to the clearest card's colour, as if the lamp had not shone on it
        veils[cards] = np.where(veil > VEIL_NOISE,
                                np.minimum(veil, light[cards].min(axis=1)), 0.0)
    if not veils.any():
        return scene
    return replace(scene, body=_less_light(scene.body, veils, white),
                   ink=_less_light(scene.ink, veils, white))


def _less_light(camera: np.ndarray, veil: np.ndarray, white: np.ndarray) -> np.ndarray:
    """Camera values (N, 3; 0..255) of the cells with ``veil`` (N,) of their ``white`` (N, 3,
    as light) taken off, no more than each one's darkest channel holds (the art's darkest
    lines hold less light than the field: taking the field's veil off them whole would
    leave noise); cells with none as they are."""
    out = np.array(camera, dtype=np.float64)
    on = veil > 0
    light = decode(out[on] / 255.0)
    taken = np.minimum(veil[on], (light / white[on]).min(axis=1))
    out[on] = 255.0 * encode(light - taken[:, None] * white[on])
    return out
