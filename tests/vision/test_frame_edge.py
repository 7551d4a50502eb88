"""A grid the camera frames tightly: the frame's edge cuts off the outer cards' borders, or
more (N1: the 25 cards of the grid are read where they are in view, and only there).

A card the edge cuts off past its white border shows most of its face: players expect it
read, and read as itself (its face turned half round shows what the edge cut off). One cut
off past the middle of its cell is no longer read: '?'. Pinned on frames made for these
tests."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.vision.scenes import GEMS, framed, gem_palette
from tests.vision.test_close_look import felt_table, unseen_grid
from tools.synthetic import Conditions, random_conditions, render_scene
from vision.lattice import GridGeometry
from vision.reader import read_grid
from vision.visible import card_in_cell


def cut_from_the_left(seed: int, pitches: float) -> tuple[np.ndarray, tuple[str, ...]]:
    """A generator's grid, the frame's left edge moved in ``pitches`` cell pitches past the
    grid's leftmost corner; the picture and the grid's cards."""
    rng = np.random.default_rng(700 + seed)
    scene = render_scene(rng, GEMS, 5, 5, Conditions(tilt=6.0, cloth="felt"))
    return framed(scene.image, scene.corners, "left", pitches), scene.labels


@pytest.mark.parametrize("seed", range(4))
def test_N1_cards_the_frame_cuts_off_past_their_border_are_read(seed):
    # The left column's cards lose a fifth of a pitch, their border and a strip of field on
    # that side. Before, every one the search saw no outline of read '?': the close look
    # repeated the frame's last pixels past its edge, so the card's region ran on out of the
    # look, and the frame's edge cut into the middle the reader asked to see whole.
    image, labels = cut_from_the_left(seed, 0.2)
    reading = read_grid(image, gem_palette(), 5, 5)
    assert reading.cells is not None, reading.reason
    assert [row[0] for row in reading.cells] == [row[0] for row in labels]


def turned_grid(pitches: float) -> tuple[np.ndarray, tuple[str, ...]]:
    """A grid turned 19 degrees on a red cloth, its top corner card an orange one with a
    golden gem; the frame's top edge ``pitches`` cell pitches below that corner."""
    rng = np.random.default_rng(9057)
    conditions = replace(random_conditions(rng, hand=False), fill=float(rng.uniform(0.75, 0.95)))
    scene = render_scene(rng, GEMS, 5, 5, conditions)
    top = scene.corners[:, 1].min()
    pitch = np.mean([np.linalg.norm(scene.corners[k] - scene.corners[(k + 1) % 4])
                     for k in range(4)]) / 5
    return np.ascontiguousarray(scene.image[int(top + pitches * pitch):]), scene.labels


@pytest.mark.parametrize("pitches", [0.18, 0.22, 0.26])
def test_N1_a_card_cut_into_its_field_is_read_as_itself_or_not_at_all(pitches):
    # A fifth of the orange card out of view, a corner of its field with it. With the
    # frame's last pixels repeated past the edge, the gem reaching the edge filled the
    # patch: it read yellow, sure. Its face turned half round shows the field cut off; where
    # the two fillings disagree, what the edge hid decides and the cell is not read.
    image, labels = turned_grid(pitches)
    assert labels[0][0] == "O"
    reading = read_grid(image, gem_palette(), 5, 5)
    assert reading.cells is not None, reading.reason
    assert reading.cells[0][0] in ("O", "?")
    if pitches == 0.18:
        assert reading.cells[0][0] == "O"


@pytest.mark.parametrize("pitches", [0.27, 0.3, 0.38])
def test_N9_an_empty_cell_the_frame_cuts_is_never_read_as_a_card(pitches):
    # An empty cell on dark striped cloth at the left edge, boxed in by its neighbours'
    # white borders and the frame's edge: the lattice takes it for a card. Turned half round,
    # its patch showed a border on both sides and read blue.
    rng = np.random.default_rng(3065)
    conditions = replace(random_conditions(rng, hand=False), fill=0.85, empty=2)
    scene = render_scene(rng, GEMS, 5, 5, conditions)
    assert scene.labels[1][0] == "."
    reading = read_grid(framed(scene.image, scene.corners, "left", pitches), gem_palette(), 5, 5)
    assert reading.cells is not None, reading.reason
    assert reading.cells[1][0] in (".", "?")


