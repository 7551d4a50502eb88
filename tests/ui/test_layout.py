"""The screen read at arm's length: at 800x480 and 1280x800, with 1, 3 and 5 players of
20-character names, the header and the Menu are whole, no text is cut, every button is a
big touch target and the scores are large; a refused move is told in plain words with its
way back drawn on the grid; a finished game ranks everyone and reopens on its result."""

from dataclasses import replace

import numpy as np
import pytest

from companion.store import GameStore
from companion.view import PlayerView, Verdict
from companion.words import has_notation
from tools.showcase import StagedTable, before_refusal, play_turns

from .helpers import (
    CORNERS,
    TableDouble,
    button,
    camera_frame,
    nizam_views,
    pearl_view,
    start_game_on_screen,
    tap,
    tap_at,
)
from .layout import on_screen, problems_of

NAMES = ("Oleksandra Kovalenko", "Maximilian Oberhause", "Bartholomew Ashcroft",
         "Anastasia Wojcikowsk", "Christopher Fairweat")
assert all(len(n) == 20 for n in NAMES)


def players(n, pearl=False):
    return tuple(PlayerView(NAMES[i], 38 + 7 * i, 11, tasks_left=tuple("RYCV") if pearl else (),
                            last_turn=12 if i else None) for i in range(n))


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
@pytest.mark.parametrize("count", [1, 3, 5])
def test_header_menu_text_buttons_and_scores_fit_with_long_names(start_app, size, count):
    views = nizam_views(NAMES[:count])
    prompt = f"{NAMES[count - 1]}'s turn: draw 3 cards (tap Draw) or shift a row or column."
    refused = replace(views[4], players=players(count), active=count - 1, turn=14,
                      deck_runs_out=4, deck_runs_out_limit=5, deck=107, discard=104,
                      prompt=prompt)
    pearl = replace(pearl_view(), players=players(count, pearl=True), active=count - 1,
                    prompt=prompt, verdict=views[2].verdict)
    moved = replace(refused, verdict=Verdict(True, ("r2<", "c4^", "r5>!3"), "1 R + 1 B + 3 cards"),
                    combinations=refused.combinations * 2, turn_points=7)
    games = {"nizam": TableDouble([refused, moved], frame=camera_frame(), corners=CORNERS),
             "pearl": TableDouble([pearl])}
    driver = start_app(size=size, start_game=lambda header: games[header["game"]])
    app = driver.app
    found = []
    for game, title in (("nizam", "Nizam"), ("pearl", "Pearl of the East")):
        tap(driver, button(app.start_screen, title))
        tap(driver, button(app.start_screen, "Start the game"))
        screen = app.table_screen
        header = screen.ids.header
        assert NAMES[count - 1] in header.title
        for part in (header, header.ids.title, header.ids.menu):
            x, y = part.to_window(part.x, part.y)
            assert x >= 0 and x + part.width <= size[0] and y + part.height <= size[1], part
        driver.frames(16)  # long notes are drawn smaller over a few frames
        found += problems_of(app.root, size, game)
        if game == "nizam":
            scores = [row.ids.score for row in screen._rows]
            assert all(label.font_size >= 32 * size[0] / 800 for label in scores)
            assert screen.ids.illegal.text and screen.ids.illegal.width == size[0]
            app.controller.index = 1  # a long legal move, its lines, and the prompt
            driver.settle()
            driver.frames(16)
            assert screen.ids.verdict.text.startswith("Row 2 moved left, then column 4")
            found += problems_of(app.root, size, "nizam, a long move")
        app.game_over(replace(app.controller.view(), ended=True, winners=(0,)))
        driver.settle()
        found += problems_of(app.root, size, f"{game} over")
        tap(driver, button(app.gameover_screen, "New game"))
    assert found == [], "\n".join(found)


