"""The Raspberry Pi camera through picamera2 (the only module that imports it, and only
inside functions, so everything else runs where picamera2 does not exist).

What a table needs from the camera, and why each setting is made here:

- **The whole field of view.** Asked only for a 1280x720 picture, picamera2 picks the
  sensor mode nearest that size; on a Camera Module 3 that is 1536x864, which reads only
  the middle 3072x1728 of the 4608x2592 sensor (47°x28° instead of 66°x41°), and the grid
  no longer fits at the README's heights. So the mode is chosen from ``sensor_modes`` by
  its crop: among the modes that read the most of the sensor, the smallest that still
  gives the picture's width and the frame rate (imx708: 2304x1296). The picture keeps the
  mode's shape, so the ISP crops nothing either.
- **The frame rate the reader needs and no more** (``READ_FPS``): a grid read takes about
  60 ms on a Pi 4, so more frames are only dropped, cost the ISP and memory bandwidth, and
  shorten the longest exposure in a dim room.
- **Focus** fixed for the mount height (``mounting.mount_height_m``; ``LensPosition`` is in
  dioptres, 1 / metres), never hunting while hands move over the table; one autofocus
  cycle at calibration finds the real distance, which is then kept with the palette.
- **Exposure and white balance** frozen by ``lock`` at calibration, returned as a
  ``CameraLock`` to save beside the palette and passed back at every start.
- **Metering that keeps the white borders below the clip** (``AeConstraintMode``
  Highlight, wherever exposure runs by itself: before calibration, and while ``lock``
  lets it settle). A table of dark wood or cloth with bright cards on it is exposed by the
  normal metering for the table's average, and the cards' white borders clip. Clipped,
  they no longer show the light on each card, and cards whose colours differ mostly in
  brightness (yellow and orange, pink and red) are told apart only by a guess at it: a
  lamp's falloff across the grid then reads a dim yellow orange and a dim pink red, sure.
  The tuning's highlight constraint holds the brightest few per cent of the picture below
  the clip; the table around comes out darker, and the reader needs of it only that the
  cards stand out from it. A tuning file that has no such mode keeps its normal one
  (libcamera says so and goes on).
- **The tone curve fixed** (``fixed_tone_tuning``): Raspberry Pi's tuning files ship with
  adaptive contrast enhancement on, which bends the tone curve to each frame's histogram. A
  hand coming in, a pile of bright cards beside the grid, a lamp moved, and every colour
  moves a little each its own way (pinks towards reds, yellows towards oranges), as no light
  does and as calibration never saw. Off, every frame has the tuning's one gamma curve.
- **A frame wait with a time limit** (``frame_wait``): ``capture_request`` would wait for
  ever on a pulled ribbon; a frame that does not come in time means "camera lost", the
  camera is closed and reconnected (``LiveSource``). A start that fails closes the camera,
  so the next attempt (or another program) can have it.
"""

from __future__ import annotations

import contextlib
import math
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from calibration.camera import AF_MANUAL, CameraLock
from calibration.files import write_json_atomic

from .base import LiveSource, SourceError, monotonic
from .mounting import mount_height_m

READ_FPS = 15.0
"""Frames a second asked of the sensor: a little above what the grid reader takes on a Pi
(10-16 reads a second), so the newest frame is never more than one frame old."""
FRAME_WAIT = 2.0
"""Seconds without a frame before the camera counts as lost (a frame comes every 67 ms)."""
SETTLE_SECONDS = 1.0
"""How long automatic exposure and white balance run before ``lock`` freezes them."""
AF_WAIT = 5.0
"""Seconds one autofocus cycle may take (a full sweep of the lens takes about one)."""
DEFAULT_MOUNT_M = 0.5
"""Focus distance for an autofocus camera the mounting table does not list."""
AUTO, MANUAL = 0, 1
"""libcamera's ExposureTimeModeEnum and AnalogueGainModeEnum."""
HIGHLIGHT = 1
"""libcamera's AeConstraintModeEnum.Highlight: automatic exposure keeps the highlights
below the clip."""


def _picamera2() -> Any:
    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]
    except ImportError as err:
        raise SourceError(
            "picamera2 is not installed (on a Raspberry Pi: sudo apt install python3-picamera2)"
        ) from err
    return Picamera2


TUNING_ENV = "LIBCAMERA_RPI_TUNING_FILE"
"""Where libcamera looks for the tuning file to use; read when its camera manager starts."""


