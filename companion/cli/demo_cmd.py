"""`companion demo`: a seeded game of Nizam played out by simple players, turn by turn."""

from __future__ import annotations

import argparse
import random
from typing import Any

from companion.errors import BadInput
from companion.rules.game import MAX_PLAYERS, MIN_PLAYERS, MODES, OPTION_CHOICES, Game, Options
from companion.rules.nizam import TurnReport
from companion.rules.replay import Replay, record_text
from companion.rules.simulate import greedy, simulate, wanderer
from companion.rules.state import State, winners

from .common import output_path, write_atomic

POLICIES = {"greedy": greedy, "random": wanderer}


def register(sub: Any) -> None:
    p = sub.add_parser("demo", help="watch a seeded game played through the rules",
                       description="Deal a shuffled game and play it out with simple players "
                       "(each takes the best scoring shift it can pay for, else draws).")
    p.add_argument("--seed", type=int, help="shuffle seed (default: a new one, printed)")
    p.add_argument("--mode", choices=MODES, default=MODES[0])
    p.add_argument("--players", type=_players, default=3, help="1 to 5 (default 3)")
    for option, choices in OPTION_CHOICES.items():
        p.add_argument(f"--{option.replace('_', '-')}", choices=choices, default=choices[0],
                       help=f"rule option (default {choices[0]})")
    p.add_argument("--policy", choices=sorted(POLICIES), default="greedy",
                   help="how the players choose (default greedy)")
    p.add_argument("--max-turns", type=int, default=500, help="stop after this many turns")
    p.add_argument("--record", metavar="OUT.jsonl", help="also write the game record here")
    p.set_defaults(handler=run)


def _players(text: str) -> int:
    if not text.strip().isdigit() or not MIN_PLAYERS <= int(text) <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(
            f"{text!r} players; the game is for {MIN_PLAYERS} to {MAX_PLAYERS}")
    return int(text)


def run(args: argparse.Namespace) -> int:
    if args.max_turns < 0:
        raise BadInput(f"--max-turns {args.max_turns}: give 0 or more turns")
    record = output_path(args.record, "--record") if args.record is not None else None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    options = Options(args.setup_lines, args.bonus, args.cascades)
    game = Game(args.mode, args.players, options)
    played = simulate(game, random.Random(seed), POLICIES[args.policy], args.max_turns)
    for line in demo_lines(played, seed):
        print(line)
    if record is not None:
        write_atomic(record, record_text(played))
        print(f"record written to {record}")
    return 0


def demo_lines(played: Replay, seed: int) -> list[str]:
    """The game told turn by turn, as the demo prints it."""
    game, start = played.game, played.states[0]
    title = "Pearl of the East" if game.pearl else "Nizam"
    options = ", ".join(f"{k} {v}" for k, v in game.options.to_json().items())
    lines = [
        f"{title}: {game.players} player{'s' * (game.players > 1)}, seed {seed} ({options})",
        f"set-up  grid {start.grid}  deck {start.deck}  hands {_each(start.hands)}",
    ]
    for report, before, after in zip(played.reports, played.states[:-1], played.states[1:],
                                     strict=True):
        lines.extend(_turn_lines(game, report, before, after))
    end = played.state
    if end.ended:
        names = " and ".join(f"P{p + 1}" for p in winners(game, end))
        lines.append(f"game over after {end.turn} turns: {names} "
                     f"{'wins' if len(winners(game, end)) == 1 else 'share the win'}")
    else:
        lines.append(f"stopped after {end.turn} turns (--max-turns); the game goes on")
    label = "tasks done" if game.pearl else "scores"
    lines.append(f"{label}: {_each(end.scores)}")
    return lines


def _each(values: tuple[int, ...]) -> str:
    return " ".join(f"P{p + 1}:{v}" for p, v in enumerate(values))


def _turn_lines(game: Game, report: TurnReport, before: State, after: State) -> list[str]:
    who = f"turn {report.number:>3}  P{report.player + 1}"
    if report.turn.is_draw:
        action = f"draws {report.drawn}" + ("" if report.drawn == 3 else " (deck exhausted)")
    else:
        action = f"shifts {report.turn} (pays {report.paid})"
    lines = [f"{who}  {action}"]
    for n, r in enumerate(report.rounds):
        found = ", ".join(str(c) for c in r.combinations)
        if game.pearl:
            gain = f"tasks {' '.join(r.tasks)} done" if r.tasks else "no task of theirs"
        else:
            gain = f"+{r.points}"
        what = ("cascade: " if n else "") + (f"{found} -> {gain}" if found else "empty cells")
        kept = "" if r.cleared else " (not cleared: the game is won)"
        refill = f"; refill {r.laid}" if r.laid else ""
        lines.append(f"           {what}{kept}{refill}")
    for k in range(report.runs_out):
        lines.append(f"           the deck ran out ({before.runs_out + k + 1}"
                     + (f" of {game.deck_limit})" if game.deck_limit else ")"))
    if report.reshuffles:
        lines.append("           the discard pile is shuffled into a new deck")
    status = f"deck {after.deck}  discard {after.discard}  hands {_each(after.hands)}"
    if game.pearl:
        status += "  tasks left " + " ".join(f"P{p + 1}:{len(t)}" for p, t in
                                             enumerate(after.tasks))
    else:
        status += f"  scores {_each(after.scores)}"
    lines.append(f"           {status}")
    lines.append(f"           grid {after.grid}")
    return lines
