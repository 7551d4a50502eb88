"""A class learned from cards the camera clipped (N1: the grid read right, or not at all).

Calibrated at a high exposure, a glossy yellow's red and green and an orange's red read 255:
there the class knows only "at least this". Seen later at a lower exposure, under a lamp of
any colour, the same cards still reach the clip, or come close: a cell clipped in a channel
its class was clipped in misfits only where it is brighter than the class could be.
Pinned on scenes and colours made for these tests."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import numpy as np
import pytest

from calibration.deck import NOMINAL_RGB
from calibration.models import light_cost
from calibration.palette import Palette, PaletteError, learn_palette

from .synth import LAYOUT, scene

# Glossy prints a little brighter in red than the white paper around them.
GLOSSY = {**NOMINAL_RGB, "Y": (255, 222, 40), "O": (255, 140, 30)}


@pytest.fixture(scope="module")
def bright_calibration() -> Palette:
    cells, _ = scene(np.random.default_rng(0), LAYOUT, colours=GLOSSY, exposure=1.25)
    return learn_palette([(cells, LAYOUT)])


def test_N1_a_class_knows_the_channels_the_camera_clipped_when_it_was_learned(
        bright_calibration):
    at_least = {m.letter: m.at_least for m in bright_calibration.models}
    assert at_least["Y"] == (True, True, False)
    assert at_least["O"] == (True, False, False)
    assert at_least["G"] == at_least["B"] == (False, False, False)


@pytest.mark.parametrize("kelvin", [2700, 4000])
def test_N1_yellow_and_orange_calibrated_clipped_read_sure_at_a_lower_exposure(
        bright_calibration, kelvin):
    # Before the classes knew their clipped channels, 10 (2700 K) and 11 (4000 K) of these
    # 42 cards read "?".
    wrong = unsure = 0
    for seed in range(3):
        rng = np.random.default_rng(seed)
        layout = "".join(rng.permutation(list("YYYYOOOORRRGCB")))
        labels = bright_calibration.classify(*scene(rng, layout, colours=GLOSSY, kelvin=kelvin,
                                                    exposure=1.0)).labels
        wrong += sum(got not in (want, "?") for got, want in zip(labels, layout, strict=True))
        unsure += labels.count("?")
    assert wrong == 0
    assert unsure <= 1


def test_N1_a_channel_clipped_in_the_cell_and_in_its_class_is_at_least_on_both_sides():
    # A yellow and an orange learned with their red clipped (at least 1.2 and 1.1 of their
    # white). Seen clipped in red too, under a light whose brightness is in doubt (0.7): a
    # yellow a little dimmer in green, and an orange.
    classes = np.array([[1.2, 1.0, 0.01], [1.1, 0.33, 0.02]])
    bound = np.array([[True, False, False], [True, False, False]])
    seen = np.array([[1.23, 0.83, 0.04], [1.0, 0.3, 0.02]])
    low = np.array([[True, False, False], [True, False, False]])
    unknown = light_cost(seen, classes, low, brightness=0.7)
    known = light_cost(seen, classes, low, brightness=0.7, at_least=bound)
    assert unknown[0, 0] > unknown[0, 1]  # the yellow fitted the orange better
    assert known[0, 0] < 1.0 < known[0, 1]  # knowing the clip, it fits its own class
    # The orange is no yellow seen at a third of its brightness, however far its red might
    # have reached: a print outshines its white by little.
    assert known[1, 0] > 50.0 and known[1, 1] < 1.0


def test_N1_a_palette_file_keeps_which_channels_were_clipped(bright_calibration, tmp_path):
    path = tmp_path / "palette.json"
    bright_calibration.save(path)
    again = Palette.load(path)
    assert [m.at_least for m in again.models] == [m.at_least for m in bright_calibration.models]
    # a file from before classes kept them: nothing known clipped
    obj = json.loads(path.read_text())
    for c in obj["classes"]:
        del c["at_least"]
    assert all(m.at_least == (False, False, False) for m in Palette.from_json(obj).models)
    first = obj["classes"][0]["letter"]
    obj["classes"][0]["at_least"] = [1, 0]
    with pytest.raises(PaletteError, match=re.escape(f"class '{first}': at_least must be three")):
        Palette.from_json(obj)


def test_N1_the_bare_table_is_never_clipped_at_least(bright_calibration):
    # '.' has no colour of its own to clip: a palette never holds it at_least
    models = bright_calibration.models
    table = replace(models[0], letter=".", at_least=(True, False, False))
    with pytest.raises(PaletteError, match="bare table"):
        Palette([*models, table])
    assert Palette([*models, replace(table, at_least=(False, False, False))])
    with pytest.raises(PaletteError, match="at_least needs three"):
        Palette([replace(m, at_least=(True,)) if m.letter == "Y" else m  # type: ignore[arg-type]
                 for m in bright_calibration.models])


@pytest.mark.parametrize("exposure, over", [(1.0, False), (1.4, True)])
def test_N1_a_palette_learned_from_white_rims_clipped_all_over_says_it_is_over_exposed(
        tmp_path, exposure, over):
    # At 1.4 the camera clips the paper in every channel: the picture shows no colour of the
    # light, and the players are told so when they save the colours (companion.words).
    cells, _ = scene(np.random.default_rng(0), LAYOUT, exposure=exposure)
    palette = learn_palette([(cells, LAYOUT)])
    assert palette.over_exposed is over
    palette.save(tmp_path / "palette.json")
    assert Palette.load(tmp_path / "palette.json").over_exposed is over
