"""The Desert Sands' rules (RULES.md D1-D6) in companion.rules.sands: state, chance, replay."""

from fractions import Fraction

import pytest

from companion.rules.grid import NotationError
from companion.rules.record import RecordError, format_record, parse_record
from companion.rules.sands import COLOURS, Bag, Sands, SandsError, SandsState, replay

# RULES.md D3, written out: named -> (colours that succeed, points).
D3 = {
    "red": ({"red", "yellow", "green"}, 1),
    "yellow": ({"yellow", "green"}, 2),
    "green": ({"green"}, 5),
    "lilac": ({"lilac"}, 12),
}
FULL = Bag(12, 12, 12, 12)


def record(*entries, bag="r12y12g12l12", **header):
    return parse_record(format_record({"game": "sands", "bag": bag, **header}, entries))


def calls(*pairs):
    return [{"call": c, "drawn": d} for c, d in pairs]


# D1 -------------------------------------------------------------------------------------


def test_D1_default_bag_is_twelve_of_each_of_four_colours():
    state = Sands().start()
    assert state.bag == FULL and state.bag.total == 48
    assert state.scores == (0, 0) and state.turn == 0 and not state.ended
    assert COLOURS == ("red", "yellow", "green", "lilac")


def test_D1_bag_counts_are_configurable():
    state = Sands(Bag(3, 0, 2, 1)).start()
    assert state.bag.to_json() == {"red": 3, "yellow": 0, "green": 2, "lilac": 1}


def test_D1_bag_notation_round_trips():
    for text in ("r12y12g12l12", "r0y3g0l1", "r100y0g7l0"):
        assert str(Bag.parse(text)) == text
    assert Bag.parse("l2r3") == Bag(red=3, lilac=2)
    assert Bag.parse("R1Y2G3L4") == Bag(1, 2, 3, 4)
    assert eval(repr(Bag(1, 2, 3, 4))) == Bag(1, 2, 3, 4)


@pytest.mark.parametrize(("text", "message"), [
    ("r12x3", "character 4 'x' is not a colour letter"),
    ("r12y", "character 4 'y': a count must follow it"),
    ("r-2", "character 1 'r': counts cannot be negative"),
    ("r1r2", "character 3 'r' names red a second time"),
    ("12", "character 1 '1' is not a colour letter"),
    ("", "empty bag"),
])
def test_D1_bag_notation_errors_name_the_character(text, message):
    with pytest.raises(NotationError, match=message):
        Bag.parse(text)


def test_D1_negative_counts_refused():
    with pytest.raises(ValueError, match="whole number >= 0"):
        Bag(red=-1)


def test_D1_unknown_colour_refused():
    with pytest.raises(SandsError, match="D1"):
        Sands().start().after("blue", "red")
    with pytest.raises(RecordError, match=r"line 2 \(D1\)"):
        replay(record(*calls(("red", "purple"))))


def test_D1_record_header_bag_players_and_default():
    assert replay(record(bag={"red": 2, "lilac": 1})).bag == Bag(2, 0, 0, 1)
    assert replay(record(players=["Ann", "Bob"])).bag == FULL
    no_bag = parse_record('{"game": "sands"}\n')
    assert replay(no_bag).bag == FULL
    with pytest.raises(RecordError, match=r"line 1 \(D1\).*2 players"):
        replay(record(players=3))
    with pytest.raises(RecordError, match=r"line 1 \(D1\).*'blue'"):
        replay(record(bag={"blue": 3}))
    with pytest.raises(RecordError, match=r"line 1 \(D1\).*red count must be a whole number"):
        replay(record(bag={"red": -3}))
    with pytest.raises(RecordError, match=r"line 1 \(D1\).*character 3 'q'"):
        replay(record(bag="r2q1"))


# D2 -------------------------------------------------------------------------------------


def test_D2_drawn_stone_is_set_aside():
    state = Sands().start().after("red", "lilac")
    assert state.bag == Bag(12, 12, 12, 11)


def test_D2_outcomes_are_exact_chances_of_the_stones_left():
    state = SandsState(Bag(3, 0, 1, 2))
    outcomes = state.outcomes("yellow")
    assert [(o.drawn, o.probability) for o in outcomes] == [
        ("red", Fraction(1, 2)), ("green", Fraction(1, 6)), ("lilac", Fraction(1, 3))]
    assert sum(o.probability for o in outcomes) == 1
    assert [o.state for o in outcomes] == [state.after("yellow", o.drawn) for o in outcomes]


def test_D2_a_stone_not_in_the_bag_cannot_be_drawn():
    with pytest.raises(SandsError, match="D2: no green stone"):
        SandsState(Bag(1, 1, 0, 1)).after("red", "green")
    rec = record(*calls(("green", "green"), ("green", "green")), bag="r1g1")
    with pytest.raises(RecordError, match=r"line 3 \(D2\): no green stone"):
        replay(rec)


# D3 / D4 --------------------------------------------------------------------------------


@pytest.mark.parametrize("call", COLOURS)
@pytest.mark.parametrize("drawn", COLOURS)
def test_D3_D4_outcome_table(call, drawn):
    hits, points = D3[call]
    state = SandsState(Bag(1, 1, 1, 1), (3, 4), turn=0)
    after = state.after(call, drawn)
    if drawn in hits:
        assert after.scores == (3 + points, 4) and after.turn == 0  # D4 keeps the turn
    else:
        assert after.turn == 1  # D3: a failure passes the turn
        assert after.scores == ((3, 6) if call == "lilac" else (3, 4))
    assert state.p_success(call) == Fraction(len(hits), 4)


