"""The Nizam and Pearl of the East screen, driven by touches: the turn's buttons reach the
session in order, a misread cell is fixed through the picker, verdicts and scoring show,
and the game ends on the game-over screen."""

import re
import threading
from dataclasses import replace

import numpy as np
import pytest

from companion.store import StoreError
from companion.words import has_notation

from .helpers import (
    CORNERS,
    TableDouble,
    button,
    camera_frame,
    export_at_game_over,
    nizam_views,
    pearl_view,
    start_game_on_screen,
    tap,
    tap_at,
    tap_cell,
    window_button,
)


@pytest.fixture
def table(start_app):
    """``table(controller, **app_kwargs)``: the app on the Nizam screen of a scripted game."""
    return lambda controller, **kwargs: start_game_on_screen(start_app, controller, **kwargs)


def header(screen):
    """What the header says, without its markup."""
    return re.sub(r"\[/?[a-z]+[^\]]*\]", "", screen.ids.header.title)


def test_N3_end_turn_is_greyed_before_any_move(table):
    # Paid with 3 cards is not: tapped before the move, it pays the turn's next shift (N5).
    game = TableDouble(nizam_views())
    driver, screen = table(game)
    assert header(screen) == "Turn 1  Ann's turn"
    assert screen.ids.end_turn.disabled and not screen.ids.wildcard.disabled
    assert screen.ids.undo.disabled and not screen.ids.draw.disabled
    tap_at(driver, *screen.ids.end_turn.to_window(*screen.ids.end_turn.center))
    driver.settle()
    assert game.taps == []  # a greyed button takes no tap
    pixels = driver.pixels()
    h = pixels.shape[0]
    end, draw = screen.ids.end_turn, screen.ids.draw
    grey = pixels[h - int(end.y + 4), int(end.x + 4)]
    blue = pixels[h - int(draw.y + 4), int(draw.x + 4)]
    assert max(grey) - min(grey) < 20 and blue[2] > blue[0] + 60  # no colour: greyed


def test_N3_N5_draw_paid_with_three_end_turn_and_undo_reach_the_session_in_order(table):
    game = TableDouble(nizam_views())
    driver, screen = table(game)
    tap(driver, button(screen, "Draw"))
    assert header(screen) == "Turn 2  Bob's turn"
    assert screen.ids.end_turn.disabled
    game.index = 2  # Bob shifted a row
    driver.settle()
    tap(driver, button(screen, "Paid with 3 cards"))
    tap(driver, button(screen, "Undo"))
    tap(driver, button(screen, "End turn"))
    assert game.taps == [("draw",), ("wildcard",), ("undo",), ("end_turn",)]


def test_N4_legal_shift_shows_its_payment_and_cells_in_words(table):
    game = TableDouble(nizam_views())
    game.index = 2
    driver, screen = table(game)
    assert screen.ids.verdict.text == "Row 3 moved left, paid with 1 emerald"
    marks = screen.ids.grid.marks
    assert marks.verdict == () and marks.verdict_legal  # the arrow says it, no outline too
    assert marks.arrows == (("r3<", "moved"),)


def test_N4_illegal_shift_says_why_and_a_misread_can_be_confirmed(table):
    game = TableDouble(nizam_views())
    game.index = 4
    driver, screen = table(game)
    text = screen.ids.illegal.text
    assert "Not allowed: Column 2 moved up." in text
    assert "Cid holds 0 cards and the move costs 1" in text
    assert "Put it back: move column 2 down" in text
    assert not has_notation(text)
    assert screen.ids.illegal.width == driver.size[0]  # a strip across the whole screen
    assert not screen.ids.grid.marks.verdict_legal
    assert screen.ids.grid.marks.arrows == (("c2^", "illegal"), ("c2v", "fix"))
    tap(driver, button(screen, "It was a misread"))
    assert game.taps == [("confirm_misread",)]


def test_N4_a_refused_move_shows_each_card_where_the_picture_shows_it_and_fixes_that_card(
        table):
    game = TableDouble(nizam_views())
    game.index = 4  # column 2 moved up, refused: the game's grid is as before it
    driver, screen = table(game)
    assert [row[1] for row in screen.ids.grid.cells] == list("BGVGR")  # as moved
    assert [row[1] for row in game.view().grid] == list("RBGVG")
    tap_cell(driver, screen.ids.grid, 5, 2)
    assert "Row 5, column 2 reads ruby" in screen.picker.title  # the card lying there
    tap(driver, screen.picker.buttons["O"])
    assert game.taps == [("fix", 1, 2, "O")]  # that card, where the game holds it


