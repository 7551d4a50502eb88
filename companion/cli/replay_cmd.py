"""``companion replay RECORDING``: the whole pipeline over a recorded game, no screen."""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.words import players_from_one

from .common import output_path, print_json


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay", help="play a recorded game through vision, the session and the rules",
        description="Runs frame source → vision → session → rules over a recording folder "
        "(DESIGN.md) and prints one line per event, then a summary.",
    )
    p.add_argument("recording", help="the recording folder (game.json, frames/, taps.jsonl)")
    p.add_argument("--palette", help="palette file (default: learned from calib.jpg)")
    p.add_argument("--store", default=":memory:",
                   help="game database to log to; a replay killed part way resumes from it")
    p.add_argument("--no-learning", dest="learn", action="store_false",
                   help="read every frame with the calibrated colours alone (by default they "
                   "keep learning from the cells the game confirms)")
    p.add_argument("--json", action="store_true", help="JSON lines")
    p.set_defaults(handler=run)


def _describe(line: dict[str, Any]) -> str:
    frame = f"frame {line['frame']:>5}"
    if "event" in line:
        event = {k: v for k, v in line["event"].items() if k not in ("frame", "tap", "v")}
        kind = event.pop("kind")
        detail = " ".join(f"{k}={v}" for k, v in event.items())
        return f"{frame}  {kind} {detail}  scores {line['scores']}  deck {line['deck']}"
    if "verdict" in line:
        return f"{frame}  refused: {players_from_one(line['verdict']['reason'])}"
    if "refused" in line:
        return f"{frame}  tap {line['tap']} refused: {players_from_one(line['refused'])}"
    return f"{frame}  {line.get('problem', line)}"


def run(args: argparse.Namespace) -> int:
    from calibration.palette import Palette
    from companion.live.playback import open_and_play
    from companion.store import GameStore

    store_path = args.store if args.store == ":memory:" else output_path(args.store, "--store")
    palette = Palette.load(args.palette) if args.palette is not None else None
    emit = print_json if args.json else (lambda line: print(_describe(line)))
    # the database is made (or opened) once the recording is read: a bad one leaves none
    result = open_and_play(args.recording, palette, lambda: GameStore(store_path), emit,
                           learn=args.learn)
    if args.json:
        print_json(result)
    else:
        print(json.dumps(result, indent=None))
    return 0
