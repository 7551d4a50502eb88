"""What the Pi camera was fixed at when the colours were calibrated: exposure, gain, white
balance and focus, saved beside the palette (``camera.json``) and applied at every start.

A palette learns the colours the camera showed under one exposure and one white balance.
If the camera kept adjusting itself (more cards, a hand, a shadow fill the view) every
colour would move away from what the palette learned; so the settings the camera settled on
during calibration are frozen and kept with the palette.

>>> lock = CameraLock(20000, 2.0, (1.9, 1.6), 1.67)
>>> CameraLock.from_json(lock.to_json()) == lock
True
>>> lock
CameraLock(exposure_time=20000, analogue_gain=2.0, colour_gains=(1.9, 1.6), lens_position=1.67)
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any

from .errors import CameraError
from .files import check_header, load_json_file, write_json_atomic

FORMAT, VERSION = "nizam-camera", 1
AF_MANUAL = 0
"""libcamera's ``AfModeEnum.Manual``: the lens stays where ``LensPosition`` puts it."""


class CameraLockError(CameraError):
    """The saved camera settings cannot be used: the message says why."""


@dataclass(frozen=True)
class CameraLock:
    """Exposure time (µs), analogue gain, white balance (red and blue gains) and the lens
    position in dioptres (1 / distance in metres; None for a fixed-focus camera)."""

    exposure_time: int
    analogue_gain: float
    colour_gains: tuple[float, float]
    lens_position: float | None = None

    def __post_init__(self) -> None:
        numbers = [self.exposure_time, self.analogue_gain, *self.colour_gains]
        if self.lens_position is not None:
            numbers.append(self.lens_position)
        if not all(isinstance(n, (int, float)) and math.isfinite(n) and n >= 0 for n in numbers):
            raise CameraLockError(f"camera settings must be finite and not negative: {self!r}")
        if self.exposure_time <= 0 or self.analogue_gain <= 0:
            raise CameraLockError("exposure time and gain must be above 0")

    def controls(self) -> dict[str, Any]:
        """picamera2 controls that hold the camera here: automatic exposure, white balance and
        focus off."""
        out: dict[str, Any] = {"AeEnable": False, "AwbEnable": False,
                               "ExposureTime": self.exposure_time,
                               "AnalogueGain": self.analogue_gain,
                               "ColourGains": self.colour_gains}
        if self.lens_position is not None:
            out.update(AfMode=AF_MANUAL, LensPosition=self.lens_position)
        return out

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "exposure_time": self.exposure_time,
                "analogue_gain": self.analogue_gain, "colour_gains": list(self.colour_gains),
                "lens_position": self.lens_position}

    @classmethod
    def from_json(cls, obj: Any) -> CameraLock:
        obj = check_header(obj, FORMAT, "camera settings", VERSION, CameraLockError)
        try:
            gains = obj["colour_gains"]
            if not isinstance(gains, list) or len(gains) != 2:
                raise CameraLockError("'colour_gains' must be [red, blue]")
            lens = obj.get("lens_position")
            return cls(int(obj["exposure_time"]), float(obj["analogue_gain"]),
                       (float(gains[0]), float(gains[1])),
                       None if lens is None else float(lens))
        except KeyError as err:
            raise CameraLockError(f"camera settings lack {err.args[0]!r}") from None
        except (TypeError, ValueError) as err:
            if isinstance(err, CameraLockError):
                raise
            raise CameraLockError(f"camera settings are not numbers ({err})") from None

    def save(self, path: str | os.PathLike[str]) -> None:
        write_json_atomic(path, self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> CameraLock:
        return load_json_file(path, "camera settings", CameraLockError, cls.from_json)
