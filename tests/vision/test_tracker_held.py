"""The lattice a tracker held stands against a search that cannot tell where the grid is:
a sparse line at one edge and piles in line past the other fit a grid a line either way,
and a hand over the grid leaves a search fewer cards still. What the frames before showed
settles it, or nothing is reported (issue 11: located on its true cells or not at all)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tools.synthetic import random_conditions, render_scene
from vision.tracker import PITCH, GridTracker, _in_place_rather_than, _light_matched

from .moments import Table, followed, palm, thinned, verdict
from .scenes import GEMS, cards_past_the_grid, gem_palette, shaken

Rows = tuple[str, ...]
_LETTERS = np.array(list(GEMS))


def _laid(grid: np.ndarray, top: int, piles: dict[int, str] | None = None) -> Rows:
    """A 7 x 7 layout: ``grid`` (5 x 5 letters) from row ``top`` and column 1, and
    ``piles`` (column: letter) on the last row."""
    layout = np.full((7, 7), ".")
    layout[top:top + 5, 1:6] = grid
    for col, letter in (piles or {}).items():
        layout[6, col] = letter
    return tuple("".join(r) for r in layout)


def _shot(seed: int):
    return replace(random_conditions(np.random.default_rng(seed), hand=False), empty=0, clutter=0)


def _never_a_line_off(cells: Rows | None, truth: Rows) -> bool:
    """No reading, or one whose every card is the truth's (``?`` where unsure)."""
    return cells is None or all(
        g in (t, "?") for g, t in zip("".join(cells), "".join(truth), strict=True)
    )


@pytest.mark.parametrize(
    ("seed", "full", "thin"),
    [
        # a full grid in a 7 x 7 layout, piles in line past its bottom row; then the top
        # row thinned to one or two cards
        (1, (".......", ".YPOCP.", ".GVCVB.", ".VCCOB.", ".CPPBP.", ".OCYCP.", ".O..B.."),
         (".......", ".Y.....", ".GVCVB.", ".VCCOB.", ".CPPBP.", ".OCYCP.", ".O..B..")),
        (5, (".......", ".CPCOG.", ".VPORG.", ".YOYGC.", ".ROGBP.", ".OPCCO.", ".P.P.R."),
         (".......", "....OG.", ".VPORG.", ".YOYGC.", ".ROGBP.", ".OPCCO.", ".P.P.R.")),
    ],
)
def test_N9_a_hand_over_a_thinned_grid_does_not_move_it_onto_the_piles(seed, full, thin):
    # Once the top row is thinned, the cards fit a grid a line down as well or better
    # (the piles for its bottom row): a still search takes that one. With a hand over the
    # grid the follow fails and the search finds that grid, or a grid with some of the
    # cards, whole cells off the lattice held while most of its cards lie as they did: the
    # tracker used to take the search's and read every card as its neighbour's in every
    # frame after. It keeps the lattice held and follows it again once the hand is gone.
    shot = _shot(seed)
    palette = gem_palette()
    tracker = GridTracker()
    truth = tuple(row[1:6] for row in thin[1:6])
    frames = [(full, False, (0, 0)), (thin, False, (0, 0)), (thin, True, (0, 0)),
              (thin, True, (1, 0)), (thin, False, (0, 1)), (thin, False, (1, 1))]
    readings = []
    for k, (layout, hand, shake) in enumerate(frames):
        light = replace(shot, hand=True, glare=(shot.glare + k) % 3) if hand else shot
        scene = render_scene(np.random.default_rng(seed + 2), GEMS, 7, 7, light, labels=layout)
        readings.append(tracker.read(shaken(scene.image, *shake), palette).cells)
    assert readings[0] is not None and readings[1] is not None
    assert all(_never_a_line_off(cells, truth) for cells in readings[1:]), readings
    assert readings[-1] is not None, tracker.doubt


@pytest.mark.parametrize("seed", [0, 1])
def test_N9_a_grid_held_from_a_sparse_line_is_not_kept_against_a_search_once_piles_go(seed):
    # The top row holds two cards, three piles lie in line past the bottom row: the
    # still search takes the five rows with the piles (23 cards against 22), and the
    # tracker held that lattice with a card in every edge line. The piles are picked up:
    # the lattice's bottom row is bare, the true top row lies in its ring as before, and
    # the search now finds the true grid, a row up. The bare line never showed a card in
    # every cell, so nothing tells which is right: no grid, where the tracker used to keep
    # its lattice and read every card as its neighbour's below.
    top, rows = "R...B", ("OVYCP", "BGRVY", "CPOGB", "YRBPO")
    shot = _shot(seed)
    palette = gem_palette()

    def picture(last: str) -> np.ndarray:
        scene = render_scene(np.random.default_rng(seed + 2), GEMS, 6, 5, shot,
                             labels=(top, *rows, last))
        return scene.image

    with_piles, without = picture("Y.P.C"), picture(".....")
    tracker = GridTracker()
    for image in (with_piles, shaken(with_piles, 1, 0)):
        tracker.read(image, palette)
    truth = (top, *rows)
    for shake in ((0, 0), (1, 0), (1, 1)):
        reading = tracker.read(shaken(without, *shake), palette)
        assert _never_a_line_off(reading.cells, truth), (shake, reading.cells)


