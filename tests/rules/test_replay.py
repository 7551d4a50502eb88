"""Replaying game records: each refusal names its line and rule (N1–N15, P2, P4, P9)."""

import json
import random

import pytest

from companion.rules.game import Game, Options
from companion.rules.record import RecordError, parse_record
from companion.rules.replay import record_text, replay
from companion.rules.simulate import greedy, simulate, wanderer

ROW_OF_R = "RRRGC/BVPRO/YGCBV/PROYG/CBVPR"
CALM = "ROYGC/BVPRO/YGCBV/PROYG/CBVPR"


def record(*lines, game="nizam", players=2, **options):
    header = {"game": game, "players": players, "options": options}
    return parse_record("\n".join(json.dumps(x) for x in (header, *lines)) + "\n")


def refused(rec, line, rule, match):
    with pytest.raises(RecordError, match=match) as err:
        replay(rec)
    assert (err.value.line, err.value.rule) == (line, rule), str(err.value)


def test_N3_replay_plays_the_turns_in_order():
    played = replay(record({"setup": CALM}, {"turn": 1, "draw": True},
                           {"turn": 2, "shifts": ["r1<", "r1>"]}))
    assert played.summary() == {"scores": [0, 0], "deck": 62, "discard": 2,
                                "deck_runs_out": 0, "ended": False, "winners": []}
    assert len(played.states) == 3 and played.state.active == 0


def test_N3_turn_out_of_order_is_refused():
    refused(record({"setup": CALM}, {"turn": 1, "draw": True}, {"turn": 1, "draw": True}),
            4, "N3", "turn 1 out of order: the next turn is 2")


def test_N3_draw_and_shifts_together_are_refused():
    refused(record({"setup": CALM}, {"turn": 1, "draw": True, "shifts": ["r1<"]}),
            3, "N3", "exactly one of")


def test_N3_empty_shift_list_is_refused():
    refused(record({"setup": CALM}, {"turn": 1, "shifts": []}), 3, "N3", "one or more")


def test_N4_shift_the_hand_cannot_pay_for_is_refused():
    refused(record({"setup": CALM}, {"turn": 1, "shifts": ["r1<", "r1<", "r1<", "r1<"]}),
            3, "N4", "holds 0 cards and the shift costs 1")


def test_N5_three_card_shift_without_three_cards_is_refused():
    refused(record({"setup": CALM}, {"turn": 1, "shifts": ["r1<", "r1<!3"]}),
            3, "N5", "holds 2 cards and the shift costs 3")


def test_P4_pearl_edge_without_three_cards_is_refused():
    rec = record({"setup": "*" + CALM[1:]}, {"turn": 1, "shifts": ["c1^"]}, game="pearl")
    refused(rec, 3, "P4", "the pearl has no matching card")


def test_N9_refill_too_short_is_refused():
    rec = record({"setup": CALM}, {"turn": 1, "draw": True},
                 {"turn": 2, "shifts": ["c2v", "c3^"]}, {"turn": 3, "draw": True}, )
    played = replay(rec)  # no line made: nothing to refill
    assert played.summary()["scores"] == [0, 0]
    rec = record({"setup": ROW_OF_R}, {"turn": 1, "draw": True, "refill": "OB"},
                 setup_lines="keep")
    refused(rec, 3, "N9", "refill lists 2 cards, but the deck gives more")


def test_N9_refill_too_long_is_refused():
    rec = record({"setup": ROW_OF_R}, {"turn": 1, "draw": True, "refill": "OBYG"},
                 setup_lines="keep")
    refused(rec, 3, "N9", "refill lists 4 cards but only 3 were laid")


def test_N9_refill_letter_must_be_a_gem():
    rec = record({"setup": ROW_OF_R}, {"turn": 1, "draw": True, "refill": "OB*"},
                 setup_lines="keep")
    refused(rec, 3, "N9", "'\\*' is not a gem letter")


def test_N15_refill_naming_a_thirteenth_card_is_refused():
    # 4 R on the grid; each turn clears 3 R and refills them with 3 R again
    lines = [{"setup": ROW_OF_R}]
    lines += [{"turn": t, "draw": True, "refill": "RRR"} for t in (1, 2, 3)]
    refused(record(*lines, setup_lines="keep", cascades="leave"), 5, "N15",
            "the deck cannot hold a R")