def fixed_tone_tuning(picamera2: Any, camera_num: int) -> tuple[str | None, str]:
    """A tuning file for camera ``camera_num``: its sensor's own, adaptive contrast
    enhancement off (see above), made the one libcamera uses, and ""; or None (the camera's
    tuning as it is) and why not: an older picamera2, a sensor with no Raspberry Pi tuning
    file (a USB camera), a tuning with no contrast algorithm.

    libcamera reads the tuning file as its camera manager starts, and picamera2 keeps one
    running from its first question (which cameras there are) until the last camera closes:
    passed to ``Picamera2`` alone, the file would be read by no manager. So the file is
    written where it stays (picamera2 deletes its own temporary one, which a manager started
    after that, at a reconnect, would then find missing, and list no camera), named, and a
    new manager started, the way picamera2's own camera helpers start one afresh."""
    model = ""
    try:
        manager = picamera2._cm
        forget_failed_opens(picamera2)
        if manager.cameras:
            # a camera picamera2 holds open uses the manager running, and so does its
            # listener: a new manager would be pulled from under them, and its frames
            # never heard
            raise RuntimeError("picamera2 holds another camera, so the tuning the running "
                               "camera manager read stays")
        # the cameras as a manager reading no file lists them (one named at the last start
        # may be gone: a manager started from it would list no camera)
        os.environ.pop(TUNING_ENV, None)
        manager.reset()
        model = str(picamera2.global_camera_info()[camera_num]["Model"])
        tuning = picamera2.load_tuning_file(f"{model}.json")
        picamera2.find_tuning_algo(tuning, "rpi.contrast")["ce_enable"] = 0
        path = Path(tempfile.gettempdir()) / f"nizam-{os.getuid()}-{model}-fixed-tone.json"
        write_json_atomic(path, tuning)
        os.environ[TUNING_ENV] = str(path)
        manager.reset()
    except Exception as err:  # picamera2 raises many kinds; all mean "keep its own"
        # ... with no manager left reading a file that did not take (unless a camera is
        # held: its manager stays)
        with contextlib.suppress(Exception):
            if os.environ.pop(TUNING_ENV, None) is not None and not picamera2._cm.cameras:
                picamera2._cm.reset()
        what = f"{model}.json" if model else "the tuning file"
        return None, f"{what}: {type(err).__name__} {err}".rstrip()
    return str(path), ""


def forget_failed_opens(picamera2: Any) -> None:
    """Take out of picamera2's camera manager the cameras whose opening failed.

    ``Picamera2(n)`` joins the manager before it asks libcamera for the camera; when that
    fails (another program holds it), it raises and stays there, never open, and its
    ``close`` does nothing for a camera never opened. Left so, the manager counts a camera
    held: the next start could not fix the tone curve (``fixed_tone_tuning``), and the
    manager's listener would run on for as long as the program does."""
    manager = picamera2._cm
    for index, camera in list(manager.cameras.items()):
        if not getattr(camera, "is_open", True):
            manager.cleanup(index)


def camera_info() -> list[dict[str, Any]]:
    """What libcamera sees: one dict per camera (``Model``, ``Id``, ``Location``, …), in
    camera-number order; SourceError when picamera2 is missing."""
    return [dict(info) for info in _picamera2().global_camera_info()]


@dataclass(frozen=True)
class SensorMode:
    """One of a sensor's modes: its output size, the part of the pixel array it reads
    (x, y, width, height), its top frame rate and bit depth."""

    size: tuple[int, int]
    crop: tuple[int, int, int, int]
    fps: float
    bit_depth: int

    @classmethod
    def from_picamera2(cls, mode: dict[str, Any]) -> SensorMode:
        x, y, w, h = (int(v) for v in mode["crop_limits"])
        return cls((int(mode["size"][0]), int(mode["size"][1])), (x, y, w, h),
                   float(mode["fps"]), int(mode.get("bit_depth", 10)))

    @property
    def area(self) -> int:
        return self.crop[2] * self.crop[3]

    def describe(self, pixel_array: tuple[int, int] | None = None) -> str:
        """E.g. ``2304x1296, crop (0, 0)/4608x2592: the whole sensor``."""
        x, y, w, h = self.crop
        text = f"{self.size[0]}x{self.size[1]}, crop ({x}, {y})/{w}x{h}"
        if pixel_array is not None:
            whole = w >= pixel_array[0] and h >= pixel_array[1]
            share = 100 * self.area / (pixel_array[0] * pixel_array[1])
            text += ": the whole sensor" if whole else f": only {share:.0f}% of the sensor"
        return text


