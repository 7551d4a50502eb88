"""A stand-in for the ``picamera2`` module that behaves like a Raspberry Pi Camera Module 3.

Its sensor modes are the imx708's as picamera2 lists them (``sensor_modes`` on a Pi 5):
1536x864 at 120.13 frames/s reads only the middle 3072x1728 of the 4608x2592 pixel array;
2304x1296 at 56.03 and 4608x2592 at 14.35 read all of it. Like libcamera, a configuration
that names no sensor size gets the smallest mode at least as big as the picture (for
1280x720: the cropped 1536x864). A Camera Module 2 (imx219, 4:3, fixed focus) is here too,
to show the mode choice works for any camera.

What the tests steer: the light on the table (automatic exposure and white balance follow
it while they are on), a stalled camera (no frame ever comes, as with a pulled ribbon), a
start that fails, a camera someone else holds. What they read back: every control set, each
configuration, whether each camera object was closed. Frames come at once, stamped on the
sensor's own clock at the configured frame period.

Install it with ``install(monkeypatch, ...)``; picamera2 is then importable as usual.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import sys
import tempfile
import threading
import types
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np


def _mode(size, fps, crop, exposure, bit_depth=10, fmt="SRGGB10_CSI2P"):
    return {"format": fmt, "unpacked": fmt.split("_")[0], "bit_depth": bit_depth,
            "size": size, "fps": fps, "crop_limits": crop, "exposure_limits": exposure}


IMX708_MODES = (
    _mode((1536, 864), 120.13, (768, 432, 3072, 1728), (9, 77193582, 20000)),
    _mode((2304, 1296), 56.03, (0, 0, 4608, 2592), (13, 112015443, 20000)),
    _mode((4608, 2592), 14.35, (0, 0, 4608, 2592), (26, 220417486, 20000)),
)
IMX219_MODES = (
    _mode((640, 480), 206.65, (1000, 752, 1280, 960), (75, 11766829, None)),
    _mode((1640, 1232), 41.85, (0, 0, 3280, 2464), (75, 11766829, None)),
    _mode((1920, 1080), 47.57, (680, 692, 1920, 1080), (75, 11766829, None)),
    _mode((3280, 2464), 21.19, (0, 0, 3280, 2464), (75, 11766829, None)),
    _mode((640, 480), 206.65, (1000, 752, 1280, 960), (75, 11766829, None), 8, "SRGGB8"),
    _mode((1640, 1232), 41.85, (0, 0, 3280, 2464), (75, 11766829, None), 8, "SRGGB8"),
)
_COMMON = {
    "AeEnable": (False, True, None), "AwbEnable": (False, True, None),
    "AeConstraintMode": (0, 3, 0),
    "AnalogueGain": (1.0, 16.0, None), "ColourGains": (0.0, 32.0, None),
    "FrameDurationLimits": (8333, 220417486, None), "ScalerCrop": ((0, 0, 64, 64), None, None),
}
NEWER_LIBCAMERA = {"ExposureTimeMode": (0, 1, 0), "AnalogueGainMode": (0, 1, 0)}
"""libcamera 0.5 and later: fixed exposure and gain need these set to manual."""
IMX708_CONTROLS = {**_COMMON, "ExposureTime": (9, 220417486, None), "AfMode": (0, 2, 0),
                   "AfTrigger": (0, 1, 0), "LensPosition": (0.0, 15.0, 1.0)}
IMX219_CONTROLS = {**_COMMON, "ExposureTime": (75, 11766829, None)}
HIGHLIGHT_TARGET = 0.8
"""Where a Raspberry Pi tuning's highlight constraint holds the brightest 2 % of pixels."""
AF_MANUAL, AF_AUTO = 0, 1
AF_FOCUSED = 2


@dataclass
class Device:
    """A camera on the ribbon: its sensor, where it sits, and the scene it looks at."""

    model: str = "imx708"
    modes: tuple[dict[str, Any], ...] = IMX708_MODES
    controls: dict[str, tuple[Any, Any, Any]] = field(default_factory=lambda: dict(IMX708_CONTROLS))
    pixel_array: tuple[int, int] = (4608, 2592)
    distance_m: float = 0.6
    light: float = 1.0
    """Table brightness: auto exposure gives exposure x gain inversely proportional to it."""
    warmth: float = 1.0
    """Light colour: auto white balance lowers the red gain and raises the blue as it grows."""
    highlights: float = 0.7
    """How bright the brightest few per cent of the picture (white card borders) come out
    at the exposure the normal metering picks, 1.0 being the clip: the highlight constraint
    shortens exposure x gain until they come out at ``HIGHLIGHT_TARGET``."""
    scene: np.ndarray | None = None
    """What the camera looks at (BGR, scaled to the picture); None: a grey table."""
    focus_found: bool = True
    """False: autofocus finds nothing to focus on (a bare, plain table)."""
    stalled: bool = False
    fail_start: bool = False
    held: bool = False
    tuned: bool = True
    """False: no tuning file for this sensor where picamera2 looks (a USB camera has none)."""

    @property
    def autofocus(self) -> bool:
        return "AfMode" in self.controls


