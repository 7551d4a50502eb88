"""Every screen as a PNG at each screen size (``python -m tools.screenshots DIR``).

The games shown are whatever ``start_game`` makes of the default headers (the demo, when
the session has no camera); ``play(controller)``, when given, advances each one a few turns
first so the screens have something to show. ``fresh`` gives each size a clean app (its
own store) and the games staged in the states players meet: five long names, a refused
move, a real game over reopened on its result. The Desert Sands is shot once its odds are
worked out, with a call made, and played to its winner; calibration at each step.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.rules.setup import NIZAM, PEARL, GameSetup, player_names
from companion.session.kinds import KINDS
from companion.ui import theme
from companion.ui.hooks import CalibrationHooks, stone_hooks

from .driver import AppDriver

if TYPE_CHECKING:
    from companion.ui.app import CompanionApp
    from companion.view import Controller, PastGameEntry, SandsController

PICTURE_WAIT = 3.0
"""Seconds the stone camera set-up and the calibration wait for the camera's first picture."""
ODDS_WAIT = 120.0
"""Seconds The Desert Sands' shot waits for its odds to be worked out (a cold cache)."""


def default_headers() -> tuple[dict[str, Any], ...]:
    """A game of each kind with the start screen's defaults, three players in Nizam and
    two in the others."""
    return tuple(GameSetup(kind, player_names((), 3 if kind == NIZAM else 2)).recording_header()
                 for kind in KINDS)


def write_screenshots(
    directory: str | Path,
    sizes: Sequence[tuple[int, int]],
    *,
    start_game: Callable[[dict[str, Any]], Controller | None] | None = None,
    games: Callable[[], Sequence[PastGameEntry]] | None = None,
    resume_game: Callable[[int], Controller] | None = None,
    calibration: CalibrationHooks | None = None,
    export_record: Callable[[int], str] | None = None,
    headers: Sequence[dict[str, Any]] | None = None,
    play: Callable[[Controller], None] | None = None,
    fresh: Callable[[], dict[str, Any]] | None = None,
) -> list[Path]:
    """Render every screen at each of ``sizes`` (``tools.screenshots.SIZES``, the sizes Kivy
    was set up for) into ``directory``; returns the PNGs written,
    named ``<screen>_<width>x<height>.png``. Call it before anything else creates a Kivy
    window (``prepare_kivy`` first).

    ``fresh()``, when given, is called once per size for a clean state (no saved game of
    one size shows in the other): it returns any of the keyword arguments above, plus
    ``staged`` (``{name: make_controller}``: games in a given state, each shot as
    ``name``) and ``finished`` (makes a finished game in the store, returns its id: it is
    reopened, so the shot is its result)."""
    from companion.ui.app import CompanionApp

    out = Path(directory)
    written: list[Path] = []
    for width, height in sizes:
        services: dict[str, Any] = {"start_game": start_game, "games": games,
                                    "resume_game": resume_game, "calibration": calibration,
                                    "export_record": export_record}
        extra = dict(fresh()) if fresh is not None else {}
        staged = extra.pop("staged", {})
        finished = extra.pop("finished", None)
        services.update(extra)
        make = services.pop("start_game")
        if make is None:
            raise ValueError("write_screenshots needs start_game")
        app = CompanionApp(make, **services)
        driver = AppDriver(app, (width, height))
        try:
            shots = _Shots(driver, out, f"{width}x{height}")
            _shoot_games(shots, app, headers or default_headers(), play)
            for name, controller in staged.items():
                app.attach(controller())
                shots.take(name)
                app.leave_game()
            if finished is not None:
                app.resume_game(finished())
                shots.take("nizam_over")
                app.leave_game()
            _shoot_past_games(shots, app)
            _shoot_calibration(shots, app)
            written += shots.written
        finally:
            driver.close()
    return written


