"""What the bare table looks like is what most of the grid's surroundings show: a deck of
cards beside the grid, a pile or an arm in one side's samples is not table, and does not
make whatever resembles it table (a sleeve as blue as the deck's backs)."""

from __future__ import annotations

import numpy as np

from vision.visible import TableLook, bare_inside, like_table


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


def test_N9_a_cell_bare_but_along_an_edge_is_bare_inside_and_one_covered_inside_is_not():
    # A neighbour's white rim reaching in along the edge leaves the inner half bare table;
    # a card showing between the fingers over it does not, though the median of the
    # middle, mostly wood-coloured skin, could pass for the wood.
    rng = np.random.default_rng(5)
    look = TableLook(_patches(rng, (90, 140, 190), 8, 9.0))
    bare, rim, covered = _patches(rng, (91, 139, 189), 3, 9.0)
    rim[:, :7] = (235, 240, 245)  # the rim of the card beside it, along the top edge
    covered[12:36, 12:36] = (110, 150, 205)  # fingers the colour of the wood
    covered[12:24, 12:24] = (40, 60, 200)  # a red card seen between them
    assert like_table(covered[None], look).tolist() == [True]
    assert bare_inside(np.stack([bare, rim, covered]), look).tolist() == [True, True, False]


def _checks(rng: np.random.Generator, n: int, check: int, shift: int) -> np.ndarray:
    """Patches of a red and green gingham, checks ``check`` px across, moved ``shift`` px."""
    yy, xx = np.mgrid[0:48, 0:48] + shift
    red = ((yy // check + xx // check) % 2 == 0)[None, :, :, None]
    colour = np.where(red, [40, 50, 170], [40, 120, 30]).astype(float)
    return np.clip(colour + rng.normal(0, 3.0, (n, 48, 48, 3)), 0, 255).astype(np.uint8)


def test_N9_a_cell_of_a_gingham_is_bare_inside_against_the_cloths_own_blocks():
    # Checks as big as a quarter of the cell: a block of the cell's inner half shows one
    # check or parts of a few, and so do the table's blocks, while the table's whole middles
    # mix both colours. A card's field inside is no check of it.
    rng = np.random.default_rng(6)
    look = TableLook(np.concatenate([_checks(rng, 1, 12, s) for s in (0, 3, 5, 8, 10, 14)]))
    bare = _checks(rng, 1, 12, 4)[0]
    card = bare.copy()
    card[12:36, 12:36] = (200, 120, 40)  # a blue card's field
    assert bare_inside(np.stack([bare, card]), look, blocks=True).tolist() == [True, False]
    # against the table's whole middles, where both colours mix, no block of it is alike
    assert bare_inside(bare[None], look).tolist() == [False]


def test_N9_an_arm_the_colour_of_the_cloth_does_not_make_a_hand_like_it_surely_table():
    # The arm reaching in lies over one side's sample: the cloth's colour, smoother than its
    # weave yet near enough to count among the cloth's samples. The hand at its end over a
    # cell, smoother still, is like the arm and like none of the cloth's samples: it could
    # be table (enough to doubt by), never surely (a cell read "." is not taken so).
    rng = np.random.default_rng(7)
    cloth = _patches(rng, (110, 140, 220), 6, 7.0)
    arm = _patches(rng, (112, 142, 222), 1, 3.2)
    hand = _patches(rng, (111, 141, 221), 1, 1.2)
    look = TableLook(np.concatenate([cloth, arm]))
    assert len(look.surface) == 7  # the arm's sample counts among the cloth's
    assert look.enough == 2  # a third of the six others
    assert like_table(hand, look, surely=True).tolist() == [False]
    assert like_table(hand, look).tolist() == [True]
    more_cloth = _patches(rng, (110, 140, 220), 1, 7.0)
    assert like_table(more_cloth, look, surely=True).tolist() == [True]