def full_field_mode(modes: Sequence[SensorMode], width: int, fps: float) -> SensorMode:
    """The mode for a picture ``width`` wide at ``fps``: among the modes reading the most
    of the sensor, the smallest that is fast enough and at least ``width`` wide (else the
    fastest, else the widest); among equals the deepest bits.

    >>> modes = [SensorMode((1536, 864), (768, 432, 3072, 1728), 120.13, 10),
    ...          SensorMode((2304, 1296), (0, 0, 4608, 2592), 56.03, 10),
    ...          SensorMode((4608, 2592), (0, 0, 4608, 2592), 14.35, 10)]
    >>> full_field_mode(modes, 1280, 15.0).size
    (2304, 1296)
    """
    if not modes:
        raise SourceError("the camera lists no sensor modes")
    widest = max(m.area for m in modes)
    full = [m for m in modes if m.area == widest]
    fast = [m for m in full if m.fps >= fps] or [max(full, key=lambda m: m.fps)]
    wide = [m for m in fast if m.size[0] >= width]
    if wide:
        return min(wide, key=lambda m: (m.size[0] * m.size[1], -m.bit_depth))
    return max(fast, key=lambda m: (m.size[0] * m.size[1], m.bit_depth))


def picture_size(mode: SensorMode, width: int) -> tuple[int, int]:
    """``width`` by the mode's own shape (even sizes), so the ISP only scales."""
    height = 2 * round(width * mode.size[1] / mode.size[0] / 2)
    return width, height


