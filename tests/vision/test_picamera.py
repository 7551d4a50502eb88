"""The Pi camera source against a stand-in picamera2 that behaves like a Camera Module 3
(tests/picamera2_stand_in.py: the imx708's real sensor modes and crops): the whole field of
view, the frame rate the reader needs, focus at the mount height, exposure and white balance
frozen at calibration and applied again at every start, the tone curve fixed, a frame wait
with a time limit, and the camera closed after a start that fails. (Hardware set-up: no rule
IDs of RULES.md.)"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from calibration.camera import CameraLock
from tests import picamera2_stand_in as stand_in
from vision.sources import SourceError, mounting
from vision.sources.mounting import mount_height_m
from vision.sources.picamera import READ_FPS, PiCamera, SensorMode, camera_info, full_field_mode


@pytest.fixture
def module_3(monkeypatch):
    return stand_in.install(monkeypatch, stand_in.camera_module_3())


def opened(world, **kw):
    camera = PiCamera(retry_delay=0.001, **kw)
    camera.open()
    return camera, world.opened[-1]


def test_the_whole_sensor_is_read_not_its_middle(module_3):
    camera, cam = opened(module_3)
    try:
        assert cam.mode["size"] == (2304, 1296)
        assert cam.mode["crop_limits"] == (0, 0, 4608, 2592)
        assert cam.config["main"] == {"size": (1280, 720), "format": "RGB888"}
        assert camera.size == (1280, 720)
        assert camera.mode.describe(camera.pixel_array).endswith(": the whole sensor")
        frame = next(iter(camera))
        assert frame.image.shape == (720, 1280, 3)
    finally:
        camera.close()


def test_asked_only_for_1280x720_the_camera_would_crop_to_its_middle(module_3):
    # Why the sensor size is named: the default choice is the 1536x864 mode.
    cam = module_3.module.Picamera2(0)
    cam.configure(cam.create_video_configuration(main={"size": (1280, 720)}))
    mode = SensorMode.from_picamera2(cam.mode)
    assert mode.size == (1536, 864)
    assert mode.describe((4608, 2592)).endswith("only 44% of the sensor")
    cam.close()


def test_any_camera_gets_its_full_field_mode_and_shape(monkeypatch):
    world = stand_in.install(monkeypatch, stand_in.camera_module_2())
    camera, cam = opened(world)
    assert (cam.mode["size"], cam.mode["bit_depth"]) == ((1640, 1232), 10)
    assert camera.size == (1280, 962)  # the sensor's 4:3, so the ISP crops nothing
    assert "AfMode" not in cam.set and "LensPosition" not in cam.set  # fixed focus
    camera.close()


def test_a_slow_full_field_mode_is_passed_over_for_a_fast_enough_one():
    modes = [SensorMode.from_picamera2(m) for m in stand_in.IMX708_MODES]
    assert full_field_mode(modes, 3000, READ_FPS).size == (2304, 1296)  # 4608 wide is 14 fps
    assert full_field_mode(modes, 3000, 10.0).size == (4608, 2592)
    with pytest.raises(SourceError, match="no sensor modes"):
        full_field_mode([], 1280, READ_FPS)


def test_frames_come_at_the_rate_the_reader_needs(module_3):
    camera, cam = opened(module_3)
    period = round(1e6 / READ_FPS)
    assert cam.set["FrameDurationLimits"] == (period, period)
    first, second = camera.read(), camera.read()
    assert second[1] - first[1] == pytest.approx(1 / READ_FPS, abs=1e-6)
    camera.close()


@pytest.mark.parametrize(("device", "height"), [(stand_in.camera_module_3, 0.60),
                                                (stand_in.camera_module_3_wide, 0.34)])
def test_focus_is_fixed_at_the_mount_height(monkeypatch, device, height):
    world = stand_in.install(monkeypatch, device())
    assert mount_height_m(device().model) == height
    camera, cam = opened(world)
    assert cam.set["AfMode"] == stand_in.AF_MANUAL
    assert cam.set["LensPosition"] == pytest.approx(1 / height)
    camera.close()
    camera, cam = opened(world, mount_height=0.8)
    assert cam.set["LensPosition"] == pytest.approx(1.25)
    camera.close()


def test_calibration_freezes_exposure_white_balance_and_focus(module_3, tmp_path):
    device = module_3.devices[0]
    device.distance_m = 0.55  # mounted a little lower than the table says
    device.light, device.warmth = 0.5, 1.2
    camera, cam = opened(module_3)
    lock = camera.lock()
    # In a dim room the exposure is as long as a frame, and the gain makes up the rest.
    assert (lock.exposure_time, lock.colour_gains) == (66667, (round(2 / 1.2, 4), 1.8))
    assert lock.analogue_gain == pytest.approx(80_000 / 66667)
    assert lock.lens_position == pytest.approx(1 / 0.55, abs=1e-3)  # one autofocus cycle
    assert cam.set["AeEnable"] is False and cam.set["AwbEnable"] is False
    assert cam.set["AfMode"] == stand_in.AF_MANUAL
    # Hands and cards fill the view, a lamp goes on: nothing moves any more.
    device.light, device.warmth = 2.0, 0.8
    meta = cam.metadata()
    assert (meta["ExposureTime"], meta["AnalogueGain"], meta["ColourGains"]) == (
        lock.exposure_time, lock.analogue_gain, lock.colour_gains)
    camera.close()
    # Saved with the palette, applied again at the next start.
    path = tmp_path / "camera.json"
    lock.save(path)
    again, cam = opened(module_3, lock=CameraLock.load(path))
    for key, value in lock.controls().items():
        assert cam.set[key] == pytest.approx(value)
    assert cam.history[0]["AeEnable"] is False  # in the configuration itself
    assert cam.metadata()["ExposureTime"] == lock.exposure_time
    again.close()


def test_calibration_exposes_for_the_white_borders_not_the_dark_table(module_3):
    device = module_3.devices[0]
    # Bright cards on dark wood: metered for the average, the borders would come out at
    # 1.6 times the clip; held below it, exposure x gain is half of that.
    device.highlights = 1.6
    camera, cam = opened(module_3)
    assert cam.set["AeConstraintMode"] == 1  # before calibration too
    normal = 40_000 / device.light
    assert cam.metadata()["ExposureTime"] * cam.metadata()["AnalogueGain"] == pytest.approx(
        normal * stand_in.HIGHLIGHT_TARGET / 1.6)
    lock = camera.lock()
    assert lock.exposure_time * lock.analogue_gain == pytest.approx(
        normal * stand_in.HIGHLIGHT_TARGET / 1.6)
    camera.close()
    # Calibrating again from a start with settings saved (where nothing asked for the
    # metering yet): exposure settles for the borders again.
    again, cam = opened(module_3, lock=lock)
    assert "AeConstraintMode" not in cam.set and cam.set["AeEnable"] is False
    again.unlock()
    assert cam.history[-1]["AeConstraintMode"] == 1 and cam.set["AeEnable"] is True
    assert cam.metadata()["ExposureTime"] * cam.metadata()["AnalogueGain"] == pytest.approx(
        normal * stand_in.HIGHLIGHT_TARGET / 1.6)
    again.close()
    # A dim table whose borders come out below the clip anyway: nothing is shortened.
    device.highlights = 0.5
    camera, cam = opened(module_3)
    lock = camera.lock()
    assert lock.exposure_time * lock.analogue_gain == pytest.approx(normal)
    camera.close()


def test_a_camera_with_no_constraint_modes_starts_and_calibrates_without_one(monkeypatch):
    device = stand_in.camera_module_3()
    del device.controls["AeConstraintMode"]  # the stand-in refuses controls not listed
    world = stand_in.install(monkeypatch, device)
    camera, cam = opened(world)
    camera.lock()
    camera.unlock()
    assert "AeConstraintMode" not in cam.set
    camera.close()


def test_autofocus_that_finds_nothing_keeps_the_mount_height(module_3):
    module_3.devices[0].focus_found = False
    camera, cam = opened(module_3)
    lock = camera.lock()
    assert lock.lens_position == pytest.approx(1 / 0.6)
    assert cam.set["LensPosition"] == pytest.approx(1 / 0.6) and cam.lens == pytest.approx(1 / 0.6)
    camera.close()


def test_newer_libcamera_gets_exposure_and_gain_modes_set_too(monkeypatch):
    device = stand_in.camera_module_3()
    device.controls.update(stand_in.NEWER_LIBCAMERA)
    world = stand_in.install(monkeypatch, device)
    camera, cam = opened(world)
    assert "ExposureTimeMode" not in cam.set  # nothing fixed before calibration
    lock = camera.lock()
    assert (cam.set["ExposureTimeMode"], cam.set["AnalogueGainMode"]) == (1, 1)
    assert cam.metadata()["ExposureTime"] == lock.exposure_time
    camera.unlock()
    assert (cam.set["ExposureTimeMode"], cam.set["AnalogueGainMode"]) == (0, 0)
    camera.close()


def test_a_locked_long_exposure_lowers_the_frame_rate_instead_of_being_cut(module_3):
    lock = CameraLock(100_000, 4.0, (1.8, 1.5), 1.6)
    camera, cam = opened(module_3, lock=lock)
    assert cam.set["FrameDurationLimits"] == (round(1e6 / READ_FPS), 100_000)
    camera.close()


def test_a_stalled_camera_is_lost_within_the_frame_wait_and_reconnected(module_3):
    device = module_3.devices[0]
    heard = []

    def hear(line):
        heard.append(line)
        if line.endswith("lost, reconnecting"):
            device.stalled = False  # the ribbon is seated again

    lock = CameraLock(30000, 2.0, (1.9, 1.6), 1.7)
    camera = PiCamera(lock=lock, frame_wait=0.05, retry_delay=0.001, on_status=hear)
    camera.open()
    frames = iter(camera)
    next(frames)
    device.stalled = True  # capture_request would now wait for ever
    frame = next(frames)
    camera.close()
    assert frame.index == 1
    assert heard == ["pi camera 0: open", "pi camera 0: lost, reconnecting", "pi camera 0: back"]
    stalled, back = module_3.opened
    assert stalled.closed and not stalled.stop_held and back.closed
    assert back.set["ExposureTime"] == 30000 and back.set["AeEnable"] is False


@pytest.mark.parametrize("trouble", ["start", "busy", "missing"])
def test_a_start_that_fails_leaves_the_camera_closed(module_3, trouble):
    device = module_3.devices[0]
    if trouble == "start":
        device.fail_start = True
    elif trouble == "busy":
        device.held = True  # another program has it
    camera = PiCamera(camera_num=1 if trouble == "missing" else 0)
    with pytest.raises(SourceError, match="pi camera .: cannot start"):
        camera.open()
    assert module_3.open_cameras() == []
    if trouble == "start":
        device.fail_start = False
        camera.open()  # nothing left holding it
        camera.close()
    assert module_3.open_cameras() == []


def fixed_tone(tuning):
    """``tuning`` as shipped but for adaptive contrast enhancement, off."""
    contrast = {**tuning["algorithms"][2]["rpi.contrast"], "ce_enable": 0}
    return {**tuning, "algorithms": [*tuning["algorithms"][:2], {"rpi.contrast": contrast},
                                     *tuning["algorithms"][3:]]}


def test_the_tone_curve_is_fixed_not_bent_to_each_frame(module_3, monkeypatch):
    # What libcamera reads is the sensor's own tuning, adaptive contrast off: even where
    # picamera2's camera manager was running before (cameras listed first, as doctor does),
    # and after a reconnect (a manager started again then reads the file too).
    assert [c["Model"] for c in camera_info()] == ["imx708"]
    camera, cam = opened(module_3)
    try:
        assert cam.tuning_in_effect == fixed_tone(stand_in.tuning_for("imx708.json"))
        assert camera.tone_curve == "fixed"
    finally:
        camera.close()
    camera, cam = opened(module_3)
    camera.close()
    assert cam.tuning_in_effect == fixed_tone(stand_in.tuning_for("imx708.json"))
    # a wide Camera Module 3 has a tuning of its own
    world = stand_in.install(monkeypatch, stand_in.camera_module_3_wide())
    camera, cam = opened(world)
    camera.close()
    assert cam.tuning_in_effect["sensor"] == "imx708_wide" and camera.tone_curve == "fixed"


def test_a_camera_with_no_tuning_file_starts_with_its_own_and_says_why(monkeypatch):
    world = stand_in.install(monkeypatch, stand_in.camera_module_3(tuned=False))
    camera, cam = opened(world)
    try:
        assert cam.tuning_in_effect is None
        assert next(iter(camera)).image.shape == (720, 1280, 3)
        assert camera.tone_curve == "imx708.json: RuntimeError Tuning file not found"
    finally:
        camera.close()


def test_libcamera_is_asked_which_cameras_there_are(module_3):
    assert [c["Model"] for c in camera_info()] == ["imx708"]


def test_readme_mounting_table_is_the_real_field_of_view():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    rows = {}
    for line in readme.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("Camera Module 3"):
            rows[cells[0]] = cells[1:]
    assert set(rows) == {c.name for c in mounting.CAMERAS}
    for camera in mounting.CAMERAS:
        height = round(mounting.height_cm(camera.view))
        long, short = (round(x) for x in mounting.seen_cm(camera.view, height))
        bare = round(mounting.height_cm(camera.view, margin=0.0))
        assert rows[camera.name] == [f"{height} cm", f"{long}×{short} cm", f"{bare} cm"]
    # The cropped 1536x864 mode would need half as high again: why the full field matters.
    crop = SensorMode.from_picamera2(stand_in.IMX708_MODES[0])
    scale = crop.crop[2] / 4608
    narrow = tuple(2 * math.degrees(math.atan(scale * math.tan(math.radians(a / 2))))
                   for a in mounting.MODULE_3.view)
    assert [round(a) for a in narrow] == [47, 28]
    assert mounting.height_cm(narrow) > 1.4 * mounting.height_cm(mounting.MODULE_3.view)


def test_a_second_camera_opened_beside_one_open_says_it_runs_on_the_tuning_in_use(
        monkeypatch):
    # a new camera manager would pull the running one from under the open camera
    world = stand_in.install(monkeypatch, stand_in.camera_module_3(), stand_in.camera_module_2())
    first, cam = opened(world)
    try:
        second = PiCamera(camera_num=1, retry_delay=0.001)
        second.open()
        second.close()
        assert second.tone_curve == (
            "the tuning file: RuntimeError picamera2 holds another camera, so the tuning the "
            "running camera manager read stays")
        assert world.opened[-1].tuning_in_effect["sensor"] == "imx708"  # as it says
        assert not world.pulled and next(iter(first)) is not None
    finally:
        first.close()


def test_a_camera_another_program_held_fixes_its_tone_once_it_opens(module_3):
    # picamera2 keeps a camera whose opening failed among its manager's, never open: the
    # start after it must not take it for a camera held and leave the tone adaptive
    device = module_3.devices[0]
    device.held = True  # another program has it
    camera = PiCamera(retry_delay=0.001)
    with pytest.raises(SourceError, match="Device or resource busy"):
        camera.open()
    assert module_3.manager.cameras == {}  # nothing left joined to picamera2's manager
    device.held = False  # the other program let it go
    camera.open()
    try:
        assert camera.tone_curve == "fixed"
        assert module_3.opened[-1].tuning_in_effect == fixed_tone(
            stand_in.tuning_for("imx708.json"))
        assert not module_3.pulled and next(iter(camera)).image.shape == (720, 1280, 3)
    finally:
        camera.close()
    assert module_3.manager.cameras == {} and module_3.manager.started is None


def test_a_failed_opening_left_in_picamera2s_manager_is_taken_out_before_a_start(module_3):
    # one left by a program before (the camera probed while another held it), not by us
    device = module_3.devices[0]
    device.held = True
    with pytest.raises(RuntimeError, match="busy"):
        module_3.module.Picamera2(0)
    assert [c.is_open for c in module_3.manager.cameras.values()] == [False]
    device.held = False
    camera, cam = opened(module_3)
    camera.close()
    assert camera.tone_curve == "fixed" and not module_3.pulled


def test_a_camera_with_no_tuning_file_after_one_with_gets_its_own(monkeypatch):
    # the tuning file named for the camera opened before is no longer named
    world = stand_in.install(monkeypatch, stand_in.camera_module_3(),
                             stand_in.camera_module_2(tuned=False))
    camera, _ = opened(world)
    camera.close()
    other = PiCamera(camera_num=1, retry_delay=0.001)
    other.open()
    try:
        assert world.opened[-1].tuning_in_effect is None
        assert other.tone_curve.startswith("imx219.json: RuntimeError")
    finally:
        other.close()


def test_a_reconnect_after_the_tuning_file_was_cleaned_away_fixes_the_tone_again(module_3):
    # a long-running companion: the temporary folder's cleaner took the file named at the
    # last start; the next start lists the camera all the same and writes the file again
    camera, cam = opened(module_3)
    camera.close()
    Path(cam.tuning).unlink()
    camera, cam = opened(module_3)
    camera.close()
    assert camera.tone_curve == "fixed"
    assert cam.tuning_in_effect == fixed_tone(stand_in.tuning_for("imx708.json"))
