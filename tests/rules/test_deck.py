"""The deck: N11 running out, N12 the end, N13 winners, N15 conservation, P8 Pearl's deck."""

from dataclasses import replace

import pytest

from companion.rules.game import Game, RuleError
from companion.rules.state import conservation_errors, summary, winners

from ._helpers import CALM, mid_game, turn

ROW_OF_R = "RRRGC/BVPRO/YGCBV/PROYG/CBVPR"
TWO = Game(players=2)
THREE = Game(players=3)


def test_N11_run_out_is_counted_and_the_discard_pile_becomes_the_deck():
    state = mid_game(TWO, CALM, deck=3, discard=10)
    after, report = turn(TWO, state, "draw")
    assert (after.deck, after.discard, after.runs_out, after.reshuffles) == (10, 0, 1, 1)
    assert (report.runs_out, report.reshuffles, after.ended) == (1, 1, False)


def test_N11_a_draw_that_runs_out_after_one_takes_two_from_the_new_deck():
    state = mid_game(TWO, CALM, deck=1, discard=10)
    after, report = turn(TWO, state, "draw")
    assert report.drawn == 3
    assert (after.deck, after.discard, after.runs_out) == (8, 0, 1)
    assert after.hands[0] == state.hands[0] + 3


def test_N11_reshuffle_clears_what_is_known_of_the_discard_pile():
    state = mid_game(TWO, ROW_OF_R, deck=2, discard=10)
    after, _ = turn(TWO, state, "r5<", refill="OBY")
    # the C paid and the 3 R cleared are known in the discard pile until the deck runs
    # out during the refill: then all 14 become the deck and nothing there is known.
    assert (after.runs_out, after.discard, after.known_discard.letters()) == (1, 0, "")
    assert after.deck == 14 - 1


def test_N11_empty_discard_pile_leaves_the_deck_empty_until_a_card_is_needed():
    state = mid_game(THREE, CALM, deck=2, discard=0)
    state, report = turn(THREE, state, "draw")
    assert (report.drawn, state.deck, state.runs_out) == (2, 0, 1)  # the third card: none
    state, _ = turn(THREE, state, "r1<")  # pays one card: the discard pile holds 1
    assert (state.deck, state.discard, state.runs_out) == (0, 1, 1)
    state, report = turn(THREE, state, "draw")
    # that card is shuffled in first (not a run-out), then taking it runs the deck out
    assert report.drawn == 1
    assert (state.reshuffles, state.runs_out, state.deck, state.discard) == (1, 2, 0, 0)


def test_N11_cards_cleared_before_a_refill_are_shuffled_in_when_needed():
    state = mid_game(THREE, ROW_OF_R, deck=1, discard=0)
    after, report = turn(THREE, state, "draw", refill="OBY")
    assert report.drawn == 1
    assert after.grid.row(1) == "OBYGC"
    assert (after.runs_out, after.reshuffles, after.deck, after.discard) == (2, 1, 0, 0)


def test_N11_with_nothing_to_shuffle_in_nothing_is_taken_and_cells_wait():
    state = mid_game(THREE, ".OYGC/BVPRO/YGCBV/PROYG/CBVPR", deck=0, discard=0, runs_out=1)
    state, report = turn(THREE, state, "draw")
    assert (report.drawn, state.grid.at(1, 1)) == (0, ".")
    state, report = turn(THREE, state, "c5^", refill="B")  # its payment is laid at r1c1
    assert (state.grid.at(1, 1), state.runs_out, state.reshuffles) == ("B", 2, 1)
    assert conservation_errors(THREE, state) == []


def test_N12_game_ends_when_the_deck_runs_out_the_nth_time():
    state = mid_game(TWO, CALM, deck=2, discard=10, runs_out=1)
    after, report = turn(TWO, state, "draw")
    assert report.drawn == 2  # no further cards are drawn
    assert (after.ended, after.runs_out, after.deck, after.discard) == (True, 2, 0, 10)


def test_N12_the_closing_turn_finishes_scoring_and_unfilled_cells_stay_empty():
    state = mid_game(TWO, ROW_OF_R, deck=2, discard=10, runs_out=1)
    after, report = turn(TWO, state, "r5<", refill="OY")
    assert report.points == 3 and after.scores == (3, 0)
    assert after.grid.row(1) == "OY.GC"
    assert after.ended


def test_N12_with_one_player_the_first_run_out_ends_the_game():
    one = Game(players=1)
    state = mid_game(one, CALM, deck=1, discard=20)
    after, _ = turn(one, state, "draw")
    assert after.ended and winners(one, after) == [0]


def test_N12_no_turn_after_the_end():
    state = mid_game(TWO, CALM, deck=1, discard=10, runs_out=1)
    after, _ = turn(TWO, state, "draw")
    with pytest.raises(RuleError, match="the game ended after turn 1") as err:
        turn(TWO, after, "r1<")
    assert err.value.rule == "N12"


def test_N13_most_points_win_and_equal_top_scores_share():
    state = mid_game(THREE, CALM, deck=30, discard=10, scores=(5, 7, 7))
    assert winners(THREE, state) == []  # not over yet
    over = replace(state, ended=True)
    assert winners(THREE, over) == [1, 2]
    assert summary(THREE, over)["winners"] == [1, 2]


def test_N15_conservation_notices_a_card_too_many_or_too_few():
    state = mid_game(TWO, CALM, deck=30, discard=10)
    assert conservation_errors(TWO, state) == []
    assert "not 96" in conservation_errors(TWO, replace(state, deck=31))[0]
    pearl = Game("pearl", 2)
    assert "pearl" in conservation_errors(pearl, replace(state, tasks=("", "")))[-1]


def test_N15_pearl_counts_task_cards_held_and_removed():
    game = Game("pearl", 2)
    state = mid_game(game, "*" + CALM[1:], deck=20, discard=5, tasks=("R", "ROYGCBVP"))
    assert state.tasks_removed(game) == 7
    assert conservation_errors(game, state) == []


def test_P8_pearl_deck_is_reshuffled_however_often_it_runs_out():
    game = Game("pearl", 1)
    state = mid_game(game, "*" + CALM[1:], deck=1, discard=10, runs_out=5)
    after, _ = turn(game, state, "draw")
    assert (after.runs_out, after.ended, after.deck) == (6, False, 8)
