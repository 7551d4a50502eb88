"""The Hint on the table screen, by real touches (issue 15): the player to move taps their
cards, the best turn is drawn as arrows on the camera picture, nothing is sent to the
session, and the hand is forgotten when the turn ends."""

from dataclasses import replace

import numpy as np
import pytest

from companion.hinting import hint_for
from companion.ui.hint import arrow_cells
from companion.ui.widgets import GemButton

from .helpers import (
    CORNERS,
    TableDouble,
    button,
    camera_frame,
    nizam_views,
    start_game_on_screen,
    tap,
    window_button,
)


def gem(driver, letter):
    found = [w for child in driver.window.children for w in child.walk()
             if isinstance(w, GemButton) and w.letter == letter]
    assert len(found) == 1
    return found[0]


def tap_hand(driver, screen, hand):
    tap(driver, button(screen, "Hint"))
    for letter in hand:
        tap(driver, gem(driver, letter))
    tap(driver, window_button(driver, "Show the best turn"))


def test_N4_N5_N8_the_best_turn_is_drawn_as_arrows_and_nothing_is_moved(start_app):
    game = TableDouble(nizam_views(), frame=camera_frame(), corners=CORNERS)
    driver, screen = start_game_on_screen(start_app, game)
    overlay = screen.hint.overlay
    tap_hand(driver, screen, "GYR")
    expected = hint_for(game.view(), "GYR")
    assert expected.shifts and expected.points > 0
    assert screen.hint.hint == expected
    grid = screen.ids.grid
    assert overlay.arrows == [(grid.cell_centre(*a), grid.cell_centre(*b))
                              for a, b in map(arrow_cells, expected.shifts)]
    # the arrow is on screen in the hint's colour, halfway along its line
    assert len(overlay.drawn) == len(expected.shifts)
    (x0, y0), (x1, y1) = overlay.drawn[0]
    wx, wy = overlay.to_window((x0 + x1) / 2, (y0 + y1) / 2)
    pixels = driver.pixels()
    r, g, b = pixels[driver.size[1] - 1 - int(wy), int(wx)] / 255
    assert (r, g, b) == tuple(np.round(np.array([1.0, 0.702, 0.0]) * 255) / 255)
    assert game.taps == []  # the hint never moves anything by itself
    # tapping again hides it; the hand is remembered for the turn
    tap(driver, button(screen, "Hide hint"))
    assert screen.hint.hint is None and overlay.arrows == []
    tap(driver, button(screen, "Hint"))
    assert "G Y R" not in screen.hint.picker.summary.text
    assert "R Y G" in screen.hint.picker.summary.text
    screen.hint.picker.dismiss()


def test_the_hand_is_forgotten_when_the_turn_ends(start_app):
    game = TableDouble(nizam_views(), frame=camera_frame(), corners=CORNERS)
    driver, screen = start_game_on_screen(start_app, game)
    tap_hand(driver, screen, "GY")
    assert screen.hint.hint is not None
    tap(driver, button(screen, "Draw"))
    assert screen.hint.hint is None and screen.hint.hand == ""
    tap(driver, button(screen, "Hint"))
    assert "Bob" in screen.hint.picker.title and "none yet" in screen.hint.picker.summary.text
    screen.hint.picker.dismiss()


def test_N15_a_hand_the_grid_rules_out_is_said_not_hinted(start_app):
    views = nizam_views()
    views[0] = replace(views[0], grid=("RRRRR", "RRRRR", "RROGY", "CBVPO", "YGCBV"))
    game = TableDouble(views)
    driver, screen = start_game_on_screen(start_app, game)
    tap_hand(driver, screen, "R")
    assert screen.hint.hint.problem.startswith("That hand cannot be: the hand holds 1 R")
    assert screen.hint.overlay.arrows == []


def test_N14_the_hand_tapped_in_holds_no_more_cards_than_the_player_has(start_app):
    views = nizam_views()
    views[0] = replace(views[0], players=(replace(views[0].players[0], hand=2),)
                       + views[0].players[1:])
    game = TableDouble(views)
    driver, screen = start_game_on_screen(start_app, game)
    tap(driver, button(screen, "Hint"))
    picker = screen.hint.picker
    tap(driver, gem(driver, "G"))
    tap(driver, gem(driver, "Y"))
    assert gem(driver, "R").disabled  # the two cards held are in
    picker.add("R")
    assert picker.hand == "GY" and "(2 of 2 cards)" in picker.summary.text
    tap(driver, window_button(driver, "Show the best turn"))
    assert screen.hint.hint == hint_for(game.view(), "GY")


def test_N14_a_hand_tapped_in_before_the_turn_s_shifts_paid_cards_away_asks_for_them_off(
        start_app):
    views = nizam_views()
    game = TableDouble(views)
    driver, screen = start_game_on_screen(start_app, game)
    screen.hint.hand = "GYR"
    paid = replace(views[0], players=(replace(views[0].players[0], hand=2),)
                   + views[0].players[1:])
    screen.hint.show(paid)
    screen.hint.view = paid
    tap(driver, button(screen, "Hint"))
    picker = screen.hint.picker
    assert picker.summary.text == "You hold 2 cards now: take 1 off" and picker.done.disabled
    picker.take_one()
    assert not picker.done.disabled
    picker.dismiss()


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_the_hint_s_words_cover_no_card_of_the_grid(start_app, size):
    game = TableDouble(nizam_views(), frame=camera_frame(), corners=CORNERS)
    driver, screen = start_game_on_screen(start_app, game, size=size)
    tap_hand(driver, screen, "GYR")
    driver.frames(4)
    grid, overlay = screen.ids.grid, screen.hint.overlay
    assert screen.hint.hint.text and overlay.caption_box is not None
    x, y, w, h = overlay.caption_box
    fit = grid._fit()
    corners = [fit.to_widget(*p) for row in range(1, 6) for col in range(1, 6)
               for p in grid._placement.cell_quad(row, col)]
    assert y + h <= min(cy for _, cy in corners)  # under the bottom row's cards
    assert grid.x <= x and x + w <= grid.right and grid.y <= y
    # the arrows are drawn on the cards where the picture shows them now
    assert overlay.arrows[0][0] == grid.cell_centre(*arrow_cells(screen.hint.hint.shifts[0])[0])
    tap(driver, button(screen, "Hide hint"))
    assert grid.foot == 0 and overlay.caption_box is None  # the whole picture again
