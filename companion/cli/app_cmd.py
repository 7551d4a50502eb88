"""``companion`` (or ``companion app``): the touchscreen app.

With no camera it plays the bundled demo recording, so a new user sees it working at once.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.errors import BadInput

from .common import finite_positive


def register(sub: Any) -> None:
    p = sub.add_parser("app", help="the touchscreen app (what `companion` alone starts)")
    add_arguments(p)
    p.set_defaults(handler=run)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--demo", action="store_true",
                   help="play the demo recording even when a camera is there")
    p.add_argument("--size", metavar="WxH", help="window size, e.g. 800x480")
    p.add_argument("--fullscreen", action=argparse.BooleanOptionalAction, default=None,
                   help="fill the screen (default: on a Raspberry Pi)")
    p.add_argument("--no-learning", dest="learn", action="store_false",
                   help="read cards with the calibrated colours alone (by default they keep "
                   "learning from the cells the game confirms)")
    p.add_argument("--seconds", type=finite_positive,
                   help="close the app after this many seconds")


def _size(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() and int(p) > 0 for p in parts):
        raise BadInput(f"--size {text!r}: give it as WIDTHxHEIGHT, e.g. 800x480")
    return int(parts[0]), int(parts[1])


def run(args: argparse.Namespace) -> int:
    from companion.live.app import demo_watcher, open_companion
    from companion.ui import run_app
    from companion.ui.hooks import CalibrationHooks

    size = _size(args.size)
    companion = open_companion(learn_colours=args.learn)
    camera = None if args.demo else companion.camera()
    initial = (lambda: demo_watcher("nizam").start()) if camera is None else None
    run_app(companion.start_game, games=companion.games, resume_game=companion.resume_game,
            calibration=CalibrationHooks(companion.read_layout, companion.save_palette),
            export_record=companion.export_record, size=size, fullscreen=args.fullscreen,
            initial=initial, seconds=args.seconds)
    return 0
