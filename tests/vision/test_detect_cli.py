"""`companion detect`: the JSON other tools read, the debug drawing, one-line errors."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from tools.synthetic import render_scene

from .scenes import CALM, GEMS, gem_palette

GRID_3X4 = ["--rows", "3", "--cols", "4"]


@pytest.fixture(scope="module")
def layout(tmp_path_factory):
    folder = tmp_path_factory.mktemp("detect")
    scene = render_scene(np.random.default_rng(31), GEMS, 3, 4, CALM, size=(960, 540))
    image = folder / "layout.png"
    cv2.imwrite(str(image), scene.image)
    palette = folder / "palette.json"
    gem_palette().save(palette)
    return image, palette, scene


def test_json_per_image_with_the_agreed_keys(layout, capsys):
    image, palette, scene = layout
    blank = image.with_name("blank.png")
    cv2.imwrite(str(blank), np.full((120, 160, 3), 80, np.uint8))
    code = main(["detect", str(image), str(blank), *GRID_3X4, "--palette", str(palette), "--json"])
    assert code == 0
    found, missing = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert found["image"] == str(image) and (found["rows"], found["cols"]) == (3, 4)
    assert found["cells"] == list(scene.labels)
    assert np.abs(np.array(found["corners"]) - scene.corners).max() < 15
    assert np.array(found["confidence"]).shape == (3, 4)
    assert "reason" not in found
    assert missing["cells"] is None and missing["corners"] is None and missing["reason"]


def test_plain_output_and_debug_drawing(layout, tmp_path, capsys):
    image, palette, scene = layout
    out = tmp_path / "seen.png"
    argv = ["detect", str(image), *GRID_3X4, "--palette", str(palette), "--debug", str(out)]
    assert main(argv) == 0
    assert capsys.readouterr().out.strip() == f"{image}: {'/'.join(scene.labels)}"
    drawn = cv2.imread(str(out))
    assert drawn is not None and drawn.shape == cv2.imread(str(image)).shape
    assert not np.array_equal(drawn, cv2.imread(str(image)))


@pytest.mark.parametrize(
    "argv, message",
    [
        (["detect", "/no/such/image.png"], "/no/such/image.png: no such file"),
        (["detect", "{bad}"], "not a readable image"),
        (["detect", "{image}", "--rows", "1"], "2..12"),
        (["detect", "{image}", "--palette", "{bad}"], ""),
        (["detect", "{image}", "--debug", "out.txt"], ".png or .jpg"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(layout, tmp_path, capsys, argv, message):
    image, _, _ = layout
    bad = tmp_path / "bad.png"
    bad.write_text("garbage")
    args = [a.format(image=image, bad=bad) for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("companion: ") and message in err
