"""What to call: each call's chance of success, expected points and chance to win (DESIGN.md).

``p_win`` is the caller's chance to win the game after that call with both players at their
best from then on (``companion.sands.solver``: each maximises their own chance to win, a draw
beating a loss when those are equal). ``expected_points`` counts the caller's own points only:
the points of the call times its chance of success; a lilac failure's 2 points for the
opponent are not subtracted (they are in ``p_win``). The best call has the highest ``p_win``;
among calls within ``TIE`` of it (``table.STORED_TIE`` for a table read from the cache, whose
chances are rounded to float32), the smallest chance to lose, then D3's order red, yellow,
green, lilac.

Each outcome is played through ``companion.rules.sands`` with the exact scores, so a call that
empties the bag is judged by D5/D6 on the real scores, penalties past 16 included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.errors import BrokenRule
from companion.rules.sands import CALLS, COLOURS, Bag, SandsState

from .odds import SandsTable
from .solver import TIE

CALLER = 0
"""The player about to call is player 0 of the position the advice looks at."""


@dataclass(frozen=True)
class CallAdvice:
    call: str
    p_success: float
    expected_points: float
    p_win: float
    p_lose: float

    def to_json(self) -> dict[str, float]:
        return {"p_success": self.p_success, "expected_points": self.expected_points,
                "p_win": self.p_win}


@dataclass(frozen=True)
class Advice:
    bag: Bag
    scores: tuple[int, int]
    calls: dict[str, CallAdvice]
    best: str

    def to_json(self) -> dict[str, Any]:
        """DESIGN.md's ``sands advise --json``."""
        return {"calls": {c: a.to_json() for c, a in self.calls.items()}, "best": self.best}


def position(bag: Bag, scores: tuple[int, int]) -> SandsState:
    """The rules' state with the caller (the first score) to move; the game must not be over."""
    state = SandsState(bag, scores, CALLER)
    if state.ended:
        raise BrokenRule("the bag is empty: the game is over (D6)")
    return state


def outcome_chances(table: SandsTable, state: SandsState) -> tuple[float, float]:
    """(P(caller wins), P(caller loses)) from ``state`` on, with best play."""
    if state.ended:
        return float(CALLER in state.winners), float((1 - CALLER) in state.winners)
    mover, other = state.scores[state.turn], state.scores[1 - state.turn]
    win, lose = table.chances(state.bag, mover, other)
    return (win, lose) if state.turn == CALLER else (lose, win)


def call_advice(table: SandsTable, state: SandsState, call: str) -> CallAdvice:
    p_win = p_lose = 0.0
    for outcome in state.outcomes(call):
        win, lose = outcome_chances(table, outcome.state)
        p = float(outcome.probability)
        p_win += p * win
        p_lose += p * lose
    p_success = state.p_success(call)
    return CallAdvice(call, float(p_success), float(p_success * CALLS[call].points), p_win, p_lose)


def best_call(calls: dict[str, CallAdvice], tie: float = TIE) -> str:
    top = max(a.p_win for a in calls.values())
    near = [a for a in calls.values() if a.p_win >= top - tie]
    low = min(a.p_lose for a in near)
    return next(a.call for a in near if a.p_lose <= low + tie)


def advise(table: SandsTable, bag: Bag, scores: tuple[int, int]) -> Advice:
    """Every call's odds for the caller (first score) with ``bag`` left, and the best call."""
    state = position(bag, scores)
    calls = {c: call_advice(table, state, c) for c in COLOURS}
    return Advice(bag, scores, calls, best_call(calls, table.tie))


@dataclass(frozen=True)
class Branch:
    """A successful draw of the call above it: the caller keeps the turn (D4) or has won."""

    drawn: str
    probability: float
    scores: tuple[int, int]
    wins: bool
    over: bool
    then: Step | None  # None when the game is over or the tree is deep enough

    @property
    def draw(self) -> bool:
        return self.over and self.scores[0] == self.scores[1]

    def to_json(self) -> dict[str, Any]:
        return {"p": self.probability, "scores": list(self.scores), "wins": self.wins,
                "over": self.over, "then": self.then.to_json() if self.then else None}


@dataclass(frozen=True)
class Step:
    """The call to make now, its chance to win, and what comes after each successful draw."""

    call: str
    p_win: float
    after: tuple[Branch, ...]

    def to_json(self) -> dict[str, Any]:
        return {"call": self.call, "p_win": self.p_win,
                "after": {b.drawn: b.to_json() for b in self.after}}

    def lines(self, indent: str = "") -> list[str]:
        out = [f"{indent}call {self.call} (win {self.p_win:.1%})"]
        for b in self.after:
            head = f"{indent}  {b.drawn} drawn ({b.probability:.1%}): {b.scores[0]}-{b.scores[1]}"
            if b.wins:
                out.append(f"{head}, wins")
            elif b.over:
                out.append(f"{head}, the bag is empty: {'a draw' if b.draw else 'loses'} (D6)")
            elif b.then is None:
                out.append(head)
            else:
                out.append(f"{head}, then")
                out.extend(b.then.lines(indent + "    "))
        return out


def policy(table: SandsTable, bag: Bag, scores: tuple[int, int], depth: int = 3) -> Step:
    """The best call now and, ``depth`` calls deep, the best call after each successful draw.

    A failure ends the turn (D3), so successes are the only ways the turn goes on.
    """
    state = position(bag, scores)
    advice = advise(table, state.bag, state.scores)
    call = advice.best
    after = []
    for outcome in state.outcomes(call):
        if not outcome.success:
            continue
        nxt = outcome.state
        deeper = None
        if depth > 1 and not nxt.ended:
            deeper = policy(table, nxt.bag, nxt.scores, depth - 1)
        after.append(Branch(outcome.drawn, float(outcome.probability), nxt.scores,
                            CALLER in nxt.winners, nxt.ended, deeper))
    return Step(call, advice.calls[call].p_win, tuple(after))
