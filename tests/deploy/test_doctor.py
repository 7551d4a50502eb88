"""`companion doctor` on a made-up machine: each check's ok / warn / fail and its advice,
the report's JSON, and the exit code. (Deployment: no rule IDs of RULES.md apply.)"""

from __future__ import annotations

import json
import threading
from collections import namedtuple
from pathlib import Path

import numpy as np
import pytest

import companion.paths
from calibration.camera import CameraLock
from calibration.lens import LensModel
from calibration.palette import VERSION, default_palette, learn_palette
from calibration.store import camera_lock_path
from companion import doctor, touch
from companion.cli import doctor_cmd, main
from companion.store import GameStore
from tests import picamera2_stand_in as stand_in

from .machine import mask

# -- palette and lens ------------------------------------------------------------------------


def test_missing_palette_warns_and_says_how_to_calibrate(home):
    found = doctor.check_palette(companion.paths.palette_path())
    assert found.status == doctor.WARN
    assert "default deck profile" in found.detail
    assert "calibrate colors" in found.fix and str(companion.paths.palette_path()) in found.fix


def test_corrupt_palette_fails_naming_the_file(home):
    path = companion.paths.palette_path()
    path.parent.mkdir(parents=True)
    path.write_text('{"format": "nizam-palette", "version": 1, "classes": [')
    found = doctor.check_palette(path)
    assert found.status == doctor.FAIL
    assert str(path) in found.detail and "not valid JSON" in found.detail
    assert f"mv {path} {path}.bad" in found.fix


def test_palette_of_another_version_fails(home):
    path = companion.paths.palette_path()
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({**default_palette().to_json(), "version": 99}))
    found = doctor.check_palette(path)
    assert found.status == doctor.FAIL and "version 99" in found.detail


def test_saved_palette_is_ok_with_its_version_and_classes(home):
    path = companion.paths.palette_path()
    default_palette().save(path)
    found = doctor.check_palette(path)
    assert found.status == doctor.OK
    assert f"version {VERSION}" in found.detail
    assert "".join(default_palette().classes) in found.detail


def test_palette_learned_in_a_picture_too_bright_warns_how_to_calibrate_again(home):
    from tests.calibration.synth import LAYOUT, scene

    path = companion.paths.palette_path()
    cells, _ = scene(np.random.default_rng(0), LAYOUT, exposure=1.4)  # paper clipped all over
    learn_palette([(cells, LAYOUT)]).save(path)
    found = doctor.check_palette(path)
    assert found.status == doctor.WARN and "too bright" in found.detail
    assert found.fix.startswith("dim the lamp") and "calibrate colors" in found.fix


def _lens(rms: float) -> LensModel:
    matrix = np.array([[900.0, 0, 640], [0, 900.0, 360], [0, 0, 1]])
    return LensModel(matrix, np.zeros(5), (1280, 720), rms, 12)


def test_lens_missing_is_fine_saved_is_ok_loose_warns_corrupt_fails(home):
    path = companion.paths.lens_path()
    assert doctor.check_lens(path).status == doctor.OK
    _lens(0.4).save(path)
    good = doctor.check_lens(path)
    assert good.status == doctor.OK and "1280x720, RMS 0.40 px from 12 images" in good.detail
    _lens(2.5).save(path)
    assert doctor.check_lens(path).status == doctor.WARN
    path.write_text('{"format": "nizam-lens", "version": 1}')
    bad = doctor.check_lens(path)
    assert bad.status == doctor.FAIL and str(path) in bad.detail and "calibrate" in bad.fix


# -- the game database -----------------------------------------------------------------------


def _database_with_games(path: Path, games: int = 3) -> None:
    with GameStore(path) as store:
        for _ in range(games):
            game = store.new_game({"game": "nizam", "players": 2})
            for n in range(20):  # each append is synced: few, but long enough for many pages
                store.append(game, {"kind": "turn", "n": n, "note": "x" * 400})


def test_fine_database_is_ok_with_its_games(home):
    path = companion.paths.database_path()
    _database_with_games(path)
    found = doctor.check_database(path)
    assert found.status == doctor.OK
    assert "3 games, integrity ok" in found.detail


def test_no_database_yet_is_ok(home):
    found = doctor.check_database(companion.paths.database_path())
    assert found.status == doctor.OK and "no games yet" in found.detail