def test_D3_lilac_failure_gives_the_opponent_two_either_way_round():
    state = SandsState(Bag(2, 2, 2, 2), (5, 5), turn=1).after("lilac", "yellow")
    assert state.scores == (7, 5) and state.turn == 0


def test_D4_successes_chain_within_one_turn():
    rec = record(*calls(("red", "red"), ("yellow", "green"), ("green", "green"), ("red", "lilac")))
    state = replay(rec)
    assert state.scores == (8, 0) and state.turn == 1


def test_D4_entry_player_must_be_whose_turn_it_is():
    rec = record({"call": "red", "drawn": "lilac", "player": 0},
                 {"call": "red", "drawn": "red", "player": 0})
    with pytest.raises(RecordError, match=r"line 3 \(D4\): player 0 called but it is player 1"):
        replay(rec)


# D5 -------------------------------------------------------------------------------------


def test_D5_sixteen_right_after_own_success_wins():
    state = SandsState(Bag(2, 2, 2, 2), (11, 0)).after("green", "green")
    assert state.scores == (16, 0) and state.ended and state.winners == (0,)


def test_D5_penalty_points_never_end_the_game_even_past_16():
    state = SandsState(Bag(2, 2, 2, 2), (0, 15), turn=0).after("lilac", "red")
    assert state.scores == (0, 17) and not state.ended and state.pending == (1,)
    state = state.after("green", "red")  # player 1 fails: no win, and the turn passes
    state = state.after("lilac", "yellow")  # player 0 fails lilac again: 19, still no win
    assert state.scores == (0, 19) and not state.ended


def test_D5_pending_player_wins_with_next_success_whatever_it_scores():
    state = SandsState(Bag(2, 2, 2, 2), (16, 3), turn=0)
    assert state.pending == (0,)
    won = state.after("red", "yellow")
    assert won.scores == (17, 3) and won.winners == (0,)


def test_D5_both_players_can_be_pending():
    state = SandsState(Bag(2, 2, 2, 2), (14, 15), turn=1).after("lilac", "red")
    state = state.after("lilac", "green")
    assert state.scores == (16, 17) and state.pending == (0, 1) and not state.ended


def test_D5_no_call_after_a_win():
    rec = record(*calls(("lilac", "lilac"), ("green", "green"), ("red", "red")))
    with pytest.raises(RecordError, match=r"line 4 \(D5\): the game has ended"):
        replay(rec)
    won = replay(record(*calls(("lilac", "lilac"), ("green", "green"))))
    assert won.summary() == {"scores": [17, 0], "ended": True, "winners": [0],
                             "bag": {"red": 12, "yellow": 12, "green": 11, "lilac": 11}}


# D6 -------------------------------------------------------------------------------------


def test_D6_empty_bag_higher_score_wins():
    state = SandsState(Bag(1, 0, 0, 0), (3, 5)).after("red", "red")
    assert state.ended and state.scores == (4, 5) and state.winners == (1,)


def test_D6_equal_scores_draw_with_no_winner():
    state = SandsState(Bag(1, 0, 0, 0), (4, 5)).after("red", "red")
    assert state.ended and state.winners == () and state.summary()["winners"] == []


def test_D6_failure_emptying_the_bag_counts_its_penalty():
    state = SandsState(Bag(0, 0, 1, 0), (6, 5)).after("lilac", "green")
    assert state.scores == (6, 7) and state.winners == (1,)
    state = SandsState(Bag(0, 0, 1, 0), (7, 15)).after("lilac", "green")
    assert state.scores == (7, 17) and state.winners == (1,)  # 17 by penalty: D6, not D5


def test_D6_success_emptying_the_bag_below_16_goes_to_D6():
    state = SandsState(Bag(0, 1, 0, 0), (10, 13)).after("yellow", "yellow")
    assert state.scores == (12, 13) and state.winners == (1,)


def test_D5_before_D6_with_the_last_stone():
    state = SandsState(Bag(0, 0, 1, 0), (11, 20)).after("green", "green")
    assert state.scores == (16, 20) and state.winners == (0,)


def test_D6_no_call_once_the_bag_is_empty():
    with pytest.raises(SandsError, match="D6: the game has ended"):
        SandsState(Bag(), (2, 2)).after("red", "red")
    rec = record(*calls(("red", "red"), ("red", "red")), bag="r1")
    with pytest.raises(RecordError, match=r"line 3 \(D6\)"):
        replay(rec)


# Records --------------------------------------------------------------------------------


def test_replay_summary_matches_design():
    rec = record(*calls(("red", "yellow"), ("lilac", "red"), ("yellow", "lilac")),
                 bag={"red": 3, "yellow": 3, "green": 3, "lilac": 3})
    assert replay(rec).summary() == {
        "scores": [1, 2], "bag": {"red": 2, "yellow": 2, "green": 3, "lilac": 2},
        "ended": False, "winners": []}


@pytest.mark.parametrize(("entry", "message"), [
    ({"call": "red"}, "missing 'call' or 'drawn'"),
    ({"call": "red", "draw": "red"}, "unknown key 'draw'"),
])
def test_replay_refuses_malformed_entries(entry, message):
    with pytest.raises(RecordError, match=f"line 2: {message}"):
        replay(record(entry))


def test_replay_refuses_other_games():
    with pytest.raises(RecordError, match="not a Desert Sands record"):
        replay(parse_record('{"game": "nizam", "players": 2}\n'))


def test_state_repr_pastes_back():
    state = SandsState(Bag(1, 2, 3, 4), (5, 17), 1)
    assert eval(repr(state)) == state
