"""The lens model on OpenCV's own chessboard photos (../shared/data/opencv-calib-left)."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.lens import LensError, LensModel, calibrate_camera

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "opencv-calib-left"
PHOTOS = sorted(DATA.glob("left*.jpg"))
needs_photos = pytest.mark.skipif(not PHOTOS, reason=f"no chessboard photos in {DATA}")


@pytest.fixture(scope="module")
def lens() -> LensModel:
    return calibrate_camera([cv2.imread(str(p)) for p in PHOTOS], board=(9, 6), square_mm=25)


@needs_photos
def test_lens_from_opencv_photos_matches_opencvs_own_calibration(lens):
    assert lens.images_used == 13
    assert lens.rms <= 0.45
    assert abs(lens.camera_matrix[0, 0] - 536) <= 2
    assert abs(lens.camera_matrix[1, 1] - 536) <= 2
    assert abs(lens.camera_matrix[0, 2] - 342.3) <= 3
    assert lens.image_size == (640, 480)


@needs_photos
def test_undistort_straightens_the_boards_edge(lens):
    gray = cv2.imread(str(PHOTOS[0]), cv2.IMREAD_GRAYSCALE)
    found, corners = cv2.findChessboardCorners(gray, (9, 6))
    assert found
    flat = lens.undistort_points(corners.reshape(-1, 2))

    def bend(points):  # worst distance of a row of corners from the line through its ends
        rows = points.reshape(6, 9, 2)
        worst = 0.0
        for row in rows:
            a, b = row[0], row[-1]
            ab, ar = b - a, row - a
            d = np.abs(ab[0] * ar[:, 1] - ab[1] * ar[:, 0]) / np.linalg.norm(ab)
            worst = max(worst, float(d.max()))
        return worst

    assert bend(flat) < bend(corners.reshape(-1, 2)) / 2
    assert lens.undistort(cv2.imread(str(PHOTOS[0]))).shape == (480, 640, 3)


@needs_photos
def test_lens_file_round_trip(lens, tmp_path):
    path = tmp_path / "lens.json"
    lens.save(path)
    loaded = LensModel.load(path)
    np.testing.assert_allclose(loaded.camera_matrix, lens.camera_matrix)
    np.testing.assert_allclose(loaded.dist, lens.dist)
    assert loaded.rms == lens.rms and loaded.image_size == lens.image_size


def test_a_lens_file_of_another_version_or_damaged_is_refused(tmp_path):
    path = tmp_path / "lens.json"
    good = {
        "format": "nizam-lens",
        "version": 1,
        "image_size": [640, 480],
        "rms": 0.4,
        "camera_matrix": [[500, 0, 320], [0, 500, 240], [0, 0, 1]],
        "dist": [0, 0, 0, 0, 0],
    }
    path.write_text(json.dumps(good))
    assert LensModel.load(path).image_size == (640, 480)
    path.write_text(json.dumps({**good, "version": 2}))
    with pytest.raises(LensError, match="version 2 is not supported"):
        LensModel.load(path)
    path.write_text(json.dumps({**good, "camera_matrix": [1, 2]}))
    with pytest.raises(LensError, match="damaged"):
        LensModel.load(path)
    path.write_text("{")
    with pytest.raises(LensError, match="not valid JSON"):
        LensModel.load(path)
    # finite, but no lens: a zero focal length would undistort every frame to nothing
    path.write_text(json.dumps({**good, "camera_matrix": [[0, 0, 320], [0, 0, 240], [0, 0, 1]]}))
    with pytest.raises(LensError, match="focal lengths"):
        LensModel.load(path)


@pytest.mark.parametrize("square_mm", [0.0, -5.0, float("nan"), float("inf")])
def test_a_square_size_that_is_no_length_is_an_error(square_mm):
    with pytest.raises(LensError, match="square size"):
        calibrate_camera([np.zeros((10, 10, 3), np.uint8)] * 3, square_mm=square_mm)


@pytest.mark.parametrize("square_mm", [1e308, 1e-308])
def test_a_square_size_no_printed_board_has_is_an_error_before_opencv(square_mm):
    with pytest.raises(LensError, match="a printed board square is 1 to 500 mm"):
        calibrate_camera([np.zeros((10, 10, 3), np.uint8)] * 3, square_mm=square_mm)


def test_too_few_boards_is_an_error():
    blank = np.full((120, 160, 3), 200, np.uint8)
    with pytest.raises(LensError, match="found in 0 image"):
        calibrate_camera([blank, blank, blank])
    with pytest.raises(LensError, match="no images"):
        calibrate_camera([])
    with pytest.raises(LensError, match="differ in size"):
        calibrate_camera([blank, np.zeros((10, 10, 3), np.uint8)])
