"""The field a card's colour is read from (calibration.measure): the bold pixels round its
art where there is a field round it, else all of them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.measure import measure

GREEN = (40, 150, 25)  # BGR of the symbols
FRINGE = {"yellower": (30, 170, 110), "bluer": (120, 160, 20)}


def _set_card(tip: tuple[int, int, int], seed: int, side: int = 48) -> np.ndarray:
    """A SET card's cell, BGR: white paper on dark cloth, two solid green diamonds lying in
    the middle, their tips, just past the middle, of another green (a camera's colour fringe
    along sharp edges)."""
    rng = np.random.default_rng(seed)
    cell = np.full((side, side, 3), (25, 28, 30), np.float64)
    cell[3 : side - 3, 3 : side - 3] = (214, 222, 224)
    for y in (19, 29):
        diamond = np.array([[12, y], [24, y - 4], [36, y], [24, y + 4]], np.int32)
        cv2.fillPoly(cell, [diamond], GREEN)
        cv2.fillPoly(cell, [np.array([[8, y], [12, y - 1], [12, y + 1]], np.int32)], tip)
        cv2.fillPoly(cell, [np.array([[36, y - 1], [40, y], [36, y + 1]], np.int32)], tip)
    cell += rng.normal(0, 1.5, cell.shape)
    return np.clip(np.rint(cell), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("fringe", FRINGE)
@pytest.mark.parametrize("turns", [0, 1])
def test_symbols_in_the_middle_are_the_field_not_a_few_pixels_past_it(fringe, turns):
    # Before, three bold pixels past the middle stood for the card's field: the fringe's
    # green was read as the card's colour and the symbols as another one ("mixed" near 1),
    # lying or turned a quarter round. (On a real SET card how many reach past the middle
    # turned on how it lay: upright 4 such pixels of 49, and it read '?'; lying down 54.)
    cards = np.stack([_set_card(FRINGE[fringe], seed) for seed in range(4)])
    cards = np.ascontiguousarray(np.rot90(cards, turns, axes=(1, 2)))
    scene = measure(cards, len(cards))
    assert np.abs(scene.body - GREEN[::-1]).max() < 6, scene.body.round()
    assert scene.fixed[:, 2].max() < 0.25, scene.fixed[:, 2].round(2)  # mixed


def test_a_field_round_the_art_is_still_read_round_it():
    # A gem card: a red field all round, a big blue gem as vivid as it in the middle. The
    # field is the card's colour, the gem is not: read from all its bold pixels, the card
    # would be blue.
    side = 48
    cell = np.full((side, side, 3), (25, 28, 30), np.uint8)
    cell[3 : side - 3, 3 : side - 3] = (235, 238, 240)  # white rim
    cell[7 : side - 7, 7 : side - 7] = (40, 40, 200)  # a red field
    cv2.circle(cell, (24, 24), 13, (220, 60, 30), -1)  # a blue gem
    scene = measure(np.stack([cell] * 3), 3)
    assert np.abs(scene.body[0] - (200, 40, 40)).max() < 6, scene.body.round()
