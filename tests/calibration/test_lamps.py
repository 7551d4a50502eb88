"""Stickers (no white rims) under a light the palette guesses: only a lamp's light."""

import numpy as np
import pytest

from calibration import learn_palette
from calibration.light import Light
from tests.calibration.test_median import _sticker_face
from tools.synthetic import kelvin_gains

CUBE = {"U": (232, 240, 250), "F": (20, 90, 110), "B": (22, 66, 182), "D": (206, 197, 124),
        "L": (190, 75, 45), "R": (150, 10, 30)}  # R, G, B; its green a dark teal


@pytest.fixture(scope="module")
def palette():
    rng = np.random.default_rng(3)
    faces = []
    for i in range(6):
        labels = "".join(rng.choice(list(CUBE), 9))
        faces.append((_sticker_face([CUBE[ch] for ch in labels], seed=i), labels))
    return learn_palette(faces)


@pytest.mark.parametrize("green", [(40, 140, 80), (60, 160, 60)])
def test_a_face_of_a_green_the_palette_does_not_know_is_not_white_under_a_green_lamp(
        palette, green):
    # Another cube's leaf green, nothing like this one's teal: white stickers under a green
    # light would explain it perfectly, but no lamp is green.
    reads = palette.classify(_sticker_face([green] * 9, seed=9))
    assert "U" not in reads.labels, reads


@pytest.mark.parametrize("kelvin", [3000, 4000, 6500, 9000])
def test_a_face_under_a_warmer_or_cooler_lamp_reads_right(palette, kelvin):
    gains = kelvin_gains(kelvin)[::-1]
    labels = "UFBDLRUDB"
    lit = [tuple(np.minimum(255, np.array(CUBE[ch]) * gains / gains.max())) for ch in labels]
    assert "".join(palette.classify(_sticker_face(lit, seed=11)).labels) == labels


def test_N1_a_light_guessed_where_the_white_rims_clipped_is_still_a_lamps():
    # Over-exposed, the rims read 255 in red and green: there the light is only "at least
    # this", so its colour is guessed as much as on stickers, and a green cast that would
    # fit the cards is no lamp's. Where every rim channel was read, the rims show the
    # light's colour and only how bright it is remains to guess.
    n = 4
    clipped_red_green = np.tile([1.0, 1.0, 0.0], (n, 1))
    doubt = np.ones((n, 3))
    green = Light(np.zeros((n, 3)), clipped_red_green, np.array([0.0, 0.6, 0.0]),
                   doubt, doubt[:, 0], rims=True)
    assert not green.of_a_lamp()
    assert green.moved(np.array([0.3, 0.3, 0.0])).of_a_lamp()  # brighter, a little yellower
    read = Light(np.zeros((n, 3)), np.zeros((n, 3)), green.shift, doubt, doubt[:, 0],
                  rims=True)
    assert read.of_a_lamp()
