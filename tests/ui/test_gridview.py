"""The camera picture and the grid drawn on it line up: a marker painted in the frame at a
cell's centre shows on screen where the grid view says that cell is (where a finger taps and
its letter is drawn), for the demo's 640×360 frames and 1280×720 ones, at both screen sizes,
and it stays there as new frames with the same corners arrive."""

from dataclasses import replace

import numpy as np
import pytest

from companion.ui.geometry import GridPlacement

from .helpers import TableDouble, nizam_views, start_game_on_screen

DEMO_CORNERS = ((90.0, 50.0), (320.0, 70.0), (310.0, 300.0), (80.0, 280.0))
"""Where the grid is in the demo's 640×360 frames, give or take: off centre and turned. Its
sides are multiples of ten pixels, so every cell's centre is a whole pixel a marker can mark
exactly."""

MARKERS = {(1, 1): (0, 0, 255), (1, 5): (0, 255, 0), (5, 5): (255, 0, 0), (5, 1): (0, 255, 255)}
"""A pure BGR colour painted at each corner cell's centre: four colours, so a picture shown
upside down or mirrored cannot pass for a right one."""

TOLERANCE = 1.5
"""Screen pixels a marker may sit from its cell's centre (the thinned picture rounds)."""


def marked_frame(width, height, corners, seed):
    rng = np.random.default_rng(seed)
    frame = rng.integers(40, 90, (height, width, 3), dtype=np.uint8)
    placement = GridPlacement.from_corners(corners)
    radius = max(3, width // 160)
    for (row, col), bgr in MARKERS.items():
        x, y = (int(v) for v in np.round(placement.cell_centre(row, col), 6))
        frame[y - radius : y + radius + 1, x - radius : x + radius + 1] = bgr
    return frame


def marker_centre(pixels, bgr):
    """Window coordinates (Kivy's: y up) of the pixels showing this pure colour."""
    rgb = np.array(bgr[::-1])
    near = np.all(np.abs(pixels.astype(int) - rgb) < 40, axis=2)
    ys, xs = np.nonzero(near)
    assert len(xs) > 4, f"no marker of colour {bgr} on screen"
    return xs.mean() + 0.5, pixels.shape[0] - (ys.mean() + 0.5)


@pytest.mark.parametrize("window", [(800, 480), (1280, 800)])
@pytest.mark.parametrize("frame_size", [(640, 360), (1280, 720)])
def test_N1_picture_and_drawn_grid_line_up_frame_after_frame(start_app, window, frame_size):
    scale = frame_size[0] / 640
    corners = tuple((x * scale, y * scale) for x, y in DEMO_CORNERS)
    empty = replace(nizam_views()[0], grid=(".....",) * 5)  # no letter badges over the marks
    game = TableDouble([empty], frame=marked_frame(*frame_size, corners, seed=1),
                       corners=corners)
    driver, screen = start_game_on_screen(start_app, game, size=window)
    grid = screen.ids.grid
    for seed in (2, 3):  # the camera's next frames: the grid has not moved
        game.frame = marked_frame(*frame_size, corners, seed=seed)
        driver.settle()
        pixels = driver.pixels()
        for (row, col), bgr in MARKERS.items():
            want = grid.to_window(*grid.cell_centre(row, col))
            got = marker_centre(pixels, bgr)
            assert np.hypot(got[0] - want[0], got[1] - want[1]) <= TOLERANCE, (
                f"frame {seed}: cell {row},{col} drawn at {want}, the picture has it at {got}")
