"""`companion rules hint`: the best turns a hand can pay for (DESIGN.md, "Interfaces").

``rules_cmd`` adds it under ``companion rules`` with ``register_hint(rules_sub)``.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.errors import BadInput
from companion.rules.deck import Cards
from companion.rules.game import MODES, OPTION_CHOICES, PEARL_MODE
from companion.rules.grid import GEMS
from companion.rules.hint import (
    DEFAULT_HINT_SHIFTS,
    MAX_HINT_SHIFTS,
    Hint,
    best_turns,
    check_hand,
)

from .common import print_json
from .rules_explain import table_grid


def register_hint(rules_sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = rules_sub.add_parser(
        "hint", help="the best turns a hand can pay for",
        description="The turns of up to K shifts that the hand pays for (a card of the gem "
        "on the edge each shift moves, or any three cards; the pearl always three) and that "
        "score the most at once, with the cards each spends (N4, N5, P4).")
    p.add_argument("--grid", required=True,
                   help="grid notation, e.g. RROGY/CBVPR/GGYOC/BVPRO/YGCBV")
    p.add_argument("--hand", required=True, metavar="CARDS",
                   help="the gems in the hand of the player to move, e.g. RRGY")
    p.add_argument("--mode", choices=MODES, default=MODES[0])
    p.add_argument("--tasks", metavar="TASKS",
                   help="Pearl of the East: the tasks the player still holds (default all 8)")
    p.add_argument("--bonus", choices=OPTION_CHOICES["bonus"], default=OPTION_CHOICES["bonus"][0],
                   help="N8 combination bonus (default flat)")
    p.add_argument("--max-shifts", type=int, default=DEFAULT_HINT_SHIFTS, metavar="K",
                   help=f"turns of up to K shifts (1-{MAX_HINT_SHIFTS}, "
                   f"default {DEFAULT_HINT_SHIFTS})")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=run_hint)
    return p


def read_hand(text: str) -> Cards:
    """``--hand`` letters as cards; a letter that is no gem is one line naming it."""
    for letter in text:
        if letter not in GEMS:
            raise BadInput(f"--hand {text!r}: {letter!r} is not a gem letter ({GEMS})")
    return Cards.of(text)


def run_hint(args: argparse.Namespace) -> int:
    pearl = args.mode == PEARL_MODE
    if args.tasks is not None and not pearl:
        raise BadInput("--tasks: only Pearl of the East has tasks (add --mode pearl)")
    if not 1 <= args.max_shifts <= MAX_HINT_SHIFTS:
        raise BadInput(f"--max-shifts {args.max_shifts}: must be 1 to {MAX_HINT_SHIFTS}")
    grid = table_grid(args.grid, args.mode)
    hand = check_hand(grid, read_hand(args.hand), pearl)
    tasks = (GEMS if args.tasks is None else args.tasks) if pearl else None
    hint = best_turns(grid, hand, bonus_rule=args.bonus, tasks=tasks,
                      max_shifts=args.max_shifts)
    if args.json:
        print_json(hint.to_json())
    else:
        print("\n".join(describe(hint)))
    return 0


def describe(hint: Hint) -> list[str]:
    """Lines for a person: the best score, then each turn that makes it with its cards."""
    if not hint.turns:
        return [f"nothing scores: no turn of up to {hint.searched} shifts that this hand "
                "pays for makes a line (draw instead)"]
    pearl = hint.tasks is not None
    what = (f"{hint.points} task{'s' * (hint.points != 1)}" if pearl
            else f"{hint.points} point{'s' * (hint.points != 1)}")
    count = len(hint.turns)
    lines = [f"best: {what} with {len(hint.turns[0].shifts)} shift(s); "
             f"{count} turn{'s' * (count != 1)} score{'s' * (count == 1)} it"]
    width = max(len(" ".join(str(s) for s in t.shifts)) for t in hint.turns)
    for turn in hint.turns:
        moves = " ".join(str(s) for s in turn.shifts)
        extra = f"  completes {' '.join(turn.tasks)}" if pearl else ""
        lines.append(f"  {moves:<{width}}  pays {' '.join(turn.cards.letters())}{extra}")
    return lines
