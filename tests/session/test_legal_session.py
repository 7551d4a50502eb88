"""The session asks the rules whether shifts are legal before it logs them (N4, N5, P4)."""

from companion.rules.game import Game
from companion.rules.grid import Grid
from companion.rules.shift import Shift, parse_shifts
from companion.session.nizam import TableSession
from companion.session.table import shifts_problem
from companion.store import GameStore

SETUP = "RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"
PEARL_SETUP = "*RGOY/CBVPR/GYOCB/VPROY/GCBVR"


def opened(tmp_path, mode="classic", setup=SETUP):
    store = GameStore(tmp_path / "games.sqlite")
    session = TableSession.new(store, Game(mode, 2), ["A", "B"])
    session.on_reading(setup.split("/"))
    return session


def test_N4_a_shift_the_hand_cannot_pay_is_refused_and_nothing_is_logged(tmp_path):
    session = opened(tmp_path)
    grid = Grid(SETUP)
    for text in ("r2<", "r3<", "r4<"):
        grid = Shift.parse(text).apply(grid)
    assert shifts_problem(session.state, parse_shifts("r2< r3< r4<")) is None
    assert str(shifts_problem(session.state, parse_shifts("r2< r3< r4< r5<"))).startswith("N4")
    logged = len(session.events())
    session.on_reading(str(Shift.parse("r5<").apply(grid)).split("/"))  # four shifts at once
    assert not session.verdict.legal and "N4" in session.verdict.reason
    assert len(session.events()) == logged


def test_P4_the_pearl_moved_off_an_edge_is_logged_paid_with_three_cards(tmp_path):
    session = opened(tmp_path, "pearl", PEARL_SETUP)
    moved = Shift.parse("r1<").apply(Grid(PEARL_SETUP))
    session.on_reading(str(moved).split("/"))
    assert session.verdict.legal and session.verdict.shifts == ("r1<!3",)
    assert session.events()[-1]["shifts"] == ["r1<!3"]
    assert session.state.rules.hands == (0, 3)



def test_N4_a_grid_no_shifts_can_make_is_refused_with_the_cards_that_changed(tmp_path):
    session = opened(tmp_path)
    logged = len(session.events())
    other = "RGOGY/CRVPB/RGYOC/BVPRO/YGCBR"  # the last card swapped: no shift does that
    session.on_reading(other.split("/"))
    verdict = session.verdict
    assert not verdict.legal and verdict.reason.startswith("the cards changed (")
    assert "V: 3 then 2" in verdict.reason and verdict.cells == ((5, 5),)
    assert len(session.events()) == logged
