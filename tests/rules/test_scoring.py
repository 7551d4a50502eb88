"""The scoring phase: N9 clear and refill, N10 cascades; Pearl's task phase P6, P7, P9."""

import pytest

from companion.rules.deck import Cards
from companion.rules.game import Game, Options, RuleError
from companion.rules.grid import GEMS
from companion.rules.state import winners

from ._helpers import mid_game, turn

L_SHAPE = "RRRGC/RVPBO/RGCBV/PROYG/CBVPR"
ROW_OF_R = "RRRGC/BVPRO/YGCBV/PROYG/CBVPR"


def test_N9_scored_cards_go_to_the_discard_pile_a_shared_card_once():
    game = Game(players=2)
    state = mid_game(game, L_SHAPE, deck=30, discard=10)
    after, report = turn(game, state, "draw", refill="OBYGO")
    assert report.points == 3 + 3 + 1
    assert after.discard == 10 + 5
    assert after.known_discard == Cards.of("RRRRR")
    assert after.deck == 30 - 3 - 5


def test_N9_emptied_cells_are_refilled_in_reading_order():
    game = Game(players=2)
    state = mid_game(game, L_SHAPE, deck=30, discard=10)
    after, report = turn(game, state, "draw", refill="OBYGO")
    assert report.laid == "OBYGO"
    assert str(after.grid).startswith("OBYGC/GVPBO/OGCBV")


def test_N9_refill_may_not_name_a_card_the_deck_cannot_hold():
    game = Game(players=2)
    state = mid_game(game, ROW_OF_R, deck=30, discard=12,
                     known_discard=Cards.of("GGGGGGGGGG"))  # 10 G + 2 on the grid
    with pytest.raises(RuleError, match="the deck cannot hold a G") as err:
        turn(game, state, "draw", refill="GOY")
    assert err.value.rule == "N15"


@pytest.mark.parametrize("bonus, points", [("flat", 3 + (3 + 1)), ("rising", 3 + (3 + 1))])
def test_N10_cascade_scores_for_the_active_player_and_continues_the_bonus(bonus, points):
    game = Game(players=2, options=Options(bonus=bonus))
    state = mid_game(game, ROW_OF_R, deck=30, discard=10, active=1)
    after, report = turn(game, state, "draw", refill="BBB" + "OYP")
    assert [r.laid for r in report.rounds] == ["BBB", "OYP"]
    assert [str(c) for c in report.combinations] == ["R×3 r1c1-r1c3", "B×3 r1c1-r1c3"]
    assert after.scores == (0, points)
    assert after.grid.row(1) == "OYPGC"


def test_N10_rising_bonus_across_three_cascading_combinations():
    game = Game(players=2, options=Options(bonus="rising"))
    state = mid_game(game, ROW_OF_R, deck=30, discard=10)
    after, report = turn(game, state, "draw", refill="BBB" + "VVV" + "OYP")
    assert len(report.combinations) == 3
    assert after.scores == (3 + (3 + 1) + (3 + 2), 0)


def test_N10_leave_keeps_the_refill_lines_for_the_next_scoring_phase():
    game = Game(players=2, options=Options(cascades="leave"))
    state = mid_game(game, ROW_OF_R, deck=30, discard=10)
    state, report = turn(game, state, "draw", refill="BBB")
    assert (state.scores, state.grid.row(1)) == ((3, 0), "BBBGC")
    state, report = turn(game, state, "draw", refill="OYP")
    assert [str(c) for c in report.combinations] == ["B×3 r1c1-r1c3"]
    assert state.scores == (3, 3)


def test_P6_the_active_player_completes_each_type_once():
    game = Game("pearl", 2)
    grid = "RR*GG/BVPRO/YGCBV/PROYR/CBVPO"
    state = mid_game(game, grid, deck=20, discard=5)
    after, report = turn(game, state, "draw", refill="BOYC")
    assert report.tasks == "RG"
    assert after.tasks == ("OYCBVP", GEMS)  # only the active player completes tasks
    assert after.scores == (2, 0)


def test_P6_a_task_already_removed_is_not_removed_again():
    game = Game("pearl", 2)
    state = mid_game(game, "RR*GC/BVPRO/YGCBV/PROYR/CBVPO", deck=20, discard=5,
                     tasks=("OYGCBVP", GEMS))
    after, report = turn(game, state, "draw", refill="BO")
    assert report.tasks == "" and after.scores == (0, 0)
    assert after.tasks[0] == "OYGCBVP"


def test_P7_the_pearl_stays_and_lines_that_complete_no_task_are_cleared_too():
    game = Game("pearl", 2)
    state = mid_game(game, "RR*GC/BVPRO/YGCBV/PROYR/CBVPO", deck=20, discard=5,
                     tasks=("OYGCBVP", GEMS))
    after, report = turn(game, state, "draw", refill="BO")
    assert after.grid.row(1) == "BO*GC"
    assert after.discard == 5 + 2
    assert report.rounds[0].cleared


def test_P7_cascades_complete_tasks_too():
    game = Game("pearl", 2)
    state = mid_game(game, "RR*GC/BVPRO/YGCBV/PROYR/CBVPO", deck=20, discard=5)
    after, report = turn(game, state, "draw", refill="VV" + "BO")
    assert report.tasks == "RV"
    assert after.tasks[0] == "OYGCBP"


def test_P9_removing_the_last_task_ends_the_game_and_leaves_its_lines():
    game = Game("pearl", 3)
    state = mid_game(game, "RR*GC/BVPRO/YGCBV/PROYR/CBVPO", deck=20, discard=5, active=1,
                     tasks=(GEMS, "R", GEMS))
    after, report = turn(game, state, "draw")
    assert after.ended and winners(game, after) == [1]
    assert after.grid == state.grid  # the winning lines are not cleared
    assert not report.rounds[0].cleared
    with pytest.raises(RuleError, match="the game ended") as err:
        turn(game, after, "draw")
    assert err.value.rule == "P9"