def test_N12_turn_after_the_end_and_refill_past_the_last_card_are_refused():
    setup = {"setup": "ROYGC/BVPRO/RGCBV/PROYG/RBVPC"}  # r4< makes R×3 in column 1
    draws = [{"turn": t, "draw": True} for t in range(1, 23)]  # 66 of the 68 cards
    played = replay(record(setup, *draws, players=1))
    assert (played.state.deck, played.state.ended) == (2, False)
    last = {"turn": 23, "shifts": ["r4<"], "refill": "OY"}
    played = replay(record(setup, *draws, last, players=1))
    assert played.state.ended and played.state.grid.column(1) == "RBOY."
    refused(record(setup, *draws, last, {"turn": 24, "draw": True}, players=1),
            26, "N12", "after the game ended with turn 23")
    refused(record(setup, *draws, dict(last, refill="OYB"), players=1),
            25, "N12", "refill lists 3 cards but only 2 were laid .the deck ran out")


def test_N2_replace_refuses_a_setup_with_a_line():
    refused(record({"setup": ROW_OF_R}), 2, "N2", "R×3")
    assert replay(record({"setup": ROW_OF_R}, setup_lines="keep")).state.turn == 0


def test_N1_setup_must_come_first_and_be_possible():
    refused(record({"turn": 1, "draw": True}), 2, "N1", "only the setup grid")
    refused(record(), 1, "N1", "no setup line")
    refused(record({"setup": "ROYGC/BVPRO/YGCBV/PROYG/CBVP."}), 2, "N1", "empty")


def test_P2_pearl_setup_needs_the_pearl():
    refused(record({"setup": CALM}, game="pearl"), 2, "P2", "exactly one pearl")


def test_P9_turn_after_a_pearl_win_is_refused():
    played = simulate(Game("pearl", 1), random.Random(3), greedy, max_turns=200)
    assert played.state.ended
    text = record_text(played)
    extra = json.dumps({"turn": played.state.turn + 1, "draw": True})
    lines = text.count("\n")
    refused(parse_record(text + extra + "\n"), lines + 1, "P9", "after the game ended")


@pytest.mark.parametrize(
    "entry, match",
    [
        ({"turn": 1, "draw": True, "who": 2}, "unknown key 'who'"),
        ({"turn": "1", "draw": True}, "needs \"turn\": a number"),
        ({"turn": 1, "draw": "yes"}, "must be true"),
        ({"turn": 1, "shifts": ["r9<"]}, "not a line number"),
        ({"turn": 1, "draw": True, "refill": ["R"]}, "string of gem letters"),
    ],
)
def test_record_format_errors_name_the_line(entry, match):
    with pytest.raises(RecordError, match=match) as err:
        replay(record({"setup": CALM}, entry))
    assert err.value.line == 3


@pytest.mark.parametrize(
    "header, match",
    [
        ({"game": "nizam", "players": 9}, "players"),
        ({"game": "nizam", "players": "2"}, "players must be a number"),
        ({"game": "nizam", "players": 2, "options": {"bonus": "double"}}, "bonus"),
        ({"game": "nizam", "players": 2, "options": {"speed": "fast"}}, "unknown option"),
        ({"game": "nizam", "players": 2, "date": "today"}, "unknown header key"),
    ],
)
def test_record_header_errors_name_line_one(header, match):
    text = json.dumps(header) + "\n" + json.dumps({"setup": CALM}) + "\n"
    with pytest.raises(RecordError, match=match) as err:
        replay(parse_record(text))
    assert err.value.line == 1


@pytest.mark.parametrize("mode", ["classic", "pearl"])
@pytest.mark.parametrize("players", [1, 3, 5])
def test_N15_simulated_record_replays_to_the_same_end(mode, players):
    options = Options(bonus="rising", cascades="leave") if players == 3 else Options()
    game = Game(mode, players, options)
    played = simulate(game, random.Random(players), wanderer, max_turns=150)
    again = replay(parse_record(record_text(played)))
    assert again.summary() == played.summary()
    assert [s.grid for s in again.states] == [s.grid for s in played.states]
    assert again.game == game
