"""The touchscreen (Kivy): screens that draw ``companion.view`` values and send taps.

Importing this package does not import Kivy; ``run_app`` sets Kivy up first
(``env.prepare_kivy``), then builds the app (``app.CompanionApp``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .env import prepare_kivy

if TYPE_CHECKING:
    from companion.view import Controller, PastGameEntry

    from .hooks import CalibrationHooks


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

