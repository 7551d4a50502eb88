"""Colour arithmetic under the von Kries model of light.

A change of light colour or exposure multiplies each camera channel by its own gain, the
same for every pixel it falls on (a shadow: one gain for all three channels, over part of
the scene). So a surface is read *against a white* in the same light: per channel,
``log(colour / white)`` is what the surface is, whatever the lamp. Colours are in camera
values 0..255 (BGR arrays as OpenCV gives them; R, G, B where the name says so); whites are
the log of such values.

Opponent axes: ``I`` (brightness), ``u`` (red against green), ``v`` (yellow against blue).

>>> white = PURE_WHITE
>>> reflectance(np.array([255.0, 255.0, 255.0]), white).round(3).tolist()
[0.039, 0.039, 0.039]
"""

from __future__ import annotations

import numpy as np

from ._stats import sum3

FLOOR = 0.04
"""Colours are read as log(colour / white + FLOOR): a channel far darker than its white (the
blue of a yellow card under a warm lamp) is mostly sensor noise, not a colour to trust."""
NOISE = 2.5
"""Camera noise (0..255) left in the mean of a patch's pixels: JPEG, noise, rounding."""
CLIPPED = 250
"""A pixel channel this high may be clipped by the camera: it says "at least this bright"."""

PURE_WHITE = np.full(3, np.log(255.0))
"""Log RGB of the brightest white the camera shows: the reference when none is known."""

# Rows of OPPONENT turn log (R, G, B) into (I, u, v).
OPPONENT = np.array([[1 / 3, 1 / 3, 1 / 3], [1.0, -1.0, 0.0], [0.5, 0.5, -1.0]])
OPPONENT_INV = np.linalg.inv(OPPONENT)

PIXEL_OFFSET = 16.0
"""Added to a single pixel's values before their log: a dark pixel keeps a calm colour."""
PIXEL_LOG = np.log((np.arange(256) + PIXEL_OFFSET) / (255.0 + PIXEL_OFFSET)).astype(np.float32)
"""Log of each uint8 value (a lookup table): how single pixels are compared."""
PIXEL_LOG.flags.writeable = False

_HUE_FLOOR = 0.06  # chroma below this is sensor noise around a grey


def reflectance(colour: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """log(colour / white + FLOOR) per channel: ``colour`` in camera values, ``reference`` the
    log of the white under the same light (broadcast against it)."""
    return np.log(colour * np.exp(-reference) + FLOOR)


def squash(vectors: np.ndarray, scale: float) -> np.ndarray:
    """2-D vectors kept in direction, their length mapped into [0, 1).

    Lengths below the noise floor map to 0 (the hue of a grey is noise); above, the length
    saturates quickly, so faint and bold colour of one hue land close together.

    >>> squash(np.array([[0.0, 3.0]]), 0.12).round(3).tolist()
    [[0.0, 1.0]]
    """
    length = np.hypot(vectors[..., 0], vectors[..., 1])
    factor = np.tanh(np.maximum(length - _HUE_FLOOR, 0.0) / scale) / np.maximum(length, 1e-6)
    return vectors * factor[..., None]


def decode(values: np.ndarray) -> np.ndarray:
    """Camera values (0..255 as a share of 255; above 1 allowed) back to light: the sRGB
    curve that cameras (the Pi's, webcams, phones) put on what their sensor counted.

    >>> decode(np.array([0.0, 0.5, 1.0])).round(3).tolist()
    [0.0, 0.214, 1.0]
    """
    v = np.maximum(np.asarray(values, dtype=np.float64), 0.0)
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def encode(light: np.ndarray) -> np.ndarray:
    """Light (a share of full scale) to camera values as a share of 255: the inverse of
    :func:`decode`, as a camera's processing writes its pictures.

    >>> encode(decode(np.array([0.1, 0.5, 0.9]))).round(6).tolist()
    [0.1, 0.5, 0.9]
    """
    v = np.clip(np.asarray(light, dtype=np.float64), 0.0, 1.0)
    return np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)


def frame_distance(rim: np.ndarray, body: np.ndarray) -> np.ndarray:
    """How far apart in colour a patch's rim and its body are (camera values, (..., 3) each),
    dark colours compared calmly, as single pixels are.

    >>> float(frame_distance(np.array([100.0, 100, 100]), np.array([100.0, 100, 100])))
    0.0
    """
    return distance(apart(rim, body))


def apart(rim: np.ndarray, body: np.ndarray) -> np.ndarray:
    """:func:`frame_distance` channel by channel (..., 3), before they are added up."""
    return np.asarray(np.log((rim + PIXEL_OFFSET) / (body + PIXEL_OFFSET)))


def distance(d: np.ndarray) -> np.ndarray:
    """:func:`frame_distance` of what :func:`apart` says of each channel (``d``)."""
    return np.asarray(np.sqrt(sum3(d * d)))  # np.linalg.norm's own sum


def as_patches(patches: np.ndarray) -> np.ndarray:
    """(N, P, P, 3) uint8 BGR patches from patches or from an (N, 3) array of BGR colours.

    A plain colour is a flat patch of one pixel, so colour samples (a sticker's measured RGB)
    and image patches go through the same features.

    >>> as_patches(np.zeros((2, 3))).shape
    (2, 1, 1, 3)
    """
    arr = np.asarray(patches)
    if arr.ndim == 2 and arr.shape[1] == 3:
        arr = arr[:, None, None, :]
    if arr.ndim != 4 or arr.shape[3] != 3 or arr.shape[1] < 1 or arr.shape[2] < 1:
        raise ValueError(f"patches must be (N, P, P, 3) BGR or (N, 3) colours, not {arr.shape}")
    if arr.dtype != np.uint8:
        arr = np.clip(np.rint(arr), 0, 255).astype(np.uint8)
    return arr