class _Shots:
    def __init__(self, driver: AppDriver, out: Path, suffix: str) -> None:
        self.driver, self.out, self.suffix = driver, out, suffix
        self.written: list[Path] = []

    def take(self, name: str) -> None:
        self.driver.settle()
        self.written.append(self.driver.screenshot(self.out / f"{name}_{self.suffix}.png"))

    def wait(self, ready: Callable[[], bool], seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while not ready() and time.monotonic() < deadline:
            self.driver.frames(1)
            time.sleep(0.02)
        self.driver.settle()
        return ready()


def _shoot_games(shots: _Shots, app: CompanionApp, headers: Sequence[dict[str, Any]],
                 play: Callable[[Controller], None] | None) -> None:
    shots.take("start")
    app.start_screen.set_game(PEARL)  # its rule options in its own words: tasks, no points
    shots.take("start_pearl")
    app.start_screen.set_game(NIZAM)
    for header in headers:
        game = str(header["game"])
        app.begin_game(header)
        shots.driver.settle()
        controller = app.controller
        if controller is None:
            continue  # the banner says why; the start screen shot shows it
        if controller.kind == "sands":
            _shoot_sands(shots, app, controller, play)
        else:
            if play is not None:
                play(controller)
            shots.take(game)
            app.table_screen.cell_tapped(2, 3)
            shots.take(f"{game}_fix_cell")
            if app.table_screen.picker is not None:
                app.table_screen.picker.dismiss()
            if controller.view().ended:
                app.game_over(controller.view())
                shots.take(f"{game}_over")
        app.leave_game()


def _shoot_past_games(shots: _Shots, app: CompanionApp) -> None:
    """The start screen once games were played: Continue, and the past games."""
    shots.driver.settle()
    if app.start_screen.past:
        shots.take("start_with_games")
        popup = app.start_screen.open_past_games()
        shots.take("past_games")
        popup.dismiss()


def _odds_known(controller: SandsController) -> bool:
    view = controller.view()
    return bool(view.calls) and not any(math.isnan(o.p_win) for o in view.calls.values())


def _shoot_sands(shots: _Shots, app: CompanionApp, controller: SandsController,
                 play: Callable[[Controller], None] | None) -> None:
    """The odds being worked out (only when they are not yet), worked out, a call made, a
    few calls on, the stone camera set-up, and the game played to its winner."""
    if not _odds_known(controller):
        shots.take("sands_working_out")
        shots.wait(lambda: _odds_known(controller), ODDS_WAIT)
    shots.take("sands")
    best = controller.view().best
    if best:
        controller.tap("call", best)
        shots.take("sands_called")
        controller.tap("undo")
    if play is not None:
        play(controller)
        shots.take("sands_played")
    camera = controller.stone_camera()
    if camera is not None and stone_hooks(controller) is not None:
        _shoot_stones(shots.driver, app, camera.spot().camera, shots.take)
    for _ in range(200):  # a real end: calls until one player passes the line
        view = controller.view()
        if view.ended:
            break
        left = [s for s in theme.STONES if view.bag.get(s, 0)]
        call = view.best or left[0]
        controller.tap("call", call)
        controller.tap("drawn", call if call in left else left[0])
    if controller.view().ended:
        shots.take("sands_over")


def _shoot_calibration(shots: _Shots, app: CompanionApp) -> None:
    """The wizard's steps: the live look, the cards read, a card being fixed, the save."""
    app.open_calibration()
    screen = app.calibration_screen
    if app.calibration_hooks is None:
        shots.take("calibration")
        app.close_calibration()
        return
    shots.wait(lambda: screen.frame is not None, PICTURE_WAIT)
    shots.take("calibration_1_lay_out")
    screen.next_step()
    shots.driver.settle()
    shots.take("calibration_2_check")
    if screen.step == 1:
        screen.cell_tapped(2, 3)
        shots.take("calibration_2_fix_card")
        if screen.picker is not None:
            screen.picker.dismiss()
        screen.go(2)  # shown, not saved: a screenshot must not replace the players' palette
        shots.take("calibration_3_save")
    app.close_calibration()


def _shoot_stones(driver: AppDriver, app: CompanionApp, camera: bool,
                  shot: Callable[[str], None]) -> None:
    """The stone camera set-up, with the spot marked in the middle of the picture when the
    camera gives one (``camera``: there is a camera to wait for)."""
    app.open_stones()
    screen = app.stones_screen
    deadline = time.monotonic() + PICTURE_WAIT
    while camera and screen.frame is None and time.monotonic() < deadline:
        driver.frames(1)
        time.sleep(0.02)
    size = screen.ids.picture.frame_size
    if size is not None and screen.mark is None:
        screen.spot_tapped(size[0] / 2, size[1] / 2)
    shot("sands_stones")
    app.close_stones()
