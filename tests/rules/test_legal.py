"""The legality query (N4, N5, P4): asked, not tried, and always the same answer as a shift."""

import random
from dataclasses import replace

import pytest

from companion.rules.deck import Cards
from companion.rules.game import Game, RuleError
from companion.rules.grid import GEMS, Grid
from companion.rules.hint import payment
from companion.rules.nizam import is_legal, legal_moves, shift, why_illegal, why_illegal_shifts
from companion.rules.shift import ALL_SHIFTS, Shift, parse_shifts
from companion.rules.simulate import deal, greedy, simulate
from companion.rules.state import start

from ._helpers import CALM, mid_game

EVERY_MOVE = tuple(m.with_wildcard(w) for w in (False, True) for m in ALL_SHIFTS)


def known_hand_pays(state, move):
    """What the hint's payment (a separate reckoning, from the cards held) says."""
    hand = state.piles.hands[state.active]
    paid = payment(state.grid, (move,), hand)
    if move.wildcard:
        return state.grid.at(*move.edge) != "." and len(hand) >= 3
    return paid is not None and paid.shifts == (move,)


def counted_hand_pays(game, state, move):
    """N14: a hand known by its size pays what its size covers, a matching card while one
    can still be out of sight."""
    edge = state.grid.at(*move.edge)
    if edge == ".":
        return False
    if move.wildcard:
        return state.hands[state.active] >= 3
    if edge not in GEMS:
        return False  # the pearl (P4)
    seen = state.grid.count(edge) + state.known_discard.count(edge)
    return state.hands[state.active] >= 1 and seen < game.copies


def states_along(game, seed):
    played = simulate(game, random.Random(seed), greedy, max_turns=80)
    return [s for s in played.states if not s.ended][::2]


@pytest.mark.parametrize("mode, players, seed", [("classic", 2, 1), ("classic", 4, 5),
                                                 ("pearl", 3, 2), ("pearl", 5, 9)])
def test_N4_N5_P4_the_question_agrees_with_the_cards_held_and_their_count(mode, players, seed):
    game = Game(mode, players)
    checked = legal = 0
    for state in states_along(game, seed):
        counted = replace(state, piles=None)
        for move in EVERY_MOVE:
            assert is_legal(game, state, move) == known_hand_pays(state, move), move
            assert is_legal(game, counted, move) == counted_hand_pays(game, counted, move), move
            checked += 1
        legal += len(legal_moves(game, state))
        assert legal_moves(game, state) == tuple(
            m for m in EVERY_MOVE if known_hand_pays(state, m))
    assert checked >= 400 and 0 < legal < checked  # both answers met, many times


def test_N4_a_refused_shift_raises_what_the_question_answers():
    game = Game(players=3)
    state = mid_game(game, CALM, deck=40, discard=28, hands=(0, 2, 1))
    with pytest.raises(RuleError) as err:
        shift(game, state, Shift.parse("r1<"))
    assert str(err.value) == str(why_illegal(game, state, Shift.parse("r1<")))


def test_N4_a_hand_of_one_card_pays_each_gem_edge_by_one_card_only():
    game = Game(players=3)
    state = mid_game(game, CALM, deck=40, discard=27, hands=(1, 3, 0))
    moves = legal_moves(game, state)
    assert moves == ALL_SHIFTS  # every edge holds a gem; three cards are out of reach


def test_N4_an_empty_hand_makes_no_shift():
    game = Game(players=3)
    state = mid_game(game, CALM, deck=40, discard=28, hands=(0, 2, 1))
    assert legal_moves(game, state) == ()
    assert why_illegal(game, state, Shift.parse("r1<")).rule == "N4"


def test_N4_a_gem_whose_copies_are_all_seen_is_paid_by_three_cards_only():
    game = Game(players=3)
    state = mid_game(game, CALM, deck=40, discard=14, known_discard=Cards.of("RRRRRRRR"))
    assert not is_legal(game, state, Shift.parse("r1<"))  # R on the edge, all 12 seen
    assert is_legal(game, state, Shift.parse("r1<!3"))


def test_N4_with_known_hands_only_a_held_card_matches():
    game = Game(players=1)
    state = deal(game, random.Random(1))
    hand = state.piles.hands[0]
    for move in legal_moves(game, state):
        if not move.wildcard:
            assert hand.count(state.grid.at(*move.edge))


def test_N5_three_cards_pay_any_edge_and_two_do_not():
    game = Game(players=3)
    state = start(game, Grid.parse(CALM))
    assert all(is_legal(game, state, m.with_wildcard()) for m in ALL_SHIFTS)
    short = replace(state, hands=(2, 3, 3))
    assert not any(is_legal(game, short, m.with_wildcard()) for m in ALL_SHIFTS)
    assert why_illegal(game, short, Shift.parse("c2v!3")).rule == "N5"


def test_N5_a_sequence_is_legal_while_the_hand_lasts():
    game = Game(players=2)
    state = start(game, Grid.parse(CALM))
    assert why_illegal_shifts(game, state, parse_shifts("r1< r2< r3<")) is None
    problem = why_illegal_shifts(game, state, parse_shifts("r1< r2< r3< r4<"))
    assert problem.rule == "N4" and "holds 0 cards" in str(problem)
    assert why_illegal_shifts(game, state, parse_shifts("r1< c1^!3")).rule == "N5"


def test_P4_the_pearl_on_an_edge_moves_only_by_three_cards():
    game = Game("pearl", 2)
    state = start(game, Grid.parse("*" + CALM[1:]))
    moves = legal_moves(game, state)
    assert Shift.parse("r1<") not in moves and Shift.parse("c1^") not in moves
    assert Shift.parse("r1<!3") in moves and Shift.parse("c1^!3") in moves
    assert why_illegal(game, state, Shift.parse("c1^")).rule == "P4"
    assert len(moves) == 2 * len(ALL_SHIFTS) - 2


def test_N12_no_move_is_legal_once_the_game_has_ended():
    game = Game(players=2)
    state = replace(start(game, Grid.parse(CALM)), ended=True)
    assert legal_moves(game, state) == ()
    assert why_illegal(game, state, Shift.parse("r1<")).rule == "N12"
