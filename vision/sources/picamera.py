"""The Raspberry Pi camera through picamera2 (the only module that imports it, and only
inside functions, so everything else runs where picamera2 does not exist).

Colours stay put only if the camera stops adjusting itself: after calibration,
``lock()`` freezes white balance and exposure at what the camera settled on and returns
those settings, so they can be saved and passed back as ``controls`` next time.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .base import LiveSource, SourceError, monotonic

LOCK_KEYS = ("ExposureTime", "AnalogueGain", "ColourGains")


def _picamera2() -> Any:
    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]
    except ImportError as err:
        raise SourceError(
            "picamera2 is not installed (on a Raspberry Pi: sudo apt install python3-picamera2)"
        ) from err
    return Picamera2


class PiCamera(LiveSource):
    """The Pi camera at ``size`` (width, height). ``controls``: settings to apply on every
    (re)connect, e.g. the locked ones saved after calibration."""

    def __init__(
        self,
        size: tuple[int, int] = (1280, 720),
        controls: dict[str, Any] | None = None,
        camera_num: int = 0,
        **live: Any,
    ) -> None:
        super().__init__(f"pi camera {camera_num}", **live)
        self.size = size
        self.controls = dict(controls or {})
        self.camera_num = camera_num
        self._cam: Any = None

    def __repr__(self) -> str:
        return f"PiCamera({self.size!r})"

    def _connect(self) -> None:
        picamera2 = _picamera2()
        try:
            cam = picamera2(self.camera_num)
            # "RGB888" is stored B, G, R in memory: what OpenCV calls BGR.
            config = cam.create_video_configuration(
                main={"size": tuple(self.size), "format": "RGB888"}
            )
            cam.configure(config)
            if self.controls:
                cam.set_controls(self._as_controls(self.controls))
            cam.start()
        except SourceError:
            raise
        except Exception as err:  # picamera2 raises many kinds; all mean "no camera here"
            raise SourceError(f"{self.name}: cannot start ({err})") from err
        self._cam = cam

    def _grab(self) -> tuple[np.ndarray, float] | None:
        if self._cam is None:
            return None
        try:
            request = self._cam.capture_request()
            try:
                image = request.make_array("main")
                meta = request.get_metadata()
            finally:
                request.release()
        except Exception:  # a cable pulled mid-frame surfaces as anything
            return None
        stamp = meta.get("SensorTimestamp")
        return np.ascontiguousarray(image[:, :, :3]), (stamp / 1e9 if stamp else monotonic())

    def _release(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            except Exception:
                pass
            self._cam = None

    def lock(self) -> dict[str, Any]:
        """Freeze white balance and exposure where they are now; returns the settings (JSON
        friendly) to save with the calibration and pass back as ``controls``."""
        if self._cam is None:
            raise SourceError(f"{self.name}: not open")
        meta = self._cam.capture_metadata()
        missing = [k for k in LOCK_KEYS if k not in meta]
        if missing:
            raise SourceError(f"{self.name}: camera does not report {', '.join(missing)}")
        settings = {
            k: (list(meta[k]) if isinstance(meta[k], (tuple, list)) else meta[k]) for k in LOCK_KEYS
        }
        self.controls = settings
        self._cam.set_controls(self._as_controls(settings))
        return settings

    def unlock(self) -> None:
        """Let the camera adjust white balance and exposure again."""
        self.controls = {}
        if self._cam is not None:
            self._cam.set_controls({"AeEnable": True, "AwbEnable": True})

    @staticmethod
    def _as_controls(settings: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for key in LOCK_KEYS:
            if key in settings:
                value = settings[key]
                out[key] = tuple(value) if isinstance(value, list) else value
        return out
