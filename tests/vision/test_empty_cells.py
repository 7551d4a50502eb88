"""Cells a clearing left empty (N9) read ``.`` under a warm lamp on a coloured cloth and on a
gingham, and a hand the colour of the table is never taken for an empty cell beside what it
hides."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tools.synthetic import Conditions, random_conditions, render_scene
from vision.cells import extract_table_patches
from vision.lattice import search_grid
from vision.reader import cloth_shows_card_edges, read_grid
from vision.tracker import GridTracker
from vision.visible import TableLook

from .scenes import GEMS, drawn, gem_palette, video

# The camera of the generated recordings: a lamp warmer than the camera's locked white
# balance clips red on the white rims, and the red felt then matches the lamp in green/blue.
WARM_FELT = Conditions(tilt=18.0, tilt_dir=30.0, roll=6.0, jitter_mm=1.5, jitter_deg=2.0,
                       cloth="felt", kelvin=4200.0, noise=1.5, jpeg=85)


def cleared(rng: np.random.Generator, runs: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A grid of random gems, and the same with ``runs`` combinations cleared (N9): lines of
    3 to 5 cells in a row or a column."""
    letters = list(GEMS)
    cells = np.array([[letters[i] for i in rng.integers(len(letters), size=5)] for _ in range(5)])
    full = tuple("".join(row) for row in cells)
    for _ in range(runs):
        length, at = int(rng.integers(3, 6)), int(rng.integers(5))
        start = int(rng.integers(0, 6 - length))
        if rng.random() < 0.5:
            cells[at, start : start + length] = "."
        else:
            cells[start : start + length, at] = "."
    return full, tuple("".join(row) for row in cells)


def test_N9_cleared_cells_read_empty_under_a_warm_lamp():
    # As the watcher sees it: the camera stays put, the tracker keeps the lattice of the
    # full grid (a whole edge row cleared leaves nothing to find it by). A card lying a
    # little over a cleared cell may make it "?", never a gem.
    empties = read_empty = 0
    for seed in range(12):
        full, after = cleared(np.random.default_rng(seed), runs=1 + seed % 2)
        tracker = GridTracker()
        before = render_scene(np.random.default_rng(seed), GEMS, 5, 5, WARM_FELT, labels=full)
        assert tracker.read(before.image, gem_palette(), 5, 5).cells == full
        scene = render_scene(np.random.default_rng(seed), GEMS, 5, 5, WARM_FELT, labels=after)
        cells = tracker.read(scene.image, gem_palette(), 5, 5).cells
        assert cells is not None, seed
        for got, want in zip("".join(cells), "".join(after), strict=True):
            assert got in (want, "?"), (seed, cells, after)
            empties += want == "."
            read_empty += want == "." and got == "."
    assert read_empty >= 0.95 * empties, (read_empty, empties)


# Cards laid by hand, each up to 6 mm off its place and turned up to 4 degrees: a card's
# edge reaches into the empty cell beside it.
LOOSE = Conditions(tilt=12.0, roll=4.0, jitter_mm=6.0, jitter_deg=4.0, cloth="felt", empty=3)


def test_N9_an_empty_cell_a_neighbours_edge_reaches_into_reads_empty():
    # Its colours are neither a card's nor the cloth's alone (the edge's white rim), but no
    # card outline is in it and its middle is the bare cloth: empty, not "?" (13 of these
    # 40 scenes read one "?" or more on an empty cell before). No card is read empty.
    for seed in range(40):
        scene = render_scene(np.random.default_rng(seed), GEMS, 5, 5, LOOSE)
        cells = read_grid(scene.image, gem_palette(), 5, 5).cells
        assert cells is not None, seed
        for got, want in zip("".join(cells), "".join(scene.labels), strict=True):
            assert got == want if want == "." else got in (want, "?"), (seed, cells)


def test_a_table_coloured_hand_next_to_hidden_cards_is_no_empty_cell():
    # A hand in skin tones over a brown table: what it hides reads "?", never "." with
    # confidence (the scene is one the benchmark found, seed 1001, the 44th draw).
    rng = np.random.default_rng(1001)
    for _ in range(44):
        conditions = random_conditions(rng, hand=True)
        seed = int(rng.integers(2**31))
    assert conditions.cloth == "plain" and conditions.hand
    scene = render_scene(np.random.default_rng(seed), GEMS, 5, 5, conditions)
    reading = read_grid(scene.image, gem_palette(), 5, 5)
    assert reading.cells is not None
    for r, c in zip(*np.nonzero(scene.covered > 0.5), strict=True):
        if scene.labels[r][c] != ".":
            assert reading.cells[r][c] == "?", (r, c, reading.cells[r][c])


