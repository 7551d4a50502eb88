"""Test doubles of the session (controllers that play a fixed script of views and record
every tap) and real touches on the app's widgets."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.view import (
    CallOdds,
    PlayerView,
    SandsView,
    ScoredCombination,
    TableView,
    Verdict,
)

GRID = ("RROGY", "CBVPR", "GGYOC", "BVPRO", "YGCBV")
CORNERS = ((420.0, 120.0), (860.0, 130.0), (850.0, 600.0), (410.0, 590.0))


def tap_at(driver, x, y):
    """A finger down and up at window coordinates, through Kivy's input dispatch."""
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x, y)
    touch.touch_down()
    driver.frames(1)
    touch.touch_up()
    driver.frames(1)


def tap(driver, widget):
    driver.settle()  # show the newest view and lay it out, as a player sees it before a tap
    assert widget.get_root_window() is not None, f"{widget} is not on screen"
    assert not widget.disabled, f"{getattr(widget, 'text', widget)!r} is disabled"
    tap_at(driver, *widget.to_window(*widget.center))
    driver.settle()


def tap_cell(driver, grid_view, row, col):
    driver.frames(2)
    x, y = grid_view.cell_centre(row, col)
    tap_at(driver, *grid_view.to_window(x, y))
    driver.settle()


def start_game_on_screen(start_app, controller, game="Nizam", shows=None, **kwargs):
    """The real app, a game chosen and started on the start screen by touches, and the
    game's screen showing ``controller`` (``shows``: the screen expected instead, as
    "gameover" for a game already over); returns (driver, screen)."""
    driver = start_app(start_game=lambda header: controller, **kwargs)
    start = driver.app.start_screen
    tap(driver, button(start, game))
    tap(driver, button(start, "Start the game"))
    screen = driver.app.manager.current_screen
    assert screen.name == (shows or ("sands" if game == "The Desert Sands" else "table"))
    return driver, screen


def export_at_game_over(driver, headline):
    """On the game-over screen: check who won, tap Export; returns the screen."""
    assert driver.app.manager.current == "gameover"
    over = driver.app.gameover_screen
    assert over.ids.headline.text == headline
    tap(driver, button(over, "Export the game record"))
    return over


def button(root, text):
    """The one on-screen button whose text is ``text``."""
    from kivy.uix.button import Button

    found = [w for w in root.walk() if isinstance(w, Button) and w.text == text]
    assert len(found) == 1, f"{len(found)} buttons say {text!r}"
    return found[0]


def window_button(driver, text):
    """A button anywhere in the window, pop-ups included."""
    from kivy.uix.button import Button

    found = [w for child in driver.window.children for w in child.walk()
             if isinstance(w, Button) and w.text == text and w.get_root_window() is not None]
    assert found, f"no button says {text!r}"
    return found[0]


def camera_frame(width=1280, height=720, seed=0):
    """A BGR frame with 25 coloured cards where ``CORNERS`` says the grid is."""
    rng = np.random.default_rng(seed)
    frame = np.full((height, width, 3), 60, np.uint8)
    frame += rng.integers(0, 20, frame.shape, dtype=np.uint8)
    xs = np.linspace(415, 855, 6).astype(int)
    ys = np.linspace(125, 595, 6).astype(int)
    for r in range(5):
        for c in range(5):
            frame[ys[r] + 4 : ys[r + 1] - 4, xs[c] + 4 : xs[c + 1] - 4] = rng.integers(
                40, 255, 3, dtype=np.uint8
            )
    return frame


