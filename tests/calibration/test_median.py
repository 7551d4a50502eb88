"""The one median of calibration and vision, and the scene white it reads for stickers."""

import numpy as np
import pytest

from calibration import median
from calibration.measure import measure


def test_an_even_count_of_8_bit_values_is_added_without_wrapping_round():
    # 250 + 252 in 8 bits is 246: the "median" of these was 123 before
    values = np.array([[250], [252], [10], [254]], np.uint8)
    assert median(values).tolist() == [251.0]
    assert median(np.array([200, 100], np.uint8)).tolist() == 150.0


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.int32, np.float32, np.float64])
@pytest.mark.parametrize("shape, axis", [((7,), 0), ((8,), 0), ((6, 3), 0), ((5, 3, 9), -1),
                                         ((4, 3, 10), -1), ((1, 2), 0)])
def test_the_median_is_numpys_to_the_bit(dtype, shape, axis):
    rng = np.random.default_rng(sum(shape) + axis)
    if np.issubdtype(dtype, np.integer):
        top = min(np.iinfo(dtype).max, 60000)
        values = rng.integers(0, top, shape, endpoint=True).astype(dtype)
    else:
        values = (rng.normal(size=shape) * 100).astype(dtype)
    want = np.median(values, axis=axis)
    got = median(values, axis=axis)
    assert got.dtype == want.dtype
    assert np.array_equal(got, want)


def test_the_median_of_nothing_is_refused():
    with pytest.raises(ValueError, match="median of nothing"):
        median(np.zeros((0, 3)))


def _sticker_face(colours, side=32, seed=0, noise=1.5):
    """Patches (N, side, side, 3) BGR: each a sticker of one R, G, B colour on black plastic,
    lit a little unevenly across it, with camera noise."""
    rng = np.random.default_rng(seed)
    patches = np.zeros((len(colours), side, side, 3), np.float64)
    inner = slice(side // 8, side - side // 8)
    across = np.linspace(0.8, 1.0, side)[inner]
    shade = across[:, None, None] * np.ones((1, len(across), 1))
    for p, rgb in zip(patches, colours, strict=True):
        p[:] = (12, 10, 10)
        p[inner, inner] = shade * np.array(rgb[::-1], float)
    patches += rng.normal(0, noise, patches.shape)
    return np.clip(np.rint(patches), 0, 255).astype(np.uint8)


def test_a_sticker_scenes_white_is_its_white_sticker():
    # The brightest pixels of a face with a white sticker are that sticker's: their median
    # is its colour, whatever the parity of their count.
    white = (230, 242, 253)
    for side in (30, 32, 34):
        face = _sticker_face([white, (20, 90, 110), white, (205, 195, 125)], side)
        found = measure(face, len(face)).white  # log R, G, B: of its best lit part
        assert np.abs(found - np.log(white)).max() < 0.08, (side, np.exp(found).round())


def test_a_sticker_reads_as_one_colour_where_the_brightest_is_a_sticker_too():
    # A face of orange and red: the brightest pixels are the orange stickers, no white.
    # Against their own colour the orange stickers would show none, their pixels' hues only
    # the noise of the dark blue channel: read as two colours at once ("mixed").
    orange, red = (234, 45, 7), (95, 4, 3)
    colours = [orange, red, orange, orange, red, orange, orange, red, orange]
    for seed in range(3):
        scene = measure(_sticker_face(colours, seed=seed), len(colours))
        assert np.abs(np.exp(scene.white) - orange).max() < 10  # the best lit orange
        mixed = scene.fixed[:, 2]
        assert mixed.max() < 0.1, (seed, mixed.round(2))
        # the field: the sticker's pixels, lit 0.8 to 1.0 across it
        assert np.abs(scene.body - 0.9 * np.array(colours)).max() < 8, (seed, scene.body.round())
