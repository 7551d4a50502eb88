"""An arm across the grid at a slant (N1: a cell under a hand reads '?', never another card,
and never '.'). Skin the colour of the cloth passes for bare table; what tells it from an
empty cell is that a hand is one piece: it reaches the cell from a card it hides. At a slant
it reaches it from a corner, over the gap where four cells meet.

The scenes are ones the generator drew with a hand (``bench_sources.generator_hands``),
each drawn alone, and one it drew with none."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tests.vision.scenes import GEMS, gem_palette
from tools.synthetic import Conditions, random_conditions, render_scene
from vision.reader import read_grid

# A pale arm down the grid's diagonal from its top-left corner over a felt the colour of its
# skin: the card between the two it hid read '.' (generator hands, seed 13, the 74th).
_FELT = Conditions(
    tilt=5.027671197614139, tilt_dir=194.76693765115698, roll=4.935632233237719,
    jitter_mm=0.07536549747099297, jitter_deg=1.9649931431950667, cloth="felt",
    kelvin=6029.400839409564, white_balance=5000.0, exposure=1.008102526292704, shadow=True,
    glare=0, hand=True, empty=0, clutter=1, noise=4.816477071857048, blur=0.1406632240069768,
    jpeg=74, fill=0.8233505051449515)
# An arm reaching in from the top left over a striped cloth, its skin like the stripes' pale
# ground: the card by the corner of the one under the hand read '.' (seed 17, the 82nd).
_STRIPES = Conditions(
    tilt=30.547702462077098, tilt_dir=200.23179094164718, roll=-19.296132886112993,
    jitter_mm=1.7300548787941739, jitter_deg=3.4712101875672614, cloth="stripes",
    kelvin=5195.643241176873, white_balance=5000.0, exposure=0.9152119317871436,
    shadow=True, glare=2, hand=True, empty=0, clutter=5, noise=4.354068357616334,
    blur=0.21694953890155924, jpeg=62, fill=0.6995038462016088)

# An arm up the grid's left edge and on over the top row, its skin like a brown felt: the
# card it covers in the top row, corner to corner with a card under its wrist that read
# '?' likeliest bare table, read '.' (seed 23, the 149th).
_BROWN_FELT = Conditions(
    tilt=27.669233401793825, tilt_dir=198.1156800639801, roll=-6.428479522310177,
    jitter_mm=3.15005936992342, jitter_deg=0.008182605427423106, cloth="felt",
    kelvin=4074.2943700168, white_balance=5000.0, exposure=0.6533448240639476, shadow=False,
    glare=1, hand=True, empty=0, clutter=2, noise=4.839349137843442, blur=1.0509513573612992,
    jpeg=63, fill=0.7060124465446738)


@pytest.mark.parametrize(("conditions", "seed", "cell"), [
    (_FELT, 1023276931, (1, 1)),
    (_STRIPES, 874438804, (2, 0)),
    (_BROWN_FELT, 1764170110, (0, 1)),
])
def test_N1_skin_like_the_cloth_corner_to_corner_with_a_hidden_card_is_no_empty_cell(
        conditions, seed, cell):
    scene = render_scene(np.random.default_rng(seed), GEMS, 5, 5, conditions)
    assert scene.covered[cell] > 0.5 and scene.labels[cell[0]][cell[1]] != "."
    reading = read_grid(scene.image, gem_palette(), 5, 5)
    assert reading.cells is not None
    assert reading.cells[cell[0]][cell[1]] == "?"
    wrong = [(r, c) for r in range(5) for c in range(5)
             if reading.cells[r][c] not in ("?", scene.labels[r][c])]
    assert wrong == []
    # the hand's cells, and no more than two besides (a reading of all '?' is none)
    assert "".join(reading.cells).count("?") <= int((scene.covered > 0.02).sum()) + 2


def test_N9_bare_cells_corner_to_corner_with_a_busy_cloths_unsure_one_read_empty():
    # No hand: a floral cloth shows a card's colours in an empty cell where no card's outline
    # is, and that cell reads '?'. It looks like the cloth around the grid: nothing lies over
    # it, and the empty cells corner to corner with it are no arm's skin (they read '?' when
    # every such cell passed for one a hand hid).
    rng = np.random.default_rng(248)
    scene = render_scene(rng, GEMS, 5, 5, replace(random_conditions(rng, hand=False), empty=7))
    assert scene.labels[0][0] == scene.labels[2][0] == scene.labels[1][1] == "."
    reading = read_grid(scene.image, gem_palette(), 5, 5)
    assert reading.cells is not None
    assert reading.cells[1][1] == "?" and reading.cells[0][0] == reading.cells[2][0] == "."
    assert [(r, c) for r in range(5) for c in range(5)
            if reading.cells[r][c] not in ("?", scene.labels[r][c])] == []
