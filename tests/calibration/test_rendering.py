"""A camera's rendering learned from the cards read sure in one scene (calibration.rendering):
one map in log reflectance for every class, learned only where the cards show it (N1)."""

from __future__ import annotations

import numpy as np

from calibration.rendering import Rendering, learn, worth_undoing

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
