"""`companion calibrate colors|camera`: JSON output, files written, one-line errors."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.palette import Palette
from companion.cli import main

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
SET_PHOTO = DATA / "set-cards-webcam" / "20170529_184024.png"
CUBE_U = DATA / "cube-photos" / "2x2x2-random-01" / "rubiks-side-U.jpg"
BOARDS = sorted((DATA / "opencv-calib-left").glob("left*.jpg"))


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def colours(capsys, image, *options):
    return run(capsys, "calibrate", "colors", "--image", str(image), *options)


@pytest.mark.skipif(not BOARDS, reason="no chessboard photos")
def test_calibrate_camera_prints_the_lens_as_json(capsys, tmp_path):
    out_file = tmp_path / "lens.json"
    code, out, err = run(
        capsys,
        "calibrate",
        "camera",
        *map(str, BOARDS),
        "--board",
        "9x6",
        "--out",
        str(out_file),
        "--json",
    )
    assert code == 0, err
    result = json.loads(out)
    assert set(result) == {"rms", "camera_matrix", "dist", "images_used"}
    assert result["images_used"] == 13 and result["rms"] <= 0.45
    assert abs(result["camera_matrix"][0][0] - 536) <= 2
    assert json.loads(out_file.read_text())["format"] == "nizam-lens"


@pytest.mark.skipif(not SET_PHOTO.exists(), reason="no SET photo")
def test_calibrate_colors_from_labels_writes_a_palette(capsys, tmp_path):
    out_file = tmp_path / "palette.json"
    code, out, err = colours(
        capsys, SET_PHOTO, "--labels", "PGRP/GRPR/PPRR", "--out", str(out_file), "--json"
    )
    assert code == 0, err
    assert json.loads(out) == {"palette": str(out_file), "classes": ["G", "P", "R"], "samples": 12}
    assert Palette.load(out_file).classes == ("G", "P", "R")


@pytest.mark.skipif(not CUBE_U.exists(), reason="no cube photo")
def test_calibrate_colors_from_counts_infers_a_square_grid(capsys, tmp_path):
    out_file = tmp_path / "palette.json"
    code, out, err = colours(capsys, CUBE_U, "--counts", "R2U1D1", "--out", str(out_file), "--json")
    assert code == 0, err
    assert sorted(json.loads(out)["classes"]) == ["D", "R", "U"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--labels", "PGRP/GRP/PPRR"], "rows differ in length"),
        (["--labels", "PGRP/GRPR", "--rows", "3"], "--rows 3 but the labels have 2"),
        ([], "give --labels for every --image, or --counts"),
        (["--counts", "R2U1"], "counts add up to 3: give --rows and --cols"),
        (["--counts", "R2U"], "a letter then a number"),
    ],
)
def test_bad_colour_options_are_one_line_errors(capsys, tmp_path, argv, message):
    code, out, err = colours(capsys, SET_PHOTO, *argv, "--out", str(tmp_path / "p.json"))
    assert code == 2
    assert message in err and err.count("\n") == 1 and out == ""
    assert not (tmp_path / "p.json").exists()


def test_an_unreadable_image_is_a_one_line_error(capsys, tmp_path):
    bad = tmp_path / "bad.png"
    bad.write_text("not an image")
    for path, says in ((bad, "not a readable image"), (tmp_path / "missing.png", "no such file")):
        code, _, err = colours(capsys, path, "--labels", "RG/GR", "--out", str(tmp_path / "p.json"))
        assert code == 2 and f"{path}: {says}" in err and err.count("\n") == 1


def test_bad_board_and_too_few_boards_are_one_line_errors(capsys, tmp_path):
    # a photo with no chessboard in it, made here so the test runs without ../shared/data
    photo = tmp_path / "no-board.png"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 128, np.uint8))
    code, _, err = run(capsys, "calibrate", "camera", str(photo), "--board", "9by6")
    assert code == 2 and "--board '9by6'" in err
    code, _, err = run(
        capsys, "calibrate", "camera", str(photo), "--out", str(tmp_path / "l.json")
    )
    assert code == 2 and "found in 0 image" in err and err.count("\n") == 1


def test_colours_saved_from_an_over_exposed_picture_come_with_a_warning(capsys, tmp_path):
    # The demo's calibration picture at twice the exposure: every white border clipped.
    demo = Path(__file__).resolve().parents[2] / "companion" / "demo" / "nizam"
    grid = json.loads((demo / "calib.json").read_text())["grid"]
    picture = cv2.imread(str(demo / "calib.jpg"))
    for gain, warned in ((1.0, False), (2.0, True)):
        image = tmp_path / f"calib-{gain}.png"
        cv2.imwrite(str(image), np.clip(picture * gain, 0, 255).astype(np.uint8))
        out_file = tmp_path / f"palette-{gain}.json"
        code, out, err = colours(capsys, image, "--labels", grid, "--out", str(out_file),
                                 "--json")
        assert code == 0 and out_file.exists()
        assert set(json.loads(out)) == {"palette", "classes", "samples"}  # DESIGN.md's form
        assert ("too bright" in err) is warned, err
        assert len(err.strip().splitlines()) == int(warned)
