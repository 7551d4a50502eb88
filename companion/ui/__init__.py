"""The touchscreen (Kivy): screens that draw ``companion.view`` values and send taps.

Importing this package does not import Kivy; ``run_app`` and ``write_screenshots`` set Kivy
up first (``env.prepare_kivy``), then build the app (``app.CompanionApp``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .env import prepare_kivy

if TYPE_CHECKING:
    from companion.view import Controller, PastGameEntry

    from .hooks import CalibrationHooks

SCREENSHOT_SIZES = ((800, 480), (1280, 800))


def run_app(
    start_game: Callable[[dict[str, Any]], Controller | None],
    *,
    games: Callable[[], Sequence[PastGameEntry]] | None = None,
    resume_game: Callable[[int], Controller] | None = None,
    calibration: CalibrationHooks | None = None,
    export_record: Callable[[int], str] | None = None,
    size: tuple[int, int] | None = None,
    fullscreen: bool | None = None,
    initial: Callable[[], Controller] | None = None,
    seconds: float | None = None,
) -> None:
    """Open the touchscreen and run until it is closed. See ``app.CompanionApp`` for what
    each argument must do; ``calibration`` is a ``hooks.CalibrationHooks``."""
    prepare_kivy(size=size, fullscreen=fullscreen)
    from .app import CompanionApp

    app = CompanionApp(
        start_game,
        games=games,
        resume_game=resume_game,
        calibration=calibration,
        export_record=export_record,
        initial=initial,
    )
    if seconds is not None:  # a timed run: smoke tests, a shop-window show
        from kivy.clock import Clock

        Clock.schedule_once(lambda _dt: app.stop(), seconds)
    app.run()


def write_screenshots(
    directory: str | Path,
    sizes: Sequence[tuple[int, int]] = SCREENSHOT_SIZES,
    **kwargs: Any,
) -> list[Path]:
    """Every screen as ``<screen>_<W>x<H>.png`` in ``directory`` at each size; the keyword
    arguments are ``run_app``'s, plus ``headers`` and ``play`` (see ``screenshots.py``)."""
    biggest = (max(w for w, _ in sizes), max(h for _, h in sizes))
    prepare_kivy(size=biggest, fullscreen=False, virtual_keyboard=False, max_fps=0)
    from .screenshots import write_screenshots as write

    return write(directory, sizes, **kwargs)