class PiCamera(LiveSource):
    """The Pi camera, ``width`` pixels wide (1280: vision's budgets are set for 1280x720).
    ``lock``: the settings saved at calibration, applied at every (re)connect.
    ``mount_height``: metres from lens to table, to focus at before calibration (default:
    the mounting table's height for this camera model)."""

    def __init__(
        self,
        width: int = 1280,
        lock: CameraLock | None = None,
        camera_num: int = 0,
        fps: float = READ_FPS,
        mount_height: float | None = None,
        frame_wait: float = FRAME_WAIT,
        **live: Any,
    ) -> None:
        super().__init__(f"pi camera {camera_num}", **live)
        self.width = width
        self.lock_settings = lock
        self.camera_num = camera_num
        self.fps = fps
        self.mount_height = mount_height
        self.frame_wait = frame_wait
        self.mode: SensorMode | None = None
        self.size: tuple[int, int] | None = None
        self.model = ""
        self.pixel_array: tuple[int, int] | None = None
        self._cam: Any = None
        self._controls: dict[str, Any] = {}
        self.tone_curve = ""
        """After a start: "fixed", or why the camera's adaptive one stays."""

    def __repr__(self) -> str:
        return f"PiCamera(camera_num={self.camera_num})"

    # -- LiveSource ----------------------------------------------------------------------

    def _connect(self) -> None:
        picamera2 = _picamera2()
        cam = None
        try:
            tuning, why = fixed_tone_tuning(picamera2, self.camera_num)
            cam = picamera2(self.camera_num) if tuning is None else picamera2(
                self.camera_num, tuning=tuning)
            self.tone_curve = why or "fixed"
            properties = cam.camera_properties
            self.model = str(properties.get("Model", ""))
            array = properties.get("PixelArraySize")
            self.pixel_array = (int(array[0]), int(array[1])) if array else None
            # Read before configure: picamera2 reconfigures the camera to list them.
            modes = [SensorMode.from_picamera2(m) for m in cam.sensor_modes]
            mode = full_field_mode(modes, self.width, self.fps)
            size = picture_size(mode, self.width)
            self._controls = dict(cam.camera_controls)
            # "RGB888" is stored B, G, R in memory: what OpenCV calls BGR.
            config = cam.create_video_configuration(
                main={"size": size, "format": "RGB888"},
                sensor={"output_size": mode.size, "bit_depth": mode.bit_depth},
                controls=self._start_controls(),
            )
            cam.configure(config)
            cam.start()
        except Exception as err:  # picamera2 raises many kinds; all mean "no camera here"
            _close(cam)
            with contextlib.suppress(Exception):
                forget_failed_opens(picamera2)
            if isinstance(err, SourceError):
                raise SourceError(f"{self.name}: {err}") from err
            raise SourceError(f"{self.name}: cannot start ({err})") from err
        self._cam, self.mode, self.size = cam, mode, size

    def _grab(self) -> tuple[np.ndarray, float] | None:
        if self._cam is None:
            return None
        try:
            request = self._cam.capture_request(wait=False).get_result(timeout=self.frame_wait)
        except Exception:  # TimeoutError: no frame in time; a pulled cable: anything
            return None
        try:
            image = request.make_array("main")
            meta = request.get_metadata()
        except Exception:
            return None
        finally:
            _quietly(request.release)
        stamp = meta.get("SensorTimestamp")
        return np.ascontiguousarray(image[:, :, :3]), (stamp / 1e9 if stamp else monotonic())

    def _release(self) -> None:
        cam, self._cam = self._cam, None
        _close(cam)

    # -- what a start applies ----------------------------------------------------------------

    @property
    def autofocus(self) -> bool:
        """Whether the camera has a lens it can move (Camera Module 3: yes)."""
        return "AfMode" in self._controls and "LensPosition" in self._controls

    def focus_distance(self) -> float:
        """Metres to focus at before calibration: the mount height."""
        if self.mount_height is not None:
            return self.mount_height
        return mount_height_m(self.model) or DEFAULT_MOUNT_M

    def _start_controls(self) -> dict[str, Any]:
        period = round(1e6 / self.fps)
        controls: dict[str, Any] = {}
        lock = self.lock_settings
        longest = period
        if lock is not None:
            controls.update(lock.controls())
            # libcamera 0.5 and later: fixed values need these modes set to manual (older
            # ones know only AeEnable); whichever the camera lists is sent.
            controls.update(ExposureTimeMode=MANUAL, AnalogueGainMode=MANUAL)
            # A frame cannot be shorter than its exposure: a locked long exposure (a dim
            # room) lowers the frame rate rather than being cut short.
            longest = max(period, lock.exposure_time)
        else:  # exposure finds its own level: for the white borders, not the table
            controls["AeConstraintMode"] = HIGHLIGHT
        controls["FrameDurationLimits"] = (period, longest)
        if self.autofocus:
            controls["AfMode"] = AF_MANUAL
            if lock is None or lock.lens_position is None:
                controls["LensPosition"] = 1.0 / self.focus_distance()
            low, high = (float(v) for v in self._controls["LensPosition"][:2])
            controls["LensPosition"] = min(max(float(controls["LensPosition"]), low), high)
        else:
            controls.pop("LensPosition", None)
            controls.pop("AfMode", None)
        return {k: v for k, v in controls.items() if k in self._controls}

    # -- calibration ----------------------------------------------------------------------

    def read(self) -> tuple[np.ndarray, float] | None:
        """One frame and its sensor time (seconds), or None when none came in time."""
        return self._grab()

    def lock(self, settle: float = SETTLE_SECONDS) -> CameraLock:
        """Let the camera find exposure, white balance and focus for the table as it is
        now (one autofocus cycle), then freeze them. Returns the settings to save with the
        palette; they also hold for every reconnect of this source."""
        if self._cam is None:
            raise SourceError(f"{self.name}: not open")
        cam = self._cam
        self.unlock()
        lens = None
        if self.autofocus:
            try:
                focused = cam.autofocus_cycle(wait=False).get_result(timeout=AF_WAIT)
            except Exception:  # no answer in time: judged like a failed cycle
                focused = False
            lens = self._metadata().get("LensPosition") if focused else None
            if lens is None:  # no focus found (a bare table): keep the mount height's
                lens = 1.0 / self.focus_distance()
        meta: dict[str, Any] = {}
        for _ in range(max(1, math.ceil(settle * self.fps))):
            meta = self._metadata()
        missing = [k for k in ("ExposureTime", "AnalogueGain", "ColourGains") if k not in meta]
        if missing:
            raise SourceError(f"{self.name}: the camera does not report {', '.join(missing)}")
        red, blue = (float(g) for g in meta["ColourGains"])
        lock = CameraLock(int(meta["ExposureTime"]), float(meta["AnalogueGain"]), (red, blue),
                          None if lens is None else float(lens))
        self.lock_settings = lock
        cam.set_controls(self._start_controls())
        return lock

    def _metadata(self) -> dict[str, Any]:
        try:
            return dict(self._cam.capture_metadata(wait=False).get_result(timeout=self.frame_wait))
        except Exception as err:
            raise SourceError(f"{self.name}: no frame within {self.frame_wait:g} s") from err

    def unlock(self) -> None:
        """Let the camera adjust exposure and white balance again (focus stays fixed)."""
        self.lock_settings = None
        if self._cam is not None:
            auto = {"AeEnable": True, "AwbEnable": True, "ExposureTimeMode": AUTO,
                    "AnalogueGainMode": AUTO, "AeConstraintMode": HIGHLIGHT}
            self._cam.set_controls({k: v for k, v in auto.items() if k in self._controls})


def _quietly(step: Any) -> None:
    with contextlib.suppress(Exception):  # closing a camera that is gone: nothing to tell
        step()


def _close(cam: Any) -> None:
    """Stop and close, each step on its own: a camera that fails to stop is still closed.

    Pending jobs are cancelled first: picamera2 runs ``stop`` as a job behind them, so after
    a frame that never came (a pulled ribbon) it would wait for ever."""
    if cam is not None:
        _quietly(getattr(cam, "cancel_all_and_flush", lambda: None))
        _quietly(cam.stop)
        _quietly(cam.close)
