"""The real app over the real session: the demo recording through vision, touches for taps,
a fixed cell, an undo, and a whole game to its game-over screen (N3, N5, N12, N13)."""

import random
import time

from companion.live.app import demo_watcher
from companion.rules.game import Game, Options
from companion.rules.simulate import greedy, simulate
from companion.session.nizam import TableSession
from companion.store import GameStore
from tools.showcase import play_out

from .helpers import button, start_game_on_screen, tap, tap_cell


def wait_until(driver, predicate, seconds=60.0):
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        driver.frames(1)
        time.sleep(0.01)


def test_N13_demo_recording_plays_on_screen_then_a_cell_is_fixed_and_undone(start_app):
    watcher = demo_watcher("nizam", pace=0.0)
    watcher.restart_pause = 1e6  # keep the finished demo on screen
    driver, screen = start_game_on_screen(start_app, watcher.start(), size=(1280, 800))
    try:
        wait_until(driver, lambda: watcher.view().turn == 7)  # the demo's 6 turns are played
        driver.settle()
        view = watcher.view()
        assert [p.score for p in view.players] == [10, 6]
        assert screen.ids.grid._placement is not None  # the grid drawn on the camera picture
        was = view.grid[1][2]
        new = "R" if was != "R" else "B"
        tap_cell(driver, screen.ids.grid, 2, 3)
        tap(driver, screen.picker.buttons[new])
        driver.settle()
        assert watcher.view().grid[1][2] == new
        assert watcher.session.events()[-1]["kind"] == "fix"
        tap(driver, button(screen, "Undo"))
        assert watcher.view().grid[1][2] == was
        assert watcher.session.events()[-1]["kind"] == "undo"
    finally:
        watcher.close()


class Camera:
    """The session as the screen sees it, with what a camera would report fed in by hand."""

    kind = "table"

    def __init__(self, session):
        self.session = session

    def view(self):
        return self.session.view()

    def camera(self):
        return None, None

    def tap(self, action, *args):
        self.session.tap(action, *args)

    def close(self):
        pass

    def see(self, grid):
        self.session.on_reading(str(grid).split("/"))


def test_N12_a_whole_game_played_by_touches_reaches_game_over(start_app, tmp_path):
    game = Game("classic", 1)
    played = simulate(game, random.Random(4), greedy, max_turns=200)
    assert played.state.ended
    session = TableSession.new(GameStore(tmp_path / "games.sqlite"), game, ["Ann"])
    table = Camera(session)
    driver, screen = start_game_on_screen(start_app, table, size=(800, 480))
    buttons = {"draw": "Draw", "wildcard": "Paid with 3 cards", "end_turn": "End turn"}

    def clean(_report):
        assert session.message == "", session.message

    def press(action):
        tap(driver, button(screen, buttons[action]))

    play_out(played, session, table.see, press, after_turn=clean)
    driver.settle()
    assert session.view().ended and session.state.rules.scores == played.state.scores
    assert driver.app.manager.current == "gameover"
    assert driver.app.gameover_screen.ids.headline.text.startswith("Ann")


def test_N1_a_card_unread_on_the_opening_layout_is_tapped_and_named_and_the_game_starts(
        start_app, tmp_path):
    # a table that asks for a card the camera cannot read before the game starts
    game = Game("classic", 2, Options(unread_cards="ask"))
    session = TableSession.new(GameStore(tmp_path / "games.sqlite"), game, ["Ann", "Bob"])
    table = Camera(session)
    driver, screen = start_game_on_screen(start_app, table, size=(800, 480))
    session.on_reading(["RG?GY", "CRVPB", "RGYOC", "BVPRO", "YGCBV"])  # every frame alike
    driver.settle()
    assert session.state.phase == "opening"
    grid = screen.ids.grid
    assert grid.cells[0] == "RG?GY" and grid.marks.highlight == ((1, 3),)
    assert "tap the card marked ?" in screen.ids.prompt.text
    assert screen.ids.header.title == "Name the card marked ?"  # what the prompt asks
    assert screen.ids.draw.disabled and screen.hint.overlay.button.disabled
    assert not any(row.active for row in screen._rows)  # no one's turn yet
    tap_cell(driver, grid, 1, 3)
    assert screen.picker.title.startswith("The camera cannot read row 1, column 3")
    tap(driver, screen.picker.buttons["O"])
    assert session.message == ""
    assert [e["kind"] for e in session.events()] == ["fix", "setup"]
    assert str(session.state.grid) == "RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"
    assert grid.cells[0] == "RGOGY" and grid.marks.highlight == ()
    assert "Ann's turn" in screen.ids.header.title and not screen.ids.draw.disabled
    assert screen._rows[0].active


def test_N1_a_card_unread_on_the_opening_layout_is_laid_provisionally_and_named_by_a_tap(
        start_app, tmp_path):
    session = TableSession.new(GameStore(tmp_path / "games.sqlite"), Game("classic", 2),
                               ["Ann", "Bob"])
    table = Camera(session)
    driver, screen = start_game_on_screen(start_app, table, size=(800, 480))
    session.on_reading(["RG?GY", "CRVPB", "RGYOC", "BVPRO", "YGCBV"])  # every frame alike
    driver.settle()
    assert session.state.phase == "play"  # the game goes on
    grid = screen.ids.grid
    named = session.state.grid.at(1, 3)
    assert grid.cells[0] == f"RG{named}GY" and (1, 3) in grid.marks.highlight
    assert "The camera cannot read the card in row 1, column 3: it counts as" in (
        screen.ids.prompt.text)
    assert "Ann's turn" in screen.ids.header.title and not screen.ids.draw.disabled
    tap_cell(driver, grid, 1, 3)
    tap(driver, screen.picker.buttons["Y"])
    assert session.message == ""
    assert [e["kind"] for e in session.events()] == ["setup", "fix"]
    assert str(session.state.grid) == "RGYGY/CRVPB/RGYOC/BVPRO/YGCBV"
    assert grid.cells[0] == "RGYGY" and (1, 3) not in grid.marks.highlight
    assert "cannot read" not in screen.ids.prompt.text
