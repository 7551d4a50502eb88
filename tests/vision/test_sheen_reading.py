"""A card under a lamp's sheen (its glossy face and border catching the lamp, the matte cloth
not) is read through it, where its colour is still its own; nothing else is read so."""

from __future__ import annotations

from dataclasses import replace
from unittest import mock

import numpy as np
import pytest

import vision.reader as reader
from tools.synthetic import render_scene

from .scenes import CALM, GEMS, gem_palette


def _nothing_under_a_sheen(sheen: np.ndarray, unsure: np.ndarray) -> np.ndarray:
    return np.zeros(unsure.shape, bool)


@pytest.mark.parametrize("seed", [14, 43])
def test_cards_under_a_lamps_sheen_read_as_themselves(seed):
    scene = render_scene(np.random.default_rng(seed), GEMS, 5, 5, replace(CALM, sheen=0.4))
    palette = gem_palette()
    reading = reader.read_grid(scene.image, palette, 5, 5)
    with mock.patch.object(reader, "_under_a_sheen", _nothing_under_a_sheen):
        before = reader.read_grid(scene.image, palette, 5, 5)
    assert reading.cells is not None and before.cells is not None
    through = set()
    for r, (row, truth) in enumerate(zip(reading.cells, scene.labels, strict=True)):
        for c, (got, want) in enumerate(zip(row, truth, strict=True)):
            if (r, c) not in scene.sheened:
                assert got == want  # the rest of the grid as ever
                continue
            assert got in (want, "?")  # under the sheen: itself, or '?', never another
            if got != before.cells[r][c]:
                through.add((r, c))
                assert before.cells[r][c] == "?" and got == want
    assert through  # and a card '?' without the sheen's reading reads itself


def test_a_sheen_is_one_spot():
    sheen = np.array([list("RRP"), list("P?B"), list("VVR")], dtype=object)
    unsure = np.zeros((3, 3), bool)
    unsure[0, 0] = unsure[0, 1] = True  # two cards side by side: one reflection
    assert reader._under_a_sheen(sheen, unsure).sum() == 2
    unsure[2, 2] = True  # and a third far off: the scene's light, not a lamp's reflection
    assert not reader._under_a_sheen(sheen, unsure).any()
    unsure[:] = False
    unsure[0, 0] = unsure[2, 2] = True  # two spots
    assert not reader._under_a_sheen(sheen, unsure).any()
