"""Grid and shift notation (RULES.md, "Components and notation"; N4)."""

import pytest

from companion.rules.grid import Grid, NotationError
from companion.rules.shift import ALL_SHIFTS, Shift, parse_shifts

G = "RROGY/CBVPR/GGYOC/BVPRO/YGCBV"


def test_notation_grid_round_trips():
    assert str(Grid.parse(G)) == G
    assert eval(repr(Grid.parse(G))) == Grid.parse(G)


@pytest.mark.parametrize(
    "bad, where",
    [
        ("RROGY/CBVPR/GGYOC/BVPRO/YGCBX", "character 29 'X'"),
        ("RROGY/CBVPR/GGYOC/BVPRO", "4 rows"),
        ("RROGY/CBVPR/GGYOC/BVPRO/YGCB", "row 5 has 4 cells"),
    ],
)
def test_notation_malformed_grid_names_what_is_wrong(bad, where):
    with pytest.raises(NotationError, match=where):
        Grid.parse(bad)


def test_N4_twenty_shifts_and_edges():
    assert len(ALL_SHIFTS) == 20
    assert Shift.parse("r2<").edge == (2, 1)
    assert Shift.parse("r2>").edge == (2, 5)
    assert Shift.parse("c4^").edge == (1, 4)
    assert Shift.parse("c4v").edge == (5, 4)


def test_N4_row_left_moves_leftmost_card_to_right_end():
    g = Grid.parse(G)
    assert Shift.parse("r2<").apply(g).row(2) == "BVPRC"
    assert Shift.parse("r2>").apply(g).row(2) == "RCBVP"
    assert Shift.parse("c1^").apply(g).column(1) == "CGBYR"
    assert Shift.parse("c1v").apply(g).column(1) == "YRCGB"


def test_N5_wildcard_suffix():
    a, b = parse_shifts("r2< c3^!3")
    assert (a.wildcard, a.cost, b.wildcard, b.cost) == (False, 1, True, 3)
    assert str(b) == "c3^!3"


@pytest.mark.parametrize("bad", ["x2<", "r0<", "r2^", "c3<", "r2<!2", ""])
def test_notation_malformed_shift_is_refused(bad):
    with pytest.raises(NotationError):
        Shift.parse(bad)
