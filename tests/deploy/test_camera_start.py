"""Where the app starts the camera: the calibration picture is taken with exposure, white
balance and focus frozen, those settings are saved beside the palette, and every later start
of the Pi camera applies them (a stand-in picamera2 behaving like a Camera Module 3).
(Hardware set-up: no rule IDs of RULES.md.)"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.camera import CameraLock
from calibration.store import camera_lock_path, palette_path
from companion.demo import RECORDINGS
from companion.live.app import Companion, find_camera
from companion.store import GameStore
from companion.words import OVER_EXPOSED
from tests import picamera2_stand_in as stand_in
from vision.sources.picamera import PiCamera

GRID = ("RROOY", "YGGCC", "BB*VV", "PPROY", "GCBVP")


@pytest.fixture
def table(monkeypatch):
    scene = cv2.imread(str(RECORDINGS["nizam"] / "calib.jpg"))
    return stand_in.install(monkeypatch, stand_in.camera_module_3(scene=scene, light=0.7))


def test_calibration_freezes_the_camera_and_every_start_applies_it(home, table):
    companion = Companion(GameStore(":memory:"))
    frame, _corners, cells, _reason = companion.read_layout()
    assert cells == GRID
    calibrating = table.opened[-1]
    assert calibrating.set["AeEnable"] is False and calibrating.set["AwbEnable"] is False
    assert calibrating.closed
    companion.save_palette(frame, cells)
    assert palette_path().exists()
    lock = CameraLock.load(camera_lock_path())
    assert lock == companion.camera_lock
    assert lock.lens_position == pytest.approx(1 / 0.6, abs=1e-3)

    table.devices[0].light = 3.0  # another day, more light: the settings still hold
    camera = find_camera()
    assert isinstance(camera, PiCamera) and camera.lock_settings == lock
    with camera:
        started = table.opened[-1]
        assert started.set["ExposureTime"] == lock.exposure_time
        assert started.set["ColourGains"] == lock.colour_gains
        assert started.set["LensPosition"] == lock.lens_position
        assert next(iter(camera)).image.shape == (720, 1280, 3)
    assert table.open_cameras() == []


def test_a_palette_saved_without_the_pi_camera_drops_old_camera_settings(home, table):
    CameraLock(20000, 2.0, (1.9, 1.6), 1.6).save(camera_lock_path())
    companion = Companion(GameStore(":memory:"), camera=lambda: None)  # the demo picture
    frame, _corners, cells, _reason = companion.read_layout()
    companion.save_palette(frame, cells)
    assert palette_path().exists() and not camera_lock_path().exists()


def test_colours_saved_from_a_picture_too_bright_say_so_and_are_kept(home):
    companion = Companion(GameStore(":memory:"), camera=lambda: None)  # the demo picture
    frame, _corners, cells, _reason = companion.read_layout()
    assert OVER_EXPOSED not in companion.save_palette(frame, cells)
    glaring = np.clip(frame * 2.0, 0, 255).astype(np.uint8)  # every white border clipped
    message = companion.save_palette(glaring, cells)
    assert message.endswith(OVER_EXPOSED) and palette_path().exists()
    assert companion.palette.over_exposed
