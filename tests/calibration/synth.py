"""Synthetic cell patches under controlled light, with ground truth, for calibration tests.

A patch is one cell pitch seen top-down (as vision/cells.py cuts them): table around a card
laid a little off centre. Cards are a coloured field inside a white border ("field"), a
white card with coloured symbols ("symbol", like SET cards), or colour all over with no
white at all ("flat", like a cube's stickers on black plastic). Light is applied in linear RGB:
a colour temperature (the camera's white balance fixed at 5000 K), an exposure factor, a
shadow over some cells, glare spots, sensor noise. Everything random comes from the
``numpy.random.Generator`` passed in.
"""

from __future__ import annotations

import numpy as np

from calibration.colour import decode, encode
from calibration.deck import NOMINAL_RGB
from calibration.palette import Palette, learn_palette

# sRGB of a white surface under black-body light of each temperature (kelvin).
_WHITE_AT = {
    2700: (255, 169, 87),
    3500: (255, 196, 137),
    4000: (255, 209, 163),
    5000: (255, 228, 206),
    6500: (255, 254, 250),
}
_CAMERA_BALANCE = 5000
TABLES = {
    "wood": (120, 85, 55),
    "felt": (40, 95, 60),
    "grey": (110, 110, 115),
    "black": (22, 22, 24),  # a cube's black plastic between its stickers
}
SKIN = ((224, 172, 140), (198, 134, 100), (240, 190, 160), (150, 95, 70))


def to_linear(srgb: np.ndarray) -> np.ndarray:
    return decode(np.asarray(srgb, dtype=np.float64) / 255.0)


def to_srgb8(linear: np.ndarray) -> np.ndarray:
    return encode(linear) * 255.0


def light_gain(kelvin: int) -> np.ndarray:
    """Per-channel linear gain of a light relative to the camera's fixed white balance."""
    return to_linear(np.array(_WHITE_AT[kelvin])) / to_linear(np.array(_WHITE_AT[_CAMERA_BALANCE]))


def card_patch(
    rng: np.random.Generator,
    rgb: tuple[int, int, int] | None,
    size: int = 48,
    table: tuple[int, int, int] = TABLES["wood"],
    style: str = "field",
    shading: str | None = None,
) -> np.ndarray:
    """Linear-RGB (size, size, 3) patch: a card of colour ``rgb`` (None: bare table).

    ``style`` "field": a coloured field in a white border; "flat": colour all over, no
    white anywhere (a sticker); "symbol": a white card with one oval, ``shading`` "solid",
    "striped" or "empty" (None: one at random)."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float64) + 0.5
    base = to_linear(np.array(table)) * (1 + 0.08 * np.sin(xx / 3.0 + rng.uniform(0, 6)))[..., None]
    img = np.broadcast_to(base, (size, size, 3)).copy()
    if rgb is None:
        return img
    angle = np.radians(rng.uniform(-6, 6))
    cx, cy = size / 2 + rng.uniform(-2, 2, 2)
    dx, dy = xx - cx, yy - cy
    along = np.cos(angle) * dx + np.sin(angle) * dy
    across = -np.sin(angle) * dx + np.cos(angle) * dy
    half_w, half_h = 0.36 * size, 0.44 * size
    card = (np.abs(along) < half_w) & (np.abs(across) < half_h)
    white = to_linear(np.array((242, 240, 236)))
    colour = to_linear(np.clip(np.array(rgb) + rng.normal(0, 4, 3), 0, 255))
    img[card] = white
    if style == "flat":
        img[card] = colour
    elif style == "field":
        field = (np.abs(along) < half_w - 3) & (np.abs(across) < half_h - 3)
        img[field] = colour
    else:  # an oval symbol: solid, striped or only its outline
        r = np.hypot(along / (0.22 * size), across / (0.12 * size))
        shading = shading or str(rng.choice(["solid", "striped", "empty"]))
        inside = r < 1.0
        if shading == "striped":
            inside &= (np.floor(across) % 3) == 0
        elif shading == "empty":
            inside = (r < 1.0) & (r > 0.8)
        img[inside] = colour
    return img


def hand_patch(rng: np.random.Generator, size: int = 48) -> np.ndarray:
    """Linear-RGB patch of skin: a hand or arm over the cell, shaded, with knuckle creases."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float64)
    skin = to_linear(np.array(SKIN[rng.integers(len(SKIN))]))
    shade = 0.75 + 0.25 * np.cos(xx * rng.uniform(0.05, 0.15) + yy * 0.07)
    creases = 1 - 0.25 * (np.abs(np.sin(yy / rng.uniform(3, 6))) < 0.15)
    return skin * (shade * creases)[..., None]


