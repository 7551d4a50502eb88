"""Minimum-cost assignment (counts-only palettes rest on it), against brute force."""

import itertools

import numpy as np
import pytest

from calibration.assignment import assign_with_counts, min_cost_assignment


@pytest.mark.parametrize("seed", range(30))
def test_assignment_is_as_cheap_as_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 6))
    m = int(rng.integers(n, 7))
    cost = rng.integers(0, 9, (n, m)).astype(float)
    cols = min_cost_assignment(cost)
    assert len(set(cols.tolist())) == n
    best = min(sum(cost[i, p[i]] for i in range(n)) for p in itertools.permutations(range(m), n))
    assert cost[np.arange(n), cols].sum() == best


def test_counts_assignment_gives_each_class_its_count():
    rng = np.random.default_rng(0)
    cost = rng.random((12, 3))
    labels = assign_with_counts(cost, np.array([5, 4, 3]))
    assert np.bincount(labels, minlength=3).tolist() == [5, 4, 3]


@pytest.mark.parametrize(
    "cost, message",
    [(np.zeros((3, 2)), "more rows"), (np.array([[np.nan]]), "NaN"), (np.zeros(3), "2-D")],
)
def test_bad_cost_matrices_are_refused(cost, message):
    with pytest.raises(ValueError, match=message):
        min_cost_assignment(cost)


def test_counts_must_cover_the_items():
    with pytest.raises(ValueError, match="add up to 3, not to the 4"):
        assign_with_counts(np.zeros((4, 2)), np.array([2, 1]))
