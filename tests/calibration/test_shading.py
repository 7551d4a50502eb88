"""SET-like decks: coloured art on white cards, open, striped or solid. A class's colour runs
from faint to full, and a calibration photo may not show every shading of every class."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration import learn_palette
from calibration.features import FEATURES
from calibration.models import fit_class, shading, with_shading
from calibration.palette import Palette
from tests.vision.scenes import SET_CARDS, need

SHADINGS = {"solid", "striped", "empty"}


def features(u: float, v: float, hue_u: float, hue_v: float) -> np.ndarray:
    x = np.zeros(len(FEATURES))
    x[1:5] = u, v, hue_u, hue_v
    return x


def test_a_deck_of_flat_cards_has_no_shading():
    # Gem cards: every body deep in colour; a pearl: white with a faint hue of art.
    red = np.stack([features(1.6, 0.5, 0.96, 0.3)] * 3)
    pearl = np.stack([features(0.0, 0.05, 0.0, 0.64)])
    models = with_shading([fit_class("R", red), fit_class("*", pearl)], [red, pearl])
    assert [m.shaded for m in models] == [False, False]
    assert shading(pearl) == (True, False)


def test_a_class_seen_faint_and_deep_makes_the_deck_shaded():
    red = np.stack([features(1.2, 0.6, 0.88, 0.47), features(0.28, 0.1, 0.89, 0.41)])
    green = np.stack([features(-0.19, -0.01, -0.72, 0.15)])  # only striped seen
    models = with_shading([fit_class("R", red), fit_class("G", green)], [red, green])
    assert [m.shaded for m in models] == [True, True]


def _photos() -> list[tuple[str, np.ndarray, str, list[str]]]:
    from vision.cells import layout_patches

    out = []
    for png in sorted(need(SET_CARDS).glob("*.png")):
        lines = [x.split() for x in png.with_suffix(".txt").read_text().splitlines() if x.strip()]
        patches = layout_patches(cv2.imread(str(png)), 3, 4)
        assert patches is not None, png.name
        out.append((png.stem, patches, "".join(w[1][0].upper() for w in lines),
                    [w[2] for w in lines]))
    return out


@pytest.fixture(scope="module")
def photos():
    return _photos()


def test_solid_cards_of_a_class_learned_only_striped_read_right(photos):
    # 20170529_184024 shows green only striped; 20170604_134005 shows solid greens.
    learned = next(p for p in photos if p[0] == "20170529_184024")
    assert {s for s, letter in zip(learned[3], learned[2], strict=True) if letter == "G"} == {
        "striped"}
    palette = learn_palette([(learned[1], learned[2])])
    assert all(m.shaded for m in palette.models)
    palette = Palette.from_json(palette.to_json())  # as saved and loaded
    assert all(m.shaded for m in palette.models)
    name, patches, truth, shades = next(p for p in photos if p[0] == "20170604_134005")
    labels = palette.classify(patches).labels
    solid_green = [i for i, (t, s) in enumerate(zip(truth, shades, strict=True))
                   if t == "G" and s == "solid"]
    assert solid_green and all(labels[i] == "G" for i in solid_green), labels
    assert all(got in (want, "?") for got, want in zip(labels, truth, strict=True))


def test_no_set_card_is_read_as_another_colour_whichever_photo_calibrates(photos):
    for name, patches, truth, _ in photos:
        palette = learn_palette([(patches, truth)])
        for other, test, want, _ in photos:
            if other != name:
                labels = palette.classify(test).labels
                wrong = [(g, w) for g, w in zip(labels, want, strict=True) if g not in (w, "?")]
                assert wrong == [], (name, other, wrong)
