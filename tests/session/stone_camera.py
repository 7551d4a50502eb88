"""A stand-in camera over the stone spot: synthetic frames of the cloth with a stone on the
spot (``tests.vision.test_spot.stone_frame``), switched by the test as players lay stones."""

from __future__ import annotations

import threading
import time

import numpy as np

from calibration.spot import StoneSpot
from companion.rules.sands import LETTERS
from tests.vision.test_spot import stone_frame
from vision.sources import Frame, FrameSource

SIZE = (640, 360)
CENTRE = (320.0, 180.0)
SIDE = 100.0
SPOT = StoneSpot.around(CENTRE, SIDE, SIZE)
MARK = (CENTRE, SIDE)


def scene(seed: int, stone: str | None = None, kelvin: float = 5000.0) -> np.ndarray:
    """A 640x360 frame: the spot empty (None) or a stone of a bag letter on it."""
    return stone_frame(np.random.default_rng(seed), stone, kelvin, size=SIZE, spot=SPOT)


def captures(seed: int = 1) -> list[tuple[np.ndarray, str]]:
    """What the calibration screen captures: the empty spot, then each stone."""
    return [(scene(seed + i, None if s == "." else s), s) for i, s in enumerate("." + LETTERS)]


class StandInCamera(FrameSource):
    """A live source showing ``image`` (None: no picture) ``fps`` times a second until
    closed; ``show`` changes what it shows, as a hand laying a stone would."""

    live = True

    def __init__(self, image: np.ndarray | None = None, fps: float = 50.0) -> None:
        self.image = image
        self.period = 1.0 / fps
        self.status = "closed"
        self.opened = 0
        self._stop = threading.Event()

    def show(self, image: np.ndarray | None) -> None:
        self.image = image

    def open(self) -> None:
        self._stop.clear()
        self.opened += 1
        self.status = "open"

    def close(self) -> None:
        self._stop.set()
        self.status = "closed"

    def frames(self):
        index = 0
        while not self._stop.wait(self.period):
            image = self.image
            if image is not None:
                yield Frame(image, time.monotonic(), index, "stand-in")
                index += 1
