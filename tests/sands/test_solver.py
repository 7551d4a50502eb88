"""The solver and the advice against a plain exact recursion (tests/sands/brute.py), D3-D6."""

import itertools

import numpy as np
import pytest

from companion.rules.sands import COLOURS, Bag
from companion.sands.advice import advise, policy
from companion.sands.odds import SandsTable
from companion.sands.solver import HOT, Layout, solve

from . import brute

FULL = Bag(3, 3, 3, 3)
SMALL_BAGS = [b for b in itertools.product(range(4), repeat=4) if sum(b)]


@pytest.fixture(scope="module")
def table():
    layout = Layout.of(FULL)
    return SandsTable(layout, solve(FULL))


@pytest.fixture(scope="module")
def reachable():
    """Every position the recursion meets from 0-0 in every bag of up to 3 stones a colour,
    and from hot scores (16 or more by penalties, D5) at many margins in smaller bags."""
    for bag in itertools.product(range(4), repeat=4):
        brute.value(bag, 0, 0)
    for bag in itertools.product(range(3), repeat=4):
        for me, other in itertools.product((14, 15, 16, 17, 18, 21), repeat=2):
            brute.value(bag, me, other)
    return [key for key in brute.MEMO if sum(key[0])]


def test_D3_D4_D5_D6_solver_matches_exact_recursion_in_small_bags(table, reachable):
    rows = np.array([table.layout.row(Bag(*bag)) for bag, _, _ in reachable])
    me = np.minimum([m for _, m, _ in reachable], HOT)
    other = np.minimum([o for _, _, o in reachable], HOT)
    exact = np.array([brute.chances(*key) for key in reachable])
    got = table.values[rows, :, me, other]
    assert len(reachable) > 50_000
    assert np.abs(got - exact).max() < 1e-12


def test_D5_excess_past_16_never_changes_a_position_with_stones_left(table):
    # Why scores are held at 16 in the table: a player at 16+ by penalties wins with any success.
    for bag in SMALL_BAGS:
        values = {brute.chances(bag, me, other) for me in (16, 17, 20, 25) for other in (16, 19)}
        assert len({(round(w, 12), round(lose, 12)) for w, lose in values}) == 1


def test_D5_D6_advice_per_call_matches_exact_recursion(table):
    # Calls that empty the bag are judged on exact scores, penalties past 16 included (D6).
    for bag in SMALL_BAGS[::7] + [(1, 0, 0, 0), (0, 0, 0, 1), (0, 1, 0, 0), (0, 0, 1, 0)]:
        for me, other in [(0, 0), (15, 15), (14, 15), (16, 17), (19, 16), (17, 17), (16, 5)]:
            advice = advise(table, Bag(*bag), (me, other))
            for call in COLOURS:
                w, lose = brute.chances(bag, me, other, call)
                assert advice.calls[call].p_win == pytest.approx(w, abs=1e-12)
                assert advice.calls[call].p_lose == pytest.approx(lose, abs=1e-12)


def test_D3_advice_success_and_expected_points_are_exact():
    table = SandsTable(Layout.of(Bag(2, 3, 1, 4)), solve(Bag(2, 3, 1, 4)))
    advice = advise(table, Bag(2, 3, 1, 4), (0, 0))
    assert advice.calls["red"].p_success == pytest.approx(0.6)
    assert advice.calls["yellow"].p_success == pytest.approx(0.4)
    assert advice.calls["green"].p_success == pytest.approx(0.1)
    assert advice.calls["lilac"].p_success == pytest.approx(0.4)
    assert advice.calls["lilac"].expected_points == pytest.approx(12 * 0.4)
    assert advice.calls["green"].expected_points == pytest.approx(0.5)


def test_D3_call_that_cannot_succeed_is_still_listed(table):
    advice = advise(table, Bag(2, 0, 0, 1), (3, 4))
    assert set(advice.calls) == set(COLOURS)
    assert advice.calls["green"].p_success == 0.0
    assert advice.calls["green"].expected_points == 0.0
    exact = brute.chances((2, 0, 0, 1), 3, 4, "green")
    assert advice.calls["green"].p_win == pytest.approx(exact[0])


def test_best_call_is_the_tables_best_play(table):
    for bag in SMALL_BAGS[::5]:
        if sum(bag) < 2:
            continue
        for me, other in [(0, 0), (9, 12), (15, 3), (16, 14)]:
            advice = advise(table, Bag(*bag), (me, other))
            best = advice.calls[advice.best]
            assert (best.p_win, best.p_lose) == pytest.approx(
                table.chances(Bag(*bag), me, other), abs=1e-12)


def test_D6_ties_on_win_go_to_the_call_that_loses_less_then_to_D3_order(table):
    ties = 0
    for bag, me, other in itertools.product(SMALL_BAGS, range(16), range(16)):
        exact = {c: brute.call_value(bag, me, other, c) for c in COLOURS}
        top = max(w for w, _ in exact.values())
        near = [c for c in COLOURS if exact[c][0] == top]
        if len(near) < 2 or len({exact[c][1] for c in near}) < 2:
            continue
        expected = min(near, key=lambda c: (exact[c][1], COLOURS.index(c)))
        assert advise(table, Bag(*bag), (me, other)).best == expected
        ties += 1
        if ties > 40:
            break
    assert ties > 0


def test_hot_scores_share_the_tables_row(table):
    bag = Bag(1, 2, 0, 1)
    assert table.chances(bag, 16, 3) == table.chances(bag, 40, 3)
    assert table.chances(bag, 3, HOT) == table.chances(bag, 3, 18)


def test_empty_bag_has_no_table_value(table):
    with pytest.raises(ValueError, match="D6"):
        table.chances(Bag(), 1, 2)


def test_D4_policy_follows_successes_only(table):
    step = policy(table, Bag(3, 3, 3, 3), (0, 0), depth=2)
    assert step.call == advise(table, Bag(3, 3, 3, 3), (0, 0)).best
    hits = {"red": {"red", "yellow", "green"}, "yellow": {"yellow", "green"},
            "green": {"green"}, "lilac": {"lilac"}}[step.call]
    assert {b.drawn for b in step.after} == hits
    for branch in step.after:
        assert branch.then is not None or branch.over
        if branch.then is not None:
            assert branch.then.after == () or all(b.then is None for b in branch.then.after)
    assert sum(b.probability for b in step.after) == pytest.approx(
        advise(table, Bag(3, 3, 3, 3), (0, 0)).calls[step.call].p_success)


def test_D5_policy_marks_a_winning_success(table):
    step = policy(table, Bag(0, 0, 0, 2), (10, 3))
    lilac = [b for b in step.after if b.drawn == "lilac"]
    assert step.call == "lilac" and lilac[0].wins and lilac[0].then is None
    assert step.to_json()["after"]["lilac"]["wins"] is True


def test_solver_values_are_probabilities(table):
    values = table.values
    assert np.all(values >= 0) and np.all(values[:, 0] + values[:, 1] <= 1 + 1e-12)