def expose(
    linear: np.ndarray,
    rng: np.random.Generator,
    kelvin: int = 5000,
    exposure: float = 1.0,
    shadow: float = 1.0,
    glare: bool = False,
    noise: float = 2.5,
) -> np.ndarray:
    """uint8 BGR patch as a camera sees ``linear`` under the given light."""
    img = linear * light_gain(kelvin) * exposure * shadow
    if glare:
        size = img.shape[0]
        yy, xx = np.mgrid[0:size, 0:size]
        gx, gy = rng.uniform(0.3, 0.7, 2) * size
        spot = np.exp(-(((xx - gx) / (0.12 * size)) ** 2 + ((yy - gy) / (0.08 * size)) ** 2))
        img = img + 1.5 * spot[..., None]
    out = to_srgb8(img) + rng.normal(0, noise, img.shape)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)[..., ::-1]


def scene(
    rng: np.random.Generator,
    labels: str,
    colours: dict[str, tuple[int, int, int]] | None = None,
    kelvin: int = 5000,
    exposure: float = 1.0,
    shadowed: frozenset[int] = frozenset(),
    glared: frozenset[int] = frozenset(),
    hands: frozenset[int] = frozenset(),
    table: str = "wood",
    style: str = "field",
    size: int = 48,
    shadings: str | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(cell patches, bare-table patches) for ``labels`` ("." empty) under one light.

    ``shadings``: per cell, the shading of symbol cards: s(olid), t (striped), e(mpty)."""
    names = {"s": "solid", "t": "striped", "e": "empty"}
    colours = colours or NOMINAL_RGB
    cells = []
    for i, ch in enumerate(labels):
        if i in hands:
            linear = hand_patch(rng, size)
        else:
            rgb = None if ch == "." else colours[ch]
            shading = names[shadings[i]] if shadings else None
            linear = card_patch(rng, rgb, size, TABLES[table], style, shading)
        cells.append(
            expose(
                linear,
                rng,
                kelvin,
                exposure,
                shadow=0.45 if i in shadowed else 1.0,
                glare=i in glared,
            )
        )
    tables = [
        expose(card_patch(rng, None, size, TABLES[table]), rng, kelvin, exposure) for _ in range(8)
    ]
    return np.stack(cells), np.stack(tables)


LAYOUT = "RROGYCBVPRGGYOCBVPROYGCB*"
"""N1 deals 25 cards; a layout with every gem and the pearl, some twice."""


def learned_palette(seed: int) -> Palette:
    """A palette learned from ``LAYOUT`` seen at 5000 K, the camera's white balance, as a
    player calibrates."""
    cells, _ = scene(np.random.default_rng(seed), LAYOUT)
    return learn_palette([(cells, LAYOUT)])


def veiled(patches: np.ndarray, veil: float) -> np.ndarray:
    """The patches (uint8 BGR) with white light added over all of them: flare in the lens,
    haze, the sheen of a lamp on glossy cards."""
    light = to_linear(patches.astype(float)) + veil
    return np.clip(np.rint(to_srgb8(light)), 0, 255).astype(np.uint8)