def nizam_views(players=("Ann", "Bob", "Cid")):
    """A short Nizam game: a draw, a legal shift that scores, an illegal one, the end."""
    people = tuple(PlayerView(name, 0, 3) for name in players)
    names = list(players) + ["Ann", "Bob", "Cid"][len(players):]
    first, second = names[0], names[1 % len(players)]
    start = TableView("nizam", people, 0, 1, GRID, deck=65, discard=0,
                      deck_runs_out_limit=len(players), prompt=f"{first}'s turn: draw or shift.",
                      game_id=7, actions=("draw", "wildcard"))
    drew = replace(start, active=1 % len(players), turn=2, deck=62,
                   players=(replace(people[0], hand=6, last_turn=0),) + people[1:],
                   prompt=f"{second}'s turn: draw or shift.",
                   actions=("draw", "wildcard", "undo"))
    shifted = replace(
        drew,
        verdict=Verdict(True, ("r3<",), "1 emerald", cells=((3, 1), (3, 2), (3, 3))),
        prompt=f"{second}: shift again, or tap End turn to score.",
        actions=("end_turn", "wildcard", "undo"),
    )
    scorer = PlayerView(second, 3, 2, last_turn=3)
    scored = replace(
        shifted, active=2 % len(players), turn=3, discard=3,
        players=((drew.players[0], scorer) + people[2:])[:len(players)] if len(players) > 1
        else (replace(scorer, name=first),),
        combinations=(ScoredCombination("G", ((3, 1), (3, 2), (3, 3)), 3),),
        turn_points=3, highlight=((3, 1), (3, 2), (3, 3)), scoring=True,
        prompt="Take the highlighted cards to the discard pile.", actions=("undo",),
    )
    illegal = replace(
        scored, scoring=False,
        verdict=Verdict(False, ("c2^",), "",
                        reason="illegal: N4: c2^: player 2 holds 0 cards and the shift costs 1",
                        cells=((1, 2), (5, 2)), undo_hint="to put it back: c2v"),
        actions=("draw", "undo"),
    )
    over = replace(scored, scoring=False, ended=True, winners=(1 % len(players),), deck=0,
                   deck_runs_out=3, prompt=f"Game over: {second} wins.", actions=("undo",))
    return [start, drew, shifted, scored, illegal, over]


def pearl_view():
    people = (PlayerView("Ann", 0, 3, tasks_left=tuple("ROYGCBVP")),
              PlayerView("Bob", 0, 4, tasks_left=tuple("RYCV")))
    grid = ("RROGY", "CB*PR", "GGYOC", "BVPRO", "YGCBV")
    return TableView("pearl", people, 1, 5, grid, deck=30, discard=4, pearl=(2, 3),
                     combinations=(ScoredCombination("R", ((1, 1), (1, 2)), 0),),
                     prompt="Bob's turn: draw or shift.", game_id=8)


class TableDouble:
    """A controller that plays ``views`` in order: each tap in ``advance_on`` moves on one."""

    kind = "table"

    def __init__(self, views, advance_on=("draw", "wildcard", "end_turn", "confirm_misread"),
                 frame=None, corners=None):
        self.views = list(views)
        self.index = 0
        self.taps = []
        self.advance_on = advance_on
        self.frame = frame
        self.corners = corners
        self.closed = False

    def view(self):
        return self.views[self.index]

    def camera(self):
        return self.frame, self.corners

    def tap(self, action, *args):
        self.taps.append((action, *args))
        if action == "undo":
            self.index = max(0, self.index - 1)
        elif action in self.advance_on:
            self.index = min(len(self.views) - 1, self.index + 1)
        elif action == "fix":
            row, col, letter = args
            view = self.views[self.index]
            grid = [list(r) for r in view.grid]
            grid[row - 1][col - 1] = letter
            self.views[self.index] = replace(view, grid=tuple("".join(r) for r in grid))

    def close(self):
        self.closed = True


def odds(p, e, w):
    return CallOdds(p_success=p, expected_points=e, p_win=w)


def sands_views():
    bag = {"red": 12, "yellow": 12, "green": 12, "lilac": 12}
    calls = {"red": odds(0.75, 0.75, 0.48), "yellow": odds(0.5, 1.0, 0.5),
             "green": odds(0.25, 1.25, 0.52), "lilac": odds(0.25, 3.0, 0.55)}
    start = SandsView(("Ann", "Bob"), (0, 0), 0, bag, calls, best="lilac", game_id=9,
                      can_undo=False)
    called = replace(start, called="lilac", can_undo=True)
    drew = replace(start, scores=(12, 0), bag={**bag, "lilac": 11}, best="red", can_undo=True,
                   last="Ann called lilac and drew lilac: +12")
    over = replace(drew, scores=(17, 0), ended=True, winners=(0,),
                   last="Ann called green and drew green: +5")
    return [start, called, drew, over]


class SandsDouble(TableDouble):
    kind = "sands"

    def stone_camera(self):
        return None  # the stones are tapped in

    def __init__(self, views):
        super().__init__(views, advance_on=("call", "drawn"))
