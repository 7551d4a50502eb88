"""A frame at half its size, and half again: each halving of the frame being read made once.

Several steps of one read shrink the frame before they warp from it (the search's image,
the cells' and the table's patches, the tracker's view, the cuts for cards in the air):
each halving costs some 0.3 ms at 1280 x 720, so within :func:`one_frame` it is made once
and handed, read-only, to every step that asks for it.

>>> import numpy as np
>>> frame = np.zeros((8, 8, 3), np.uint8)
>>> with one_frame(frame):
...     halve(frame) is halve(frame)
True
>>> img, to_img = halved_to(np.zeros((512, 512, 3), np.uint8), np.eye(3), 300.0, 100.0)
>>> img.shape[:2], to_img[0].tolist()
((128, 128), [0.25, 0.0, -0.375])
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

import cv2
import numpy as np

# pixel centres: x_half = (x + 0.5) / 2 - 0.5
_TO_HALF = np.array([[0.5, 0, -0.25], [0, 0.5, -0.25], [0, 0, 1]])


class _Halves(threading.local):
    """The frame being read (:func:`one_frame`) and its halvings made so far, per thread."""

    frame: np.ndarray | None = None
    halves: tuple[np.ndarray, ...] = ()


_HALVES = _Halves()


@contextlib.contextmanager
def one_frame(frame: np.ndarray) -> Iterator[None]:
    """While ``frame`` is read: each of its halvings (:func:`halve`) is made once, however
    many steps ask for it. The frame must not change meanwhile."""
    outer = _HALVES.frame, _HALVES.halves
    _HALVES.frame, _HALVES.halves = frame, ()
    try:
        yield
    finally:
        _HALVES.frame, _HALVES.halves = outer


def halve(img: np.ndarray) -> np.ndarray:
    """``img`` at half its size, each pixel the mean of a 2 x 2 block (``cv2.INTER_AREA``);
    a halving of the frame being read (:func:`one_frame`) made once, and kept read-only."""
    chain = () if _HALVES.frame is None else (_HALVES.frame, *_HALVES.halves)
    for k in range(len(chain) - 1):
        if img is chain[k]:
            return chain[k + 1]
    half = cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2), interpolation=cv2.INTER_AREA)
    if chain and img is chain[-1]:
        half.flags.writeable = False
        _HALVES.halves = (*_HALVES.halves, half)
    return half


def halved_to(img: np.ndarray, to_img: np.ndarray, pitch: float, most: float
              ) -> tuple[np.ndarray, np.ndarray]:
    """``img`` halved while a unit spans more than ``most`` of its pixels (``pitch`` at
    first; warping to ``most`` a unit would skip pixels) and it keeps more than 64 a side,
    and the map ``to_img`` (into ``img``'s pixels) onto it."""
    while pitch > most and min(img.shape[:2]) > 64:
        img = halve(img)
        to_img = _TO_HALF @ to_img
        pitch /= 2
    return img, to_img
