"""`companion rules explain`: the shortest shift sequences between two grids (DESIGN.md).

``rules_cmd`` adds it under ``companion rules`` with ``register_explain(rules_sub)``.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.errors import BadInput
from companion.rules.explain import DEFAULT_MAX_SHIFTS, MAX_SHIFTS, Explanation, explain
from companion.rules.game import PEARL_MODE
from companion.rules.grid import Grid
from companion.rules.nizam import check_table_grid

from .common import print_json


def register_explain(rules_sub: Any) -> argparse.ArgumentParser:
    """Add ``explain`` to the subparsers of ``companion rules``; its handler is ``run_explain``."""
    p: argparse.ArgumentParser = rules_sub.add_parser(
        "explain",
        help="the shortest shift sequences that turn one grid into another",
        description="Every shortest sequence of shifts that turns --from into --to, "
        "with the cards each needs (N4, N5, P4).",
    )
    p.add_argument("--from", dest="start", required=True, metavar="GRID", help="grid before")
    p.add_argument("--to", dest="target", required=True, metavar="GRID", help="grid after")
    p.add_argument(
        "--max-shifts",
        type=int,
        default=DEFAULT_MAX_SHIFTS,
        metavar="K",
        help=f"search sequences of up to K shifts (0-{MAX_SHIFTS}, default {DEFAULT_MAX_SHIFTS})",
    )
    p.add_argument(
        "--hand",
        type=int,
        metavar="N",
        help="the active player's hand size: mark which sequences it may pay (by count)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=run_explain)
    return p


def run_explain(args: argparse.Namespace) -> int:
    if args.hand is not None and args.hand < 0:
        raise BadInput(f"--hand {args.hand}: a hand holds 0 or more cards")
    result = explain(table_grid(args.start), table_grid(args.target), args.max_shifts)
    if args.json:
        print_json(result.to_json(args.hand))
    else:
        print("\n".join(describe(result, args.hand)))
    return 0


def table_grid(text: str, mode: str | None = None) -> Grid:
    """The grid ``text`` if some table can hold it (``check_table_grid``), in ``mode`` when
    given."""
    return check_table_grid(Grid.parse(text), None if mode is None else mode == PEARL_MODE)


def describe(result: Explanation, hand: int | None = None) -> list[str]:
    """Lines for a person: one per sequence, grouped by the same shifts in another order."""
    if not result.moves:
        return [f"no sequence of up to {result.searched} shifts turns one grid into the other"]
    if result.length == 0:
        return ["the grids are the same: no shift was made"]
    groups = result.groups()
    lines = [
        f"{len(result.moves)} sequence(s) of {result.length} shift(s)"
        + (f", {len(groups)} set(s) of shifts" if len(groups) != len(result.moves) else "")
        + (f"; hand of {hand}: {len(result.payable(hand))} payable" if hand is not None else "")
    ]
    width = max(len(str(m)) for m in result.moves)
    for n, group in enumerate(groups, start=1):
        for move in group:
            pay = move.payment
            note = f"pays {pay}, hand >= {pay.min_hand}"
            if hand is not None and not pay.payable(hand):
                note += "  (not payable)"
            tag = f"(set {n})" if len(groups) != len(result.moves) else ""
            lines.append(f"  {str(move):<{width}}  {note} {tag}".rstrip())
    return lines
