"""A card held above the grid, between cells, never passes for the cards below it."""

from __future__ import annotations

import cv2
import numpy as np

from tools.synthetic import render_scene
from vision.air import cards_in_the_air
from vision.lattice import search_grid
from vision.reader import read_grid
from vision.tracker import GridTracker

from .scenes import CALM, GEMS, gem_palette

LAYOUT = ("R.YGC", "BVPRO", "YGCBV", "PROYG", "CBVPR")


def _lift_a_card(
    image: np.ndarray, centre: tuple[float, float] = (1.8, 0.5),
    source_cell: tuple[float, float] = (2.5, 2.5), part: float = 1.1,
) -> np.ndarray:
    """The scene with the card of cell (3, 3) (``source_cell``: its centre, grid units)
    copied, a little bigger (nearer the camera), held with its centre at ``centre``: by
    default over cells (0, 1) and (0, 2), a player moving it to the empty cell (0, 1).
    ``part``: how much of the card's pitch is copied (1.1: with its white rim)."""
    geometry = search_grid(image, 5, 5).geometry
    assert geometry is not None
    w, h = geometry.card_size
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * np.array([w, h]) * part / 2
    source = geometry.to_image(np.array(source_cell) + square).astype(np.float32)
    target = geometry.to_image(np.array(centre) + square * 1.12).astype(np.float32)
    m = cv2.getPerspectiveTransform(source, target)
    lifted = cv2.warpPerspective(image, m, image.shape[1::-1])
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(target).astype(np.int32), 255)
    out = image.copy()
    out[mask > 128] = lifted[mask > 128]
    return out


def test_a_card_between_cells_covers_them_with_question_marks() -> None:
    palette = gem_palette()
    for seed in (3, 4, 5):
        scene = render_scene(np.random.default_rng(seed), GEMS, 5, 5, CALM, labels=LAYOUT)
        calm = read_grid(scene.image, palette)
        assert calm.cells is not None and not cards_in_the_air(search_grid(scene.image)).any()
        assert calm.cells[0][1] == "."  # the empty cell reads empty before the card comes
        image = _lift_a_card(scene.image)
        covered = cards_in_the_air(search_grid(image, 5, 5))
        assert covered[0, 1] and covered[0, 2], covered
        reading = read_grid(image, palette)
        assert reading.cells is not None
        for r, row in enumerate(reading.cells):
            for c, got in enumerate(row):
                assert got in ("?", LAYOUT[r][c]), (seed, r, c, reading.cells)
        assert reading.cells[0][1] == "?" and reading.cells[0][2] == "?"


def test_a_card_in_the_air_seen_only_by_its_colour_still_covers_its_cells() -> None:
    # The orange card of cell (1, 4), its white rim out of sight, held over the empty cell
    # (0, 1) and the top of the violet in (1, 1). Cut by whiteness, the lattice is clear and
    # the search stops there; the lifted card's outline shows only in a cut of colour. Read
    # by colour alone, the violet's cell is mostly orange card.
    palette = gem_palette()
    for seed in (3, 4, 5):
        scene = render_scene(np.random.default_rng(seed), GEMS, 5, 5, CALM, labels=LAYOUT)
        image = _lift_a_card(scene.image, centre=(1.5, 0.95), source_cell=(4.5, 1.5), part=0.8)
        search = search_grid(image, 5, 5)
        assert not cards_in_the_air(search)[1, 1]  # what the search's own cuts show
        assert cards_in_the_air(search, look_further=True)[1, 1]
        reading = read_grid(image, palette)
        assert reading.cells is not None
        for r, row in enumerate(reading.cells):
            for c, got in enumerate(row):
                assert got in ("?", LAYOUT[r][c]), (seed, r, c, reading.cells)
        assert reading.cells[1][1] == "?", reading.cells
        # nor a guess at it: the colour there is the card held over it
        assert reading.guesses[1][1] == "?", reading.guesses


def test_cards_lying_in_their_cells_are_in_no_air() -> None:
    for seed in range(6):
        scene = render_scene(np.random.default_rng(100 + seed), GEMS, 5, 5, CALM)
        assert not cards_in_the_air(search_grid(scene.image, 5, 5)).any()


def test_a_card_held_over_the_grids_edge_covers_the_cell_below_it() -> None:
    # Taken off the grid, or brought to it from the deck: the card's centre is past the
    # grid's edge, but it hides a third of the empty cell below it, and its colour, read
    # there, would pass for a card laid in the cell.
    palette = gem_palette()
    for seed in (3, 4):
        scene = render_scene(np.random.default_rng(seed), GEMS, 5, 5, CALM, labels=LAYOUT)
        image = _lift_a_card(scene.image, centre=(1.5, -0.15))
        covered = cards_in_the_air(search_grid(image, 5, 5))
        assert covered[0, 1], covered
        reading = read_grid(image, palette)
        assert reading.cells is not None and reading.cells[0][1] == "?", reading.cells


def test_a_card_held_just_off_its_cell_at_the_grids_edge_is_in_no_cell() -> None:
    # Lifted from its cell at the grid's edge and held a quarter of a card further out:
    # close enough that a lattice taking it in would call it that cell's card, its
    # neighbours shifted a little towards it. The other cards put the cell elsewhere.
    palette = gem_palette()
    for seed in (3, 4, 5):
        scene = render_scene(np.random.default_rng(seed), GEMS, 5, 5, CALM, labels=LAYOUT)
        reading = read_grid(_lift_a_card(scene.image, centre=(1.5, 0.25)), palette)
        assert reading.cells is not None
        assert reading.cells[0][1] == "?", (seed, reading.cells)
        for r, row in enumerate(reading.cells):
            for c, got in enumerate(row):
                assert got in ("?", LAYOUT[r][c]), (seed, r, c, reading.cells)


def test_N9_a_card_in_the_air_over_a_grid_followed_in_video_covers_its_cells() -> None:
    # The frames of a video are followed, not searched: the tracker keeps the outlines it
    # followed by and no cuts. A card held over the grid, with its rim or seen only by its
    # colour, covers the same cells as in a still; before, followed, the violet read as the
    # orange held over it, sure.
    palette = gem_palette()
    for seed in (3, 4, 5):
        calm = render_scene(np.random.default_rng(seed), GEMS, 5, 5, CALM, labels=LAYOUT).image
        for lift, covered in (({}, [(0, 1), (0, 2)]),
                              ({"centre": (1.5, 0.95), "source_cell": (4.5, 1.5), "part": 0.8},
                               [(1, 1)])):
            tracker = GridTracker()
            for frame in (calm, calm):
                tracker.read(frame, palette)
            reading = tracker.read(_lift_a_card(calm, **lift), palette)
            assert tracker.tracked >= 1  # followed, not searched
            assert reading.cells is not None
            for r, row in enumerate(reading.cells):
                for c, got in enumerate(row):
                    assert got in ("?", LAYOUT[r][c]), (seed, lift, r, c, reading.cells)
            assert all(reading.cells[r][c] == "?" for r, c in covered), (seed, reading.cells)
