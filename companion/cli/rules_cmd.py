"""`companion rules replay`, `companion rules check` (DESIGN.md, "Interfaces"); `explain`
comes from ``rules_explain``, `hint` from ``rules_hint``."""

from __future__ import annotations

import argparse
from typing import Any

from companion.errors import DamagedFile
from companion.rules.combination import find_combinations, phase_points
from companion.rules.game import MODES, OPTION_CHOICES
from companion.rules.grid import GEMS, SIZE
from companion.rules.nizam import apply_shifts
from companion.rules.record import Record, read_record
from companion.rules.replay import game_from_header
from companion.rules.shift import parse_shifts
from companion.session.kinds import CALLS_SCREEN, KINDS, TABLE_SCREEN

from . import rules_explain, rules_hint
from .common import print_json
from .rules_explain import table_grid


def register(sub: Any) -> None:
    p = sub.add_parser("rules", help="replay a game record, score a grid, explain a move",
                       description="The rules of Nizam, Pearl of the East and The Desert Sands.")
    rules = p.add_subparsers(dest="rules_command", metavar="SUBCOMMAND", required=True)

    r = rules.add_parser("replay", help="replay a game record through the rules",
                         description="Replay a .jsonl game record, checking every line; print "
                         "scores, deck and discard counts, run-outs, the end and the winners.")
    r.add_argument("record", metavar="RECORD", help="game record (.jsonl)")
    r.add_argument("--json", action="store_true", help="print one JSON object")
    r.set_defaults(handler=run_replay)

    c = rules.add_parser("check", help="apply shifts to a grid and score it",
                         description="Apply shifts to a grid and score the result: the "
                         "combinations with their cells and points (Pearl: the tasks).")
    c.add_argument("--grid", required=True,
                   help="grid notation, e.g. RROGY/CBVPR/GGYOC/BVPRO/YGCBV")
    c.add_argument("--shifts", default="", help='shifts in order, e.g. "r2< c3^!3"')
    c.add_argument("--mode", choices=MODES, default=MODES[0])
    c.add_argument("--bonus", choices=OPTION_CHOICES["bonus"], default=OPTION_CHOICES["bonus"][0],
                   help="N8 combination bonus (default flat)")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.set_defaults(handler=run_check)

    rules_explain.register_explain(rules)
    rules_hint.register_hint(rules)


def replay_summary(record: Record) -> dict[str, Any]:
    """DESIGN.md's summary of any game record, The Desert Sands included."""
    return KINDS[record.game].replay(record)


def run_replay(args: argparse.Namespace) -> int:
    try:
        record = read_record(args.record)
    except UnicodeDecodeError as err:
        raise DamagedFile(f"{args.record}: not a game record (byte {err.start} is not UTF-8 "
                         "text)") from None
    summary = replay_summary(record)
    if args.json:
        print_json(summary)
        return 0
    texts = {TABLE_SCREEN: _table_text, CALLS_SCREEN: _calls_text}
    print(texts[KINDS[record.game].screen](record, summary))
    return 0


def _players(values: list[Any]) -> str:
    return "  ".join(f"P{p + 1} {v}" for p, v in enumerate(values))


def _winners(summary: dict[str, Any]) -> str:
    if not summary["ended"]:
        return "the game goes on"
    names = [f"P{p + 1}" for p in summary["winners"]]
    if not names:
        return "game over: no winner"
    return f"game over: {' and '.join(names)} {'wins' if len(names) == 1 else 'share the win'}"


def _table_text(record: Record, summary: dict[str, Any]) -> str:
    game = game_from_header(record.header)
    options = ", ".join(f"{k} {v}" for k, v in game.options.to_json().items())
    title = KINDS[record.game].title
    limit = "" if game.deck_limit is None else f" (the game ends at {game.deck_limit})"
    lines = [
        f"{title}, {game.players} player{'s' * (game.players > 1)}; {options}",
        f"{'tasks done' if game.pearl else 'scores'}: {_players(summary['scores'])}",
        f"deck {summary['deck']}, discard {summary['discard']}, the deck ran out "
        f"{summary['deck_runs_out']} time{'s' * (summary['deck_runs_out'] != 1)}{limit}",
    ]
    if game.pearl:
        left = [" ".join(t) or "none" for t in summary["tasks_left"]]
        lines.append("tasks left: " + "   ".join(f"P{p + 1} {t}" for p, t in enumerate(left)))
    lines.append(_winners(summary))
    return "\n".join(lines)


def _calls_text(record: Record, summary: dict[str, Any]) -> str:
    bag = ", ".join(f"{colour} {n}" for colour, n in summary["bag"].items())
    return "\n".join([f"{KINDS[record.game].title}; scores: {_players(summary['scores'])}",
                      f"bag: {bag}", _winners(summary)])


def run_check(args: argparse.Namespace) -> int:
    pearl = args.mode == "pearl"
    grid = apply_shifts(table_grid(args.grid, args.mode), parse_shifts(args.shifts), pearl)
    combos = find_combinations(grid, pearl)
    out: dict[str, Any] = {
        "grid": str(grid),
        "combinations": [c.to_json(points=not pearl) for c in combos],
    }
    if pearl:
        out["tasks"] = [gem for gem in GEMS if any(c.gem == gem for c in combos)]
    else:
        out["points"] = phase_points(combos, args.bonus)
    if args.json:
        print_json(out)
        return 0
    marked = {cell for c in combos for cell in c.cells}
    print(f"grid {grid}" + (f" after {args.shifts.strip()}" if args.shifts.strip() else ""))
    for row in range(1, SIZE + 1):
        print("  " + " ".join(
            f"[{grid.at(row, col)}]" if (row, col) in marked else f" {grid.at(row, col)} "
            for col in range(1, SIZE + 1)))
    for c in combos:
        print(f"  {c}" + ("" if pearl else f"  {c.points} points"))
    if pearl:
        print(f"tasks: {' '.join(out['tasks']) or 'none'}")
    else:
        bonus = f" with the {args.bonus} bonus" if len(combos) > 1 else ""
        print(f"points: {out['points']}{bonus}" if combos else "no combination: 0 points")
    return 0
