"""The app as a whole: the calibration wizard, every screen fitting the 7" display and a
1280×800 one with big touch targets, the screenshots."""

from dataclasses import replace

import cv2
import pytest

from companion.view import PlayerView
from tests.waiting import wait_for

from .helpers import (
    CORNERS,
    SandsDouble,
    TableDouble,
    button,
    camera_frame,
    nizam_views,
    pearl_view,
    sands_views,
    tap,
    tap_cell,
    window_button,
)
from .layout import problems_of

FIVE = ("Alexandra", "Bartholomew", "Catherine", "Dmitri", "Evangeline")


def test_calibration_wizard_lay_out_check_and_save_in_three_steps(start_app):
    from companion.ui.calibration import CalibrationHooks

    saved = []
    read = ("RRO?Y", "CBVPR", "GGYOC", "BVPRO", "YGCBV")
    hooks = CalibrationHooks(
        read=lambda: (camera_frame(), CORNERS, read, ""),
        save=lambda frame, cells: saved.append((frame.shape, cells)) or "palette.json",
    )
    driver = start_app(calibration=hooks)
    tap(driver, button(driver.app.start_screen, "Calibrate"))
    screen = driver.app.calibration_screen
    driver.settle()
    # Step 1: the camera's live look outlines the grid it sees.
    assert screen.step == 0 and screen.ids.grid._placement is not None
    assert screen.status == "The camera sees the whole grid: tap Read the cards."
    tap(driver, button(screen, "Read the cards"))
    # Step 2: check; an unread card keeps Next greyed until it is chosen.
    assert screen.step == 1
    assert screen.status == "1 card not read: tap it and choose its card."
    assert button(screen, "Next: save").disabled
    tap_cell(driver, screen.ids.grid, 1, 4)
    assert screen.picker.picture.texture is not None  # the camera's picture of the card
    tap(driver, screen.picker.buttons["G"])
    tap(driver, button(screen, "Next: save"))
    # Step 3: save.
    assert screen.step == 2
    tap(driver, button(screen, "Save the colours"))
    assert saved == [((720, 1280, 3), ("RROGY",) + read[1:])]
    assert screen.status == "Saved. palette.json"
    tap(driver, button(screen, "Close"))
    assert driver.app.manager.current == "start"


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_colours_saved_from_a_picture_too_bright_say_so_in_red_and_fit(start_app, size):
    from companion.ui.calibration import CalibrationHooks
    from companion.words import OVER_EXPOSED

    read = ("RROGY", "CBVPR", "GGYOC", "BVPRO", "YGCBV")
    hooks = CalibrationHooks(read=lambda: (camera_frame(), CORNERS, read, ""),
                             save=lambda frame, cells: f"Colours saved. {OVER_EXPOSED}")
    driver = start_app(size=size, calibration=hooks)
    tap(driver, button(driver.app.start_screen, "Calibrate"))
    screen = driver.app.calibration_screen
    driver.settle()
    tap(driver, button(screen, "Read the cards"))
    tap(driver, button(screen, "Next: save"))
    tap(driver, button(screen, "Save the colours"))
    assert screen.status == f"Saved. Colours saved. [color=#ff5252]{OVER_EXPOSED}[/color]"
    assert problems_of(screen, size, "the warning") == []


def test_calibration_says_what_to_fix_when_no_grid_or_part_of_it_is_seen(start_app):
    from companion.ui.calibration import CalibrationHooks

    seen = {"corners": None}

    def look():
        cells = None if seen["corners"] is None else ("RROGY",) * 5
        return camera_frame(), seen["corners"], cells, "no card lattice in view"

    driver = start_app(calibration=CalibrationHooks(read=look, save=lambda frame, cells: ""))
    driver.app.open_calibration()
    screen = driver.app.calibration_screen
    driver.settle()
    assert screen.status == "[color=#ff5252]No grid in view.[/color] No card lattice in view."
    assert button(screen, "Read the cards").disabled
    seen["corners"] = ((2.0, 120.0), (860.0, 130.0), (850.0, 600.0), (3.0, 590.0))
    # the screen's own look (its timer) may be under way with the corners of before, and a
    # look asked meanwhile is that one: looked again until the new corners are shown
    assert wait_for(lambda: "The grid touches the left edge of the picture" in screen.status,
                    step=lambda: (screen.look(), driver.settle()))
    assert screen.ids.grid._placement is not None


def test_calibration_without_hooks_says_it_is_not_available(start_app):
    driver = start_app()
    driver.app.open_calibration()
    screen = driver.app.calibration_screen
    assert screen.status == "Calibration is not available here."
    assert button(screen, "Read the cards").disabled


