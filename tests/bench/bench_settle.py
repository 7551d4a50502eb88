"""How long the session takes to settle cards laid unread, as a game grows (DESIGN.md: from
a stable new grid to the verdict on screen, <= 0.5 s on a Pi, about 4 times slower than
this machine).

Simulated 2-player games (greedy players, seeded) are played through a session whose camera
reads two cards of the opening layout ``?`` on every frame (they are laid under provisional
names, ``unread_cards``). At a point of each game (a share of its turns played) a hand
knocks two cards of the grid out of place: a reading the game cannot take, so the session
searches the names of the unread cards for one under which it can (``TableSession._settle``).

- "a refused reading": the whole ``on_reading`` of it, as the players wait for it.
- "every naming": the search's most, each of the 63 namings of the budget tried (the two
  cards under each other name, then each two names together) with a reading none of them
  takes.
- "one event folded": the rules' fold of the game's log, per event.
- "readings before": each reading the session was given before, while one of the two cards
  lay on the grid.
- "folding ahead": the session folding the game ahead after each of those readings, as the
  table watcher has it do between frames, once the screen has the verdict (``fold_ahead``).
- "all read": the same knocked grid in the same game played with every card read: no card
  laid unread, so the session searches for a card the camera misread (``_rename``).

    .venv/bin/python tests/bench/bench_settle.py [--games 12]

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "session"))

from test_unread_game import UnreadCamera, play  # noqa: E402

from companion.rules.game import Game  # noqa: E402
from companion.rules.simulate import greedy, simulate  # noqa: E402
from companion.session import table, unread  # noqa: E402
from companion.session.nizam import TableSession  # noqa: E402
from companion.session.table import PLAY  # noqa: E402
from companion.store import GameStore  # noqa: E402

PI = 4  # a Raspberry Pi 4 against this machine (DESIGN.md: 15 ms here, about 60 there)


class _Part:
    """A simulated game's first ``turns`` turns."""

    def __init__(self, played, turns: int) -> None:
        self.states, self.reports = played.states[: turns + 1], played.reports[:turns]


def _session(folder: Path, seed: int, share: float, taken: list[float], ahead: list[float],
             all_read: list[float]) -> TableSession | None:
    """A session of seed's game played to ``share`` of its turns, the camera reading two
    cards of the opening layout ``?`` all along: two still on the grid then (the game
    played once with every card read tells which). None when no two are, or the game ends."""
    game = Game("classic", 2)
    whole = simulate(game, random.Random(seed), greedy, max_turns=400)
    played = _Part(whole, int(len(whole.reports) * share))
    seen = TableSession.new(GameStore(folder / f"{seed}-{share}-seen.sqlite"), game, ["A", "B"])
    _as_watched(seen, [], [])
    play(played, seen, UnreadCamera(seen, ()))
    opening = [card for card in seen.state.origin if 0 <= card < 25]
    if seen.state.phase != PLAY or len(opening) < 2:
        return None
    start = time.process_time()  # before another game's folds crowd this one's out
    seen.on_reading(_knocked(seen.state))
    all_read.append(time.process_time() - start)
    session = TableSession.new(GameStore(folder / f"{seed}-{share}.sqlite"), game, ["A", "B"])
    _as_watched(session, taken, ahead)
    try:
        play(played, session, UnreadCamera(session, opening[:2]))
    except IndexError:  # the session did not follow (a move it could not tell): not this game
        return None
    t = session.state
    if t.phase != PLAY or len(unread.in_play(t)) < 2:
        return None
    return session


def _as_watched(session: TableSession, taken: list[float], ahead: list[float]) -> None:
    """Each reading and tap given to ``session`` followed by folding ahead, as the table
    watcher does between frames; the time of each reading (``taken``) and of each folding
    ahead (``ahead``) while a card laid unread lies on the grid."""
    def then_ahead(act: Callable[..., None], reading: bool) -> Callable[..., None]:
        def acted(*args: object) -> None:
            start = time.process_time()
            act(*args)
            middle = time.process_time()
            session.fold_ahead()
            if unread.in_play(session.state):
                if reading:
                    taken.append(middle - start)
                ahead.append(time.process_time() - middle)
        return acted

    session.on_reading = then_ahead(session.on_reading, True)  # type: ignore[method-assign]
    session.tap = then_ahead(session.tap, False)  # type: ignore[method-assign]


def _knocked(t: table.TableState) -> list[str]:
    """The grid as the camera reads it with two neighbouring cards of row 5 swapped."""
    flat = [("?" if card in t.provisional else x)
            for x, card in zip(t.grid.cells, t.origin, strict=True)]
    i = 20 + next(k for k in range(4) if flat[20 + k] != flat[21 + k]
                  and "?" not in flat[20 + k : 22 + k])
    flat[i], flat[i + 1] = flat[i + 1], flat[i]
    text = "".join(flat)
    return [text[k : k + 5] for k in range(0, 25, 5)]


def _every_naming(t: table.TableState) -> None:
    """The search for a name with a reading none takes: each naming of the budget tried."""
    order = unread.likeliest_in(t, unread.allowed_letters(t.game, ""))
    with contextlib.suppress(unread.OverBudget):  # more than two cards: the budget spent
        unread.namings(t, order, lambda _: None)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=12)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp())
    print(f"{'turns played':>12} {'games':>5} {'events':>6} | {'refused reading ms':>18} "
          f"| {'every naming ms':>20} | {'fold us/event':>13} | "
          f"{'readings before ms':>18} | {'folding ahead ms':>17} | {'all read ms':>17}")
    for share in (0.3, 0.6, 0.9):
        events, refused, every, per_event, taken, ahead, misread = ([] for _ in range(7))
        for seed in range(1, args.games + 1):
            session = _session(folder, seed, share, taken, ahead, misread)
            if session is None:
                continue
            t = session.state
            # once each, as at the table: a search done once is kept for the next
            start = time.process_time()
            session.on_reading(_knocked(t))
            refused.append(time.process_time() - start)
            start = time.process_time()
            _every_naming(t)
            every.append(time.process_time() - start)
            events.append(len(t.log))
            start = time.process_time()
            table.fold(t.game, t.log)
            per_event.append((time.process_time() - start) / len(t.log))
        if not events:
            continue
        print(f"{share:>12.0%} {len(events):>5} {statistics.median(events):>6.0f} | "
              f"{1000 * statistics.median(refused):>7.1f} (max {1000 * max(refused):5.1f}) | "
              f"{1000 * statistics.median(every):>7.1f} (max {1000 * max(every):6.1f}) | "
              f"{1e6 * statistics.median(per_event):>13.0f} | "
              f"{1000 * statistics.median(taken):>5.1f} (max {1000 * max(taken):5.1f}) | "
              f"{1000 * statistics.median(ahead):>5.1f} (max {1000 * max(ahead):5.1f}) | "
              f"{1000 * statistics.median(misread):>5.1f} (max {1000 * max(misread):5.1f})")
    print(f"A Pi 4 is about {PI} times slower: the budget of 0.5 s there is about "
          f"{500 / PI:.0f} ms here.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
