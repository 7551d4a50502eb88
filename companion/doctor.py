"""``companion doctor``: what on this machine stops the companion working, and what to do.

Each check gives a :class:`Finding` — ``ok``, ``warn`` (it works, but not as well as it
could) or ``fail`` (the table companion cannot do its job) — with a fix in the owner's
words. Checks read the machine through a :class:`Host`, so tests hand in a made-up
``/sys`` and ``/dev``; nothing here needs a camera, a screen or root, and nothing raises:
a check that breaks becomes a ``fail`` naming what broke.

>>> Finding("disk", OK, "12.0 GB free").line()
'ok    disk      12.0 GB free'
>>> exit_code([Finding("disk", WARN, "0.8 GB free", "delete old recordings")])
0
"""

from __future__ import annotations

import grp
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from calibration.lens import LensError, LensModel
from calibration.palette import VERSION as PALETTE_VERSION
from calibration.palette import Palette, PaletteError
from calibration.store import saved_camera_lock
from companion import paths, touch
from companion.store import GameStore, StoreError
from vision.sources import SourceError, usb_cameras

OK, WARN, FAIL = "ok", "warn", "fail"
SERVICE = "nizam-companion.service"
"""The systemd unit ``deploy/install.sh`` installs (the same name is written there)."""
AUTOSTART = "nizam-companion.desktop"
"""The desktop's autostart entry ``deploy/install.sh --keep-desktop`` installs instead."""

MIN_FPS = 10.0  # DESIGN.md: the Pi keeps up with 10+ reads a second
MIN_SIZE = (1280, 720)  # the frame size vision's budgets are set for
LOW_DISK, FULL_DISK = 1 << 30, 200 << 20  # warn below 1 GB free, fail below 200 MB
MAX_LENS_RMS = 1.0  # pixels; a good chessboard calibration is well under this
SENSOR = re.compile(r"^(imx|ov|ar|gc|os)\d", re.IGNORECASE)  # CSI sensor sub-device names


@dataclass(frozen=True)
class Finding:
    check: str
    status: str
    detail: str
    fix: str = ""

    def line(self) -> str:
        text = f"{self.status:<5} {self.check:<9} {self.detail}"
        return f"{text}\n{'':16}fix: {self.fix}" if self.fix else text

    def to_json(self) -> dict[str, str]:
        return {"check": self.check, "status": self.status, "detail": self.detail, "fix": self.fix}


@dataclass(frozen=True)
class Host:
    """The machine as the checks see it."""

    sys: Path = Path("/sys")
    dev: Path = Path("/dev")
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    model_file: Path = Path("/proc/device-tree/model")
    unit_file: Path = Path("/etc/systemd/system") / SERVICE
    groups: frozenset[str] = field(default_factory=lambda: _my_groups())
    """The groups this user is in."""
    known_groups: frozenset[str] = field(default_factory=lambda: _known_groups())
    """The groups this machine has."""
    autostart_file: Path = field(default_factory=lambda: _config_home() / "autostart" / AUTOSTART)

    @property
    def model(self) -> str:
        """The board's name from the device tree ("" on a PC)."""
        try:
            return self.model_file.read_text(errors="replace").strip("\x00\n ")
        except OSError:
            return ""

    @property
    def on_pi(self) -> bool:
        return "Raspberry Pi" in self.model


def _config_home() -> Path:
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")


def _my_groups() -> frozenset[str]:
    names = set()
    for gid in {os.getegid(), *os.getgroups()}:
        try:
            names.add(grp.getgrgid(gid).gr_name)
        except KeyError:
            continue
    return frozenset(names)


def _known_groups() -> frozenset[str]:
    return frozenset(g.gr_name for g in grp.getgrall())


@dataclass(frozen=True)
class Rate:
    """Frames measured from a camera after its first frame."""

    width: int
    height: int
    frames: int
    seconds: float

    @property
    def fps(self) -> float:
        return self.frames / self.seconds if self.seconds > 0 else 0.0


def measure(
    read: Callable[[], Any], seconds: float = 1.0, clock: Callable[[], float] = time.monotonic
) -> Rate | None:
    """Frames per second of ``read`` (a frame, or None when the camera gives none).

    The first frame is not counted: it waits for the sensor's first exposure.
    """
    first = read()
    if first is None:
        return None
    height, width = first.shape[:2]
    start = clock()
    frames = 0
    while (now := clock()) - start < seconds:
        if read() is None:
            break
        frames += 1
    return Rate(int(width), int(height), frames, now - start)


