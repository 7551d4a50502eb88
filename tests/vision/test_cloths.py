"""Cards on a cloth close to their own colour: a pearl on a white tablecloth. The reader may
say "?", never a confident other class, nor "." (an empty cell)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import tools.synthetic_art as art
from calibration.deck import NOMINAL_RGB
from calibration.palette import DEFAULT_MIN_CONFIDENCE as SURE
from calibration.palette import default_palette
from tools.synthetic import random_conditions, render_scene
from vision.reader import read_grid

DECK = {k: (b, g, r) for k, (r, g, b) in NOMINAL_RGB.items()}


def sure_wrong(reading, labels) -> list[tuple[int, int, str, str]]:
    out = []
    for r, row in enumerate(labels):
        for c, want in enumerate(row):
            got = reading.cells[r][c]
            if got not in (want, "?") and reading.confidence[r, c] >= SURE:
                out.append((r, c, want, got))
    return out


@pytest.mark.parametrize("seed", range(10))
def test_N9_pearls_on_a_white_cloth_are_not_read_as_empty_cells(seed, monkeypatch):
    monkeypatch.setattr(art, "CLOTH_COLOURS", ((225, 225, 225),))
    rng = np.random.default_rng(700 + seed)
    conditions = replace(random_conditions(rng, hand=False), cloth="plain", clutter=0)
    cells = list("".join(rng.choice(list(DECK), 25)))
    for i in rng.choice(25, 3, replace=False):
        cells[i] = "*"
    for i in rng.choice(25, 2, replace=False):
        cells[i] = "."
    labels = tuple("".join(cells[r * 5 : (r + 1) * 5]) for r in range(5))
    scene = render_scene(rng, DECK, 5, 5, conditions, size=(640, 480), labels=labels)
    reading = read_grid(scene.image, default_palette())
    assert reading.cells is not None, reading.reason  # a white cloth still shows the grid
    assert sure_wrong(reading, labels) == []
    # the pearls themselves: read as pearls or unsure, never as empty cells
    pearls = [reading.cells[r][c] for r, row in enumerate(labels)
              for c, want in enumerate(row) if want == "*"]
    assert pearls and "." not in pearls, pearls
