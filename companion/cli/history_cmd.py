"""``companion history``: every player's games, wins and best moments over all stored games
(``companion.history`` says what each figure counts)."""

from __future__ import annotations

import argparse
import csv
import io
from pathlib import Path
from typing import Any

from companion.errors import BadInput

from .common import output_path, print_json, write_atomic


def register(sub: Any) -> None:
    p = sub.add_parser(
        "history", help="each player's record over all stored games",
        description="Per player over every game in the game database: games, wins, points "
        "per turn, best turn, longest cascade, Pearl tasks per game, Desert Sands calls and "
        "how often they were the best call.")
    p.add_argument("--store", metavar="DB", help="the game database (default: the app's)")
    p.add_argument("--csv", metavar="FILE", help="also write one row per player to FILE")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from companion.history import COLUMNS, csv_row, history, stories
    from companion.paths import database_path
    from companion.store import GameStore
    from companion.story import solved_best_calls

    out = output_path(args.csv, "--csv") if args.csv is not None else None
    path = Path(args.store) if args.store else database_path()
    if path.is_dir():
        raise BadInput(f"{path}: is a folder, not a game database")
    if not path.is_file():  # opening would create it: a history needs games
        raise BadInput(f"no game database at {path}: no games played yet")
    # History only reads: a database that cannot be written here (a read-only file or
    # folder) is read all the same.
    with GameStore.for_reading(path) as store:
        if not store.games():
            raise BadInput(f"the game database {path} holds no games yet")
        players = history(stories(store, solved_best_calls()))
    if not players:
        raise BadInput(f"the game database {path} holds only replayed recordings")
    if out is not None:
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        writer.writerow(COLUMNS)
        writer.writerows(csv_row(p) for p in players)
        write_atomic(out, text.getvalue())
    if args.json:
        print_json({"players": [p.to_json() for p in players]})
        return 0
    for p in players:
        parts = [f"{p.games} game{'s' * (p.games != 1)}, {p.wins} won"]
        if p.turns:
            parts.append(f"{p.points_per_turn} points a turn")
        if p.best_turn:
            parts.append(f"best turn +{p.best_turn['points']} (game {p.best_turn['game']}, "
                         f"turn {p.best_turn['turn']})")
        if p.longest_cascade:
            parts.append(f"longest cascade {p.longest_cascade}")
        if p.pearl_games:
            parts.append(f"{p.tasks_per_game} Pearl tasks a game")
        if p.calls:
            parts.append(f"{p.calls} Sands calls, {p.best_calls} the best")
        print(f"{p.name}: " + "; ".join(parts))
    return 0