# -- the checks ------------------------------------------------------------------------


def diagnose(
    host: Host | None = None, *, camera: bool = True, seconds: float = 1.0
) -> list[Finding]:
    """Every check, in the order the report prints them."""
    host = host or Host()
    checks: list[tuple[str, Callable[[], list[Finding]]]] = [
        ("software", lambda: [check_software()]),
        ("files", lambda: [check_files()]),
        ("camera", lambda: check_cameras(host, seconds) if camera else []),
        ("display", lambda: [check_display(host)]),
        ("gpu", lambda: [check_gpu(host)]),
        ("touch", lambda: [check_touch(host)]),
        ("palette", lambda: [check_palette(paths.palette_path())]),
        ("lens", lambda: [check_lens(paths.lens_path())]),
        ("disk", lambda: [check_disk(paths.data_dir())]),
        ("database", lambda: [check_database(paths.database_path())]),
        ("service", lambda: [check_service(host)]),
    ]
    found: list[Finding] = []
    for name, check in checks:
        try:
            found.extend(check())
        except Exception as err:  # a broken check is a finding, never a traceback
            broke = f"the check itself failed: {type(err).__name__}: {err}"
            found.append(Finding(name, FAIL, broke, "report this with `companion doctor --json`"))
    return found


def exit_code(findings: list[Finding]) -> int:
    return 1 if any(f.status == FAIL for f in findings) else 0


def report(findings: list[Finding]) -> str:
    counts = {s: sum(f.status == s for f in findings) for s in (OK, WARN, FAIL)}
    summary = f"{counts[OK]} ok, {counts[WARN]} warnings, {counts[FAIL]} failures"
    return "\n".join([*(f.line() for f in findings), summary])


def report_json(findings: list[Finding]) -> str:
    return json.dumps([f.to_json() for f in findings], ensure_ascii=False)


# Each module the app needs, with the distributions that may have installed it.
NEEDED = (("numpy", ("numpy",)), ("cv2", ("opencv-python-headless", "opencv-python")),
          ("kivy", ("kivy",)))


def check_software() -> Finding:
    versions = [f"Python {sys.version.split()[0]}"]
    for module, dists in NEEDED:
        spec = importlib.util.find_spec(module)
        if spec is None:
            return Finding("software", FAIL, f"{module} is not installed",
                           "run `bash deploy/setup.sh` (or deploy/install.sh) again")
        # On the Pi numpy must be apt's, the one picamera2 was built against.
        where = " (apt)" if (spec.origin or "").startswith("/usr/lib/python3/") else ""
        versions.append(f"{module} {_version(dists)}{where}")
    return Finding("software", OK, ", ".join(versions))


def _version(dists: tuple[str, ...]) -> str:
    for dist in dists:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return "?"


def check_files() -> Finding:
    config, data = paths.config_dir(), paths.data_dir()
    home = Path.home()
    for folder in (config, data):
        base = _existing(folder)
        if os.access(base, os.W_OK | os.X_OK):
            continue
        detail = f"cannot write to {folder} ({base} is not writable)"
        if base != home and home not in base.parents:
            return Finding("files", FAIL, detail, f"this user's home folder {home} is missing "
                           "or not theirs: run the companion as a user with a home folder")
        return Finding("files", FAIL, detail,
                       f"give the folder back to this user: sudo chown -R \"$USER:\" {base}")
    return Finding("files", OK, f"settings and calibration in {config}; games in {data}")


def _existing(path: Path) -> Path:
    """``path`` or its nearest ancestor that exists (folders are made on first use)."""
    while not path.exists() and path.parent != path:
        path = path.parent
    return path


def check_palette(path: Path) -> Finding:
    calibrate = ("calibrate colours on the app's calibration screen, or run "
                 f"`companion calibrate colors --image IMG --labels GRID --out {path}`")
    if not path.exists():
        return Finding("palette", WARN, f"no palette saved at {path}: cells are read with the "
                       "default deck profile, which may misread this table's light", calibrate)
    try:
        palette = Palette.load(path)
    except PaletteError as err:
        return Finding("palette", FAIL, str(err), f"{calibrate} (it replaces the file), "
                       f"or move it aside: mv {path} {path}.bad")
    learned = (f"{path}: version {PALETTE_VERSION}, classes {''.join(palette.classes)}, "
               f"learned from {palette.samples} cells")
    if palette.over_exposed:
        return Finding("palette", WARN, f"{learned} in a picture too bright: the white borders "
                       "were clipped, so close colours may be mixed up",
                       f"dim the lamp or move it further away, then {calibrate}")
    return Finding("palette", OK, learned)


