"""Read the stone laid on the stone spot: its palette letter, ``.`` when the spot is empty,
``?`` when unsure; and count each drawn stone once.

The spot (``calibration.spot.StoneSpot``) is cut out of the frame as one patch, and so are
its four neighbours of the same size (left, right, above, below) when they lie in the frame:
bare table, the reference that tells the palette what this light does to the table, and what
an empty spot looks like. The five patches are read as one scene, so a change of light moves
the stone and the table together and the palette can undo it.

>>> import numpy as np
>>> from calibration.spot import StoneSpot
>>> frame = np.full((120, 160, 3), 90, np.uint8); frame[50:70, 70:90] = (40, 40, 200)
>>> patches = spot_patches(frame, StoneSpot.around((80, 60), 30), size=16)
>>> patches.shape, patches[0, 8, 8].tolist(), patches[1, 8, 8].tolist()
((5, 16, 16, 3), [40, 40, 200], [90, 90, 90])
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from calibration.palette import EMPTY, UNSURE, Palette, PaletteError, learn_palette
from calibration.spot import SpotError, StoneSpot

from .cells import PATCH_SIZE
from .halves import halved_to
from .stability import StabilityFilter

__all__ = ["NEIGHBOURS", "SpotError", "StoneSpot", "StoneWatcher", "learn_stone_palette",
           "read_stone", "spot_patches"]

NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))
"""The table patches, in spot sides from the spot: left, right, above, below."""

_UNIT = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)


def _in_frame(quad: np.ndarray, width: int, height: int) -> bool:
    return bool(quad.min() >= 0 and np.all(quad[:, 0] <= width - 1)
                and np.all(quad[:, 1] <= height - 1))


def spot_patches(frame: np.ndarray, spot: StoneSpot, size: int = PATCH_SIZE) -> np.ndarray:
    """(1 + M, size, size, 3) BGR: the spot, then its neighbours wholly in the frame (M <= 4).

    SpotError when the spot itself is not wholly in the frame.
    """
    height, width = frame.shape[:2]
    corners = spot.corners((width, height)).astype(np.float32)
    if not _in_frame(corners, width, height):
        raise SpotError(f"the stone spot lies outside the {width}x{height} frame: "
                        "choose the spot again in calibration")
    to_image = cv2.getPerspectiveTransform(_UNIT, corners).astype(np.float64)
    offsets = [(0, 0)] + [
        (dx, dy) for dx, dy in NEIGHBOURS
        if _in_frame(cv2.perspectiveTransform((_UNIT + (dx, dy))[None], to_image)[0],
                     width, height)
    ]
    img, to_image = _reduced(frame, to_image, size)
    step = 1.0 / size
    out = np.empty((len(offsets), size, size, 3), np.uint8)
    for i, (dx, dy) in enumerate(offsets):
        # patch pixel centre (j + 0.5) / size of the unit square, moved by the offset
        to_unit = np.array([[step, 0, dx + step / 2], [0, step, dy + step / 2], [0, 0, 1]])
        out[i] = cv2.warpPerspective(
            img, to_image @ to_unit, (size, size),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    return out


def _reduced(frame: np.ndarray, to_image: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The frame around the spot and its neighbours, halved while the spot would still cover
    two patch widths (so warping does not skip pixels), and the spot's homography onto it."""
    height, width = frame.shape[:2]
    block = cv2.perspectiveTransform((_UNIT * 3 - 1)[None], to_image)[0]
    x0, y0 = np.floor(np.clip(block.min(axis=0), 0, None)).astype(int)
    x1 = int(np.ceil(min(block[:, 0].max() + 1, width)))
    y1 = int(np.ceil(min(block[:, 1].max() + 1, height)))
    img = frame[y0:y1, x0:x1]
    h = np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1]]) @ to_image
    side = float(np.sqrt(abs(np.linalg.det(h[:2, :2]))))
    return halved_to(img, h, side, 2.5 * size)


def read_stone(frame: np.ndarray, spot: StoneSpot, palette: Palette) -> tuple[str, float]:
    """The spot's label (a palette letter, ``.`` empty, ``?`` unsure) and its confidence 0..1."""
    patches = spot_patches(frame, spot)
    table = patches[1:]
    reads = palette.classify(patches, table=table if len(table) else None)
    return reads.labels[0], float(reads.confidence[0])


def learn_stone_palette(samples: Iterable[tuple[np.ndarray, str]], spot: StoneSpot) -> Palette:
    """The stones' palette from frames with one stone of a known letter on the spot (``.``:
    the spot empty), e.g. a few frames of each stone colour, moved and turned between them.

    The neighbours of the spot teach the palette the bare table as ``.``.
    """
    scenes = []
    for frame, label in samples:
        if len(label) != 1 or label == UNSURE or label.isspace():
            raise PaletteError(f"a stone is labelled with one letter (or '.'), not {label!r}")
        patches = spot_patches(frame, spot)
        scenes.append((patches, label + EMPTY * (len(patches) - 1)))
    return learn_palette(scenes)


class StoneWatcher:
    """Counts each stone laid on the spot once.

    ``push`` each frame's label (or ``(label, confidence)``, or None when there was no
    frame); it returns the stone's letter once, in the frame where the same letter has been
    read ``k`` frames in a row, provided the spot was read empty (``.``) for ``k`` frames in
    a row since the last stone counted. A ``?`` breaks both runs. The watcher starts
    waiting for an empty spot, so a stone already lying there is never taken for a new draw.

    >>> w = StoneWatcher(2)
    >>> [w.push(x) for x in "rr..r?rr..gg"]
    [None, None, None, None, None, None, None, 'r', None, None, None, 'g']
    """

    def __init__(self, k: int = 3) -> None:
        self._stable = StabilityFilter(k)
        self.armed = False
        """True once the spot has been seen empty: the next stone read counts."""

    def __repr__(self) -> str:
        return f"StoneWatcher({self.k})"

    @property
    def k(self) -> int:
        return self._stable.k

    def push(self, read: str | tuple[str, float] | None) -> str | None:
        label = read[0] if isinstance(read, tuple) else read
        held = self._stable.push(None if label is None else (label,))
        if held is None:
            return None
        if held[0] == EMPTY:
            self.armed = True
            return None
        if self.armed:
            self.armed = False
            return held[0]
        return None