def camera_module_3(**kw: Any) -> Device:
    return Device(**kw)


def camera_module_3_wide(**kw: Any) -> Device:
    return Device(model="imx708_wide", **kw)


def camera_module_2(**kw: Any) -> Device:
    return Device(model="imx219", modes=IMX219_MODES, controls=dict(IMX219_CONTROLS),
                  pixel_array=(3280, 2464), **kw)


def tuning_for(tuning_file: str) -> dict[str, Any]:
    """A tuning file as Raspberry Pi ships them (version 2, abridged): adaptive contrast on."""
    return {"version": 2.0, "target": "pisp", "sensor": tuning_file.removesuffix(".json"),
            "algorithms": [
                {"rpi.black_level": {"black_level": 4096}},
                {"rpi.agc": {"channels": []}},
                {"rpi.contrast": {"ce_enable": 1, "gamma_curve": [0, 0, 1024, 5040, 65535,
                                                                  65535]}},
                {"rpi.sharpen": {}},
            ]}


class Job:
    def __init__(self, future: Future) -> None:
        self._future = future

    def get_result(self, timeout: float | None = None) -> Any:
        try:
            return self._future.result(timeout=timeout)
        except FutureTimeout:
            raise TimeoutError("no result in time") from None


def _done(value: Any) -> Job:
    future: Future = Future()
    future.set_result(value)
    return Job(future)


class Request:
    def __init__(self, image: np.ndarray, metadata: dict[str, Any]) -> None:
        self.image, self.metadata, self.released = image, metadata, False

    def make_array(self, name: str) -> np.ndarray:
        assert name == "main"
        return self.image

    def get_metadata(self) -> dict[str, Any]:
        return dict(self.metadata)

    def release(self) -> None:
        self.released = True


TUNING_ENV = "LIBCAMERA_RPI_TUNING_FILE"