def test_P4_a_refused_move_moves_the_pearl_s_ring_and_outlines_with_their_cards(table):
    from companion.view import Verdict

    refused = replace(pearl_view(), verdict=Verdict(False, ("r2<",), "", "illegal: P4: ..."),
                      highlight=((2, 5),))  # an outlined card: the ruby at the row's end
    driver, screen = table(TableDouble([refused]))
    grid = screen.ids.grid
    assert grid.cells[1] == "B*PRC"  # row 2 as the picture shows it moved
    assert grid.marks.pearl == (2, 2) and grid.marks.highlight == ((2, 4),)


def test_N7_N8_last_turn_combinations_are_highlighted_with_their_points(table):
    game = TableDouble(nizam_views())
    game.index = 3
    driver, screen = table(game)
    assert screen.ids.verdict.scored == "This turn [b]+3[/b]: 3 emeralds"
    assert screen.ids.grid.marks.combinations == ((((3, 1), (3, 2), (3, 3)), "+3"),)
    assert [row.score for row in screen._rows] == ["0", "3", "0"]
    assert [row.last for row in screen._rows] == ["+0", "+3", ""]
    assert screen.ids.prompt.text == "Take the highlighted cards to the discard pile."


def test_N7_each_player_s_points_beside_the_score_say_which_turn_they_are_of(table):
    views = nizam_views()
    game = TableDouble([replace(views[3], active=1), views[4]])  # Bob's turn scored, then Cid's
    driver, screen = table(game)
    rows = screen._rows
    assert [(r.ids.last.text, r.ids.last_when.text) for r in rows] == [
        ("+0", "last turn"), ("+3", "this turn"), ("", "")]
    for row in rows[:2]:  # under the points, in their column
        points, words = row.ids.last, row.ids.last_when
        assert words.top <= points.y + 1 and words.right == points.right
    game.index = 1
    driver.settle()
    assert [r.ids.last_when.text for r in rows] == ["last turn", "last turn", ""]


def test_N7_N10_the_last_turn_s_lines_are_said_not_outlined_on_the_cards_laid_since(table):
    game = TableDouble(nizam_views())
    game.index = 4  # the next player's turn: other cards lie where the emeralds did
    driver, screen = table(game)
    assert screen.ids.verdict.scored == "Last turn [b]+3[/b]: 3 emeralds"
    assert screen.ids.grid.marks.combinations == ()


def test_N11_N12_deck_discard_and_run_outs_are_shown(table):
    driver, screen = table(TableDouble(nizam_views()))
    assert screen.ids.counts.text == "Deck [b]65[/b] · Discard 0 · Deck ran out [b]0 of 3[/b] times"


def test_N1_before_the_first_turn_the_header_asks_what_the_prompt_asks(table, tmp_path):
    from companion.store import GameStore
    from tools.showcase import opening_unsure

    store = GameStore(tmp_path / "games.sqlite")
    staged = opening_unsure(store, ["Ann", "Bob"], seed=1, unsure=((1, 2), (3, 4), (5, 1)))
    driver, screen = table(staged)
    # more than a misread makes: clear what lies over the grid, or calibrate (or name each)
    assert header(screen) == "Uncover the grid, or calibrate"
    assert screen.ids.prompt.text.startswith("The camera cannot read 3 cards: if anything lies")
    assert screen.ids.header.player == -1  # no one's turn yet
    card = staged.layout.split("/")
    for (row, col), now in (((1, 2), "Name the 2 cards marked ?"),
                            ((3, 4), "Name the card marked ?"),
                            ((5, 1), "Turn 1  Ann's turn")):  # every card named: it starts
        tap_cell(driver, screen.ids.grid, row, col)
        tap(driver, screen.picker.buttons[card[row - 1][col - 1]])
        assert header(screen) == now
        assert "marked ?" in screen.ids.prompt.text or now.startswith("Turn 1")


