"""The screen's map between grid cells and the camera picture (OpenCV's perspective
transform) puts every cell where vision read it, and a tap on a card finds that card."""

from pathlib import Path

import cv2
import numpy as np
import pytest

import companion
from calibration.palette import default_palette
from companion.ui.geometry import CornersOnALine, GridPlacement
from vision.reader import read_grid

DEMO = Path(companion.__file__).parent / "demo"


def vision_to_image(geometry, u, v):
    """Vision's own map at grid point (u, v) of the screen's units: the corners span the
    cards' outer edges, half a card's width around the outer centres (``card_size``)."""
    fw, fh = geometry.card_size
    x = 0.5 - fw / 2 + u * (geometry.cols - 1 + fw) / geometry.cols
    y = 0.5 - fh / 2 + v * (geometry.rows - 1 + fh) / geometry.rows
    p = geometry.homography @ np.array([x, y, 1.0])
    return p[:2] / p[2]


@pytest.mark.parametrize("layout", ["nizam/calib.jpg", "pearl/calib.jpg"])
def test_N1_cells_map_as_vision_reads_them_and_taps_find_each_card(layout):
    reading = read_grid(cv2.imread(str(DEMO / layout)), default_palette())
    assert reading.found, reading.reason
    g = reading.geometry
    placement = GridPlacement.from_corners(reading.corners, g.rows, g.cols)
    for u in np.linspace(0, g.cols, 11):
        for v in np.linspace(0, g.rows, 11):
            assert placement.to_image(u, v) == pytest.approx(
                tuple(vision_to_image(g, u, v)), abs=1e-3)
    for r in range(g.rows):
        for c in range(g.cols):
            centre = g.homography @ np.array([*g.card_centres[r, c], 1.0])
            assert placement.cell_at(*(centre[:2] / centre[2])) == (r + 1, c + 1)
    quad = placement.cell_quad(1, 1)
    assert quad[0] == pytest.approx(tuple(reading.corners[0]), abs=1e-3)
    assert placement.cell_at(*placement.cell_centre(5, 5)) == (5, 5)


def test_a_tilted_grid_maps_both_ways():
    corners = [(100.0, 50.0), (620.0, 80.0), (600.0, 560.0), (90.0, 530.0)]
    placement = GridPlacement.from_corners(corners)
    for (u, v), corner in zip([(0, 0), (5, 0), (5, 5), (0, 5)], corners, strict=True):
        assert placement.to_image(u, v) == pytest.approx(corner, abs=1e-3)
    for row in range(1, 6):
        for col in range(1, 6):
            assert placement.cell_at(*placement.cell_centre(row, col)) == (row, col)
    assert placement.cell_at(95.0, 40.0) is None  # outside the grid


@pytest.mark.parametrize("corners", [
    [(0, 0), (100, 100), (200, 200), (0, 200)],  # three on one line
    [(10, 10), (10, 10), (10, 10), (10, 10)],
    [(0, 0), (100, 0), (100, float("nan")), (0, 100)],
])
def test_corners_no_grid_can_span_are_refused(corners):
    with pytest.raises(CornersOnALine):
        GridPlacement.from_corners(corners)