def test_N4_a_refused_shift_by_real_touches_in_plain_words_with_its_way_back_drawn(
        start_app, tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    table, wrong = before_refusal(store, ("Ann", "Bob", "Cid"), seed=0)
    session = table.session
    before = session.state.grid
    driver, screen = start_game_on_screen(start_app, table, size=(800, 480))
    name = session.view().players[session.view().active].name
    assert session.view().players[session.view().active].hand == 0
    assert screen.ids.end_turn.disabled  # nothing moved yet
    clean = driver.pixels()
    # The player, with no card in hand, shifts a row: the camera sees it.
    table.see(wrong)
    driver.settle()
    text = screen.ids.illegal.text
    assert text.startswith("[b]Not allowed: Row 2 moved left.[/b]")
    assert f"{name} holds 0 cards and the move costs 1" in text
    assert "Put it back: move row 2 right" in text
    assert screen.ids.grid.marks.arrows == (("r2<", "illegal"), ("r2>", "fix"))
    shown = [w.text for w in driver.app.root.walk() if getattr(w, "text", "")
             and on_screen(w, driver.app.root)]
    assert shown and not any(has_notation(t) for t in shown), shown
    # The way back is drawn on the grid: blue "put back" arrow pixels that were not there.
    grid = screen.ids.grid
    x0, y0 = (int(v) for v in grid.to_window(grid.x, grid.y))
    region = (slice(480 - y0 - int(grid.height), 480 - y0), slice(x0, x0 + int(grid.width)))
    fix = np.array([0x40, 0xC4, 0xFF])

    def fix_pixels(image):
        return int((np.abs(image[region].astype(int) - fix).sum(axis=2) < 40).sum())

    assert fix_pixels(driver.pixels()) > fix_pixels(clean) + 200
    # End turn stays greyed: a refused move is no move. The player puts the row back and
    # draws instead, by touch.
    assert screen.ids.end_turn.disabled
    tap_at(driver, *screen.ids.end_turn.to_window(*screen.ids.end_turn.center))
    table.see(before)
    driver.settle()
    assert screen.ids.illegal.text == ""
    tap(driver, button(screen, "Draw"))
    assert session.events()[-1]["kind"] == "draw"
    assert session.view().active != session.history[-2].rules.active


def test_N13_game_over_ranks_everyone_with_their_points(start_app):
    view = replace(nizam_views()[-1], players=(
        PlayerView("Ann", 36, 0), PlayerView("Bob", 50, 0), PlayerView("Cid", 43, 0)))
    driver = start_app(start_game=lambda header: TableDouble([view]))
    tap(driver, button(driver.app.start_screen, "Start the game"))
    assert driver.app.manager.current == "gameover"
    rows = list(reversed(driver.app.gameover_screen.ids.results.children))
    assert [(r.rank, r.name, r.score) for r in rows] == [
        ("1st", "Bob", "50 points"), ("2nd", "Cid", "43 points"), ("3rd", "Ann", "36 points")]


def test_a_finished_game_reopens_on_its_result(start_app, tmp_path):
    from companion.session.nizam import TableSession
    from tools.showcase import finished_game

    store = GameStore(tmp_path / "games.sqlite")
    game_id = finished_game(store, ("Ann", "Bob", "Cid"), seed=1)
    driver = start_app(resume_game=lambda i: StagedTable(TableSession(store, i)))
    driver.app.resume_game(game_id)
    driver.settle()
    assert driver.app.manager.current == "gameover"
    assert driver.app.gameover_screen.ids.headline.text == "Bob wins!"
    tap(driver, button(driver.app.gameover_screen, "Back to the table"))
    assert driver.app.manager.current == "table"


def test_a_staged_game_is_played_through_the_real_session(tmp_path):
    import random

    from companion.rules.game import Game
    from companion.rules.simulate import greedy, simulate
    from companion.session.nizam import TableSession

    game = Game("classic", 2)
    played = simulate(game, random.Random(5), greedy, max_turns=400)
    table = StagedTable(TableSession.new(GameStore(tmp_path / "g.sqlite"), game, ["A", "B"]))
    play_turns(table, played)
    assert table.view().ended
    assert [p.score for p in table.view().players] == list(played.state.scores)


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_the_hint_sits_in_the_button_row_and_game_over_keeps_a_place_for_the_story(
        start_app, size):
    game = TableDouble([replace(nizam_views(NAMES)[4], players=players(3))])
    driver, screen = start_game_on_screen(start_app, game, size=size)
    driver.settle()
    (hint,) = [c for c in screen.ids.extra.children if c.text == "Hint"]
    assert hint.width >= 48 and hint.height >= 48
    assert hint.width == pytest.approx(screen.ids.draw.width, abs=2)  # a button's share
    assert problems_of(driver.app.root, size, "with a hint button") == []
    story = driver.app.gameover_screen.ids.story
    assert story.size_hint_y == 1  # the space left on game over, for a chart


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_D5_the_sands_screen_fits_two_long_names(start_app, size):
    from .helpers import SandsDouble, sands_views

    views = [replace(v, players=NAMES[:2]) for v in sands_views()]
    driver, screen = start_game_on_screen(start_app, SandsDouble(views), "The Desert Sands",
                                          size=size)
    assert NAMES[0] in screen.ids.header.title
    found = problems_of(driver.app.root, size, "sands")
    tap(driver, button(screen, "Call lilac"))
    found += problems_of(driver.app.root, size, "sands, a call made")
    assert found == [], "\n".join(found)
    bars = screen.ids.scores
    assert len(bars.name_widths) == 2
    assert all(drawn <= room for drawn, room in bars.name_widths.values())


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_cards_in_hand_and_task_letters_are_read_at_arm_s_length_with_five_players(
        start_app, size):
    from kivy.graphics import Rectangle

    from companion.ui.textures import text_texture
    from companion.ui.theme import TEXT

    scale = size[0] / 800
    readable = 16 * scale  # px: the least a player reads at arm's length on the 7" display
    games = {"nizam": TableDouble([replace(nizam_views(NAMES)[1], players=players(5))]),
             "pearl": TableDouble([replace(pearl_view(), players=players(5, pearl=True))])}
    driver = start_app(size=size, start_game=lambda header: games[header["game"]])
    app = driver.app
    for title in ("Nizam", "Pearl of the East"):
        tap(driver, button(app.start_screen, title))
        tap(driver, button(app.start_screen, "Start the game"))
        driver.frames(4)
        rows = app.table_screen._rows
        assert [row.ids.hand.text for row in rows] == ["11 cards"] * 5
        assert all(row.ids.hand.font_size >= readable for row in rows)
        assert problems_of(app.root, size, title) == []
        if title == "Pearl of the East":
            letter = text_texture("R", int(readable), TEXT).height
            for row in rows:
                drawn = [i for i in row.ids.tasks._snapshot.fbo.children
                         if type(i) is Rectangle and i.texture is not None]
                assert len(drawn) == 8 and min(r.size[1] for r in drawn) >= letter
        app.leave_game()
