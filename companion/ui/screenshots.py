"""``companion --screenshot DIR``: every screen as a PNG at each screen size.

The games shown are whatever ``start_game`` makes of the default headers (the demo, when
the session has no camera); ``play(controller)``, when given, advances each one a few turns
first so the screens have something to show.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import theme
from .driver import AppDriver
from .hooks import CalibrationHooks, stone_hooks

SIZES = ((800, 480), (1280, 800))
PICTURE_WAIT = 3.0
"""Seconds the stone camera set-up waits for the camera's first picture."""


def default_headers() -> tuple[dict[str, Any], ...]:
    """A game of each kind with the start screen's defaults."""
    options = {key: choices[0] for key, choices in theme.RULE_OPTIONS.items()}
    names = [f"Player {i}" for i in (1, 2, 3)]
    return (
        {"game": "nizam", "players": names, "options": options},
        {"game": "pearl", "players": names[:2],
         "options": {k: options[k] for k in theme.GAME_OPTIONS["pearl"]}},
        {"game": "sands", "players": names[:2], "bag": {s: 12 for s in theme.STONES}},
    )


def write_screenshots(
    directory: str | Path,
    sizes: Sequence[tuple[int, int]] = SIZES,
    *,
    start_game: Callable[[dict[str, Any]], Any],
    games: Callable[[], Sequence[Any]] | None = None,
    resume_game: Callable[[int], Any] | None = None,
    calibration: CalibrationHooks | None = None,
    export_record: Callable[[int], str] | None = None,
    headers: Sequence[dict[str, Any]] | None = None,
    play: Callable[[Any], None] | None = None,
) -> list[Path]:
    """Render every screen at every size into ``directory``; returns the PNGs written,
    named ``<screen>_<width>x<height>.png``. Call it before anything else creates a Kivy
    window (``prepare_kivy`` first)."""
    from .app import CompanionApp

    out = Path(directory)
    written: list[Path] = []
    for width, height in sizes:
        app = CompanionApp(start_game, games=games, resume_game=resume_game,
                           calibration=calibration, export_record=export_record)
        driver = AppDriver(app, (width, height))
        try:
            written += _shoot_all(driver, app, out, f"{width}x{height}",
                                  headers or default_headers(), play)
        finally:
            driver.close()
    return written


def _shoot_all(driver: AppDriver, app: Any, out: Path, suffix: str,
               headers: Sequence[dict[str, Any]], play: Callable[[Any], None] | None) -> list[Path]:
    written = []

    def shot(name: str) -> None:
        driver.settle()
        written.append(driver.screenshot(out / f"{name}_{suffix}.png"))

    shot("start")
    if app.start_screen.past:
        popup = app.start_screen.open_past_games()
        shot("past_games")
        popup.dismiss()
    for header in headers:
        game = str(header["game"])
        app.begin_game(header)
        driver.settle()
        if app.controller is None:
            continue  # the banner says why; the start screen shot shows it
        if play is not None:
            play(app.controller)
        shot(game)
        if game == "sands" and stone_hooks(app.controller) is not None:
            _shoot_stones(driver, app, shot)
        if game != "sands":
            app.table_screen.cell_tapped(2, 3)
            shot(f"{game}_fix_cell")
            app.table_screen.picker.dismiss()
        app.game_over(app.controller.view())
        shot(f"{game}_over")
        app.leave_game()
    app.open_calibration()
    if app.calibration_hooks is not None:
        app.calibration_screen.read_layout()
    shot("calibration")
    return written


def _shoot_stones(driver: AppDriver, app: Any, shot: Callable[[str], None]) -> None:
    """The stone camera set-up, with the spot marked in the middle of the picture when the
    camera gives one."""
    app.open_stones()
    screen = app.stones_screen
    spot = getattr(app.controller, "spot", None)
    camera = spot is None or spot().camera
    deadline = time.monotonic() + PICTURE_WAIT
    while camera and screen.frame is None and time.monotonic() < deadline:
        driver.frames(1)
        time.sleep(0.02)
    size = screen.ids.picture.frame_size
    if size is not None and screen.mark is None:
        screen.spot_tapped(size[0] / 2, size[1] / 2)
    shot("sands_stones")
    app.close_stones()
