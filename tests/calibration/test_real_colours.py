"""Colour classes on real camera data that nobody made for this project (../shared/data).

Classes are scored without caring about their names: the best one-to-one matching of
predicted to true classes.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from calibration.assignment import min_cost_assignment
from calibration.counts import cluster_by_counts

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
CUBE_RGB = DATA / "cube-rgb"


def matched_right(predicted: str, truth: str) -> int:
    """Cells right under the best one-to-one renaming of predicted classes."""
    ps, ts = sorted(set(predicted)), sorted(set(truth))
    table = np.zeros((max(len(ps), len(ts)),) * 2)
    for p, t in zip(predicted, truth, strict=True):
        table[ps.index(p), ts.index(t)] += 1
    cols = min_cost_assignment(-table)
    return int(table[np.arange(len(table)), cols].sum())


def cube_scans():
    labels = json.loads((CUBE_RGB / "labels.json").read_text())
    for name, info in labels.items():
        rgb = json.loads((CUBE_RGB / name).read_text())
        keys = [str(i) for i in range(1, len(rgb) + 1)]
        bgr = np.array([rgb[k][::-1] for k in keys], dtype=np.uint8)
        truth = "".join(info["label_by_position"][k] for k in keys)
        yield name, bgr, truth, info["cube_size"] ** 2


@pytest.mark.skipif(not CUBE_RGB.exists(), reason="no cube-rgb data")
def test_cube_stickers_from_counts_alone_are_right_over_99_5_percent():
    right = total = 0
    for _name, bgr, truth, per_class in cube_scans():
        (predicted,) = cluster_by_counts(bgr, {ch: per_class for ch in "ULFRBD"})
        assert all(predicted.count(ch) == per_class for ch in "ULFRBD")
        right += matched_right(predicted, truth)
        total += len(truth)
    assert total == 1428
    assert right / total >= 0.995


def test_matching_ignores_names():
    assert matched_right("aabbc", "xxyyz") == 5
    assert matched_right("aabbc", "xxyzz") == 4