class Manager:
    """libcamera's camera manager as picamera2 holds it (``Picamera2._cm``): started on first
    use, it reads the tuning file ``LIBCAMERA_RPI_TUNING_FILE`` names (a camera whose tuning
    file is missing is not listed at all) and keeps it until it is dropped: when the last
    camera closes, or by ``reset``, which starts another at once."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.started: dict[str, Any] | None = None  # what the running one read
        # The cameras that joined it, by number: as in picamera2, a camera joins before it
        # is opened, and one whose opening failed stays, never open (``is_open`` False),
        # until ``cleanup`` takes it out.
        self.joined: dict[int, Picamera2Like] = {}

    @property
    def cms(self) -> dict[str, Any]:
        if self.started is None:
            path = os.environ.get(TUNING_ENV)
            tuning = None
            if path is not None and os.path.isfile(path):
                with open(path) as fp:
                    tuning = json.load(fp)
            devices = [] if path is not None and tuning is None else list(self.world.devices)
            self.started = {"tuning": tuning, "devices": devices}
            self.world.managers_started += 1
        return self.started

    @property
    def cameras(self) -> dict[int, Picamera2Like]:
        return dict(self.joined)

    def cleanup(self, index: int) -> None:
        del self.joined[index]
        if not self.joined:
            self.started = None  # picamera2 drops it with the last camera

    def reset(self) -> None:
        if self.cameras:  # the open cameras' requests went to the manager dropped
            self.world.pulled = True
        self.started = None
        self.cms  # noqa: B018 (started again at once, as picamera2's does)


class World:
    """The cameras plugged in, and a record of what was done to them."""

    def __init__(self, *devices: Device) -> None:
        self.devices = list(devices)
        self.opened: list[Picamera2Like] = []
        self.managers_started = 0
        self.pulled = False  # a manager was started afresh under an open camera
        self.module = types.ModuleType("picamera2")
        self.module.__spec__ = importlib.machinery.ModuleSpec("picamera2", None)
        world = self
        manager = self.manager = Manager(self)

        class Picamera2(Picamera2Like):
            _cm = manager

            def __init__(self, camera_num: int = 0, tuning: Any = None) -> None:
                # as picamera2 does: the tuning named for libcamera, then the camera looked
                # up through the manager (a running one does not read it again)
                if isinstance(tuning, str):
                    os.environ[TUNING_ENV] = tuning
                elif tuning is not None:
                    fd, path = tempfile.mkstemp(suffix=".json")
                    with os.fdopen(fd, "w") as fp:
                        json.dump(tuning, fp)
                    os.environ[TUNING_ENV] = path
                else:
                    os.environ.pop(TUNING_ENV, None)
                listed = manager.cms["devices"]
                if camera_num >= len(listed):
                    raise RuntimeError("Camera __init__ sequence did not complete.")
                self.is_open = False
                self.index = world.devices.index(listed[camera_num])
                manager.joined[self.index] = self  # stays if opening fails
                super().__init__(world, self.index)
                self.is_open = True
                self.tuning = tuning
                self.tuning_in_effect = manager.cms["tuning"]
                if isinstance(tuning, dict):
                    os.unlink(path)  # picamera2's temporary file goes once the camera is open

            @staticmethod
            def load_tuning_file(tuning_file: str, dir: str | None = None) -> dict[str, Any]:
                if not any(d.tuned and f"{d.model}.json" == tuning_file for d in world.devices):
                    raise RuntimeError("Tuning file not found")
                return tuning_for(tuning_file)

            @staticmethod
            def find_tuning_algo(tuning: dict[str, Any], name: str) -> dict[str, Any]:
                return next(a for a in tuning["algorithms"] if name in a)[name]

            @staticmethod
            def global_camera_info() -> list[dict[str, Any]]:
                return [{"Model": d.model, "Location": 2, "Rotation": 180,
                         "Id": f"/base/axi/pcie@120000/rp1/i2c@88000/{d.model}@1a"}
                        for d in manager.cms["devices"]]

        self.module.Picamera2 = Picamera2  # type: ignore[attr-defined]

    def open_cameras(self) -> list[Picamera2Like]:
        return [c for c in self.opened if not c.closed]


class Picamera2Like:
    def __init__(self, world: World, camera_num: int) -> None:
        if camera_num >= len(world.devices):
            raise RuntimeError("Camera __init__ sequence did not complete.")
        device = world.devices[camera_num]
        if device.held:
            raise RuntimeError("Failed to acquire camera: Device or resource busy")
        device.held = True
        self.world = world
        self.device = device
        self.closed = False
        self.started = False
        self.config: dict[str, Any] | None = None
        self.mode: dict[str, Any] | None = None
        self.set: dict[str, Any] = {}
        self.history: list[dict[str, Any]] = []
        self.stop_held = False
        self.lens = 1.0
        self.clock_ns = 1_000_000_000
        self.frame_ns = 33_333_000
        self._waiting: list[Future] = []
        self._lock = threading.Lock()
        world.opened.append(self)

    # -- what picamera2 tells before configuring ------------------------------------------

    @property
    def sensor_modes(self) -> list[dict[str, Any]]:
        return [dict(m) for m in self.device.modes]

    @property
    def camera_properties(self) -> dict[str, Any]:
        return {"Model": self.device.model, "PixelArraySize": self.device.pixel_array,
                "ScalerCropMaximum": (0, 0, *self.device.pixel_array)}

    @property
    def camera_controls(self) -> dict[str, tuple[Any, Any, Any]]:
        return dict(self.device.controls)

    # -- configuring and running ------------------------------------------------------------

    def create_video_configuration(self, main=None, lores=None, raw=None, transform=None,
                                   colour_space=None, buffer_count=6, controls=None,
                                   display="main", encode="main", queue=True, sensor=None,
                                   use_case="video"):
        return {"use_case": use_case, "main": dict(main or {"size": (1280, 720)}),
                "sensor": dict(sensor or {}), "controls": dict(controls or {}),
                "buffer_count": buffer_count}

    def configure(self, config: dict[str, Any]) -> None:
        self._alive()
        main = tuple(config["main"]["size"])
        wanted = config["sensor"].get("output_size")
        if wanted is not None:
            depth = config["sensor"].get("bit_depth")
            modes = [m for m in self.device.modes
                     if m["size"] == tuple(wanted) and depth in (None, m["bit_depth"])]
            if not modes:
                raise RuntimeError(f"no sensor mode {wanted}")
            mode = modes[0]
        else:  # libcamera: the smallest mode that covers the picture
            covering = [m for m in self.device.modes
                        if m["size"][0] >= main[0] and m["size"][1] >= main[1]]
            mode = min(covering or self.device.modes, key=lambda m: m["size"][0] * m["size"][1])
        self.config, self.mode = config, mode
        self.set_controls(config["controls"])

    def start(self) -> None:
        self._alive()
        if self.config is None:
            raise RuntimeError("Camera has not been configured")
        if self.device.fail_start:
            raise RuntimeError("Failed to start camera: Broken pipe")
        self.started = True

    def stop(self) -> None:
        # picamera2 stops through a job queued behind the pending ones: one that never
        # completes (a stalled camera) would hold the stop for ever unless flushed first.
        with self._lock:
            if any(not f.done() for f in self._waiting):
                self.stop_held = True
                raise RuntimeError("stop would wait for ever behind a job that never completes")
        self.started = False

    def cancel_all_and_flush(self) -> None:
        with self._lock:
            for future in self._waiting:
                future.cancel()
            self._waiting.clear()

    def close(self) -> None:
        try:
            self.stop()
        except RuntimeError:
            return  # the real one hangs here: the camera stays held
        if not self.closed:
            self.closed = True
            self.device.held = False
            self.is_open = False
            if self.world.manager.joined.get(self.index) is self:
                self.world.manager.cleanup(self.index)

    def set_controls(self, controls: dict[str, Any]) -> None:
        self._alive()
        for key in controls:
            if key not in self.device.controls:
                raise RuntimeError(f"Control {key} is not advertised by libcamera")
        self.set.update(controls)
        self.history.append(dict(controls))
        if "FrameDurationLimits" in controls:
            self.frame_ns = 1000 * int(controls["FrameDurationLimits"][0])
        if "LensPosition" in controls and self.set.get("AfMode", AF_MANUAL) == AF_MANUAL:
            self.lens = float(controls["LensPosition"])

    # -- frames -------------------------------------------------------------------------

    def _alive(self) -> None:
        if self.closed:
            raise RuntimeError("Camera is closed")

    def _next(self) -> Job:
        self._alive()
        if not self.started:
            raise RuntimeError("Camera not running")
        if self.device.stalled:  # no frame ever comes; stop() or close() cancels the wait
            future: Future = Future()
            with self._lock:
                self._waiting.append(future)
            return Job(future)
        self.clock_ns += self.frame_ns
        return _done(self.metadata())

    def metadata(self) -> dict[str, Any]:
        device = self.device
        exposure_on = (self.set.get("AeEnable", True)
                       and self.set.get("ExposureTimeMode", 0) == 0)
        white_on = self.set.get("AwbEnable", True)
        longest = self.frame_ns // 1000
        if exposure_on:  # the product exposure x gain settles at 40 ms.gain / light
            target = 40_000 / device.light
            if self.set.get("AeConstraintMode", 0) == 1:  # highlight: only ever shorter
                target *= min(1.0, HIGHLIGHT_TARGET / device.highlights)
            exposure = min(target, longest)
            gain = max(1.0, target / exposure)
        else:
            exposure, gain = self.set["ExposureTime"], self.set["AnalogueGain"]
        gains = ((round(2.0 / device.warmth, 4), round(1.5 * device.warmth, 4)) if white_on
                 else tuple(self.set["ColourGains"]))
        return {"SensorTimestamp": self.clock_ns, "ExposureTime": int(exposure),
                "AnalogueGain": float(gain), "ColourGains": gains, "LensPosition": self.lens,
                "FrameDuration": self.frame_ns // 1000, "ScalerCrop": self.mode["crop_limits"]}

    def capture_request(self, wait=None, signal_function=None, flush=None):
        job = self._next()
        if job._future.done():
            meta = job.get_result()
            width, height = self.config["main"]["size"]
            if self.device.scene is not None:
                image = cv2.resize(self.device.scene, (width, height))
            else:
                shade = min(255, int(100 * meta["ExposureTime"] * meta["AnalogueGain"] / 40_000))
                image = np.full((height, width, 3), shade, np.uint8)
            job = _done(Request(image, meta))
        return job if wait is False else job.get_result()

    def capture_metadata(self, wait=None, signal_function=None):
        job = self._next()
        return job if wait is False else job.get_result()

    def autofocus_cycle(self, wait=None, signal_function=None):
        if not self.device.autofocus:
            raise RuntimeError("Control AfMode is not advertised by libcamera")
        self.set_controls({"AfMode": AF_AUTO, "AfTrigger": 0})
        if self.device.focus_found:
            self.lens = round(1.0 / self.device.distance_m, 3)
        else:
            self.lens = 0.0  # the sweep ends at infinity
        job = _done(self.device.focus_found)
        return job if wait is False else job.get_result()


def install(monkeypatch: Any, *devices: Device) -> World:
    """Make ``import picamera2`` give a stand-in with these cameras plugged in."""
    world = World(*devices)
    monkeypatch.setitem(sys.modules, "picamera2", world.module)
    # the tuning file named for libcamera goes with the stand-in, and files written for it
    # go to a folder of their own
    monkeypatch.setenv(TUNING_ENV, "")
    monkeypatch.delenv(TUNING_ENV)
    monkeypatch.setattr(tempfile, "tempdir", tempfile.mkdtemp(prefix="picamera2-stand-in-"))
    return world
