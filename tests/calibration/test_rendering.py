"""A camera's rendering learned from the cards read sure in one scene (calibration.rendering):
one map in log reflectance for every class, or one tone curve for every channel, learned only
where the cards show it (N1)."""

from __future__ import annotations

import numpy as np

from calibration.rendering import (
    TONE_KNOTS,
    Rendering,
    ToneCurve,
    as_log,
    learn,
    learn_rendering,
    learn_tone_curve,
    worth_undoing,
)

# log reflectance of a few card colours (R, G, B against their white)
COLOURS = np.array([[-0.1, -2.0, -2.0], [-0.2, -0.3, -2.1], [-2.0, -0.4, -0.3],
                    [-0.5, -1.5, -0.2], [-1.9, -0.5, -1.8], [-0.3, -1.0, -0.6]])


def _cards(per_class: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """(class colour, class index) of each card, ``per_class`` cards of each class."""
    k = np.repeat(np.arange(len(COLOURS)), per_class)
    return COLOURS[k], k


def test_N1_a_flatter_tone_curve_and_duller_colours_are_learned_and_undone():
    rng = np.random.default_rng(1)
    colours, k = _cards()
    grey = colours.mean(axis=1, keepdims=True)
    seen = 0.7 * (grey + 0.8 * (colours - grey)) + rng.normal(0, 0.03, colours.shape)
    rendering = learn(colours, seen, k)
    assert rendering is not None
    assert worth_undoing(rendering, COLOURS)
    undone = rendering.undo(seen)
    assert np.abs(undone - colours).max() < 0.15
    assert eval(repr(rendering), {"np": np, "Rendering": Rendering}).gain.shape == (3, 3)


def test_N1_cards_as_calibrated_show_no_rendering():
    # Each card a little off its class (its own print, its place in the light), all by one
    # offset (the light): nothing a rendering explains better.
    rng = np.random.default_rng(2)
    colours, k = _cards(4)
    seen = colours + np.array([0.1, -0.05, 0.2]) + rng.normal(0, 0.15, colours.shape)
    assert learn(colours, seen, k) is None


def test_N1_too_few_cards_or_classes_show_no_rendering():
    colours, k = _cards()
    seen = 0.7 * colours
    assert learn(colours[:6], seen[:6], k[:6]) is None  # 6 cards
    three = k < 3
    assert learn(colours[three], seen[three], k[three]) is None  # 3 classes


def test_N1_no_camera_renders_colours_this_far():
    colours, k = _cards()
    assert learn(colours, 0.2 * colours, k) is None  # shrunk to a fifth
    assert learn(colours, colours + 1.5 + 0.5 * (colours - colours.mean()), k) is None


def test_N1_a_map_bent_by_one_class_foresees_no_other():
    # Every card as calibrated, but those of one class pulled far off (cards of another
    # class read as it): a map through them foresees no class it was not shown.
    rng = np.random.default_rng(5)
    colours, k = _cards(4)
    seen = colours + rng.normal(0, 0.05, colours.shape)
    seen[k == 2] += np.array([0.9, -0.6, 0.4])
    seen[k == 4] += np.array([-0.5, 0.7, -0.2])
    assert learn(colours, seen, k) is None


SHARES = np.exp(COLOURS)  # the same colours as shares of their white


def _s_curve(values: np.ndarray, amount: float = 0.8) -> np.ndarray:
    """A phone's S on camera values (shares of full scale): shadows darker, highlights
    brighter (a smoothstep, ``amount`` of the way)."""
    return values + amount * (values * values * (3.0 - 2.0 * values) - values)


def _under_a_lamp(per_class: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(class colour as a share, class index, white in camera values) of each card: a warm
    lamp, brighter on some cards than on others."""
    rng = np.random.default_rng(seed)
    k = np.repeat(np.arange(len(SHARES)), per_class)
    white = np.array([220.0, 200.0, 150.0]) * rng.uniform(0.75, 0.95, (len(k), 1))
    return SHARES[k], k, white


def _through(shares: np.ndarray, white: np.ndarray, seed: int = 0
             ) -> tuple[np.ndarray, np.ndarray]:
    """Cards and their whites as a camera with the S curve shows them (camera values)."""
    rng = np.random.default_rng(seed)
    card = 255.0 * _s_curve(shares * white / 255.0) * rng.normal(1.0, 0.01, shares.shape)
    return card, 255.0 * _s_curve(white / 255.0)


def test_N1_a_phone_s_curve_is_learned_as_one_tone_curve_and_undone():
    shares, k, white = _under_a_lamp(4, 3)
    seen, seen_white = _through(shares, white)
    curve = learn_tone_curve(shares, seen, seen_white, k)
    assert curve is not None
    assert worth_undoing(curve, as_log(SHARES))
    back = curve.put_back(seen, seen_white) / seen_white
    assert np.abs(as_log(back) - as_log(shares)).max() < 0.2
    # as seen, far off: the S moved the darkest channels most
    assert np.abs(as_log(seen / seen_white) - as_log(shares)).max() > 0.5
    again = eval(repr(curve), {"np": np, "ToneCurve": ToneCurve})
    assert np.allclose(again.back, curve.back, atol=1e-3)
    learned = learn_rendering(shares, seen, seen_white, k)
    assert learned is not None and isinstance(learned.rendering, ToneCurve)
    assert learned.on_it.all()


def test_N1_cards_read_as_a_near_class_are_left_off_the_tone_curve():
    shares, k, white = _under_a_lamp(4, 4)
    seen, seen_white = _through(shares, white)
    labels = k.copy()
    misread = np.flatnonzero(k == 3)[:3]
    labels[misread] = 0  # three of class 3 read as class 0, sure
    learned = learn_rendering(SHARES[labels], seen, seen_white, labels)
    assert learned is not None and isinstance(learned.rendering, ToneCurve)
    assert not learned.on_it[misread].any()
    assert learned.on_it[np.setdiff1d(np.arange(len(k)), misread)].all()
    back = learned.rendering.put_back(seen[misread], seen_white[misread]) / seen_white[misread]
    # put back, they lie by their own class, not by the one they were read as
    assert np.abs(as_log(back) - as_log(SHARES[3])).max() < 0.15


def test_N1_cards_as_calibrated_show_no_tone_curve():
    # Each card a little off its class, under a lamp of another colour: nothing a curve
    # explains better than the light.
    rng = np.random.default_rng(6)
    shares, k, white = _under_a_lamp(4, 6)
    white = white * np.array([1.1, 1.0, 0.8])  # a warmer lamp than the cards were learned under
    seen = shares * white * np.exp(rng.normal(0, 0.15, shares.shape))
    assert learn_tone_curve(shares, seen, white, k) is None
    assert learn_rendering(shares, seen, white, k) is None


def test_N1_a_white_brighter_than_the_clip_keeps_its_cards_share_through_no_change():
    # A light guessed brighter than the camera's clip: no camera value, the curve moves it
    # no further than full scale, and a curve that changes nothing changes no card.
    same = ToneCurve(TONE_KNOTS)
    card, white = np.array([[100.0, 200.0, 40.0]]), np.array([[300.0, 255.0, 180.0]])
    assert np.allclose(same.put_back(card, white), card)


def test_N1_a_tone_curve_needs_enough_cards_of_enough_classes_unclipped():
    shares, k, white = _under_a_lamp(3, 7)
    seen, seen_white = _through(shares, white)
    assert learn_tone_curve(shares[:6], seen[:6], seen_white[:6], k[:6]) is None  # 6 cards
    three = k < 3
    assert learn_tone_curve(shares[three], seen[three], seen_white[three], k[three]) is None
    # A channel clipped says only "at least": a card says how bright only in the others
    # (all 18 are enough with one channel clipped each; with all three, the six left are not).
    clipped = seen.copy()
    clipped[:, 0] = 255.0
    assert learn_tone_curve(shares, clipped, seen_white, k) is not None
    clipped[:12] = 255.0
    assert learn_tone_curve(shares, clipped, seen_white, k) is None
