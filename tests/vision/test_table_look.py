"""What the bare table looks like is what most of the grid's surroundings show: a deck of
cards beside the grid, a pile or an arm in one side's samples is not table, and does not
make whatever resembles it table (a sleeve as blue as the deck's backs)."""

from __future__ import annotations

import numpy as np

from vision.visible import TableLook, like_table


def _patches(
    rng: np.random.Generator, bgr: tuple[int, int, int], n: int, grain: float
) -> np.ndarray:
    base = np.array(bgr, float)
    noise = rng.normal(0, grain, (n, 48, 48, 1)) + rng.normal(0, grain / 3, (n, 48, 48, 3))
    return np.clip(base + noise, 0, 255).astype(np.uint8)


def test_a_deck_beside_the_grid_does_not_make_a_sleeve_like_it_table():
    rng = np.random.default_rng(3)
    wood = _patches(rng, (90, 140, 190), 6, 9.0)
    deck = _patches(rng, (120, 45, 35), 1, 2.0)  # navy card backs, beside the grid
    table = np.concatenate([wood, deck])
    sleeve = _patches(rng, (125, 50, 40), 1, 2.0)
    more_wood = _patches(rng, (92, 138, 188), 1, 9.0)
    look = TableLook(table)
    assert like_table(more_wood, look).tolist() == [True]
    assert like_table(sleeve, look).tolist() == [False]
    # The deck alone among the samples is still no reason to call the sleeve table.
    assert like_table(sleeve, table).tolist() == [False]


def test_samples_that_all_differ_are_all_kept():
    # Nothing is typical when every sample differs (a cloth of big patches): all count.
    rng = np.random.default_rng(4)
    table = np.concatenate([_patches(rng, c, 1, 3.0) for c in
                            [(40, 40, 200), (40, 200, 40), (200, 40, 40)]])
    look = TableLook(table)
    assert len(look.surface) == 3
    assert like_table(_patches(rng, (40, 200, 40), 1, 3.0), look).tolist() == [True]