@pytest.mark.parametrize("seed", range(3))
def test_N1_cards_cut_off_by_the_frame_are_never_read_as_another(seed):
    # Any side, cut a fifth to over a quarter of a pitch into the grid: a card is read as
    # itself or '?'. A grid must be found in most of these, or nothing was checked.
    rng = np.random.default_rng(9100 + seed)
    scene = render_scene(rng, GEMS, 5, 5, replace(random_conditions(rng, hand=False), fill=0.85))
    found = 0
    for side in ("left", "right", "top", "bottom"):
        for pitches in (0.2, 0.28):
            image = framed(scene.image, scene.corners, side, pitches)
            reading = read_grid(image, gem_palette(), 5, 5)
            if reading.cells is None:
                continue
            found += 1
            for got, want in zip("".join(reading.cells), "".join(scene.labels), strict=True):
                assert got in (want, "?"), (side, pitches, reading.cells, scene.labels)
    assert found >= 6


def shifted(grid: GridGeometry, dx: float) -> GridGeometry:
    """``grid`` in a frame whose left ``dx`` pixels were cut away."""
    h = np.array([[1.0, 0, -dx], [0, 1, 0], [0, 0, 1]]) @ grid.homography
    return GridGeometry(grid.rows, grid.cols, grid.corners - [dx, 0], h, grid.card_size,
                        grid.seen, grid.card_centres)


@pytest.mark.parametrize("seed", range(3))
def test_N1_the_close_look_sees_a_card_the_frame_cuts_off(seed):
    # The first card spans x 10..90; the frame now starts at x 26: its border and 10 px of
    # its field are out of view, and the close look reaches well past the frame's edge.
    frame = felt_table(seed, glare=0.0)
    cut = np.ascontiguousarray(frame[:, 26:])
    assert card_in_cell(cut, shifted(unseen_grid(), 26), 0, 0, edges=False)


@pytest.mark.parametrize("seed", range(3))
def test_N1_the_close_look_sees_no_card_where_most_of_it_is_out_of_frame(seed):
    frame = felt_table(seed, glare=0.0)
    cut = np.ascontiguousarray(frame[:, 50:])  # half of the first card out of view
    assert not card_in_cell(cut, shifted(unseen_grid(), 50), 0, 0, edges=False)
    assert card_in_cell(frame, unseen_grid(), 0, 0, edges=False)  # whole, it is seen


@pytest.mark.parametrize("seed", range(4))
def test_N1_a_hand_over_a_grid_the_frame_cuts_is_never_read_as_a_card(seed):
    # A hand reaching in from the frame's edge ends there as a card cut off by it does; the
    # close look makes such a region whole out of view. Whatever it makes of a hand, no
    # cell under it reads as a card it is not.
    rng = np.random.default_rng(9200 + seed)
    scene = render_scene(rng, GEMS, 5, 5, replace(random_conditions(rng, hand=True), fill=0.85))
    assert scene.covered.max() > 0.5  # a hand over a card at least
    for side in ("left", "right", "top", "bottom"):
        reading = read_grid(framed(scene.image, scene.corners, side, 0.15), gem_palette(), 5, 5)
        if reading.cells is None:
            continue
        for got, want in zip("".join(reading.cells), "".join(scene.labels), strict=True):
            assert got in (want, "?"), (side, reading.cells, scene.labels)


@pytest.mark.parametrize("side", ["left", "right"])
def test_a_grid_running_past_the_picture_says_which_edge(side):
    # A column out of view: the player setting up the camera is told which way to move it.
    scene = render_scene(np.random.default_rng(700), GEMS, 5, 5, Conditions(tilt=6.0, cloth="felt"))
    reading = read_grid(framed(scene.image, scene.corners, side, 0.6), gem_palette(), 5, 5)
    assert reading.cells is None
    assert f"past the picture's {side} edge" in reading.reason, reading.reason
