"""Plain words (companion.words): what players read has no notation, no rule IDs, and
counts players from 1 or names them."""


import pytest

import companion.words as words


@pytest.mark.parametrize("message", [
    "N3: draw or shift first: a turn is a draw or shifts",
    "illegal: N4: c3^!3: player 1 holds 2 cards and the shift costs 3",
    "N4: r2<: no hand can hold a R to pay with: all 7 are on the grid or in the discard pile",
    "P2: the pearl stays one card: fix the other cell instead",
    "there is no cell r6c1",
    "N12: the game is over",
])
def test_N3_N4_rule_messages_are_said_without_notation_or_rule_ids(message):
    said = words.plain(message, ["Ann", "Bob"])
    assert not words.has_notation(said), said
    assert said[0].isupper()


def test_N4_the_player_who_cannot_pay_is_named():
    said = words.plain("illegal: N4: c3^!3: player 1 holds 2 cards and the shift costs 3",
                       ["Ann", "Bob"])
    assert said == "Bob holds 2 cards and the move costs 3"


@pytest.mark.parametrize("shifts", [("r1<",), ("c5v", "r3>"), ("c2^!3", "r4<", "c1v")])
def test_every_shift_is_undone_the_last_first(shifts):
    from companion.rules.grid import Grid
    from companion.rules.shift import Shift

    grid = Grid.parse("RROGY/CBVPR/GGYOC/BVPRO/YGCBV")
    moved = grid
    for text in shifts:
        moved = Shift.parse(text).plain().apply(moved)
    for text in words.opposites(shifts):
        moved = Shift.parse(text).apply(moved)
    assert moved == grid


def test_a_game_begun_in_summer_time_is_said_in_summer_time_in_winter(monkeypatch):
    import time

    from companion.words import when_words

    # Kyiv's zone as a POSIX rule (no zone database needed): UTC+2, summer UTC+3
    monkeypatch.setenv("TZ", "EET-2EEST,M3.5.0/3,M10.5.0/4")
    time.tzset()
    try:
        assert when_words("2020-07-15T10:00:00.000+00:00") == "15 Jul 2020 13:00"
        assert when_words("2020-12-06T10:00:00.000+00:00") == "6 Dec 2020 12:00"
    finally:
        monkeypatch.undo()
        time.tzset()