def check_lens(path: Path) -> Finding:
    calibrate = f"`companion calibrate camera IMAGES... --board 9x6 --out {path}`"
    if not path.exists():
        return Finding("lens", OK, f"no lens model at {path}: frames are used as the camera "
                       f"gives them (a wide-angle lens reads better after {calibrate})")
    try:
        lens = LensModel.load(path)
    except LensError as err:
        return Finding("lens", FAIL, str(err), f"calibrate again with {calibrate}, or move it "
                       f"aside: mv {path} {path}.bad")
    w, h = lens.image_size
    detail = f"{path}: {w}x{h}, RMS {lens.rms:.2f} px from {lens.images_used} images"
    if lens.rms > MAX_LENS_RMS:
        return Finding("lens", WARN, detail + f" (over {MAX_LENS_RMS} px: the model is loose)",
                       f"calibrate again with more, sharper chessboard photos: {calibrate}")
    return Finding("lens", OK, detail)


def check_disk(folder: Path) -> Finding:
    free = shutil.disk_usage(_existing(folder)).free
    detail = f"{free / 2**30:.1f} GB free for {folder}"
    fix = "free some space (old recordings, `sudo apt clean`), or use a larger SD card"
    if free < FULL_DISK:
        return Finding("disk", FAIL, detail + ": games cannot be saved safely", fix)
    if free < LOW_DISK:
        return Finding("disk", WARN, detail, fix)
    return Finding("disk", OK, detail)


def check_database(path: Path) -> Finding:
    if not path.exists():
        return Finding("database", OK, f"no games yet; the database will be made at {path}")
    if os.geteuid() == 0 and path.stat().st_uid != 0:
        # Opening it as root would leave root-owned -wal/-shm files the app cannot write.
        return Finding("database", WARN, f"{path} belongs to another user: not opened as root",
                       f"run the doctor as that user: sudo -u {_owner(path)} companion doctor")
    fix = f"move it aside: mv {path} {path}.damaged (the companion starts a new one)"
    try:
        with GameStore(path, timeout=1.0) as store:
            verdict = store.integrity()
            games = len(store.games()) if verdict == "ok" else 0
    except StoreError as err:
        return Finding("database", FAIL, str(err), fix)
    if verdict != "ok":
        return Finding("database", FAIL, f"{path} is damaged: {verdict[:300]}", fix)
    return Finding("database", OK, f"{path}: {games} games, integrity ok")


def _owner(path: Path) -> str:
    try:
        return path.owner()
    except (KeyError, OSError):
        return str(path.stat().st_uid)


def check_service(host: Host) -> Finding:
    if host.autostart_file.exists():
        return Finding("service", OK, "the companion starts full screen with the desktop "
                       f"({host.autostart_file}; installed with --keep-desktop)")
    if not host.unit_file.exists():
        if host.on_pi:
            return Finding("service", WARN, f"{SERVICE} is not installed: the companion will "
                           "not start by itself at boot", "run `bash deploy/install.sh`")
        return Finding("service", OK, f"{SERVICE} not installed (it is for the Raspberry Pi; "
                       "`deploy/install.sh --service` installs it here too)")
    try:
        state = subprocess.run(["systemctl", "is-active", SERVICE], capture_output=True,
                               text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.TimeoutExpired) as err:
        return Finding("service", WARN, f"{SERVICE} installed; systemctl did not answer ({err})")
    logs = f"see why: journalctl -u {SERVICE} -b -e"
    if state == "active":
        return Finding("service", OK, f"{SERVICE} is running")
    if state == "failed":
        return Finding("service", FAIL, f"{SERVICE} failed and stopped restarting", logs)
    return Finding("service", WARN, f"{SERVICE} is installed but {state or 'unknown'}",
                   f"it starts at boot; to start it now: sudo systemctl start {SERVICE}")


# -- cameras -----------------------------------------------------------------------------