def test_an_arm_across_a_row_is_no_run_of_empty_cells():
    # A pale arm across the second row of a gingham, with the rest of the table out of the
    # frame but one side: its skin matches one of the two table samples there, so it reads
    # like bare table all along the row. A hand is one piece: every cell it joins to what
    # it hides reads "?", not only the next one. (A scene the widened generator drew:
    # seed 7000, the 40th; its state is set here so the test draws just this one.)
    scene = drawn(97722742197045342027968909628373203833,
                  243370909585270774436545750675754934523, 1, 2588790769, hand=True)
    assert scene.conditions.cloth == "gingham" and scene.conditions.hand
    reading = read_grid(scene.image, gem_palette(), 5, 5)
    assert reading.cells is not None
    hidden = [(r, c) for r, c in zip(*np.nonzero(scene.covered > 0.5), strict=True)
              if scene.labels[r][c] != "."]
    assert len(hidden) >= 3
    for r, c in hidden:
        assert reading.cells[r][c] == "?", (r, c, reading.cells[r][c])


def test_N9_an_arm_the_tables_colour_over_the_grids_edge_puts_no_lattice_over_it():
    # A bare arm the colour of the table lies along the top row and hides all of it, so the
    # cards span four rows. A finger's outline three rows above once stretched the lattice
    # over the arm's row, and the reading was right only because the finger lay on that
    # side: a deck beside the other side stretches it the other way, a line off (see
    # test_lattice). A still frame cannot tell where the fifth row is: no grid, here and
    # in a tracker's first frame, read twice. (A scene the widened generator drew: seed
    # 11000 of bench_hands, the 188th.)
    scene = drawn(137787279296372053865973044992860199738,
                  193020079551015734593006695126516842161, 0, 660955014, hand=True)
    assert scene.conditions.hand
    assert (scene.covered[0] > 0.9).all()
    palette = gem_palette()
    assert read_grid(scene.image, palette, 5, 5).cells is None
    tracker = GridTracker()
    assert tracker.read(scene.image, palette).cells is None
    assert tracker.read(scene.image, palette.with_models(palette.models)).cells is None


def test_N9_an_empty_cell_on_a_gingham_reads_empty():
    # Green and red checks: the bare cell's colours fit the green card nearly as well as the
    # cloth, and up close the checks give edges wherever a card's sides would be, but no
    # whole card-shaped region. Its inner half, block by block, is the cloth's checks.
    # (the first frame of the drift bench's first video)
    scene = video(901, 1)[0]
    assert scene.conditions.cloth == "gingham" and scene.labels[0][0] == "."
    reading = read_grid(scene.image, gem_palette(), 5, 5)
    assert reading.cells == scene.labels


def test_edges_in_a_cell_are_no_card_only_where_the_cloth_shows_them_too():
    # A pale card on a pale table may show no region of its own up close, only its edges:
    # there edges are a card's. A gingham shows a card's four sides in its checks all round
    # the grid, a plain cloth, felt or wood nowhere.
    busy = video(901, 1)[0]
    found = search_grid(busy.image, 5, 5).geometry
    assert found is not None
    table = TableLook(extract_table_patches(busy.image, found))
    assert cloth_shows_card_edges(busy.image, found, table)
    for seed, cloth in ((3, "plain"), (4, "felt"), (5, "wood")):
        shot = replace(random_conditions(np.random.default_rng(seed), hand=False), cloth=cloth)
        scene = render_scene(np.random.default_rng(seed), GEMS, 5, 5, shot)
        found = search_grid(scene.image, 5, 5).geometry
        assert found is not None
        table = TableLook(extract_table_patches(scene.image, found))
        assert not cloth_shows_card_edges(scene.image, found, table), cloth


def test_N9_empty_cells_read_empty_where_the_grid_fills_the_frame():
    # The camera close over the grid: three quarters of a pitch of table on every side,
    # too little for a whole pitch of it anywhere. The strip between the grid's edge and
    # the frame's tells the table; with no sample of it at all, every empty cell read '?'.
    empties = read_empty = 0
    for seed in range(6):
        rng = np.random.default_rng(300 + seed)
        full, _ = cleared(rng, runs=0)
        cells = np.array([list(row) for row in full])
        cells.flat[rng.choice(25, 3, replace=False)] = "."  # three cells left empty
        after = tuple("".join(row) for row in cells)
        scene = render_scene(rng, GEMS, 5, 5, Conditions(tilt=8.0, cloth="felt"), labels=after)
        x0, y0 = scene.corners.min(axis=0)
        x1, y1 = scene.corners.max(axis=0)
        margin = 0.75 * (x1 - x0) / 5
        top, left = int(y0 - margin), int(x0 - margin)
        image = scene.image[max(top, 0):int(y1 + margin), max(left, 0):int(x1 + margin)]
        reading = read_grid(np.ascontiguousarray(image), gem_palette(), 5, 5)
        assert reading.cells is not None, (seed, reading.reason)
        for got, want in zip("".join(reading.cells), "".join(after), strict=True):
            assert got in (want, "?"), (seed, reading.cells, after)
            empties += want == "."
            read_empty += want == "." and got == "."
    assert read_empty >= 0.9 * empties, (read_empty, empties)