def test_lens_calibration_is_offered_only_when_it_can_be_done(start_app):
    from companion.ui.hooks import CalibrationHooks

    calls = []
    colours = CalibrationHooks(read=lambda: (None, None, None, ""), save=lambda f, c: "")
    driver = start_app(calibration=colours)
    driver.app.open_calibration()
    lens = button(driver.app.calibration_screen, "Lens from chessboard photos")
    assert lens.disabled and lens.opacity == 0
    driver.close()

    both = replace(colours, lens=lambda: calls.append("lens") or "lens.json")
    driver = start_app(calibration=both)
    driver.app.open_calibration()
    screen = driver.app.calibration_screen
    assert screen.ids.lens.opacity == 1
    tap(driver, button(screen, "Lens from chessboard photos"))
    assert calls == ["lens"] and screen.status == "Saved. lens.json"


def crowded_games():
    five = tuple(PlayerView(name, 38, 11) for name in FIVE)
    nizam = replace(nizam_views()[4], players=five, active=4)
    pearl = replace(pearl_view(), players=tuple(
        replace(p, tasks_left=tuple("RYCV")) for p in five), active=2)
    return {"nizam": nizam, "pearl": pearl}


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_every_screen_fits_and_every_button_is_a_big_touch_target(start_app, size):
    games = crowded_games()

    def start_game(header):
        if header["game"] == "sands":
            return SandsDouble(sands_views())
        return TableDouble([games[header["game"]]], frame=camera_frame(), corners=CORNERS)

    driver = start_app(size=size, start_game=start_game, games=lambda: [],
                       resume_game=lambda i: None)
    app = driver.app
    problems = []
    start = app.start_screen
    for game in ("Nizam", "Pearl of the East", "The Desert Sands"):
        tap(driver, button(start, game))
        if game == "Nizam":
            for _ in range(4):
                start.set_count(start.count + 1)
            driver.settle()
        problems += problems_of(app.root, size, f"start/{game}")
    for game in ("Nizam", "Pearl of the East", "The Desert Sands"):
        tap(driver, button(start, game))
        tap(driver, button(start, "Start the game"))
        problems += problems_of(app.root, size, game)
        if game != "The Desert Sands":
            app.table_screen.cell_tapped(1, 1)
            driver.settle()
            problems += problems_of(app.root, size, f"{game} picker")
            app.table_screen.picker.dismiss()
            tap(driver, window_button(driver, "Menu"))
            problems += problems_of(app.root, size, f"{game} menu")
            tap(driver, window_button(driver, "Back to the game"))
        app.game_over(app.controller.view())
        driver.settle()
        problems += problems_of(app.root, size, f"{game} over")
        tap(driver, button(app.gameover_screen, "New game"))
    app.open_calibration()
    driver.settle()
    problems += problems_of(app.root, size, "calibration")
    assert problems == [], "\n".join(problems)


def test_write_screenshots_renders_every_screen_from_a_clean_state_per_size(tmp_path):
    from tools.screenshots import write_screenshots

    def start_game(header):
        if header["game"] == "sands":
            return SandsDouble(sands_views())
        if header["game"] == "pearl":
            return TableDouble([pearl_view()])
        return TableDouble(nizam_views(), frame=camera_frame(), corners=CORNERS)

    played, made = [], []

    def fresh():
        made.append(1)
        views = nizam_views()
        return {"start_game": start_game,
                "resume_game": lambda game_id: TableDouble(views[-1:]),
                "staged": {"nizam_illegal": lambda: TableDouble(views[4:5])},
                "finished": lambda: 7}

    paths = write_screenshots(tmp_path, sizes=((800, 480), (1280, 800)), fresh=fresh,
                              play=lambda controller: played.append(controller))
    names = sorted(p.name for p in paths)
    assert names == sorted(f"{n}_{size}.png" for size in ("800x480", "1280x800") for n in (
        "start", "start_pearl", "nizam", "nizam_fix_cell", "pearl", "pearl_fix_cell", "sands",
        "sands_called", "sands_played", "sands_over", "nizam_illegal", "nizam_over",
        "calibration"))
    assert len(made) == 2 and len(played) == 6  # a clean app per size
    image = cv2.imread(str(tmp_path / "nizam_illegal_800x480.png"))
    assert image.shape == (480, 800, 3) and image.std() > 20
    assert not list(tmp_path.glob(".*"))


def test_an_app_bigger_than_the_window_is_refused():
    from kivy.base import EventLoop

    from companion.ui.app import CompanionApp
    from tools.driver import AppDriver

    EventLoop.ensure_window()
    w, h = EventLoop.window.size
    with pytest.raises(ValueError, match="too small"):
        AppDriver(CompanionApp(lambda header: None), (w + 1, h))
