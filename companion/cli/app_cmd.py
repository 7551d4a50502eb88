"""``companion`` (or ``companion app``): the touchscreen app.

With no camera it plays the bundled demo recording, so a new user sees it working at once.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from companion.errors import BadInput

from .common import finite_positive, output_path


def register(sub: Any) -> None:
    p = sub.add_parser("app", help="the touchscreen app (what `companion` alone starts)")
    add_arguments(p)
    p.set_defaults(handler=run)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--demo", action="store_true",
                   help="play the demo recording even when a camera is there")
    p.add_argument("--screenshot", metavar="DIR", type=Path,
                   help="write a PNG of every screen at 800x480 and 1280x800, then exit")
    p.add_argument("--size", metavar="WxH", help="window size, e.g. 800x480")
    p.add_argument("--fullscreen", action=argparse.BooleanOptionalAction, default=None,
                   help="fill the screen (default: on a Raspberry Pi)")
    p.add_argument("--seconds", type=finite_positive,
                   help="close the app after this many seconds")


def _size(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() and int(p) > 0 for p in parts):
        raise BadInput(f"--size {text!r}: give it as WIDTHxHEIGHT, e.g. 800x480")
    return int(parts[0]), int(parts[1])


def _advance(controller: Any) -> None:
    """For screenshots: let a demo game run a few turns, or call a few Desert Sands stones."""
    if hasattr(controller, "frames_read"):
        deadline = time.monotonic() + 60
        while controller.view().turn < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        return
    for call, drawn in (("red", "yellow"), ("green", "green"), ("lilac", "red")):
        controller.tap("call", call)
        controller.tap("drawn", drawn)


def run(args: argparse.Namespace) -> int:
    from companion.app import Companion, demo_watcher, open_companion, usable_palette
    from companion.store import GameStore
    from companion.ui import run_app, write_screenshots
    from companion.ui.hooks import CalibrationHooks

    size = _size(args.size)
    if args.screenshot is not None:
        output_path(str(args.screenshot), "--screenshot", folder=True)

        def fresh() -> dict[str, Any]:
            """Each size its own store: nothing of one size's games shows in the other."""
            shows = Companion(GameStore(":memory:"), demo_games=True,
                              palette=usable_palette()[0])
            return {"start_game": lambda h: _fast_demo(shows, h), "games": shows.games,
                    "resume_game": shows.resume_game, "export_record": shows.export_record,
                    "calibration": CalibrationHooks(shows.read_layout, shows.save_palette),
                    **_staged(shows)}

        written = write_screenshots(args.screenshot, play=_advance, fresh=fresh)
        for path in written:
            print(path)
        return 0
    companion = open_companion()
    camera = None if args.demo else companion.camera()
    initial = (lambda: demo_watcher("nizam").start()) if camera is None else None
    run_app(companion.start_game, games=companion.games, resume_game=companion.resume_game,
            calibration=CalibrationHooks(companion.read_layout, companion.save_palette),
            export_record=companion.export_record, size=size, fullscreen=args.fullscreen,
            initial=initial, seconds=args.seconds)
    return 0


def _staged(shows: Any) -> dict[str, Any]:
    """Real games in the states players meet, for the screenshots (``companion.showcase``):
    five players with long names, a move the rules refuse, a finished game."""
    from companion.showcase import LONG_NAMES, finished_game, refused_move, staged_game

    return {
        "staged": {
            "nizam_5_players": lambda: staged_game(shows.store, LONG_NAMES, seed=0, turns=6),
            "nizam_illegal": lambda: refused_move(shows.store, LONG_NAMES, seed=0),
            "pearl_5_players": lambda: staged_game(shows.store, LONG_NAMES, mode="pearl",
                                                   seed=2, turns=8),
        },
        "finished": lambda: finished_game(shows.store, ["Ann", "Bob", "Cid"], seed=1),
    }


def _fast_demo(companion: Any, header: dict[str, Any]) -> Any:
    from companion.session.kinds import TABLE_SCREEN, kind_of

    if kind_of(header).screen != TABLE_SCREEN:
        return companion.start_game(header)
    from companion.app import demo_watcher

    return demo_watcher(header["game"], pace=0.0).start()
