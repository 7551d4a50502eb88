"""The hint as the table screen asks for it (companion.hinting): the player to move's own
tasks in Pearl of the East, the table's bonus in Nizam, and what stops a hint."""

from companion.hinting import hint_for
from companion.view import PlayerView, TableView

PEARL_GRID = ("*GOGY", "CRVPB", "RGYOC", "BVPRO", "YGCBV")


def pearl_view(active, tasks_left):
    players = (PlayerView("Ann", 0, 3, tasks_left=tuple("OYGCBVP")),
               PlayerView("Bob", 0, 3, tasks_left=tuple(tasks_left)))
    return TableView("pearl", players, active, 4, PEARL_GRID)


def test_P5_P6_the_hint_counts_the_tasks_of_the_player_to_move():
    # r2< paid by three cards lines up R * R... down column 1 for a ruby task
    bob = hint_for(pearl_view(1, "R"), "GGY")
    assert bob.shifts == ("r2<!3",) and bob.tasks == "R" and bob.points == 1
    assert bob.text == "Shift row 2 left (3 cards): completes ruby"
    ann = hint_for(pearl_view(0, "R"), "GGY")  # Ann has done her ruby task
    assert ann.points == 0 or "R" not in ann.tasks


def test_N8_the_hint_takes_the_table_s_bonus():
    view = TableView("nizam", (PlayerView("Ann", 0, 1),), 0, 1,
                     ("RRGYB", "GGCVO", "YBPOV", "CVYPO", "BPRCY"), options={"bonus": "rising"})
    h = hint_for(view, "R", max_shifts=1)
    assert (h.shifts, h.points) == (("c3v",), 7)


def test_an_unread_cell_or_an_impossible_hand_gives_no_hint():
    view = TableView("nizam", (PlayerView("Ann", 0, 3),), 0, 1,
                     ("RRO?Y", "CBVPR", "GGYOC", "BVPRO", "YGCBV"))
    assert hint_for(view, "R").problem.startswith("The camera has not read every card")
    full = TableView("nizam", (PlayerView("Ann", 0, 3),), 0, 1,
                     ("RRRRR", "RRRRR", "RROGY", "CBVPO", "YGCBV"))
    assert "the hand holds 1 R and the grid 12" in hint_for(full, "R").problem


def test_N1_no_hint_before_the_grid_is_laid_out():
    view = TableView("nizam", (PlayerView("Ann", 0, 3),), 0, 0, (".....",) * 5)
    assert hint_for(view, "RGB").problem == "Lay out the grid first."