def test_damaged_database_fails_and_says_to_move_it_aside(home):
    path = companion.paths.database_path()
    _database_with_games(path)
    data = bytearray(path.read_bytes())
    middle = (len(data) // 4096 // 2) * 4096  # a b-tree page of the events
    data[middle : middle + 16] = b"\xff" * 16
    path.write_bytes(bytes(data))
    found = doctor.check_database(path)
    assert found.status == doctor.FAIL
    assert str(path) in found.detail and "damaged" in found.detail
    assert f"mv {path} {path}.damaged" in found.fix


def test_database_whose_integrity_check_reports_damage_fails(home, monkeypatch):
    path = companion.paths.database_path()
    _database_with_games(path, games=1)
    report = "*** in database main ***\nPage 7: btree page out of order"
    monkeypatch.setattr(GameStore, "integrity", lambda self: report)
    found = doctor.check_database(path)
    assert found.status == doctor.FAIL and "Page 7" in found.detail


def test_file_that_is_no_database_fails(home):
    path = companion.paths.database_path()
    path.parent.mkdir(parents=True)
    path.write_text("these are notes, not games\n" * 200)
    assert doctor.check_database(path).status == doctor.FAIL


# -- disk, folders, service -----------------------------------------------------------------

Usage = namedtuple("Usage", "total used free")


@pytest.mark.parametrize(
    ("free", "status"), [(50 << 20, doctor.FAIL), (600 << 20, doctor.WARN), (8 << 30, doctor.OK)]
)
def test_free_disk_space_thresholds(home, monkeypatch, free, status):
    monkeypatch.setattr(doctor.shutil, "disk_usage", lambda path: Usage(64 << 30, 0, free))
    found = doctor.check_disk(companion.paths.data_dir())
    assert found.status == status
    assert f"{free / 2**30:.1f} GB free" in found.detail
    assert (found.fix != "") == (status != doctor.OK)


def test_folders_that_cannot_be_written_fail_with_chown(home, monkeypatch):
    monkeypatch.setenv("HOME", str(home))
    assert doctor.check_files().status == doctor.OK
    monkeypatch.setattr(doctor.os, "access", lambda path, mode: False)
    found = doctor.check_files()
    assert found.status == doctor.FAIL and "chown" in found.fix and str(home) in found.fix


def test_no_home_folder_is_not_fixed_by_chown_of_the_root(home, monkeypatch):
    monkeypatch.setenv("HOME", "/nonexistent")
    monkeypatch.setenv("XDG_CONFIG_HOME", "/nonexistent/.config")
    monkeypatch.setattr(doctor.os, "access", lambda path, mode: str(path) != "/")
    found = doctor.check_files()
    assert found.status == doctor.FAIL
    assert "chown" not in found.fix and "home folder /nonexistent" in found.fix


def test_service_not_installed_warns_only_on_a_pi(machine):
    assert doctor.check_service(machine.host()).status == doctor.OK
    machine.pi()
    found = doctor.check_service(machine.host())
    assert found.status == doctor.WARN and "deploy/install.sh" in found.fix


def test_desktop_autostart_of_keep_desktop_is_how_it_starts(machine):
    machine.pi()
    machine.write(f"autostart/{doctor.AUTOSTART}", "[Desktop Entry]\n")
    found = doctor.check_service(machine.host())
    assert found.status == doctor.OK and "starts full screen with the desktop" in found.detail


# -- display and touch -----------------------------------------------------------------------


def test_no_display_at_all_fails_with_advice(machine):
    found = doctor.check_display(machine.host())
    assert found.status == doctor.FAIL
    assert "DISPLAY" in found.detail and "/dev/dri/card*" in found.detail
    machine.pi()
    assert "DSI" in doctor.check_display(machine.host()).fix


def test_desktop_session_is_a_display(machine):
    machine.env["WAYLAND_DISPLAY"] = "wayland-0"
    found = doctor.check_display(machine.host())
    assert found.status == doctor.OK and "WAYLAND_DISPLAY=wayland-0" in found.detail


def test_kms_display_with_a_connected_screen_is_ok(machine):
    machine.screen()
    machine.write("sys/class/drm/card1-HDMI-A-1/status", "disconnected\n")
    found = doctor.check_display(machine.host())
    assert (found.status, found.detail) == (doctor.OK, "KMS display DSI-1 800x480")


def test_kms_device_without_a_screen_fails(machine):
    machine.write("dev/dri/card0", "")
    machine.write("sys/class/drm/card0-HDMI-A-1/status", "disconnected\n")
    assert doctor.check_display(machine.host()).status == doctor.FAIL


def test_display_the_user_may_not_open_fails_naming_the_groups(machine, monkeypatch):
    machine.screen()
    monkeypatch.setattr(doctor.os, "access", lambda path, mode: False)
    found = doctor.check_display(machine.host())
    assert found.status == doctor.FAIL and "video,render" in found.fix


def test_gpu_render_node_and_groups(machine, monkeypatch):
    found = doctor.check_gpu(machine.host())
    assert found.status == doctor.WARN and "drawn in software" in found.detail
    machine.pi()
    assert "vc4-kms-v3d" in doctor.check_gpu(machine.host()).fix
    machine.write("dev/dri/renderD128", "")
    found = doctor.check_gpu(machine.host())
    assert (found.status, found.detail) == (doctor.OK,
                                            "GPU render node renderD128; in groups render, video")
    monkeypatch.setattr(doctor.os, "geteuid", lambda: 1000)
    machine.groups -= {"render"}
    found = doctor.check_gpu(machine.host())
    assert found.status == doctor.WARN and "not in the render group" in found.detail
    assert "usermod -aG render,video" in found.fix
    machine.known_groups -= {"render"}  # an older system without the group: nothing to join
    assert doctor.check_gpu(machine.host()).status == doctor.OK
    monkeypatch.setattr(doctor.os, "access", lambda path, mode: False)
    found = doctor.check_gpu(machine.host())
    assert found.status == doctor.FAIL and "no permission" in found.detail


def test_touchscreen_is_found_among_input_devices(machine):
    machine.input_device("event0", "Logitech mouse", "1", mask(0, 1), mask(0x110))
    machine.touchscreen("event4")
    found = doctor.check_touch(machine.host())
    assert found.status == doctor.OK
    assert "'generic ft5x06 (79)'" in found.detail
    assert str(machine.dev / "input/event4") in found.detail


def test_touchpad_is_not_a_touchscreen(machine):
    # Absolute position and touch, but not direct input: a laptop's touchpad.
    machine.input_device("event2", "touchpad", mask(0), mask(0, 0x35), mask(0x14A))
    found = doctor.check_touch(machine.host())
    assert found.status == doctor.WARN and found.fix


def test_unreadable_touchscreen_fails_naming_the_input_group(machine, monkeypatch):
    machine.touchscreen()
    monkeypatch.setattr(doctor.os, "access", lambda path, mode: False)
    found = doctor.check_touch(machine.host())
    assert found.status == doctor.FAIL and "input" in found.fix


def test_bitmask_reads_words_most_significant_first():
    bits = {0, 0x35, 0x14A, 0x2F}
    assert touch.bitmask(mask(*bits)) == bits
    assert touch.bitmask("") == set()


# -- cameras ----------------------------------------------------------------------------------


def test_no_camera_fails_with_advice(machine, monkeypatch):
    monkeypatch.setattr(doctor, "installed", lambda module: False)
    [found] = doctor.check_cameras(machine.host())
    assert found.status == doctor.FAIL and "no camera found" in found.detail
    machine.pi()
    [found] = doctor.check_cameras(machine.host())
    assert "rpicam-hello --list-cameras" in found.fix


def test_pi_camera_without_picamera2_fails(machine, monkeypatch):
    machine.sensor("v4l-subdev0", "imx708 10-001a")
    machine.sensor("v4l-subdev1", "dw9807 10-000c")  # the focus motor, not a sensor
    monkeypatch.setattr(doctor, "installed", lambda module: False)
    [found] = doctor.check_cameras(machine.host())
    assert found.status == doctor.FAIL
    assert "imx708" in found.detail and "dw9807" not in found.detail
    assert "python3-picamera2" in found.fix


def test_pi_camera_is_asked_of_libcamera_with_its_mode_crop_and_rate(home, machine, monkeypatch):
    machine.sensor("v4l-subdev0", "imx708 10-001a")
    world = stand_in.install(monkeypatch, stand_in.camera_module_3())
    [found] = doctor.check_cameras(machine.host())
    assert found.status == doctor.OK
    assert found.detail.startswith(
        "Pi camera 0 (imx708, sensor mode 2304x1296, crop (0, 0)/4608x2592: the whole "
        "sensor): 1280x720 at 15.0 frames/s; exposure and white balance not fixed yet")
    assert world.open_cameras() == []
    CameraLock(20000, 2.0, (1.9, 1.6), 1.6).save(camera_lock_path())
    [found] = doctor.check_cameras(machine.host())
    assert "as saved at calibration" in found.detail and found.detail.endswith(
        "; tone curve fixed")
    assert world.opened[-1].set["ExposureTime"] == 20000


def test_pi_camera_with_no_tuning_file_says_its_tone_curve_adapts(home, machine, monkeypatch):
    machine.sensor("v4l-subdev0", "imx708 10-001a")
    stand_in.install(monkeypatch, stand_in.camera_module_3(tuned=False))
    [found] = doctor.check_cameras(machine.host())
    assert found.status == doctor.OK and found.detail.endswith(
        "; tone curve the camera's adaptive one (imx708.json: RuntimeError Tuning file not "
        "found)")


def test_pi_camera_the_kernel_sees_but_libcamera_does_not_fails(home, machine, monkeypatch):
    machine.sensor("v4l-subdev0", "imx708 10-001a")
    stand_in.install(monkeypatch)  # no camera listed
    [found] = doctor.check_cameras(machine.host())
    assert found.status == doctor.FAIL and "libcamera lists no camera" in found.detail


@pytest.mark.parametrize("trouble", ["held", "stalled"])
def test_pi_camera_in_use_or_silent_fails_saying_to_stop_the_service(home, machine, monkeypatch,
                                                                      trouble):
    world = stand_in.install(monkeypatch, stand_in.camera_module_3(**{trouble: True}))
    [found] = doctor.check_cameras(machine.host())
    assert found.status == doctor.FAIL and "systemctl stop" in found.fix
    assert ("cannot start" if trouble == "held" else "gives no frames") in found.detail
    assert [c for c in world.open_cameras() if not c.device.held] == []


def test_only_capture_nodes_of_real_cameras_are_opened(machine):
    machine.video("video0", "unicam-image")
    machine.video("video10", "bcm2835-codec-decode")
    machine.video("video2", "HD Pro Webcam C920")
    machine.video("video3", "HD Pro Webcam C920", index=1)  # its metadata node
    assert doctor.v4l2_cameras(machine.host()) == [(machine.dev / "video2", "HD Pro Webcam C920")]


def test_a_node_that_is_no_camera_fails_to_open(machine):
    node = machine.video("video0", "broken")
    # A generous bound on the probe (a loaded machine is slow), so "cannot be opened" is
    # what is told, not "no answer"; the wait ends as soon as the probe does.
    found = doctor.check_opencv_camera(node, "broken", seconds=0.1, timeout=60.0)
    assert found.status == doctor.FAIL and "cannot be opened" in found.detail


class FakeCamera:
    """A camera that gives a frame every 1/32 s of its own clock (exact in binary)."""

    def __init__(self, width: int = 1280, height: int = 720, frames: int | None = None) -> None:
        self.t = 0.0
        self.shape = (height, width, 3)
        self.left = frames

    def read(self):
        if self.left is not None:
            if self.left == 0:
                return None
            self.left -= 1
        self.t += 1 / 32
        return np.zeros(self.shape, np.uint8)

    def clock(self) -> float:
        return self.t


def test_measure_counts_frames_after_the_first_over_the_given_time():
    camera = FakeCamera()
    rate = doctor.measure(camera.read, 1.0, camera.clock)
    assert rate == doctor.Rate(1280, 720, 32, 1.0)
    assert rate.fps == 32.0


def test_measure_of_a_camera_that_gives_nothing_is_none():
    camera = FakeCamera(frames=0)
    assert doctor.measure(camera.read, 1.0, camera.clock) is None


@pytest.mark.parametrize(
    ("rate", "status"),
    [
        (doctor.Rate(1280, 720, 30, 1.0), doctor.OK),
        (doctor.Rate(1920, 1080, 12, 1.0), doctor.OK),
        (doctor.Rate(1280, 720, 7, 1.0), doctor.WARN),
        (doctor.Rate(640, 480, 30, 1.0), doctor.WARN),
        (doctor.Rate(1920, 480, 30, 1.0), doctor.WARN),
    ],
)
def test_camera_needs_1280x720_at_10_frames_a_second(rate, status):
    found = doctor.judge_rate("/dev/video0 (cam)", rate)
    assert found.status == status
    assert f"{rate.width}x{rate.height} at {rate.fps:.1f} frames/s" in found.detail


def test_usb_camera_is_opened_and_measured(machine, monkeypatch):
    import cv2

    node = machine.video("video0", "USB Camera")

    class Capture:
        def __init__(self, path, api):
            assert (path, api) == (str(node), cv2.CAP_V4L2)

        def isOpened(self):
            return True

        def set(self, prop, value):
            return True

        def read(self):
            return True, camera.read()

        def release(self):
            pass

    # Frames are timed by the camera's own clock: on the wall clock a loaded machine could
    # stall the probe long enough to make a fast camera look slow.
    camera = FakeCamera()
    measure = doctor.measure
    monkeypatch.setattr(doctor, "measure",
                        lambda read, seconds: measure(read, seconds, camera.clock))
    monkeypatch.setattr(cv2, "VideoCapture", Capture)
    found = doctor.check_opencv_camera(node, "USB Camera", seconds=0.5, timeout=60.0)
    assert found.status == doctor.OK and "1280x720 at 32.0 frames/s" in found.detail


def test_camera_that_hangs_is_given_up_on(machine, monkeypatch):
    import cv2

    node = machine.video("video0", "stuck")
    release = threading.Event()

    class Stuck:
        def __init__(self, path, api):
            release.wait(60)  # released as soon as the check is over

        def isOpened(self):
            return False

        def release(self):
            pass

    monkeypatch.setattr(cv2, "VideoCapture", Stuck)
    try:
        found = doctor.check_opencv_camera(node, "stuck", seconds=0.05, timeout=0.1)
    finally:
        release.set()
    assert found.status == doctor.FAIL and "no answer" in found.detail
    assert "systemctl stop nizam-companion.service" in found.fix


# -- the whole report, its JSON and exit code ---------------------------------------------------


def _healthy(machine):
    machine.env["DISPLAY"] = ":0"
    machine.touchscreen()
    return machine.host()


def test_json_report_is_a_list_of_check_status_detail_fix(home, machine, monkeypatch, capsys):
    monkeypatch.setattr(doctor_cmd, "current_host", lambda: _healthy(machine))
    code = main(["doctor", "--json", "--no-camera"])
    rows = json.loads(capsys.readouterr().out)
    assert isinstance(rows, list) and rows
    assert all(set(row) == {"check", "status", "detail", "fix"} for row in rows)
    assert all(row["status"] in ("ok", "warn", "fail") for row in rows)
    checks = [row["check"] for row in rows]
    assert checks == ["software", "files", "display", "gpu", "touch", "palette", "lens",
                      "disk", "database", "service"]
    assert code == 0  # the missing palette only warns


def test_exit_code_is_1_when_anything_fails(home, machine, monkeypatch, capsys):
    monkeypatch.setattr(doctor_cmd, "current_host", lambda: _healthy(machine))
    path = companion.paths.palette_path()
    path.parent.mkdir(parents=True)
    path.write_text("not json")
    assert main(["doctor", "--no-camera"]) == 1
    out = capsys.readouterr().out
    assert f"fail  palette   palette file {path} is not valid JSON" in out
    assert out.rstrip().endswith("1 failures")


def test_camera_lines_come_after_files(home, machine, monkeypatch, capsys):
    monkeypatch.setattr(doctor_cmd, "current_host", lambda: _healthy(machine))
    monkeypatch.setattr(doctor, "installed", lambda module: False)
    assert main(["doctor", "--json"]) == 1  # no camera on the made-up machine
    rows = json.loads(capsys.readouterr().out)
    assert [r["check"] for r in rows][:4] == ["software", "files", "camera", "display"]


def test_a_check_that_breaks_is_a_failure_not_a_traceback(home, machine, monkeypatch):
    def broken(host):
        raise RuntimeError("sysfs went away")

    monkeypatch.setattr(doctor, "check_touch", broken)
    findings = doctor.diagnose(_healthy(machine), camera=False)
    [touch] = [f for f in findings if f.check == "touch"]
    assert touch.status == doctor.FAIL and "RuntimeError: sysfs went away" in touch.detail
    assert doctor.exit_code(findings) == 1


def test_bad_seconds_is_refused(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["doctor", "--seconds", "0"])
    assert stop.value.code == 2


def test_missing_module_fails_the_software_check(monkeypatch):
    real = doctor.importlib.util.find_spec
    monkeypatch.setattr(doctor.importlib.util, "find_spec",
                        lambda name: None if name == "kivy" else real(name))
    found = doctor.check_software()
    assert found.status == doctor.FAIL and "kivy is not installed" in found.detail
    assert "deploy/setup.sh" in found.fix
