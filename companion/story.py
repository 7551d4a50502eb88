"""The story of a stored game, and every player's history over all of them (issue 15).

Read from the game database (``companion.store``) through the sessions' own folds, so the
story is what the table saw: undone events are gone, fixed misreads are fixed. Nothing is
stored twice.

- Nizam and Pearl of the East: each finished turn with who played it, what it did (shifts
  or a draw), its scoring rounds (N10 cascades are the rounds after the first), the points
  (Pearl: the tasks completed, P6) and everyone's score after it, and whether the deck ran
  out during it (N11, P8).
- The Desert Sands: each call with who made it, the stone drawn, the scores and the bag
  after it, and, when the solved table is at hand, the call that was best (D2–D6).

Players are told apart across games by name, as the start screen writes it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.rules.combination import Combination
from companion.rules.nizam import Scoring
from companion.rules.sands import Bag
from companion.rules.setup import GameSetup
from companion.rules.state import State, winners
from companion.session import sands as sands_session
from companion.session import table as table_session
from companion.session.events import Event, read_header, read_log
from companion.session.kinds import CALLS_SCREEN, KINDS, kind_of
from companion.store import GameStore, StoredGame

BestCall = Callable[[Bag, tuple[int, int]], str]
"""The best call for the player to move with this bag left and (their score, the other's)."""
BestCalls = Callable[[Bag], BestCall]
"""The ``BestCall`` of games that start with this bag."""


@dataclass(frozen=True)
class TurnStory:
    """One finished turn of Nizam or Pearl of the East."""

    number: int
    player: int
    action: str  # "draw" or the shifts, e.g. "r2< c3^!3"
    points: int  # Pearl: tasks completed
    scores: tuple[int, ...]  # everyone's, after this turn
    rounds: tuple[tuple[Combination, ...], ...]  # the combinations of each scoring round
    tasks: str = ""
    runs_out: int = 0  # times the deck ran out during this turn

    @property
    def cascade(self) -> int:
        """Scoring rounds after the first that found combinations (N10)."""
        return max(0, sum(1 for r in self.rounds if r) - 1)

    @property
    def combinations(self) -> tuple[Combination, ...]:
        return tuple(c for r in self.rounds for c in r)


@dataclass(frozen=True)
class CallStory:
    """One call of The Desert Sands and the stone it drew."""

    number: int
    player: int
    call: str
    drawn: str
    success: bool
    points: tuple[int, int]  # what each player gained by it
    scores: tuple[int, int]  # after it
    bag: dict[str, int]  # left after it
    best: str = ""  # the best call at that moment; "" when not known


@dataclass(frozen=True)
class GameStory:
    game_id: int
    game: str  # "nizam", "pearl" or "sands"
    names: tuple[str, ...]
    ended: bool
    winners: tuple[int, ...]
    turns: tuple[TurnStory, ...] = ()
    calls: tuple[CallStory, ...] = ()
    start_bag: dict[str, int] | None = None

    @property
    def best_turn(self) -> TurnStory | None:
        """The turn that scored the most (Pearl: completed the most tasks); the first of
        equals. None when no turn scored."""
        best = max(self.turns, key=lambda t: t.points, default=None)
        return best if best is not None and best.points > 0 else None

    @property
    def run_outs(self) -> tuple[int, ...]:
        """The turns (numbers) during which the deck ran out, once per time it did."""
        return tuple(t.number for t in self.turns for _ in range(t.runs_out))


def game_story(store: GameStore, game_id: int, best_calls: BestCalls | None = None
               ) -> GameStory:
    """The story of game ``game_id`` in ``store``; ``best_calls`` marks the Sands calls."""
    name = f"game {game_id} in {store.path}"
    setup = read_header(store.game(game_id).header, name)
    events = read_log((e.payload for e in store.events(game_id)), name)
    if kind_of(setup).screen == CALLS_SCREEN:
        return _sands_story(game_id, setup, events, name, best_calls)
    return _table_story(game_id, setup, events, name)


def _table_story(game_id: int, setup: GameSetup, events: Sequence[Event], name: str
                 ) -> GameStory:
    game = setup.game()
    history = table_session.fold(game, events, name)
    turns: list[TurnStory] = []
    runs_before = 0  # the deck's run-outs before the turn began
    for before, after in zip(history, history[1:], strict=False):
        if len(after.turns) == len(before.turns) or after.rules is None:
            continue
        line = after.turns[-1]
        action = "draw" if line.get("draw") else " ".join(line.get("shifts", []))
        turns.append(_turn(game.pearl, line["turn"], after.last_turn_player or 0, action,
                           after.last_rounds, after.rules, runs_before))
        runs_before = after.rules.runs_out
    now = history[-1]
    if now.rounds and now.rules is not None:  # a turn being scored: what it has so far
        action = "draw" if now.drew else " ".join(str(m) for m in now.shifts)
        turns.append(_turn(game.pearl, now.rules.turn + 1, now.rules.active, action,
                           now.rounds, now.rules, runs_before))
    ended = now.phase == table_session.OVER and now.rules is not None
    won = tuple(winners(game, now.rules)) if ended and now.rules else ()
    return GameStory(game_id, setup.kind, setup.names, ended, won, tuple(turns))


def _turn(pearl: bool, number: int, player: int, action: str, rounds: Sequence[Scoring],
          rules: State, runs_before: int) -> TurnStory:
    return TurnStory(
        number=number, player=player, action=action,
        points=sum(len(r.tasks) if pearl else r.points for r in rounds), scores=rules.scores,
        rounds=tuple(r.combinations for r in rounds if r.combinations),
        tasks="".join(r.tasks for r in rounds), runs_out=rules.runs_out - runs_before)


def _sands_story(game_id: int, setup: GameSetup, events: Sequence[Event], name: str,
                 best_calls: BestCalls | None) -> GameStory:
    game = setup.sands()
    moment = sands_session.fold(game, events, name)[-1]
    best_call = best_calls(game.full) if best_calls and moment.draws else None
    calls = []
    for n, draw in enumerate(moment.draws, 1):
        p = draw.player
        before, after = draw.before.scores, draw.after.scores
        best = best_call(draw.before.bag, (before[p], before[1 - p])) if best_call else ""
        calls.append(CallStory(
            n, p, draw.call, draw.drawn, draw.success,
            (after[0] - before[0], after[1] - before[1]), (after[0], after[1]),
            draw.after.bag.to_json(), best))
    state = moment.rules
    return GameStory(game_id, setup.kind, setup.names, state.ended,
                     tuple(state.winners), calls=tuple(calls), start_bag=game.full.to_json())


def session_story(controller: Any) -> GameStory | None:
    """The story of the game a screen's controller plays (its session's store and game),
    the Sands calls marked from the session's solved table when it has one; None when the
    controller keeps no game (a test double)."""
    session = getattr(controller, "session", None)
    store, game_id = getattr(session, "store", None), getattr(session, "game_id", None)
    if store is None or game_id is None:
        return None
    best_calls: BestCalls | None = None
    table = getattr(session, "table", None)
    table = table() if callable(table) else None
    if table is not None:
        from companion.sands.advice import advise

        def best_calls(full: Bag) -> BestCall:
            return lambda bag, scores: advise(table, bag, scores).best
    return game_story(store, game_id, best_calls)


def players_games(store: GameStore) -> list[StoredGame]:
    """The stored games that are the players' own, newest first: a recording replayed into
    the store (``companion replay --store``) is no one's game."""
    return [g for g in store.games() if "recording" not in g.header]


@dataclass(frozen=True)
class PastGame:
    """A stored game for the past-games list, which can tell its story (on a worker: the
    fold, and for The Desert Sands the solved table, take a moment)."""

    stored: StoredGame
    story: Callable[[], GameStory]
    story_without_best_calls: Callable[[], GameStory]
    """The story told with no Desert Sands solved table to load (no call marked best): who
    won, for a fold of the game. In Nizam and Pearl of the East, ``story`` tells the same
    (``marks_best_calls``)."""

    @property
    def told_as(self) -> tuple[int, int]:
        """The game and how many events it has logged: its story stays the same until it
        logs another (an undo after the end, and the game goes on)."""
        return (self.stored.id, self.stored.events)

    @property
    def marks_best_calls(self) -> bool:
        """``story`` marks the best calls (The Desert Sands): it is not the story
        ``story_without_best_calls`` tells."""
        kind = KINDS.get(str(self.stored.header.get("game")))
        return kind is None or kind.screen == CALLS_SCREEN

    def __getattr__(self, name: str) -> Any:
        if name == "stored":  # not set yet: never look for it in itself
            raise AttributeError(name)
        return getattr(self.stored, name)


def solved_best_calls(cache_dir: Any = None) -> BestCalls:
    """Best calls from each bag's solved table (``companion.sands``: solved once, cached)."""
    from companion.sands.advice import advise
    from companion.sands.odds import load_table

    def for_bag(full: Bag) -> BestCall:
        table = load_table(full, cache_dir)
        return lambda bag, scores: advise(table, bag, scores).best

    return for_bag