def test_N1_the_opening_header_names_cards_only_where_the_prompt_asks_to_name_them(
        table, tmp_path):
    # The deal under way with a card under the hand, a hand over the layout, then the cards
    # the camera cannot read: the header follows the prompt's case, and counts no ? itself.
    from companion.store import GameStore
    from tools.showcase import opening_unsure

    staged = opening_unsure(GameStore(tmp_path / "games.sqlite"), ["Ann", "Bob"], seed=1)
    driver, screen = table(staged)
    laid = staged.layout.split("/")

    def seen(*rows):
        staged.session.on_reading(list(rows))
        driver.settle()
        return header(screen), screen.ids.prompt.text

    dealing = seen(laid[0][:2] + "?..", *["....."] * 4)  # the third card under the hand
    assert dealing == ("Lay out the opening grid", "Deal 25 cards face up into the 5×5 grid.")
    hand = seen("?????", "?????", *laid[2:])  # a hand over two rows of the whole layout
    assert hand[0] == "Uncover the grid, or calibrate"
    assert hand[1].startswith("The camera cannot read 10 cards: if anything lies over the grid")
    two = seen("?" + laid[0][1:], laid[1], laid[2], laid[3][:3] + "?" + laid[3][4], laid[4])
    assert two == ("Name the 2 cards marked ?",
                   "The camera cannot read 2 cards: tap each card marked ? and choose what it "
                   "is.")
    one = seen(*laid[:2], "?" + laid[2][1:], *laid[3:])
    assert one == ("Name the card marked ?", "The camera cannot read one card: tap the card "
                   "marked ? and choose what it is.")


def test_N1_N3_at_the_first_turn_undo_says_it_takes_back_the_deal(table, tmp_path):
    from companion.store import GameStore
    from tools.showcase import staged_game

    staged = staged_game(GameStore(tmp_path / "games.sqlite"), ["Ann", "Bob"], turns=0)
    driver, screen = table(staged)
    assert header(screen) == "Turn 1  Ann's turn"
    assert screen.ids.undo.text == "Undo the deal" and not screen.ids.undo.disabled
    tap(driver, button(screen, "Draw"))
    assert screen.ids.undo.text == "Undo"  # Ann's draw is what it takes back now
    tap(driver, button(screen, "Undo"))
    assert header(screen) == "Turn 1  Ann's turn" and staged.view().players[0].hand == 3
    tap(driver, button(screen, "Undo the deal"))
    assert header(screen) == "Check the opening grid"  # the cards lie there, read
    assert [e["kind"] for e in staged.session.events()] == ["setup", "draw", "undo", "undo"]
    assert screen.ids.undo.disabled and screen.ids.undo.text == "Undo"


def test_fix_a_misread_cell_through_the_picker(table):
    game = TableDouble(nizam_views())
    driver, screen = table(game)
    tap_cell(driver, screen.ids.grid, 2, 3)
    picker = screen.picker
    assert picker.parent is not None
    assert "Row 2, column 3 reads amethyst" in picker.title
    assert screen.ids.grid.marks.picked == (2, 3)
    tap(driver, picker.buttons["C"])
    assert picker.parent is None
    assert game.taps == [("fix", 2, 3, "C")]
    assert screen.ids.grid.cells[1] == "CBCPR"


def test_fix_a_cell_tapped_on_the_camera_picture(table):
    game = TableDouble(nizam_views(), frame=camera_frame(), corners=CORNERS)
    driver, screen = table(game)
    grid = screen.ids.grid
    assert grid._placement is not None
    tap_cell(driver, grid, 5, 1)
    assert screen.picker.picture.texture is not None  # the camera's picture of that card
    assert "." not in screen.picker.buttons  # the camera sees an empty cell itself
    tap(driver, screen.picker.buttons["R"])
    assert game.taps == [("fix", 5, 1, "R")]