@pytest.mark.parametrize(("seed", "gain"), [(0, 0.85), (3, 0.7)])
def test_N9_a_line_cleared_as_the_light_dims_leaves_the_grid_in_place_beside_piles(seed, gain):
    # Piles lie in line past the bottom row; the top row is cleared while the light dims.
    # The piles no longer look as they did pixel by pixel, so they were taken for new
    # cards: the tracker searched, and the search put the grid a line down over the piles.
    # Matched for the light first, they look as they did.
    shot, full, cleared, truth_full, truth = cards_past_the_grid(seed, (1, 3))
    palette = gem_palette()
    tracker = GridTracker()
    before = render_scene(np.random.default_rng(seed + 2), GEMS, 6, 5, shot, labels=full)
    after = render_scene(np.random.default_rng(seed + 2), GEMS, 6, 5, shot, labels=cleared)
    dimmed = np.clip(after.image * np.float32(gain), 0, 255).astype(np.uint8)
    assert tracker.read(before.image, palette).cells == truth_full
    for shake in ((0.0, 0.0), (1.0, 0.0)):
        reading = tracker.read(shaken(dimmed, *shake), palette)
        assert reading.cells is not None, (shake, reading.reason)
        assert _never_a_line_off(reading.cells, truth), (shake, reading.cells)
        assert reading.cells[0] == "....."


def _palm(image: np.ndarray, centre: np.ndarray, radius: float) -> np.ndarray:
    """:func:`moments.palm` round ``centre``, ``radius`` px wide."""
    r = int(radius)
    return palm(image, (int(centre[0]), int(centre[1])), r, int(1.2 * r))


@pytest.mark.parametrize("seed", [4])
def test_N9_a_camera_bumped_a_row_under_a_hand_is_not_held_or_followed_a_line_off(seed):
    # Piles lie in line past the bottom row. A hand hides the grid from the search (the
    # lattice held stays); under it the camera is bumped up a row's pitch. Through the
    # lattice held, the piles fill its bottom line and the top row lies where the view's
    # edge cuts its outlines: a follow that asked about a bump only with cards in the
    # ring was followed a line off, and then held there against the search's true grid.
    shot = _shot(seed)
    shot = replace(shot, tilt=min(shot.tilt, 10.0))
    rng = np.random.default_rng(seed + 300)
    grid = _LETTERS[rng.integers(len(_LETTERS), size=25)].reshape(5, 5)
    labels = _laid(grid, 1, {c: _LETTERS[rng.integers(len(_LETTERS))] for c in (1, 3, 5)})
    truth = tuple("".join(r) for r in grid)
    palette = gem_palette()
    calm = render_scene(np.random.default_rng(seed + 2), GEMS, 7, 7, shot, labels=labels)
    centres = calm.card_quads.mean(axis=2)[1:6, 1:6]
    col = np.mean(centres[:, 1:] - centres[:, :-1], axis=(0, 1))
    row = np.mean(centres[1:] - centres[:-1], axis=(0, 1))
    tracker = GridTracker()
    for image in (calm.image, shaken(calm.image, 1, 0)):
        assert tracker.read(image, palette).cells == truth
    for k, move in ((2, np.zeros(2)), (3, -row)):
        hand = render_scene(np.random.default_rng(seed + 2), GEMS, 7, 7,
                            replace(shot, hand=True, glare=(shot.glare + k) % 3), labels=labels)
        radius = float(np.linalg.norm(col)) * (1.6 + 0.2 * (k % 2))
        palm = _palm(hand.image, centres[2, 2] + (0.2 * k, 0), radius)
        tracker.read(shaken(palm, *move), palette)
    readings = [tracker.read(shaken(calm.image, *(-row + jiggle)), palette).cells
                for jiggle in ((0, 0), (1, 0), (0, 1), (1, 1))]
    assert all(_never_a_line_off(cells, truth) for cells in readings), readings
    assert readings[-1] is not None, tracker.doubt


