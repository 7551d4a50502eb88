"""Simulated games in which one card reads, sure, as another card on every reading the camera
gives, from the moment it is laid to the moment it leaves the grid (a colour the camera
renders as its neighbour's: ruby as amber, turquoise as sapphire...), played through the
session as ``tests/session/test_misread_game.py`` plays them. Prints how many games end at
the truth, how many cards the rules named (``session.misread``), how many of those names
were wrong (a card the camera did not misread, or a wrong name: a false settlement), and the
slowest search for a name.

    .venv/bin/python tests/bench/bench_misread_games.py [--seeds N]

Classic and Pearl of the East, 2 and 3 players, seeds 0..N-1 (default 25: 100 games, about
a minute). Asserts nothing. The same games on main (807c536): 8 of 100 end at the truth.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.rules.game import Game  # noqa: E402
from companion.rules.grid import GEMS, SIZE, Cell  # noqa: E402
from companion.rules.simulate import greedy, simulate  # noqa: E402
from companion.session.events import Event, Settled  # noqa: E402
from companion.session.nizam import TableSession  # noqa: E402
from companion.store import GameStore  # noqa: E402
from tests.session.test_misread_game import MisreadCamera, laid  # noqa: E402
from tests.session.test_unread_game import play  # noqa: E402

CONFUSED = {"R": "OP", "O": "RY", "Y": "OG", "G": "YC", "C": "GB", "B": "CV", "V": "BP",
            "P": "VR"}
"""Each gem, and the gems a camera rendering colours otherwise may read it as."""


class Judged(MisreadCamera):
    """The camera, remembering which card lay in each cell cleared, so that a card the
    session names can be told by where it lies (the session numbers the cards it laid, which
    may not be the camera's once the two disagree on a turn)."""

    def __init__(self, session: TableSession, wrong: dict[int, str]) -> None:
        super().__init__(session, wrong)
        self.gone: dict[Cell, int] = {}

    def clear(self, cells: list[Cell]) -> None:
        for row, col in cells:
            self.gone[(row, col)] = self.cards[(row - 1) * SIZE + col - 1]
        super().clear(cells)

    def card_in(self, cell: Cell) -> int:
        card = self.cards[(cell[0] - 1) * SIZE + cell[1] - 1]
        return card if card >= 0 else self.gone.get(cell, -1)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=25)
    args = ap.parse_args()
    games = same = named = wrong = 0
    slowest = 0.0
    for mode in ("classic", "pearl"):
        for players in (2, 3):
            for seed in range(args.seeds):
                game = Game(mode, players)
                played = simulate(game, random.Random(seed), greedy, max_turns=400)
                cards = laid(played)
                rng = random.Random(seed * 7 + players)
                card = rng.randrange(min(len(cards), 60))
                if cards[card] not in GEMS:
                    continue
                session = TableSession.new(GameStore(":memory:"), game, ["P"] * players)
                camera = Judged(session, {card: rng.choice(CONFUSED[cards[card]])})
                names: list[bool] = []
                commit = session.commit

                def judged(event: Event, session: TableSession = session,
                           camera: Judged = camera, names: list[bool] = names,
                           truth: str = cards, misread: int = card,
                           commit=commit):  # type: ignore[no-untyped-def]
                    t = session.state
                    if isinstance(event, Settled) and event.card not in t.provisional:
                        at = (t.origin.index(event.card) if event.card in t.origin else -1)
                        cell = ((at // SIZE + 1, at % SIZE + 1) if at >= 0 else
                                t.to_clear[t.clearing.index(event.card)])
                        real = camera.card_in(cell)
                        names.append(real == misread and (
                            event.by != "rules" or event.letter == truth[real]))
                    return commit(event)

                session.commit = judged  # type: ignore[method-assign]
                started = time.perf_counter()
                with contextlib.suppress(IndexError, AttributeError):
                    play(played, session, camera)  # (raises once the players went on past
                    # a refusal the session could not settle: the game ends there)
                slowest = max(slowest, time.perf_counter() - started)
                rules, truth = session.state.rules, played.state
                games += 1
                same += rules is not None and (
                    rules.scores, rules.deck, rules.discard, rules.runs_out, rules.ended) == (
                    truth.scores, truth.deck, truth.discard, truth.runs_out, truth.ended)
                named += any(names)
                wrong += names.count(False)
    print(f"{games} games, one card misread (sure) on every frame: {same} end at the truth; "
          f"the rules named the card misread in {named}; false settlements {wrong}; "
          f"slowest game through the session {slowest:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
