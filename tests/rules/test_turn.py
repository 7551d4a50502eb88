"""A turn: N3 draw or shifts, N4 paying a matching card, N5 three cards, N14 hands, P4."""

import random

import pytest

from companion.rules.deck import Cards, RefillChance, ShuffledChance
from companion.rules.game import Game, RuleError
from companion.rules.grid import Grid
from companion.rules.nizam import Turn, draw, play, score, shift
from companion.rules.shift import Shift
from companion.rules.simulate import deal
from companion.rules.state import conservation_errors, start

from ._helpers import CALM, mid_game, turn

GAME = Game(players=3)


def refused(game, state, move, rule, match):
    with pytest.raises(RuleError, match=match) as err:
        shift(game, state, Shift.parse(move))
    assert err.value.rule == rule


def test_N3_turns_pass_clockwise_and_count():
    state = start(GAME, Grid.parse(CALM))
    for expected in (1, 2, 0, 1):
        state, _ = turn(GAME, state, "draw")
        assert state.active == expected
    assert state.turn == 4


def test_N3_a_draw_takes_three_cards_then_scores():
    state = start(GAME, Grid.parse(CALM))
    after, report = turn(GAME, state, "draw")
    assert (after.hands, after.deck, report.drawn) == ((6, 3, 3), state.deck - 3, 3)
    assert report.rounds == ()  # the scoring phase ran and found nothing


def test_N3_a_turn_is_a_draw_or_shifts_not_both():
    state = start(GAME, Grid.parse(CALM))
    drawn = draw(GAME, state, RefillChance(""))
    refused(GAME, drawn, "r1<", "N3", "not both")
    shifted = shift(GAME, state, Shift.parse("r1<"))
    with pytest.raises(RuleError, match="not both"):
        draw(GAME, shifted, RefillChance(""))


def test_N3_scoring_comes_after_an_action():
    with pytest.raises(RuleError, match="after a draw or shifts") as err:
        score(GAME, start(GAME, Grid.parse(CALM)))
    assert err.value.rule == "N3"


def test_N4_shift_pays_one_card_to_the_discard_pile_and_moves_the_edge_card():
    state = start(GAME, Grid.parse(CALM))
    after = shift(GAME, state, Shift.parse("r2<"))
    assert after.grid.row(2) == "VPROB"
    assert (after.hands, after.discard, after.known_discard) == ((2, 3, 3), 1, Cards.of("B"))


def test_N4_several_shifts_each_paid():
    state = start(GAME, Grid.parse(CALM))
    after, report = turn(GAME, state, "r2< r2< c1v")
    assert (after.hands[0], after.discard, report.paid) == (0, 3, 3)


def test_N4_shift_the_hand_cannot_pay_for_is_illegal():
    state = mid_game(GAME, CALM, deck=40, discard=28, hands=(0, 3, 0))
    refused(GAME, state, "r1<", "N4", "holds 0 cards")


def test_N4_no_hand_can_hold_a_gem_whose_twelve_cards_are_all_seen():
    state = mid_game(GAME, CALM, deck=40, discard=14,
                     known_discard=Cards.of("RRRRRRRR"))  # 4 R on the grid + 8 discarded
    refused(GAME, state, "r1<", "N4", "no hand can hold a R")


def test_N4_with_known_hands_the_matching_card_must_be_in_hand():
    game = Game(players=1)
    state = deal(game, random.Random(1))
    hand = state.piles.hands[0]
    move = next(f"r{r}<" for r in range(1, 6) if not hand.count(state.grid.at(r, 1)))
    refused(game, state, move, "N4", "cannot pay")


def test_N4_an_empty_edge_cell_cannot_be_shifted():
    state = mid_game(GAME, "ROYGC/.VPRO/YGCBV/PROYG/CBVPR", deck=40, discard=10)
    refused(GAME, state, "r2<!3", "N4", "no card at the edge")


def test_N5_three_cards_pay_for_any_edge_card():
    state = start(GAME, Grid.parse(CALM))
    after = shift(GAME, state, Shift.parse("c3v!3"))
    assert (after.hands, after.discard) == ((0, 3, 3), 3)
    assert after.known_discard == Cards()  # which three is hidden
    assert after.grid.column(3) == "VYPCO"


def test_N5_three_cards_need_three_in_hand():
    state = mid_game(GAME, CALM, deck=40, discard=28, hands=(2, 1, 0))
    refused(GAME, state, "r1<!3", "N5", "holds 2 cards and the shift costs 3")


def test_N5_with_known_hands_the_three_cards_paid_leave_the_hand():
    game = Game(players=2)
    state = deal(game, random.Random(2))
    held = state.piles.hands[0]
    after = shift(game, state, Shift.parse("r1<!3"), paid=held.letters())
    assert after.piles.hands[0] == Cards()
    assert after.piles.discard == held
    assert conservation_errors(game, after) == []


def test_N14_hand_sizes_follow_draws_and_payments():
    state = start(GAME, Grid.parse(CALM))
    state, _ = turn(GAME, state, "draw")
    state, _ = turn(GAME, state, "r2<!3")
    state, _ = turn(GAME, state, "c1^")
    assert state.hands == (6, 0, 2)


def test_P4_the_pearl_at_an_edge_costs_three_cards():
    game = Game("pearl", 2)
    state = start(game, Grid.parse("*" + CALM[1:]))
    refused(game, state, "r1<", "P4", "pearl has no matching card")
    after = shift(game, state, Shift.parse("r1<!3"))
    assert after.grid.row(1) == "OYGC*" and after.hands == (0, 3)


def test_P4_a_pearl_inside_a_line_just_slides_along():
    game = Game("pearl", 2)
    state = start(game, Grid.parse("R*YGC/BVPRO/YGCBV/PROYG/CBVPO"))
    after = shift(game, state, Shift.parse("r1>"))  # pays the C at the right end
    assert after.grid.row(1) == "CR*YG" and after.hands == (2, 3)


def test_N14_known_hands_of_a_simulation_match_the_counted_hand_sizes():
    game = Game("pearl", 3)
    rng = random.Random(5)
    state = deal(game, rng)
    after, _ = play(game, state, Turn.parse("draw"), ShuffledChance(rng))
    assert conservation_errors(game, after) == []
    assert [len(h) for h in after.piles.hands] == list(after.hands) == [6, 3, 3]
