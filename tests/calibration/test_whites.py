"""The white a scene shows itself: each card's white rim read as one light over the table."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.colour import OPPONENT
from calibration.features import prepare
from calibration.whites import read_whites, settle

from .synth import expose, light_gain, scene, to_linear, to_srgb8

WARM = np.array([250.0, 150.0, 60.0])  # white paper under a 2700 K lamp, camera set for 5000 K


def rims(whites: np.ndarray, rng: np.random.Generator, k: int = 20) -> np.ndarray:
    """(3, N, k) rim pixels of N cells whose white is ``whites`` (N, 3 RGB), a little noisy."""
    noisy = whites[:, None, :] * rng.uniform(0.97, 1.03, (len(whites), k, 1))
    return np.clip(noisy, 0, 255).transpose(2, 0, 1)


def hue(log_rgb: np.ndarray) -> np.ndarray:
    return np.asarray(log_rgb @ OPPONENT[1:].T)


def test_warm_light_is_read_from_the_rims_and_a_shadow_from_each_card_s_own():
    rng = np.random.default_rng(1)
    shade = np.array([1.0, 1.0, 0.5, 1.0, 0.9, 1.0])
    whites = read_whites(rims(WARM[None] * shade[:, None], rng))
    assert whites.rim.all() and whites.own.all() and not whites.bound.any()
    np.testing.assert_allclose(hue(whites.refs), hue(np.log(WARM))[None].repeat(6, 0), atol=0.04)
    # the card in the shadow is read against its own, darker white
    assert abs(np.exp(whites.refs[2, 1]) - 75.0) < 5.0


def test_a_rim_the_camera_clipped_is_only_a_lower_bound():
    rng = np.random.default_rng(2)
    bright = np.array([255.0, 230.0, 120.0])  # red clipped on every card
    whites = read_whites(rims(np.repeat(bright[None], 5, 0), rng))
    assert whites.bound[:, 0].all() and not whites.bound[:, 1:].any()


def test_skin_or_a_sleeve_is_no_white_rim():
    rng = np.random.default_rng(3)
    cells = np.repeat(WARM[None], 6, 0)
    cells[4] = (230.0, 120.0, 70.0)  # a hand, as the warm lamp shows it
    cells[5] = (40.0, 70.0, 150.0)  # a blue sleeve
    whites = read_whites(rims(cells, rng))
    assert whites.rim.tolist() == [True] * 4 + [False, False]
    # cells with no white rim of their own are read in the scene's typical light
    np.testing.assert_allclose(whites.refs[5], whites.refs[0], atol=0.05)


def test_skin_round_most_cells_is_no_white_where_the_outlined_cards_show_theirs():
    # A neutral lamp; an arm over 15 of 25 cells, its skin their brightest pixels round them.
    # From every cell the commonest hue is the skin's; from the cards whose outline shows,
    # the paper's. The rims of every cell that fit that light then tell it again.
    rng = np.random.default_rng(5)
    paper, skin = np.array([240.0, 238.0, 236.0]), np.array([245.0, 215.0, 170.0])
    cells = np.repeat(paper[None], 25, 0)
    cells[10:] = skin
    outlined = np.arange(25) < 10
    every = read_whites(rims(cells, rng))
    voted = read_whites(rims(cells, np.random.default_rng(5)), outlined)
    assert abs(hue(every.scene_white) - hue(np.log(skin))).max() < 0.05  # the skin's: wrong
    np.testing.assert_allclose(hue(voted.scene_white), hue(np.log(paper)), atol=0.03)
    assert voted.rim[:10].all() and not voted.rim[10:].any()


def test_where_every_rim_fits_the_outlined_cards_light_every_rim_tells_it():
    # A bare grid whose outlines the search found on 10 cards of 25: the other rims are as
    # white, and they are read as if no cell had been asked first.
    paper = np.repeat(np.array([[240.0, 200.0, 150.0]]), 25, 0)
    every = read_whites(rims(paper, np.random.default_rng(6)))
    voted = read_whites(rims(paper, np.random.default_rng(6)), np.arange(25) < 10)
    assert voted.rim.all()
    np.testing.assert_array_equal(voted.refs, every.refs)
    with pytest.raises(ValueError, match="voters for"):
        read_whites(rims(paper, np.random.default_rng(6)), np.ones(24, bool))


def test_cards_with_coloured_bodies_have_rims_but_stickers_do_not():
    rng = np.random.default_rng(4)
    whites = read_whites(rims(np.repeat(WARM[None], 6, 0), rng))
    yellow = np.exp(whites.refs) * np.array([0.9, 0.8, 0.15])
    assert settle(whites, yellow, yellow).has_rims
    # a sticker's brightest pixels are the sticker: "white" and body alike
    stickers = np.array([[200.0, 40.0, 30.0]] * 3 + [[30.0, 160.0, 60.0]] * 3)
    own = read_whites(rims(stickers, rng))
    assert not settle(own, stickers, stickers).has_rims


def test_a_face_of_orange_and_red_stickers_has_no_white_rims_whatever_its_bodies():
    # The brightest pixels of a face of orange and red stickers are the orange ones, and
    # the red bodies stand apart from them in colour as a gem card's body does from its rim:
    # only the "white" itself, orange as no lamp makes paper, tells that it is none (told
    # by the bodies alone, a pixel's shift turned the face's reading, upside down, to '?').
    rng = np.random.default_rng(5)
    orange, red = np.array([234.0, 45.0, 10.0]), np.array([95.0, 4.0, 3.0])
    whites = read_whites(rims(np.repeat(orange[None], 9, 0), rng))
    bodies = np.array([orange, red, orange, red, orange, red, orange, red, orange])
    assert not settle(whites, bodies, bodies).has_rims


@pytest.mark.parametrize("lamp", [(255.0, 147.0, 41.0), (150.0, 190.0, 255.0),
                                  (230.0, 255.0, 200.0), (255.0, 200.0, 240.0)],
                         ids=["candle, daylight balance", "daylight, lamp balance",
                              "green tint", "magenta tint"])
def test_cards_keep_their_white_rims_under_any_lamp_a_camera_shows(lamp):
    rng = np.random.default_rng(6)
    whites = read_whites(rims(np.repeat(np.array(lamp)[None], 6, 0), rng))
    violet = np.exp(whites.refs) * np.array([0.45, 0.2, 0.7])
    assert settle(whites, violet, violet).has_rims


def test_grey_cloth_in_an_empty_cell_is_no_white_card():
    rng = np.random.default_rng(5)
    cells = np.repeat(np.array([[240.0, 238.0, 232.0]]), 6, 0)
    cells[5] = (110.0, 110.0, 115.0)  # grey cloth: neutral, but far darker than the rims
    whites = read_whites(rims(cells, rng))
    red = np.exp(whites.refs) * np.array([0.8, 0.15, 0.2])
    body = red.copy()
    body[5] = cells[5]
    settled = settle(whites, body, body)
    assert settled.has_rims and not settled.own[5]
    assert abs(settled.refs[5].mean() - settled.refs[0].mean()) < 0.1


def test_patches_with_white_bordered_cards_are_read_against_their_rims():
    rng = np.random.default_rng(6)
    cells, _ = scene(rng, "RGBYOPVC", kelvin=2700, exposure=0.8)
    assert prepare(cells).whites.has_rims
    dark = np.stack([expose(np.full((48, 48, 3), 0.02), rng) for _ in range(4)])
    assert not prepare(dark).whites.has_rims


def test_cloth_in_empty_cells_does_not_pass_for_the_lamp_where_red_clips_on_paper():
    # Paper clipped in red on some cards (a lamp warmer than the camera's balance); seven
    # empty cells show red felt whose green:blue happens to be the lamp's. The light's hue
    # is the paper's, not the felt's.
    rng = np.random.default_rng(3)
    paper = np.array([[255.0, 228.0, 190.0]] * 9 + [[246.0, 216.0, 180.0]] * 9)
    felt = np.array([[160.0, 58.0, 48.0]] * 7)
    whites = read_whites(rims(np.concatenate([paper, felt]), rng))
    g_b = np.log(paper[9, 1] / paper[9, 2])
    light = whites.refs[:18].mean(axis=0)
    assert abs((light[1] - light[2]) - g_b) < 0.03
    assert whites.bound[:, 0].all()  # red: only "at least this bright"


def test_cards_under_a_cooler_second_light_keep_their_own_white():
    # A warm lamp over most of the table, a window's daylight over three cards at one side:
    # those are read against their own, bluer white, not the lamp's.
    rng = np.random.default_rng(4)
    lamp = np.array([[176.0, 161.0, 133.0]] * 9)
    window = np.array([[107.0, 106.0, 131.0], [100.0, 113.0, 139.0], [92.0, 106.0, 150.0]])
    whites = read_whites(rims(np.concatenate([lamp, window]), rng))
    assert whites.rim.all() and whites.own.all()
    np.testing.assert_allclose(np.exp(whites.refs[9:]), window, rtol=0.05)


def test_cream_cloth_or_skin_is_no_warmer_second_light():
    # Warmer than the lamp: wood, skin or a cream cloth showing in the rims of a few cells
    # (a hand reaching over them) must not pass for paper under a second lamp.
    rng = np.random.default_rng(5)
    lamp = np.array([[230.0, 200.0, 170.0]] * 9)
    cloth = np.array([[169.0, 138.0, 82.0], [170.0, 141.0, 84.0], [157.0, 128.0, 85.0]])
    whites = read_whites(rims(np.concatenate([lamp, cloth]), rng))
    assert not whites.own[9:].any()
    np.testing.assert_allclose(hue(whites.refs[9:]), hue(whites.refs[:3]), atol=0.02)


@pytest.mark.parametrize("lamp", [2700, 3500, 4000])
def test_black_body_lamp_and_daylight_from_a_window_each_keep_their_white(lamp):
    # Paper seen by a camera balanced for 5000 K: most cards under a lamp, three under a
    # 6500 K window, dimmer. Each card is read against the white its own light gives it.
    rng = np.random.default_rng(lamp)
    paper = to_linear(np.array([235.0, 235.0, 235.0]))

    def seen(kelvin: int, exposure: float) -> np.ndarray:
        return to_srgb8(paper * light_gain(kelvin) * exposure)

    under_lamp = np.repeat(seen(lamp, 1.0)[None], 9, 0)
    by_window = np.repeat(seen(6500, 0.6)[None], 3, 0)
    whites = read_whites(rims(np.concatenate([under_lamp, by_window]), rng))
    assert whites.own.all()
    np.testing.assert_allclose(hue(whites.refs[9:]), hue(np.log(by_window)), atol=0.05)
    np.testing.assert_allclose(hue(whites.refs[:9]), hue(np.log(under_lamp)), atol=0.05)


def test_red_clipped_on_just_half_the_rims_still_gives_the_light_a_hue():
    # An over-exposed warm scene: red clips on half of every rim's bright pixels. Those are
    # lower bounds only; the light's red is read from the other half, not from a mean of a
    # ratio and a stand-in (once a "light" of e^500 that turned violet cards sapphire).
    rng = np.random.default_rng(4)
    pixels = rims(np.tile([[240.0, 200.0, 150.0]], (10, 1)), rng)
    pixels[0, :, ::2] = 255.0  # half the pixels of every rim clipped in red
    whites = read_whites(pixels)
    light = whites.refs[0] - whites.refs[0, 1]
    assert np.isfinite(whites.refs).all() and (whites.refs < np.log(256.0)).all()
    assert np.log(240 / 200) - 0.05 < light[0] < np.log(255 / 200) + 0.05
    assert abs(light[2] - np.log(150 / 200)) < 0.05


def test_green_clipped_on_nearly_half_the_rims_is_read_from_the_white_not_odd_pixels():
    # Over-exposed under a near-neutral lamp: green clips on a little under half of the rims'
    # bright pixels, and a few pixels of a card's field beside the rim (green, far from any
    # white) are read. Sorted after every read ratio, the clipped ones would put the median
    # among those few odd pixels: a light far too green, and every yellow read as orange.
    rng = np.random.default_rng(6)
    pixels = rims(np.tile([[240.0, 236.0, 230.0]], (12, 1)), rng)
    pixels[1, :, :9] = 255.0  # green clipped on 9 of each rim's 20 bright pixels
    pixels[0, :, 9] = 170.0  # and one pixel a rim is the field beside it: far greener
    whites = read_whites(pixels)
    green_to_red = whites.refs[0, 1] - whites.refs[0, 0]
    assert abs(green_to_red - np.log(236 / 240)) < 0.08, np.exp(green_to_red)


def test_most_rims_clipped_all_over_take_the_light_read_on_the_others():
    # A bright lamp clips most rims in every channel; the rest read it unclipped. Those
    # rims show the lamp's colour, so a rim clipped all over is that light, brighter: the
    # scene's light counts as read, and no colour is left to guess for the clipped ones
    # (once guessed redder to fit a hand, it turned every violet on them pink).
    rng = np.random.default_rng(8)
    pixels = rims(np.tile([[235.0, 228.0, 214.0]], (25, 1)), rng)
    pixels[:, :15, :12] = 255.0  # under the lamp's hot spot: most of these rims clipped
    whites = read_whites(pixels)
    assert whites.rim.all() and whites.bound[:15].all() and not whites.bound[15:].any()
    assert whites.light_read
    # a clipped rim's white keeps the read light's hue
    np.testing.assert_allclose(hue(whites.refs[:15]), hue(whites.refs[15:16]).repeat(15, 0),
                               atol=0.05)


def test_too_few_rims_read_unclipped_leave_the_light_a_guess():
    rng = np.random.default_rng(9)
    pixels = rims(np.tile([[235.0, 228.0, 214.0]], (25, 1)), rng)
    pixels[:, :21, :11] = 255.0  # four rims read unclipped: under a third of the cells
    whites = read_whites(pixels)
    assert whites.rim.all() and whites.bound[:21].all() and not whites.bound[21:].any()
    assert not whites.light_read
