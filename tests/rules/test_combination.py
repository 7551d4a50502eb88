"""Combinations and points: N6, N7, N8 and the Pearl joker P5."""

import pytest

from companion.rules.combination import (
    Combination,
    cleared_cells,
    find_combinations,
    phase_points,
)
from companion.rules.grid import Grid


def combos(grid, pearl=False):
    return [(c.gem, c.cells) for c in find_combinations(Grid.parse(grid), pearl)]


def test_N6_three_in_a_row():
    assert combos("RRRGC/BVPRO/YGCBV/PROYG/CBVPR") == [("R", ((1, 1), (1, 2), (1, 3)))]


def test_N6_three_in_a_column():
    assert combos("ROYGC/RVPBO/RGCBV/PROYG/CBVPR") == [("R", ((1, 1), (2, 1), (3, 1)))]


def test_N6_run_of_five_is_one_combination_not_three():
    found = find_combinations(Grid.parse("ROYGC/BVPRO/GGGGG/PROYR/CBVPR"))
    assert [(c.gem, len(c.cells)) for c in found] == [("G", 5)]


def test_N6_maximal_run_of_four():
    assert combos("ROYGC/BVPRO/YCCCC/PROYG/CBVPR") == [
        ("C", ((3, 2), (3, 3), (3, 4), (3, 5)))
    ]


@pytest.mark.parametrize(
    "grid, shape",
    [
        ("RRRGC/RVPBO/RGCBV/PROYG/CBVPR", "L"),
        ("RRRGC/BRPBO/YRCBV/PGOYG/CBVPR", "T"),
        ("ORYGC/RRRBO/YRCBV/PGOYG/CBVPR", "+"),
    ],
)
def test_N6_crossing_or_touching_runs_are_two_combinations(grid, shape):
    found = find_combinations(Grid.parse(grid))
    assert len(found) == 2, shape
    assert {c.horizontal for c in found} == {True, False}
    assert len(cleared_cells(found)) == 5  # the shared card counts once when cleared (N9)


def test_N6_diagonals_and_pairs_do_not_count():
    assert combos("RBYGC/BRPRO/YGRBV/PROYG/CBVPR") == []
    assert combos("RROGC/BVPRO/YGCBV/PROYG/CBVPR") == []


def test_N6_empty_cells_and_the_pearl_break_runs_in_classic():
    assert combos("RR.RR/BVPRO/YGCBV/PROYG/CBVPR") == []
    assert combos("RR*RR/BVPRO/YGCBV/PROYG/CBVPR") == []


@pytest.mark.parametrize("length, points", [(3, 3), (4, 5), (5, 7)])
def test_N7_points_by_length(length, points):
    cells = tuple((1, c) for c in range(1, length + 1))
    assert Combination("R", cells).points == points


def test_N8_flat_bonus_adds_one_for_each_after_the_first():
    three = Combination("R", ((1, 1), (1, 2), (1, 3)))
    four = Combination("G", ((2, 1), (2, 2), (2, 3), (2, 4)))
    assert phase_points([three], "flat") == 3
    assert phase_points([three, four], "flat") == 3 + 5 + 1
    assert phase_points([three, four, three], "flat") == 3 + 5 + 3 + 2


def test_N8_rising_bonus_adds_one_then_two_then_three():
    three = Combination("R", ((1, 1), (1, 2), (1, 3)))
    assert phase_points([three] * 4, "rising") == 12 + 0 + 1 + 2 + 3


def test_N8_bonus_count_continues_from_earlier_combinations_of_the_phase():
    three = Combination("R", ((1, 1), (1, 2), (1, 3)))
    assert phase_points([three], "flat", scored_before=1) == 4
    assert phase_points([three], "rising", scored_before=2) == 5


def test_P5_pearl_joins_a_run():
    assert combos("R*RGC/BVPRO/YGCBV/PROYG/CBVPR", pearl=True) == [
        ("R", ((1, 1), (1, 2), (1, 3)))
    ]


def test_P5_pearl_serves_both_sides_of_its_row():
    found = combos("RR*GG/BVPRO/YGCBV/PROYR/CBVPR", pearl=True)
    assert found == [("R", ((1, 1), (1, 2), (1, 3))), ("G", ((1, 3), (1, 4), (1, 5)))]


def test_P5_pearl_serves_its_row_and_its_column():
    found = combos("ROYGC/BVRPO/YR*RV/PORYG/CBVPR", pearl=True)
    assert ("R", ((3, 2), (3, 3), (3, 4))) in found
    assert ("R", ((2, 3), (3, 3), (4, 3))) in found


def test_P5_run_is_maximal_through_the_pearl():
    assert combos("GR*RR/BVPRO/YGCBV/PROYG/CBVPR", pearl=True) == [
        ("R", ((1, 2), (1, 3), (1, 4), (1, 5)))
    ]


def test_P5_pearl_and_two_cards_of_different_types_is_no_combination():
    assert combos("R*GOC/BVPRO/YGCBV/PROYG/CBVPR", pearl=True) == []
    assert combos("*ROGC/BVPRO/YGCBV/PROYG/CBVPR", pearl=True) == []
