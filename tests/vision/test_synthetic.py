"""The synthetic scene generator: seeded, truthful, and steady enough to film a game."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tools.synthetic import Conditions, kelvin_gains, random_conditions, render_scene

from .scenes import CALM, GEMS


def test_one_seed_one_picture():
    a = render_scene(np.random.default_rng(3), GEMS, 5, 5)
    b = render_scene(np.random.default_rng(3), GEMS, 5, 5)
    assert np.array_equal(a.image, b.image) and a.labels == b.labels
    c = render_scene(np.random.default_rng(4), GEMS, 5, 5)
    assert not np.array_equal(a.image, c.image)


def test_same_seed_other_layout_keeps_camera_cloth_and_light():
    # A recording films many layouts with one camera: only the cards may change.
    rows_a = ("RRGGB", "BYYOO", "CCVVP", "PRGBY", "OCVPR")
    rows_b = ("GRGGB", "BYYOO", "CCV.P", "PRGBY", "OCVPB")
    a = render_scene(np.random.default_rng(9), GEMS, 5, 5, CALM, labels=rows_a)
    b = render_scene(np.random.default_rng(9), GEMS, 5, 5, CALM, labels=rows_b)
    assert np.allclose(a.corners, b.corners) and np.allclose(a.card_quads, b.card_quads)
    same = np.all(a.image == b.image, axis=2)
    assert same.mean() > 0.8  # the table and untouched cards are pixel for pixel equal


def test_ground_truth_matches_the_picture():
    rng = np.random.default_rng(5)
    scene = render_scene(rng, GEMS, 4, 6, replace(CALM, empty=3), size=(960, 540))
    assert scene.image.shape == (540, 960, 3) and scene.image.dtype == np.uint8
    assert len(scene.labels) == 4 and all(len(r) == 6 for r in scene.labels)
    assert sum(r.count(".") for r in scene.labels) == 3
    assert set("".join(scene.labels)) <= set(GEMS) | {"."}
    # The grid lies in the frame and the corners go round it clockwise from top left.
    assert (
        (scene.corners >= 0).all()
        and (scene.corners[:, 0] < 960).all()
        and (scene.corners[:, 1] < 540).all()
    )
    assert scene.corners[0, 0] < scene.corners[1, 0] and scene.corners[0, 1] < scene.corners[3, 1]
    assert scene.covered.shape == (4, 6) and scene.covered.max() == 0.0


def test_a_hand_covers_cards_and_says_which():
    rng = np.random.default_rng(6)
    scene = render_scene(rng, GEMS, 5, 5, replace(CALM, hand=True))
    assert 0.9 < scene.covered.max() <= 1.0
    assert (scene.covered < 0.01).sum() >= 5  # most of the grid stays in view


@pytest.mark.parametrize("seed", range(5))
def test_random_conditions_stay_within_the_required_ranges(seed):
    c = random_conditions(np.random.default_rng(seed))
    assert 0 <= c.tilt <= 35 and -20 <= c.roll <= 20
    assert 2700 <= c.kelvin <= 6500
    assert random_conditions(np.random.default_rng(seed), hand=True).hand


def test_light_colour_tints_white():
    warm, cold = kelvin_gains(2700), kelvin_gains(6500)
    assert warm[2] / warm[0] > 2 > 1 > cold[2] / cold[0]
    assert Conditions().white_balance == 5000.0


def test_labels_of_the_wrong_shape_are_refused():
    with pytest.raises(ValueError, match="2 rows of 2"):
        render_scene(np.random.default_rng(1), GEMS, 2, 2, CALM, labels=("RG", "B"))


def test_a_sheen_washes_its_cards_towards_white_and_leaves_the_cloth():
    # A lamp's reflection on glossy cards, as the other renderer shows it (nizam-dev's
    # session_004): the cards under it pale, the matte cloth and the other cards as they were.
    plain = render_scene(np.random.default_rng(11), GEMS, 5, 5, CALM)
    sheen = render_scene(np.random.default_rng(11), GEMS, 5, 5, replace(CALM, sheen=0.5))
    assert plain.sheened == () and 1 <= len(sheen.sheened) <= 2
    under = np.zeros(plain.image.shape[:2], np.uint8)
    for r, c in sheen.sheened:
        cv2.fillConvexPoly(under, np.round(sheen.card_quads[r, c]).astype(np.int32), 1)
    lifted = sheen.image.min(axis=2).astype(int) - plain.image.min(axis=2)
    assert np.percentile(lifted[under == 1], 90) > 60  # the field's dark channels rise
    apart = cv2.dilate(under, np.ones((5, 5), np.uint8)) == 0
    assert np.abs(sheen.image.astype(int) - plain.image)[apart].max() <= 1