def check_cameras(host: Host, seconds: float = 1.0) -> list[Finding]:
    """The Pi cameras libcamera sees (through picamera2) and every USB camera."""
    found = []
    sensors = pi_sensors(host)
    picamera2 = installed("picamera2")
    if sensors and not picamera2:
        found.append(Finding("camera", FAIL, f"Pi camera {', '.join(sensors)} is connected but "
                             "picamera2 is not importable here",
                             "sudo apt install python3-picamera2, then run deploy/install.sh "
                             "again (the venv must see apt's packages)"))
    elif picamera2:
        found.extend(check_pi_cameras(sensors, seconds))
    for node, name in v4l2_cameras(host):
        found.append(check_opencv_camera(node, name, seconds))
    if not found:
        where = ("seat the Camera Module's ribbon fully in a CAM port, close its latch and "
                 "reboot; `rpicam-hello --list-cameras` must then list it"
                 if host.on_pi else "plug in a USB camera (or run the companion on the Pi)")
        found.append(Finding("camera", FAIL, "no camera found (no Pi camera sensor, no "
                             f"/dev/video* capture device; picamera2 "
                             f"{'installed' if picamera2 else 'not installed'})", where))
    return found


BUSY = ("is it in use? stop the running companion first "
        f"(sudo systemctl stop {SERVICE}), or unplug and replug the camera")


def check_pi_cameras(sensors: list[str], seconds: float,
                     timeout: float = 10.0) -> list[Finding]:
    """Each camera libcamera lists, opened as the app opens it: its sensor mode and crop,
    and its frame rate measured on the sensor's own clock."""
    from vision.sources.picamera import camera_info

    try:
        cameras = camera_info()
    except SourceError as err:
        return [Finding("camera", FAIL, str(err), "sudo apt install python3-picamera2")]
    if not cameras:
        if not sensors:
            return []
        return [Finding("camera", FAIL, f"the kernel sees Pi camera {', '.join(sensors)} but "
                        "libcamera lists no camera", "another program may hold it (stop it, "
                        f"e.g. sudo systemctl stop {SERVICE}); else reboot; "
                        "`rpicam-hello --list-cameras` must list it")]
    return [check_pi_camera(num, str(info.get("Model", "?")), seconds, timeout)
            for num, info in enumerate(cameras)]


def check_pi_camera(num: int, model: str, seconds: float, timeout: float = 10.0) -> Finding:
    from vision.sources.picamera import PiCamera

    camera = PiCamera(camera_num=num, lock=saved_camera_lock(), retries=0)

    def probe() -> Rate | None:
        camera.open()
        try:
            return measure_stamped(camera.read, seconds)
        finally:
            camera.close()

    outcome = _within(seconds + timeout, probe)
    label = f"Pi camera {num} ({model})"
    if outcome is None:
        return Finding("camera", FAIL, f"{label}: no answer within {seconds + timeout:.0f} s",
                       BUSY)
    if isinstance(outcome, Exception):
        return Finding("camera", FAIL, f"{label}: {outcome}", BUSY)
    if outcome is _NOTHING:
        return Finding("camera", FAIL, f"{label}: starts but gives no frames", BUSY)
    mode = camera.mode
    assert mode is not None  # set by a start that gave frames
    label = f"Pi camera {num} ({model}, sensor mode {mode.describe(camera.pixel_array)})"
    found = judge_rate(label, outcome)
    whole = camera.pixel_array is None or mode.area >= camera.pixel_array[0] * camera.pixel_array[1]
    locked = ("exposure, white balance and focus as saved at calibration"
              if camera.lock_settings else "exposure and white balance not fixed yet (calibrate "
              "the colours: they are then frozen and saved)")
    tone = ("tone curve fixed" if camera.tone_curve == "fixed" else
            f"tone curve the camera's adaptive one ({camera.tone_curve})")
    found = Finding(found.check, found.status, f"{found.detail}; {locked}; {tone}", found.fix)
    if not whole and found.status == OK:
        return Finding("camera", WARN, found.detail, "this camera has no mode that reads its "
                       "whole sensor fast enough: mount it higher (see the README)")
    return found


_NOTHING = object()


