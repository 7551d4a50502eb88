"""`companion sands advise`: the odds of each call in The Desert Sands and the best one."""

from __future__ import annotations

import argparse
from typing import Any

from companion.errors import BadInput
from companion.rules.sands import COLOURS, Bag, Sands

from .common import print_json


def register(sub: Any) -> None:
    p = sub.add_parser("sands", help="The Desert Sands: odds of each call",
                       description="The Desert Sands (RULES.md D1-D6).")
    commands = p.add_subparsers(dest="sands_command", metavar="COMMAND", required=True)
    a = commands.add_parser(
        "advise", help="each call's chance of success, expected points and chance to win",
        description="Each call's chance of success, expected points and chance to win the "
        "game with best play from then on; the best call. The first score is the player "
        "about to call.")
    a.add_argument("--bag", required=True, help="stones left, e.g. r12y12g12l12")
    a.add_argument("--scores", required=True, help="caller's score,other's score, e.g. 10,14")
    a.add_argument("--full", default=str(Sands().full),
                   help="the bag a game starts with (default %(default)s)")
    a.add_argument("--policy", action="store_true",
                   help="also the best call after each successful draw, a few calls deep")
    a.add_argument("--depth", type=int, default=3, help="calls deep for --policy (default 3)")
    a.add_argument("--cache-dir", help="where the solved table is kept "
                   "(default $COMPANION_CACHE_DIR, else ~/.cache/nizam-companion)")
    a.add_argument("--json", action="store_true", help="print JSON (DESIGN.md)")
    a.set_defaults(handler=run_advise)


def parse_scores(text: str) -> tuple[int, int]:
    """``"10,14"``: two whole numbers >= 0, the caller's first."""
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise BadInput(f"--scores {text!r}: give two whole numbers >= 0 like 10,14 "
                         "(the caller's score first)")
    return int(parts[0]), int(parts[1])


def check_position(full: Bag, bag: Bag, scores: tuple[int, int]) -> None:
    """Refuse, in one line, a position no game from ``full`` can reach."""
    from companion.sands.reach import why_impossible

    over = [f"{c} {n} > {f}" for c, n, f in zip(COLOURS, bag.counts(), full.counts(), strict=True)
            if n > f]
    if over:
        raise BadInput(f"--bag {bag}: more stones than the full bag {full} holds "
                         f"({', '.join(over)})")
    if bag.total == 0:
        raise BadInput(f"--bag {bag}: the bag is empty, so the game is over (D6)")
    reason = why_impossible(full, bag, scores)
    if reason:
        raise BadInput(f"scores {scores[0]},{scores[1]} cannot happen with {bag} left of "
                         f"{full}: {reason}")


def run_advise(args: argparse.Namespace) -> int:
    full, bag = Bag.parse(args.full), Bag.parse(args.bag)
    scores = parse_scores(args.scores)
    if args.depth < 1:
        raise BadInput(f"--depth {args.depth}: must be 1 or more")
    check_position(full, bag, scores)
    from companion.sands.advice import advise, policy
    from companion.sands.odds import load_table

    table = load_table(full, args.cache_dir)
    advice = advise(table, bag, scores)
    step = policy(table, bag, scores, args.depth) if args.policy else None
    if args.json:
        out = advice.to_json()
        if step is not None:
            out["policy"] = step.to_json()
        print_json(out)
        return 0
    print(f"bag {bag} (of {full}); the caller has {scores[0]}, the other player {scores[1]}")
    print(f"{'call':8}{'success':>9}{'exp. points':>13}{'win':>9}")
    for colour, a in advice.calls.items():
        mark = "  <- best" if colour == advice.best else ""
        print(f"{colour:8}{a.p_success:>9.1%}{a.expected_points:>13.2f}{a.p_win:>9.1%}{mark}")
    if step is not None:
        print("policy for this turn (a failure ends it):")
        print("\n".join(step.lines("  ")))
    return 0
