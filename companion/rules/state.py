"""Where a game stands: an immutable value that each step of play replaces (RULES.md N11–N15).

Only counts: the companion never sees the deck or a hand (N14). Card identities are known
on the grid; a simulation adds ``piles``, the identities of everything else.

>>> from .game import Game
>>> game = Game(players=2)
>>> state = start(game, Grid.parse("RROGY/CBVPR/GGYOC/BVPRO/YGCBV"))
>>> state.deck, state.hands, conservation_errors(game, state)
(65, (3, 3), [])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .deck import Cards, Piles
from .game import GEM_COPIES, GRID_GEMS_PEARL, HAND_START, Game, RuleError
from .grid import EMPTY, GEMS, PEARL, Grid

NOTHING = Cards()


@dataclass(frozen=True, slots=True)
class State:
    """Counts of every pile, scores, whose turn, and how the deck has run (N11, N12).

    ``tasks`` (Pearl): the task letters each player still holds. ``known_discard``: the
    cards known to be in the discard pile (cleared ones and matching payments; three-card
    payments are unknown), which bounds the cards a refill may name. ``action``,
    ``phase_combinations`` and ``closing`` describe the turn under way.
    """

    grid: Grid
    deck: int
    discard: int
    hands: tuple[int, ...]
    scores: tuple[int, ...]
    active: int = 0
    turn: int = 0
    """Turns finished; the next turn is number ``turn + 1``."""
    runs_out: int = 0
    """N11: how many times the deck has run out."""
    reshuffles: int = 0
    ended: bool = False
    tasks: tuple[str, ...] = ()
    known_discard: Cards = NOTHING
    action: str = ""
    """What the active player did this turn: ``""``, ``"draw"`` or ``"shift"`` (N3)."""
    phase_combinations: int = 0
    """Combinations scored so far in this turn's scoring phase (N8 bonus count, N10)."""
    closing: bool = False
    """N12: the deck ran out for the last time; this turn ends the game."""
    piles: Piles | None = None

    @property
    def players(self) -> int:
        return len(self.hands)

    def grid_gems(self) -> int:
        return sum(1 for letter in self.grid.cells if letter in GEMS)

    def tasks_removed(self, game: Game) -> int:
        return game.tasks * game.players - sum(len(t) for t in self.tasks)


def start(game: Game, grid: Grid, piles: Piles | None = None) -> State:
    """The state as play starts, ``grid`` being the grid after N2 (N1; P1–P3).

    Each player holds 3 cards; every other card not on the grid is in the deck. N2 does not
    change these counts: the cards it returns to the deck are taken again at once.
    """
    check_setup(game, grid)
    state = State(
        grid=grid,
        deck=game.setup_deck,
        discard=0,
        hands=(HAND_START,) * game.players,
        scores=(0,) * game.players,
        tasks=(GEMS,) * game.players if game.pearl else (),
        piles=piles,
    )
    problems = conservation_errors(game, state)
    if problems:
        raise RuleError("N15", problems[0])
    return state


def check_setup(game: Game, grid: Grid) -> None:
    """A grid play can start from: full, the pearl only in Pearl, no gem beyond its copies."""
    rule = "P2" if game.pearl else "N1"
    if EMPTY in grid.cells:
        raise RuleError(rule, f"the grid starts full; {grid.count(EMPTY)} cells are empty")
    pearls = grid.count(PEARL)
    if pearls != (1 if game.pearl else 0):
        wanted = "exactly one pearl" if game.pearl else "no pearl in classic Nizam"
        raise RuleError(rule, f"the grid has {pearls} pearl cards; it needs {wanted}")
    for gem in GEMS:
        if grid.count(gem) > game.copies:
            raise RuleError(rule, f"the grid has {grid.count(gem)} {gem}; only {game.copies} "
                            f"are in play")
        if game.pearl and game.options.setup_lines == "keep" and grid.count(gem) != (
            GRID_GEMS_PEARL
        ):
            raise RuleError("P2", f"the grid is dealt from 3 cards of each type; it has "
                            f"{grid.count(gem)} {gem} (N2 keep leaves it as dealt)")


def conservation_errors(game: Game, state: State) -> list[str]:
    """N15, P1: what does not add up; an empty list when every card is accounted for.

    deck + discard + grid gems + hands + task cards held + task cards removed = 96, with the
    pearl on the grid in Pearl (and nowhere in classic).
    """
    problems = []
    held = sum(len(t) for t in state.tasks)
    total = (state.deck + state.discard + state.grid_gems() + sum(state.hands)
             + held + state.tasks_removed(game))
    if total != GEM_COPIES * len(GEMS):
        problems.append(
            f"deck {state.deck} + discard {state.discard} + grid {state.grid_gems()} + hands "
            f"{sum(state.hands)} + tasks {held} (+{state.tasks_removed(game)} removed) = "
            f"{total}, not 96"
        )
    if state.grid.count(PEARL) != (1 if game.pearl else 0):
        problems.append(f"{state.grid.count(PEARL)} pearl cards on the grid")
    if min(state.deck, state.discard, *state.hands) < 0:
        problems.append("a pile holds fewer than 0 cards")
    if len(state.known_discard) > state.discard:
        problems.append("more cards known in the discard pile than it holds")
    if state.piles is not None:
        problems.extend(_pile_errors(game, state, state.piles))
    return problems


def _pile_errors(game: Game, state: State, piles: Piles) -> list[str]:
    problems = []
    sizes = (len(piles.deck), len(piles.discard), tuple(len(h) for h in piles.hands))
    if sizes != (state.deck, state.discard, state.hands):
        problems.append(f"piles hold {sizes}, the counts say "
                        f"{(state.deck, state.discard, state.hands)}")
    if not piles.discard.holds(state.known_discard):
        problems.append("the discard pile lacks cards known to be in it")
    for gem in GEMS:
        where = (piles.deck.count(gem) + piles.discard.count(gem) + state.grid.count(gem)
                 + sum(h.count(gem) for h in piles.hands))
        if where != game.copies:
            problems.append(f"{where} {gem} in play, not {game.copies}")
    return problems


def winners(game: Game, state: State) -> list[int]:
    """N13, P9: the winning players (from 0) once the game has ended; ties share."""
    if not state.ended:
        return []
    if game.pearl:
        return [p for p, tasks in enumerate(state.tasks) if not tasks]
    best = max(state.scores)
    return [p for p, score in enumerate(state.scores) if score == best]


def summary(game: Game, state: State) -> dict[str, Any]:
    """DESIGN.md's ``rules replay --json`` object (Pearl ``scores``: tasks completed)."""
    out: dict[str, Any] = {
        "scores": list(state.scores),
        "deck": state.deck,
        "discard": state.discard,
        "deck_runs_out": state.runs_out,
        "ended": state.ended,
        "winners": winners(game, state),
    }
    if game.pearl:
        out["tasks_left"] = [list(t) for t in state.tasks]
    return out