def _within(limit: float, work: Callable[[], Any]) -> Any:
    """``work()``'s result (``_NOTHING`` for None), the exception it raised, or None when it
    did not finish within ``limit`` seconds (a hung driver must not hang the doctor)."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            result = work()
            outcome.append(_NOTHING if result is None else result)
        except Exception as err:  # driver trouble: told, not raised
            outcome.append(err)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(limit)
    return outcome[0] if outcome else None


def measure_stamped(read: Callable[[], tuple[Any, float] | None], seconds: float = 1.0,
                    clock: Callable[[], float] = time.monotonic) -> Rate | None:
    """Frames per second of ``read`` (an image and its time on the camera's own clock),
    counted after the first frame until ``seconds`` of camera time have passed: a busy
    machine that reads late does not make a steady camera look slow."""
    first = read()
    if first is None:
        return None
    height, width = first[0].shape[:2]
    start = last = first[1]
    frames = 0
    deadline = clock() + 2 * seconds + 1
    while last - start < seconds and clock() < deadline:
        got = read()
        if got is None:
            break
        frames += 1
        last = got[1]
    return Rate(int(width), int(height), frames, last - start)


def installed(module: str) -> bool:
    """Whether ``module`` can be imported, found without importing it (picamera2 is slow to
    import and may only be imported by vision's Pi camera source)."""
    return importlib.util.find_spec(module) is not None


def pi_sensors(host: Host) -> list[str]:
    """Names of the CSI camera sensors the kernel found (e.g. ``imx708``)."""
    names = []
    for node in sorted(host.sys.glob("class/video4linux/v4l-subdev*")):
        name = _read(node / "name").split(" ")[0]
        if SENSOR.match(name) and name not in names:
            names.append(name)
    return names


def v4l2_cameras(host: Host) -> list[tuple[Path, str]]:
    """Capture devices that are cameras, found as the app finds them (``usb_cameras``)."""
    return usb_cameras(host.sys, host.dev)


def check_opencv_camera(node: Path, name: str, seconds: float, timeout: float = 4.0) -> Finding:
    label = f"{node} ({name or 'unnamed'})"
    if not os.access(node, os.R_OK | os.W_OK):
        return Finding("camera", FAIL, f"{label}: no permission to open it",
                       "add this user to the video group: sudo usermod -aG video \"$USER\", "
                       "then log out and in")
    def probe() -> Rate | None:
        import cv2

        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)  # we explain, not it
        cap = cv2.VideoCapture(str(node), cv2.CAP_V4L2)
        try:
            if not cap.isOpened():
                raise SourceError("cannot be opened as a camera")
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, MIN_SIZE[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, MIN_SIZE[1])
            return measure(lambda: _frame(cap.read()), seconds)
        finally:
            cap.release()

    outcome = _within(seconds + timeout, probe)
    if outcome is None:
        return Finding("camera", FAIL, f"{label}: no answer within {seconds + timeout:.0f} s",
                       BUSY)
    if isinstance(outcome, SourceError):
        return Finding("camera", FAIL, f"{label}: {outcome}", BUSY)
    if isinstance(outcome, Exception):
        return Finding("camera", FAIL, f"{label}: {type(outcome).__name__}: {outcome}", BUSY)
    if outcome is _NOTHING:
        return Finding("camera", FAIL, f"{label}: opens but gives no frames", BUSY)
    return judge_rate(label, outcome)


def _frame(result: tuple[bool, Any]) -> Any:
    ok, frame = result
    return frame if ok else None


def judge_rate(label: str, rate: Rate) -> Finding:
    detail = f"{label}: {rate.width}x{rate.height} at {rate.fps:.1f} frames/s"
    if rate.fps < MIN_FPS:
        return Finding("camera", WARN, detail + f" (vision wants {MIN_FPS:.0f}+)",
                       "more light on the table (dim light lengthens each exposure), "
                       "or a camera that streams 1280x720 at 30 frames/s")
    if rate.width < MIN_SIZE[0] or rate.height < MIN_SIZE[1]:
        return Finding("camera", WARN, detail + f" (vision wants {MIN_SIZE[0]}x{MIN_SIZE[1]})",
                       "use a camera that gives 1280x720 or more")
    return Finding("camera", OK, detail)


# -- display and touch -------------------------------------------------------------------


def check_display(host: Host) -> Finding:
    session = [f"{k}={host.env[k]}" for k in ("WAYLAND_DISPLAY", "DISPLAY") if host.env.get(k)]
    if session:
        return Finding("display", OK, f"desktop session ({', '.join(session)})")
    cards = sorted(host.dev.glob("dri/card*"))
    if not cards:
        fix = ("connect the display's ribbon to the DSI port and keep KMS on "
               "(dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt), then reboot"
               if host.on_pi else "run the app on a machine with a screen; the commands "
               "(detect, rules, replay, doctor) need none")
        return Finding("display", FAIL, "no display: no desktop session (DISPLAY and "
                       "WAYLAND_DISPLAY unset) and no KMS device /dev/dri/card*", fix)
    screens = connected_screens(host)
    if not screens:
        return Finding("display", FAIL, f"{', '.join(c.name for c in cards)}: no screen "
                       "connected", "check the display ribbon and its power; the 2024 Touch "
                       "Display 2 needs dtoverlay=vc4-kms-dsi-ili9881-7inch in config.txt")
    blocked = [c for c in cards if not os.access(c, os.R_OK | os.W_OK)]
    if len(blocked) == len(cards):
        return Finding("display", FAIL, f"{', '.join(screens)}, but no permission to open "
                       f"{blocked[0]}", "add this user to the video and render groups: sudo "
                       "usermod -aG video,render \"$USER\", then log out and in")
    return Finding("display", OK, f"KMS display {', '.join(screens)}")


GPU_GROUPS = ("render", "video")
"""The GPU's render node belongs to render, the display and the cameras to video."""


def check_gpu(host: Host) -> Finding:
    """Kivy draws through the GPU's render node; without it (or without permission to
    open it) it falls back to software drawing, far too slow for the Pi's screen."""
    nodes = sorted(host.dev.glob("dri/renderD*"))
    join = f"sudo usermod -aG {','.join(GPU_GROUPS)} \"$USER\", then log out and in"
    if not nodes:
        fix = ("keep dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt and reboot"
               if host.on_pi else "install the graphics driver (Mesa: libgl1-mesa-dri)")
        return Finding("gpu", WARN, "no GPU render node /dev/dri/renderD*: the screen is "
                       "drawn in software, slowly", fix)
    usable = [n for n in nodes if os.access(n, os.R_OK | os.W_OK)]
    if not usable:
        return Finding("gpu", FAIL, f"{nodes[0]}: no permission to open it, so the screen "
                       "would be drawn in software", join)
    missing = [g for g in GPU_GROUPS if g in host.known_groups and g not in host.groups]
    detail = f"GPU render node {usable[0].name}"
    if missing and os.geteuid() != 0:
        # It opens now through the desktop's seat permissions; a console login does not.
        return Finding("gpu", WARN, f"{detail}, but this user is not in the "
                       f"{' and '.join(missing)} group{'s' if len(missing) > 1 else ''} "
                       "(the camera and the screen need them outside a desktop)", join)
    in_groups = [g for g in GPU_GROUPS if g in host.groups]
    return Finding("gpu", OK, detail + (f"; in groups {', '.join(in_groups)}"
                                        if in_groups else ""))


def connected_screens(host: Host) -> list[str]:
    """Connected connectors with their first mode, e.g. ``DSI-1 800x480``."""
    screens = []
    for conn in sorted(host.sys.glob("class/drm/card*-*")):
        if _read(conn / "status") == "connected":
            mode = _read(conn / "modes").split("\n")[0]
            screens.append(f"{conn.name.split('-', 1)[1]} {mode}".strip())
    return screens


def touchscreens(host: Host) -> Iterator[tuple[Path, str]]:
    """Event devices that are touchscreens (the ones the kiosk reads: ``companion.touch``)."""
    return touch.touchscreens(host.sys, host.dev)


def check_touch(host: Host) -> Finding:
    found = list(touchscreens(host))
    if not found:
        fix = ("the official display's touch comes over its DSI ribbon: reseat it and reboot"
               if host.on_pi else "connect a touch panel (its USB cable carries the touch)")
        return Finding("touch", WARN, "no touchscreen found (the app also works with a mouse)",
                       fix)
    readable = [(node, name) for node, name in found if os.access(node, os.R_OK)]
    if not readable:
        return Finding("touch", FAIL, f"touchscreen {found[0][1]!r} on {found[0][0]}, but no "
                       "permission to read it", "add this user to the input group: sudo "
                       "usermod -aG input \"$USER\", then log out and in")
    node, name = readable[0]
    return Finding("touch", OK, f"touchscreen {name!r} on {node}")


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace").strip()
    except OSError:
        return ""
