"""A hand over part of a card (N1: a cell under a hand reads '?', never another card).
Where skin or a sleeve lies over part of a card, what is left of its sides still shows up
close as edges, but no whole card-shaped region, and the cell's colours are mostly the
hand's: skin over a violet card read orange, a blue sleeve over one read blue. What tells
it is the cell beside it, whose card outline the hand breaks: no card shows there even up
close.

The scenes are ones the widened generator drew (``bench_sources.generator_hands``, seed 29),
each drawn alone; and a still it drew with no hand."""

from __future__ import annotations

import pytest

from tests.vision.scenes import GEMS, drawn, gem_palette, generator_at
from tools.synthetic import random_conditions, render_scene
from vision.reader import read_grid
from vision.visible import card_in_cell

_SEED_2029 = 312905623026760575615844382682138946543  # the generator's stream (its inc)


@pytest.mark.parametrize(("state", "has_uint32", "uinteger", "cell"), [
    # a brown arm over the grid's top left: a violet card, its top under it, read orange
    # (the 39th widened scene)
    (240485317004546940314029955728030688078, 0, 4203365849, (1, 0)),
    # a hand lifting an orange card over a red one: the red read orange (the 108th)
    (56361202288337453283889776332548248183, 0, 305897369, (4, 4)),
    # a dark arm across the grid: a pink card by the wrist read red (the 344th)
    (128844336899675106422257604776186213444, 0, 2488473854, (1, 1)),
    # a hand in a blue sleeve along the bottom row: a violet card under the cuff read blue
    # (the 364th)
    (273170459807416626575630451485415854061, 1, 1447046975, (4, 3)),
])
def test_N1_a_card_showing_only_edges_beside_a_hidden_cell_is_unsure(
        state, has_uint32, uinteger, cell):
    scene = drawn(state, _SEED_2029, has_uint32, uinteger, None)
    r, c = cell
    assert scene.conditions.hand and scene.covered[r, c] > 0.02
    reading = read_grid(scene.image, gem_palette(), 5, 5)
    assert reading.cells is not None
    assert reading.cells[r][c] == "?"
    wrong = [(r, c) for r in range(5) for c in range(5)
             if reading.cells[r][c] not in ("?", scene.labels[r][c])]
    assert wrong == []
    # the hand's cells, and no more than two besides (a reading of all '?' is none)
    assert "".join(reading.cells).count("?") <= int((scene.covered > 0.02).sum()) + 2


def test_N1_a_card_whose_whole_outline_shows_up_close_is_read_beside_an_unsure_cell():
    # No hand: confetti on the cloth in an empty cell reads '?' and shows no card; beside it
    # a pink card under a lamp's glint, its outline missed by the search, shows its whole
    # outline up close. It is read, not doubted with the cell beside it. (The generator's
    # stills, seed 1, the 15th.)
    rng = generator_at(216358291659998539217046301536771017150,
                       194290289479364712180083596243593368443, 0, 3370026438)
    scene = render_scene(rng, GEMS, 5, 5, random_conditions(rng, hand=False))
    assert scene.labels[2][1:3] == ".P"
    reading = read_grid(scene.image, gem_palette(), 5, 5)
    assert reading.cells is not None and reading.geometry is not None
    assert not reading.geometry.seen[2, 2] and reading.cells[2][1] == "?"
    assert not card_in_cell(scene.image, reading.geometry, 2, 1)
    assert reading.cells[2][2] == "P"
