"""Drawing parts for synthetic scenes: tablecloths, card faces, card backs, hands.

Everything is drawn from a ``numpy.random.Generator`` passed in, so a seed gives the same
picture. Colours are BGR uint8 tuples; sizes are in pixels of the sprite being drawn.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

CLOTHS = ("plain", "felt", "wood", "stripes", "gingham", "dots", "floral", "speckle")

# A few real-looking cloth colours (BGR): dark felt, linen, wood, grey, navy, white, black.
CLOTH_COLOURS = (
    (40, 90, 30),
    (170, 195, 210),
    (60, 100, 150),
    (120, 120, 120),
    (90, 40, 25),
    (225, 225, 225),
    (25, 25, 25),
    (60, 60, 150),
    (150, 170, 185),
)

# Skin from pale to dark (BGR), and sleeve fabrics.
SKIN = (
    (190, 210, 245),
    (160, 190, 235),
    (120, 160, 220),
    (80, 125, 190),
    (50, 85, 140),
    (35, 55, 90),
)
SLEEVES = (
    (40, 40, 160),
    (140, 60, 20),
    (30, 30, 30),
    (200, 200, 200),
    (40, 120, 60),
    (80, 160, 220),
)


def _jitter_colour(rng: np.random.Generator, colour: tuple[int, ...], spread: float) -> np.ndarray:
    c = np.array(colour, float) * rng.uniform(1 - spread, 1 + spread, 3)
    return np.clip(c, 0, 255)


def _any_colour(rng: np.random.Generator, colours: tuple[tuple[int, ...], ...],
                spread: float) -> np.ndarray:
    """One of ``colours`` at random, jittered by ``spread``."""
    return _jitter_colour(rng, colours[rng.integers(len(colours))], spread)


def _stroke(mask: np.ndarray, start: np.ndarray, end: np.ndarray, width: int) -> None:
    """A round-ended line (a finger, a thumb) from ``start`` to ``end`` on ``mask``."""
    cv2.line(mask, tuple(np.round(start).astype(int)), tuple(np.round(end).astype(int)), 255,
             width, cv2.LINE_AA)


def cloth(
    rng: np.random.Generator, kind: str, shape: tuple[int, int], texel_mm: float
) -> np.ndarray:
    """A tablecloth pattern of ``shape`` (h, w) texels, each ``texel_mm`` wide."""
    h, w = shape
    base = _any_colour(rng, CLOTH_COLOURS, 0.15)
    other = _any_colour(rng, CLOTH_COLOURS, 0.25)
    if np.abs(other - base).sum() < 120:
        other = 255 - base
    img = np.empty((h, w, 3), np.uint8)
    img[:] = base.astype(np.uint8)
    if kind == "stripes":
        period = max(2, round(rng.uniform(6, 30) / texel_mm))
        width = max(1, round(period * rng.uniform(0.2, 0.6)))
        cols = (np.arange(w) % period) < width
        img[:, cols] = other.astype(np.uint8)
    elif kind == "gingham":
        period = max(2, round(rng.uniform(6, 22) / texel_mm))
        band_r = (np.arange(h) % period) < period // 2
        band_c = (np.arange(w) % period) < period // 2
        mix = (base + other) / 2
        img[band_r, :] = mix.astype(np.uint8)
        img[:, band_c] = mix.astype(np.uint8)
        img[np.ix_(band_r, band_c)] = other.astype(np.uint8)
    elif kind == "dots":
        period = max(4, round(rng.uniform(10, 30) / texel_mm))
        radius = max(1, round(period * rng.uniform(0.15, 0.3)))
        tile = np.empty((period, period, 3), np.uint8)
        tile[:] = base.astype(np.uint8)
        cv2.circle(tile, (period // 2, period // 2), radius, other.tolist(), -1, cv2.LINE_AA)
        img = np.tile(tile, (h // period + 1, w // period + 1, 1))[:h, :w].copy()
    elif kind == "floral":
        n = int(h * w * texel_mm**2 / rng.uniform(2000, 5000))
        for _ in range(min(n, 600)):
            colour = _any_colour(rng, CLOTH_COLOURS, 0.4)
            centre = (int(rng.integers(w)), int(rng.integers(h)))
            axes = (
                max(1, int(rng.uniform(3, 14) / texel_mm)),
                max(1, int(rng.uniform(2, 8) / texel_mm)),
            )
            cv2.ellipse(img, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour.tolist(), -1)
    elif kind == "wood":
        y = np.arange(h, dtype=np.float32)[:, None] * texel_mm
        x = np.arange(w, dtype=np.float32)[None, :] * texel_mm
        grain = np.sin(y / rng.uniform(2, 6) + 2.5 * np.sin(x / rng.uniform(40, 120)))
        shade = (0.85 + 0.15 * grain)[..., None]
        img = np.clip(img.astype(np.float32) * shade, 0, 255).astype(np.uint8)
    elif kind == "speckle":
        dots = rng.random((h, w)) < 0.08
        img[dots] = other.astype(np.uint8)
    # Every cloth has a little weave noise (a random tile repeated: cheap and invisible).
    weave = rng.normal(0, 4 if kind != "felt" else 9, (61, 67, 1))
    noise = np.tile(weave.astype(np.int16), (h // 61 + 1, w // 67 + 1, 1))[:h, :w]
    return np.clip(img.astype(np.int16) + noise, 0, 255).astype(np.uint8)


def rounded_rect_mask(h: int, w: int, radius: float, inset: float = 0.0) -> np.ndarray:
    """A filled rounded rectangle (uint8 0/255) of size (h, w), drawn ``inset`` px inside."""
    mask = np.zeros((h, w), np.uint8)
    x0, y0, x1, y1 = inset, inset, w - 1 - inset, h - 1 - inset
    r = max(0.0, min(radius, (x1 - x0) / 2, (y1 - y0) / 2))
    ri = round(r)
    cv2.rectangle(mask, (round(x0 + r), round(y0)), (round(x1 - r), round(y1)), 255, -1)
    cv2.rectangle(mask, (round(x0), round(y0 + r)), (round(x1), round(y1 - r)), 255, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x1 - r, y1 - r), (x0 + r, y1 - r)):
        cv2.circle(mask, (round(cx), round(cy)), ri, 255, -1, cv2.LINE_AA)
    return mask


def _gem_polygon(kind: int, cx: float, cy: float, rx: float, ry: float) -> np.ndarray:
    """Outline of a cut gem: a round brilliant, an emerald cut, a marquise, a pear, a heart-ish
    trillion, a cushion; chosen by ``kind`` so each class may look different."""
    k = kind % 6
    if k == 0:
        t = np.linspace(0, 2 * math.pi, 8, endpoint=False) + math.pi / 8
        return np.stack([cx + rx * np.cos(t), cy + ry * np.sin(t)], 1)
    if k == 1:
        c = 0.3
        return np.array(
            [
                [cx - rx * (1 - c), cy - ry],
                [cx + rx * (1 - c), cy - ry],
                [cx + rx, cy - ry * (1 - c)],
                [cx + rx, cy + ry * (1 - c)],
                [cx + rx * (1 - c), cy + ry],
                [cx - rx * (1 - c), cy + ry],
                [cx - rx, cy + ry * (1 - c)],
                [cx - rx, cy - ry * (1 - c)],
            ]
        )
    if k == 2:
        t = np.linspace(0, 2 * math.pi, 12, endpoint=False)
        return np.stack(
            [cx + 0.6 * rx * np.sin(t) * np.abs(np.sin(t)) ** 0.2, cy - ry * np.cos(t)], 1
        )
    if k == 3:
        t = np.linspace(0, 2 * math.pi, 12, endpoint=False)
        r = 1 - 0.35 * (np.cos(t) > 0) * np.cos(t)
        return np.stack([cx + rx * r * np.sin(t), cy - ry * np.cos(t) * 0.9], 1)
    if k == 4:
        t = np.array([-90, 30, 150]) * math.pi / 180
        return np.stack([cx + rx * np.cos(t), cy + ry * np.sin(t) * 1.1], 1)
    t = np.linspace(0, 2 * math.pi, 16, endpoint=False)
    r = 1 / (np.abs(np.cos(t)) ** 4 + np.abs(np.sin(t)) ** 4) ** 0.25
    return np.stack([cx + rx * r * np.cos(t), cy + ry * r * np.sin(t)], 1)


def card_face(
    rng: np.random.Generator, colour: tuple[int, int, int], kind: int, h: int, w: int
) -> tuple[np.ndarray, np.ndarray]:
    """A gem card: white border, a field of ``colour`` with shading, a faceted gem on it.
    Returns (BGR sprite, alpha mask)."""
    radius = 0.07 * w
    alpha = rounded_rect_mask(h, w, radius)
    paper = rng.uniform(228, 250) + rng.uniform(-4, 4, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = paper
    border = rng.uniform(0.07, 0.12) * w
    field_mask = rounded_rect_mask(h, w, radius * 0.6, inset=border) > 0
    col = np.array(colour, np.float32)
    ramp = np.linspace(1.12, 0.82, h, dtype=np.float32)[:, None, None]
    field = np.clip(col * ramp, 0, 255)
    field = field + rng.normal(0, 3, (h, w, 1)).astype(np.float32)
    img[field_mask] = np.broadcast_to(field, (h, w, 3))[field_mask]
    # The gem: facets around the centre, alternately lit and shaded, with a bright table.
    cx, cy = w / 2, h / 2
    rx, ry = 0.3 * w, min(0.3 * w * rng.uniform(0.9, 1.25), 0.36 * h)
    outline = _gem_polygon(kind, cx, cy, rx, ry)
    light = np.clip(col * 1.35 + 40, 0, 255)
    dark = col * 0.55
    n = len(outline)
    for i in range(n):
        tri = np.array([outline[i], outline[(i + 1) % n], (cx, cy)], np.float32)
        mix = 0.5 + 0.5 * math.cos(2 * math.pi * i / n + 0.8)
        cv2.fillConvexPoly(
            img,
            np.round(tri * 16).astype(np.int32),
            (dark + (light - dark) * mix).tolist(),
            cv2.LINE_AA,
            4,
        )
    inner = (outline - (cx, cy)) * 0.45 + (cx, cy)
    cv2.fillPoly(
        img,
        [np.round(inner * 16).astype(np.int32)],
        np.clip(col * 1.15 + 25, 0, 255).tolist(),
        cv2.LINE_AA,
        4,
    )
    cv2.polylines(
        img,
        [np.round(outline * 16).astype(np.int32)],
        True,
        (dark * 0.7).tolist(),
        max(1, w // 60),
        cv2.LINE_AA,
        4,
    )
    sparkle = (round(cx - 0.35 * rx), round(cy - 0.35 * ry))
    cv2.circle(img, sparkle, max(1, w // 30), (255, 255, 255), -1, cv2.LINE_AA)
    return np.clip(img, 0, 255).astype(np.uint8), alpha


def card_back(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """A face-down card: a dark patterned back with a white rim."""
    alpha = rounded_rect_mask(h, w, 0.07 * w)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = (235, 235, 235)
    inner = rounded_rect_mask(h, w, 0.05 * w, inset=0.06 * w) > 0
    base = _jitter_colour(rng, (120, 40, 30), 0.3).astype(np.uint8)
    img[inner] = base
    step = max(3, w // 8)
    for k in range(-h, w, step):
        cv2.line(img, (k, 0), (k + h, h), (base * 0.6).tolist(), 1)
    img[~inner & (alpha > 0)] = (235, 235, 235)
    return img, alpha


def hand_mask(
    rng: np.random.Generator,
    shape: tuple[int, int],
    wrist: np.ndarray,
    entry: np.ndarray,
    scale: float,
) -> np.ndarray:
    """An arm from ``entry`` (outside or at the image border) to a hand at ``wrist``; ``scale``
    is image pixels per millimetre there. Returns a float32 mask 0..1."""
    h, w = shape
    mask = np.zeros((h, w), np.uint8)
    direction = wrist - entry
    length = float(np.hypot(*direction)) or 1.0
    d = direction / length
    n = np.array([-d[1], d[0]])
    arm = rng.uniform(60, 85) * scale / 2
    poly = np.array(
        [entry + n * arm * 1.1, wrist + n * arm, wrist - n * arm, entry - n * arm * 1.1]
    )
    cv2.fillConvexPoly(mask, np.round(poly).astype(np.int32), 255, cv2.LINE_AA)
    palm_c = wrist + d * 45 * scale
    cv2.ellipse(
        mask,
        tuple(np.round(palm_c).astype(int)),
        (round(50 * scale), round(42 * scale)),
        math.degrees(math.atan2(d[1], d[0])),
        0,
        360,
        255,
        -1,
        cv2.LINE_AA,
    )
    spread = rng.uniform(0.0, 0.25)
    for k, off in enumerate((-1.5, -0.5, 0.5, 1.5)):
        base = palm_c + d * 30 * scale + n * off * 19 * scale
        ang = spread * off + rng.uniform(-0.08, 0.08)
        fd = d * math.cos(ang) + n * math.sin(ang)
        tip = base + fd * rng.uniform(45, 75) * scale * (0.85 if k in (0, 3) else 1.0)
        _stroke(mask, base, tip, max(2, round(17 * scale)))
    side = 1 if rng.random() < 0.5 else -1
    thumb_base = palm_c + n * side * 35 * scale
    thumb_tip = thumb_base + (d * 0.6 + n * side * 0.8) * 50 * scale
    _stroke(mask, thumb_base, thumb_tip, max(2, round(20 * scale)))
    return mask.astype(np.float32) / 255.0


def hand_colour(
    rng: np.random.Generator, mask: np.ndarray, wrist: np.ndarray, entry: np.ndarray
) -> np.ndarray:
    """Skin (and sometimes a sleeve up the arm) with soft round shading, as float32 BGR."""
    h, w = mask.shape
    skin = _any_colour(rng, SKIN, 0.08)
    img = np.empty((h, w, 3), np.float32)
    img[:] = skin
    if rng.random() < 0.5:
        # A sleeve from the entry point to some way short of the wrist.
        sleeve = _any_colour(rng, SLEEVES, 0.15)
        d = wrist - entry
        cut = entry + d * rng.uniform(0.3, 0.8)
        n = np.array([-d[1], d[0]]) * 10
        poly = np.array([cut + n, cut - n, entry - n - d, entry + n - d])
        sleeve_mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(sleeve_mask, np.round(poly).astype(np.int32), 1)
        img[sleeve_mask > 0] = sleeve
    # Round shading: darker towards the arm's edges (blurred on a small copy: it is smooth).
    small = cv2.resize(mask, (max(1, w // 8), max(1, h // 8)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), max(1.0, 0.02 * max(h, w) / 8))
    blurred = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    shade = 0.65 + 0.45 * np.clip(blurred, 0, 1)
    img *= shade[..., None]
    return img