def test_camera_picture_is_shown_upright_in_its_colours(table):
    frame = np.zeros((720, 1280, 3), np.uint8)
    frame[:360] = (0, 0, 255)  # BGR red on top
    frame[360:] = (255, 0, 0)  # blue below
    game = TableDouble(nizam_views(), frame=frame, corners=None)
    driver, screen = table(game)
    grid = screen.ids.grid
    pixels = driver.pixels()
    h = pixels.shape[0]
    x = int(grid.center_x)
    top = pixels[h - int(grid.center_y + grid.height * 0.12), x]
    bottom = pixels[h - int(grid.center_y - grid.height * 0.12), x]
    assert top[0] > 200 and top[2] < 60
    assert bottom[2] > 200 and bottom[0] < 60


def test_a_cell_misread_stays_told_by_its_letter(table):
    view = nizam_views()[0]
    unsure = replace(view, grid=("?ROGY",) + view.grid[1:],
                     confidence=((0.2,) + (0.9,) * 4,) + ((0.9,) * 5,) * 4)
    game = TableDouble([unsure])
    driver, screen = table(game)
    assert screen.ids.grid._letter(1, 1) == "?"
    assert screen.ids.grid._unsure(1, 1) and not screen.ids.grid._unsure(1, 2)


def test_N12_N13_game_over_shows_the_winner_and_exports_the_record(table):
    exported = []
    game = TableDouble(nizam_views())
    game.index = 4
    driver, screen = table(game, export_record=lambda i: exported.append(i) or "/tmp/g7.jsonl")
    tap(driver, button(screen, "It was a misread"))
    over = export_at_game_over(driver, "Bob wins!")
    assert exported == [7]
    assert over.ids.status.text == "Game record saved: /tmp/g7.jsonl"
    tap(driver, button(over, "Back to the table"))
    assert driver.app.manager.current == "table"
    assert button(screen, "Draw").disabled
    tap(driver, window_button(driver, "Menu"))
    tap(driver, window_button(driver, "Leave this game (it is saved)"))
    assert driver.app.manager.current == "start" and game.closed


def test_P1_P4_pearl_shows_tasks_struck_through_and_the_pearl(table):
    driver, screen = table(TableDouble([pearl_view()]))
    ann, bob = screen._rows
    assert ann.ids.tasks.left == tuple("ROYGCBVP")
    assert bob.ids.tasks.left == tuple("RYCV")
    assert screen.ids.grid.marks.pearl == (2, 3)
    tap_cell(driver, screen.ids.grid, 2, 3)
    assert "*" in screen.picker.buttons


def test_a_session_error_shows_in_the_banner_and_the_app_keeps_running(table):
    class Failing(TableDouble):
        def tap(self, action, *args):
            raise StoreError("the game database is locked by another program")

    game = Failing(nizam_views())
    driver, screen = table(game)
    tap(driver, button(screen, "Draw"))
    assert driver.app.banner.text == "The game database is locked by another program"
    tap(driver, driver.app.banner)
    assert driver.app.banner.text == ""


def test_the_session_answer_to_a_refused_tap_is_shown(table):
    views = nizam_views()
    refused = replace(views[0], message="N3: nothing to undo: player 1 has not played")
    game = TableDouble([views[0], refused], advance_on=("undo_refused",))
    driver, screen = table(game)
    game.index = 1
    driver.settle()
    assert driver.app.banner.text == "Nothing to undo: Bob has not played"
    assert driver.app.banner.top < screen.ids.header.y  # away from the header


class SlowTable(TableDouble):
    """A session that answers a tap only once ``answer`` is set (a slow fold on a Pi)."""

    def __init__(self, views):
        super().__init__(views)
        self.answer = threading.Event()

    def tap(self, action, *args):
        assert self.answer.wait(60)
        super().tap(action, *args)


def test_N3_a_button_tapped_twice_before_its_answer_shows_is_one_tap(table):
    # The second Draw reaches the app before the screen greys anything: it is a bounce or an
    # impatient finger, never the next player's draw.
    game = SlowTable(nizam_views())
    driver, screen = table(game)
    draw = screen.ids.draw
    tap_at(driver, *draw.to_window(*draw.center))
    tap_at(driver, *draw.to_window(*draw.center))
    game.answer.set()
    driver.settle()
    assert game.taps == [("draw",)]
    assert driver.app.banner.text.startswith("Tapped again before the last tap was done")
    assert header(screen) == "Turn 2  Bob's turn"
    tap(driver, button(screen, "Draw"))  # once answered, the same button is a tap again
    assert game.taps == [("draw",), ("draw",)]
