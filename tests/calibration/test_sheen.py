"""A lamp's sheen on the calibration layout (calibration.sheen): the cards it washes out do
not teach their class the sheen, on a deck of cards coloured all over; SET-like cards, whose
shading differs from card to card as a sheen would make it, are learned as seen."""

from __future__ import annotations

import numpy as np
import pytest

import calibration.learning as learning
from calibration import learn_palette
from calibration.features import prepare
from calibration.sheen import without_sheen
from tests.calibration.synth import LAYOUT, scene, veiled

REDS = [i for i, ch in enumerate(LAYOUT) if ch == "R"]


def _layout_under_a_lamp(seed: int, sheen: float) -> np.ndarray:
    """The layout's cells, the first three of its four reds under a lamp's sheen."""
    cells, _ = scene(np.random.default_rng(seed), LAYOUT)
    for i in REDS[:3]:
        cells[i] = veiled(cells[i : i + 1], sheen)[0]
    return cells


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_reds_under_a_lamps_sheen_at_calibration_teach_red_not_the_sheen(seed):
    # Learned as seen, the red class held the sheen of three of its four cards, and every
    # red seen without it was read '?' here (on the other renderer's cards, pink).
    palette = learn_palette([(_layout_under_a_lamp(seed, 0.3), LAYOUT)])
    cells, table = scene(np.random.default_rng(100 + seed), LAYOUT)
    reads = palette.classify(cells, table)
    wrong = [(want, got) for want, got in zip(LAYOUT, reads.labels, strict=True)
             if got not in (want, "?")]
    assert wrong == []
    assert [reads.labels[i] for i in REDS] == ["R"] * len(REDS)


@pytest.mark.parametrize("seed", [5, 6])
def test_a_layout_with_no_sheen_is_learned_as_seen(seed):
    # cards of a class differ by print and camera noise only: none is taken for sheen
    cells, _ = scene(np.random.default_rng(seed), LAYOUT)
    seen = prepare(cells)
    assert without_sheen([seen], [seen.whites.refs], [LAYOUT])[0] is seen


@pytest.mark.parametrize("lamp", [0.12, 0.3])
def test_a_sheen_is_taken_off_the_cards_it_lies_on_only(lamp):
    # under the brighter sheen a red's red channel is clipped: its sheen shows in the others
    seen = prepare(_layout_under_a_lamp(4, lamp))
    taken = without_sheen([seen], [seen.whites.refs], [LAYOUT])[0]
    changed = np.flatnonzero(np.abs(taken.body - seen.body).max(axis=1) > 0)
    assert changed.tolist() == REDS[:3]
    # no more than the sheen: the clearest red's colour, give or take noise
    assert np.abs(taken.body[REDS[:3]] - seen.body[REDS[3]]).max() < 30, taken.body[REDS].round()


def test_symbols_on_white_cards_are_learned_as_seen(monkeypatch):
    # SET's open and striped symbols are its solid ones washed out, as a sheen would wash
    # them: taken off, every shading would be learned solid
    layout = LAYOUT.replace("*", "R")
    cells, _ = scene(np.random.default_rng(7), layout, style="symbol")
    for i in REDS[:2]:
        cells[i] = veiled(cells[i : i + 1], 0.2)[0]
    learned = learn_palette([(cells, layout)])
    monkeypatch.setattr(learning, "without_sheen", lambda scenes, refs, labels: list(scenes))
    as_seen = learn_palette([(cells, layout)])
    assert all(np.array_equal(a.mean, b.mean) for a, b in zip(learned.models, as_seen.models,
                                                                strict=True))


def test_a_deck_coloured_all_over_has_its_sheen_taken_off(monkeypatch):
    learned = learn_palette([(_layout_under_a_lamp(7, 0.3), LAYOUT)])
    monkeypatch.setattr(learning, "without_sheen", lambda scenes, refs, labels: list(scenes))
    as_seen = learn_palette([(_layout_under_a_lamp(7, 0.3), LAYOUT)])
    red = [m.letter for m in learned.models].index("R")
    assert not np.array_equal(learned.models[red].mean, as_seen.models[red].mean)
