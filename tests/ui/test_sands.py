"""The Desert Sands screen, driven by touches: the call, then the drawn stone (D2-D4), the
odds with the best call marked, the 16 line (D5) and the end of the game."""

import re
from dataclasses import replace

import pytest

from .helpers import (
    SandsDouble,
    button,
    export_at_game_over,
    sands_views,
    start_game_on_screen,
    tap,
)


@pytest.fixture
def sands(start_app):
    """``sands(controller, **app_kwargs)``: the app on The Desert Sands screen."""
    return lambda controller, **kwargs: start_game_on_screen(
        start_app, controller, "The Desert Sands", **kwargs)


def test_D2_a_call_then_the_drawn_stone_reach_the_session(sands):
    game = SandsDouble(sands_views())
    driver, screen = sands(game)
    assert screen.ids.header.title == "Ann to call" and screen.ids.header.player == 0
    assert screen.ids.undo.disabled  # nothing to take back yet
    assert all(b.disabled for b in screen.drawn_buttons.values())
    tap(driver, button(screen, "Call lilac"))
    assert game.taps == [("call", "lilac")]
    assert screen.ids.status.text == "Ann called lilac: which stone came out of the bag?"
    assert screen.call_rows["lilac"].called  # the call made is highlighted
    assert not any(screen.call_rows[s].called for s in ("red", "yellow", "green"))
    assert all(row.ids.call.disabled for row in screen.call_rows.values())
    tap(driver, screen.drawn_buttons["lilac"])
    assert game.taps == [("call", "lilac"), ("drawn", "lilac")]
    assert screen.ids.last.text == "Ann called lilac and drew lilac: +12"
    assert screen.bag_rows["lilac"].count == "11"
    assert screen.bag_total == "47"


def test_D3_each_call_shows_its_odds_and_the_best_is_marked(sands):
    driver, screen = sands(SandsDouble(sands_views()))
    lilac, red = screen.call_rows["lilac"], screen.call_rows["red"]
    assert (lilac.success, lilac.points, lilac.win, lilac.best) == ("25%", "3.00", "55%", True)
    assert (red.success, red.points, red.win, red.best) == ("75%", "0.75", "48%", False)


def test_D5_scores_against_the_16_line_and_the_winner(sands):
    exported = []
    game = SandsDouble(sands_views())
    driver, screen = sands(game, export_record=lambda i: exported.append(i) or "sands.jsonl")
    assert screen.ids.scores.target == 16
    tap(driver, button(screen, "Call lilac"))
    tap(driver, screen.drawn_buttons["lilac"])
    assert screen.ids.scores.scores == (12, 0)
    tap(driver, button(screen, "Call red"))
    export_at_game_over(driver, "Ann wins!")
    assert exported == [9]


def test_D2_undo_takes_back_the_call(sands):
    game = SandsDouble(sands_views())
    driver, screen = sands(game)
    tap(driver, button(screen, "Call green"))
    tap(driver, button(screen, "Undo"))
    assert game.taps == [("call", "green"), ("undo",)]
    assert screen.ids.status.text == "Ann: name a colour (best: lilac)"


def test_D3_while_the_odds_are_being_solved_the_calls_still_work(sands):
    nan = float("nan")
    first = sands_views()[0]
    waiting = replace(first, best="",
                      calls={c: replace(o, p_win=nan) for c, o in first.calls.items()})
    game = SandsDouble([waiting, replace(waiting, called="red")])
    driver, screen = sands(game)
    assert screen.call_rows["red"].win == "…" and screen.call_rows["red"].success == "75%"
    assert not any(row.best for row in screen.call_rows.values())
    # the seconds are the screen's own clock's: a slow machine may be past the first
    assert re.match(r"Working out the odds: \d+ s so far\. Only the first game with this "
                    r"bag waits for them", screen.ids.status.text)
    tap(driver, button(screen, "Call red"))
    assert game.taps == [("call", "red")]


def test_D3_a_colour_whose_stones_are_gone_can_still_be_called(sands):
    first = sands_views()[0]
    no_green = replace(first, bag={"red": 12, "yellow": 12, "green": 0, "lilac": 0})
    game = SandsDouble([no_green, replace(no_green, called="green")])
    driver, screen = sands(game)
    assert not any(row.ids.call.disabled for row in screen.call_rows.values())
    tap(driver, button(screen, "Call green"))
    assert game.taps == [("call", "green")]
    drawable = {s: not b.disabled for s, b in screen.drawn_buttons.items()}
    assert drawable == {"red": True, "yellow": True, "green": False, "lilac": False}


def test_D3_the_best_call_never_reads_as_a_tie_with_another(sands):
    first = sands_views()[0]
    close = replace(first, calls={**first.calls,
                                  "red": replace(first.calls["red"], p_win=0.536),
                                  "lilac": replace(first.calls["lilac"], p_win=0.541)})
    driver, screen = sands(SandsDouble([close]))
    wins = {stone: row.win for stone, row in screen.call_rows.items()}
    assert wins == {"red": "53.6%", "yellow": "50.0%", "green": "52.0%", "lilac": "54.1%"}
    assert screen.call_rows["lilac"].best