def test_N9_a_grid_lifted_and_laid_a_row_down_is_not_read_where_it_lay():
    # A hand lifts the grid (the table bare: no card near a cell, no grid found) and lays
    # it a row down, the hand still over it. A lattice kept through the bare table was
    # followed to the cards laid, a line off, under the hand.
    seed = 1
    shot = _shot(seed)
    shot = replace(shot, tilt=min(shot.tilt, 10.0))
    rng = np.random.default_rng(seed + 300)
    grid = _LETTERS[rng.integers(len(_LETTERS), size=25)].reshape(5, 5)
    truth = tuple("".join(r) for r in grid)

    def picture(labels: tuple[str, ...], **light) -> np.ndarray:
        scene = render_scene(np.random.default_rng(seed + 2), GEMS, 7, 7,
                             replace(shot, **light), labels=labels)
        return scene.image

    palette = gem_palette()
    calm = render_scene(np.random.default_rng(seed + 2), GEMS, 7, 7, shot, labels=_laid(grid, 1))
    centres = calm.card_quads.mean(axis=2)[1:6, 1:6]
    pitch = float(np.linalg.norm(np.mean(centres[:, 1:] - centres[:, :-1], axis=(0, 1))))
    tracker = GridTracker()
    for image in (calm.image, shaken(calm.image, 1, 0)):
        assert tracker.read(image, palette).cells == truth
    lifting = _palm(picture(_laid(grid, 1), hand=True, glare=(shot.glare + 2) % 3),
                    centres[2, 2] + (0.4, 0), pitch * 1.6)
    tracker.read(lifting, palette)
    bare = picture(tuple("." * 7 for _ in range(7)), hand=True)
    assert tracker.read(bare, palette).cells is None
    again = tracker.read(picture(_laid(grid, 2), hand=True, glare=(shot.glare + 1) % 3), palette)
    assert _never_a_line_off(again.cells, truth), again.cells


def test_N9_piles_the_first_follow_did_not_see_are_no_slip():
    # The first frame followed saw the grid's 25 cards with its first cut and stopped:
    # it counted one of the three piles past the bottom row. With the top row thinned
    # the follow needs more cuts, and they show all three: "more cards around the grid
    # than before" sent every frame to a search (no grid, for good). The piles look as
    # they did in the picture before: no slip pushed them there.
    table, palette, tracker = Table(0), gem_palette(), GridTracker()
    thin = thinned(table.full)
    frames = [table.frame(table.full, 0), table.frame(table.full, 1), table.frame(thin, 2),
              table.frame(thin, 3)]
    assert "".join(verdict(tracker.read(f.image, palette), f) for f in frames) == "RRRR"


@pytest.mark.parametrize(("scene", "seed"), [("dim", 0), ("bright", 0), ("cards_changed", 0)])
def test_N9_a_lattice_hidden_under_a_hand_stands_against_a_search_a_line_off(scene, seed):
    # The top row thinned to one card, piles in line past the bottom row, then a hand
    # over most of the grid: the follow sees too few cards to hold the lattice by, and
    # once the hand is gone the search finds the grid a line down (the piles its bottom
    # row). The lattice set aside shows the cards the search found where they lay, not
    # where their neighbours were: it stands, and is followed again. The tracker used to
    # read every card as its neighbour's for good from there; with the light turned up
    # (x1.35, colours clipped) the cards look nearer themselves than their neighbours,
    # though not the same.
    line, start = followed(scene, seed, gem_palette())
    assert "X" not in line and "W" not in line, line
    assert line.endswith("RRRR"), line


def test_N9_cards_changed_since_a_line_was_cleared_still_tell_the_grid_in_place():
    # The top row cleared, then play changed sixteen cards before a hand came: the view
    # of the cells from when every edge line held a card was stale, most cards "moved",
    # and the search a line down over the piles was taken. The follows since (no bump)
    # refresh the view cell by cell where they see a card.
    line, start = followed("line_cleared_changed", 3, gem_palette())
    assert "X" not in line and "W" not in line, line
    assert line.endswith("RRRR"), line


def test_N9_in_place_asks_whether_a_card_looks_far_more_like_itself_than_its_neighbour():
    rng = np.random.default_rng(5)
    cells = rng.integers(30, 230, (7, 7, 3)).astype(np.uint8)

    def view(colours: np.ndarray) -> np.ndarray:
        return np.kron(colours, np.ones((PITCH, PITCH, 1), np.uint8))

    before, every = view(cells), np.ones((5, 5), bool)
    # clipped: not the same colours, once matched for the light as the tracker does
    brighter = _light_matched(cv2.convertScaleAbs(before, alpha=1.35), before)
    assert _in_place_rather_than(brighter, before, every, (1, 0))
    # other cards laid in the same place look like neither, and are not in place
    other = view(rng.integers(30, 230, (7, 7, 3)).astype(np.uint8))
    assert not _in_place_rather_than(other, before, every, (1, 0))
    down = view(np.roll(cells, 1, axis=0))  # each card where the one above it was
    assert not _in_place_rather_than(down, before, every, (1, 0))
    assert not _in_place_rather_than(view(np.roll(cells, -1, axis=1)), before, every, (0, -1))


@pytest.mark.parametrize("seed", [2, 0])
def test_N9_a_grid_relaid_a_row_higher_onto_the_place_set_aside_is_not_anchored_there(seed):
    # The grid under a hand is set aside, the table goes bare, and the grid is laid a row
    # higher, a card short in its top row, the piles now a pitch past its bottom row. A
    # search finds the piles' row and four of the grid's (seed 2), where the lattice was
    # set aside; the cards there are not those that lay there, so that lattice anchors
    # nothing, and the picture alone cannot place the grid. It was read a row off for
    # every frame after. Where the search finds the grid (seed 0), it is read.
    line, start = followed("relaid_up", seed, gem_palette())
    assert "X" not in line and "W" not in line, line
    if seed == 0:
        assert line[start:] == "R" * 8, line
