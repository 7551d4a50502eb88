"""Finding the lattice: synthetic scenes under each hard condition, and real photos nobody
made for us (SET cards on black cloth, cube faces in a robot)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tools.synthetic import render_scene
from vision.cells import extract_patches
from vision.lattice import TIED, find_grid, search_grid, shape_in_grid
from vision.visible import cards_in_view

from .scenes import CALM, GEMS, corner_error, cube_photos, imread, line_cleared, set_card_photos

CONDITIONS = {
    "calm": CALM,
    "tilt 35": replace(CALM, tilt=35.0, tilt_dir=70.0),
    "roll 20": replace(CALM, roll=-20.0),
    "crooked cards": replace(CALM, jitter_mm=4.0, jitter_deg=5.0),
    "warm lamp": replace(CALM, kelvin=2700.0, exposure=0.8),
    "daylight": replace(CALM, kelvin=6500.0, exposure=1.3),
    "shadow": replace(CALM, shadow=True),
    "glare": replace(CALM, glare=3),
    "clutter": replace(CALM, clutter=6),
    "gingham": replace(CALM, cloth="gingham"),
    "dots": replace(CALM, cloth="dots"),
    "stripes": replace(CALM, cloth="stripes", roll=8.0),
    "floral": replace(CALM, cloth="floral"),
    "empty cells": replace(CALM, empty=3),
    "cheap camera": replace(CALM, noise=5.0, blur=1.2, jpeg=60),
    "small grid": replace(CALM, fill=0.45),
}


@pytest.mark.parametrize("name", list(CONDITIONS))
def test_grid_found_with_corners_on_the_cards(name):
    rng = np.random.default_rng(sorted(CONDITIONS).index(name) + 100)
    scene = render_scene(rng, GEMS, 5, 5, CONDITIONS[name])
    geometry = find_grid(scene.image, 5, 5)
    assert geometry is not None, search_grid(scene.image, 5, 5).reason
    assert corner_error(geometry.corners, scene.corners, 5) < 0.2
    # Each card's centre falls inside its own cell.
    for r in range(5):
        for c in range(5):
            centre = scene.card_quads[r, c].mean(axis=0)
            quad = geometry.cell_quad(r, c)
            assert quad[:, 0].min() < centre[0] < quad[:, 0].max()
            assert quad[:, 1].min() < centre[1] < quad[:, 1].max()


@pytest.mark.parametrize("rows, cols", [(2, 2), (3, 4), (4, 3), (6, 6), (8, 8)])
def test_any_lattice_from_2x2_to_8x8(rows, cols):
    rng = np.random.default_rng(rows * 10 + cols)
    scene = render_scene(rng, GEMS, rows, cols, replace(CALM, fill=0.85), size=(1280, 720))
    geometry = find_grid(scene.image, rows, cols)
    assert geometry is not None
    assert (geometry.rows, geometry.cols) == (rows, cols)
    assert corner_error(geometry.corners, scene.corners, cols) < 0.2


def test_a_lattice_of_the_wrong_shape_is_refused():
    rng = np.random.default_rng(5)
    scene = render_scene(rng, GEMS, 3, 4, CALM)
    result = search_grid(scene.image, 4, 4)
    assert result.geometry is None
    assert result.reason


def test_a_bare_table_has_no_grid():
    rng = np.random.default_rng(6)
    scene = render_scene(rng, GEMS, 3, 3, replace(CALM, cloth="dots"), labels=("...", "...", "..."))
    result = search_grid(scene.image, 3, 3)
    assert result.geometry is None
    assert result.reason


def test_bad_sizes_and_frames_are_one_line_errors():
    with pytest.raises(ValueError, match="out of range"):
        find_grid(np.zeros((100, 100, 3), np.uint8), 1, 5)
    with pytest.raises(ValueError, match="BGR uint8"):
        find_grid(np.zeros((100, 100), np.uint8), 5, 5)


def test_set_cards_all_twelve_found_each_in_its_cell():
    for photo, _ in set_card_photos():
        image = imread(photo)
        geometry = find_grid(image, 3, 4)
        assert geometry is not None, photo.name
        assert geometry.seen.all(), photo.name
        # SET cards are white on black cloth: bright card fills most of every cell's patch.
        patches = extract_patches(image, geometry)
        white = (patches.max(axis=3) > 90).reshape(12, -1).mean(axis=1)
        assert (white > 0.4).all(), (photo.name, white)
        w, h = geometry.card_size
        assert 0.6 < w < 0.95 and 0.6 < h < 0.95


def test_cube_faces_every_grid_found_every_sticker_in_its_cell():
    for photo, n, labels in cube_photos():
        image = imread(photo)
        geometry = find_grid(image, n, n)
        assert geometry is not None, photo
        # Every sticker's outline is found: by the search, or by the closer look at its cell.
        assert (geometry.seen | cards_in_view(image, geometry, only=~geometry.seen)).all(), photo
        # The middle of each patch is sticker, and stickers of one class look alike more
        # than stickers of different classes.
        patches = extract_patches(image, geometry).astype(float)
        colour = patches[:, 16:32, 16:32].reshape(n * n, -1, 3).mean(axis=1)
        assert (colour.max(axis=1) > 60).all(), photo
        letters = np.array(list("".join(labels)))
        for a in set(letters):
            same = colour[letters == a]
            if len(same) > 1 and len(set(letters)) > 1:
                inner = np.linalg.norm(same - same.mean(axis=0), axis=1).max()
                others = colour[letters != a]
                outer = np.linalg.norm(others - same.mean(axis=0), axis=1).min()
                assert inner < outer, (photo, a)


def _seen_from(image: np.ndarray, inset: float, side: str) -> tuple[np.ndarray, np.ndarray]:
    """The photo as a camera further down the table (``side`` "top") or off to the right
    ("left") would see it: that edge of the picture narrowed by ``inset`` of its length at
    each end. Returns the new image and the homography old -> new pixels."""
    h, w = image.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src.copy()
    if side == "top":
        dst[0, 0], dst[1, 0] = inset * w, (1 - inset) * w
    else:
        dst[0, 1], dst[3, 1] = inset * h, (1 - inset) * h
    homography = cv2.getPerspectiveTransform(src, dst)
    tilted = cv2.warpPerspective(image, homography, (w, h), borderMode=cv2.BORDER_REPLICATE)
    return tilted, homography


@pytest.mark.parametrize("inset, side", [(0.12, "top"), (0.16, "top"), (0.15, "left")])
def test_set_cards_under_a_steeper_tilt_all_found_in_their_cells(inset, side):
    # Far cards half the size of near ones: the lattice's first, affine guess from three
    # cards misses the far row by more than a flat view's bounds allow.
    for photo, _ in set_card_photos():
        image = imread(photo)
        truth = find_grid(image, 3, 4)
        assert truth is not None, photo.name
        tilted, homography = _seen_from(image, inset, side)
        found = search_grid(tilted, 3, 4)
        assert found.geometry is not None, (photo.name, found.reason)
        assert found.geometry.seen.all(), photo.name
        moved = cv2.perspectiveTransform(truth.corners[None].astype(np.float32), homography)[0]
        assert corner_error(found.geometry.corners, moved, 4) < 0.25, photo.name


def test_a_lattice_sheared_along_the_grids_diagonals_does_not_see_its_cards_square():
    # Card centres form a lattice with more than one basis: one running along a row and a
    # diagonal passes through every card too. Seen through such a lattice a card keeps one
    # side along an axis and the other leans by the shear; that is no card of this grid.
    card = np.array([[-0.4, -0.45], [0.4, -0.45], [0.4, 0.45], [-0.4, 0.45]])
    shear = np.array([[1.0, 0.55], [0.0, 1.0]])  # x' = x + 0.55 y: the sides down lean 29 deg
    turned = np.radians(4.0)
    turn = np.array([[np.cos(turned), -np.sin(turned)], [np.sin(turned), np.cos(turned)]])
    boxes = np.stack([card, card @ shear.T, card @ turn.T])
    size, square = shape_in_grid(boxes)
    assert square.tolist() == [True, False, True]
    assert np.allclose(size[0], [0.8, 0.9])


@pytest.mark.parametrize("line", ["top", "left"])
def test_N9_a_grid_missing_an_edge_line_is_not_placed_by_a_deck_beside_it(line):
    # With one edge line cleared the cards span four lines, and a deck lying beside the
    # grid stretched the lattice over a fifth on the deck's side, the wrong one: every card
    # was read as its neighbour's. Where the fifth line lies, one picture cannot tell (a
    # tracker can: it held the full grid before).
    shot, full, cleared = line_cleared(1, line)
    picture = render_scene(np.random.default_rng(3), GEMS, 5, 5, shot, labels=cleared)
    assert search_grid(picture.image, 5, 5).geometry is None
    whole = render_scene(np.random.default_rng(3), GEMS, 5, 5, shot, labels=full)
    found = find_grid(whole.image, 5, 5)
    assert found is not None
    assert corner_error(found.corners, whole.corners, 5) < 0.25


@pytest.mark.parametrize(("top", "placed"), [("R.G.B", False), ("RG.BV", True)])
def test_N9_a_grid_as_full_a_line_over_is_not_placed(top, placed):
    # Six rows of cards: four full, one edge row with three cards and, past the other
    # edge, three cards in line with the grid. Five rows taken either way hold as many
    # cards, and read over the wrong ones every card is its neighbour's: no grid, however
    # many cuts of the picture are made. With a card more on one side, it lies there.
    rows = (top, "OVYCP", "BGRVY", "CPOGB", "YRBPO", "Y.P.C")
    scene = render_scene(np.random.default_rng(8), GEMS, 6, 5, CALM, labels=rows)
    found = search_grid(scene.image, 5, 5)
    if not placed:
        assert found.geometry is None
        assert found.reason == TIED
        return
    assert found.geometry is not None, found.reason
    for r in range(5):
        for c in range(5):
            if rows[r][c] != ".":
                centre = scene.card_quads[r, c].mean(axis=0)
                quad = found.geometry.cell_quad(r, c)
                assert quad[:, 0].min() < centre[0] < quad[:, 0].max()
                assert quad[:, 1].min() < centre[1] < quad[:, 1].max()


def test_a_growth_that_meets_a_dead_end_ends_as_it_did(monkeypatch):
    # A hand over the grid leaves seeds growing into the same dead ends: each is followed
    # to its end once. The search finds what it finds following every growth to its end.
    import itertools

    import vision.lattice as lattice
    from tools.synthetic import random_conditions

    grow = lattice._grow
    met = []
    monkeypatch.setattr(lattice, "_grow", lambda *a: met.append(r := grow(*a)) or r)
    frames = []
    for seed in (6, 7, 9):  # hands that hide enough for the search to run every stage
        rng = np.random.default_rng(seed)
        frames.append(render_scene(rng, GEMS, 5, 5, random_conditions(rng, hand=True)).image)
    shared = [search_grid(f) for f in frames]
    assert any(isinstance(r, str) for r in met)  # dead ends were met
    numbers = itertools.count()
    monkeypatch.setattr(lattice, "_held", lambda cells: next(numbers))  # none met twice
    for frame, search in zip(frames, shared, strict=True):
        alone = search_grid(frame)
        assert alone.reason == search.reason
        assert (alone.geometry is None) == (search.geometry is None)
        if alone.geometry is not None:
            assert np.array_equal(alone.geometry.corners, search.geometry.corners)
            assert np.array_equal(alone.geometry.seen, search.geometry.seen)
