"""What the screen shows: plain immutable values the session builds and the UI renders.

The UI never computes a rule or reads a camera; it draws a ``TableView`` and sends taps.
Keeping this contract small lets the screens be built and tested without a camera.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

Cell = tuple[int, int]
"""(row, col) from 1, as in RULES.md."""

TABLE_ACTIONS = ("draw", "wildcard", "end_turn", "undo")
"""The turn's buttons on the Nizam screen, as taps (``TableController.tap``)."""


@dataclass(frozen=True)
class Verdict:
    """The verdict on the last change of the grid: a legal shift with its payment, or why not."""

    legal: bool
    shifts: tuple[str, ...]  # e.g. ("r2<", "c3^!3")
    payment: str  # e.g. "1 ruby + 3 cards"
    reason: str = ""  # why it is illegal, or what is ambiguous
    cells: tuple[Cell, ...] = ()  # cells to highlight
    undo_hint: str = ""  # how to put the grid back, e.g. "shift row 2 right"


@dataclass(frozen=True)
class ScoredCombination:
    gem: str
    cells: tuple[Cell, ...]
    points: int  # N7 points, bonus not included; 0 in Pearl of the East


@dataclass(frozen=True)
class PlayerView:
    name: str
    score: int
    hand: int  # cards in hand (N14: the companion knows the count only)
    tasks_left: tuple[str, ...] = ()  # Pearl of the East: gems still to complete
    last_turn: int | None = None  # points of this player's last finished turn; None: no turn yet


@dataclass(frozen=True)
class TableView:
    """One moment of a Nizam or Pearl of the East game, ready to draw."""

    mode: str  # "nizam" | "pearl"
    players: tuple[PlayerView, ...]
    active: int  # index into players
    turn: int
    grid: tuple[str, ...]  # 5 row strings: gem letters, "*" pearl, "." empty, "?" unread
    confidence: tuple[tuple[float, ...], ...] = ()
    deck: int = 0
    discard: int = 0
    deck_runs_out: int = 0
    deck_runs_out_limit: int | None = None  # N12: the game ends at this run-out; None in Pearl
    verdict: Verdict | None = None
    combinations: tuple[ScoredCombination, ...] = ()  # of the last scoring phase
    turn_points: int = 0
    prompt: str = ""  # e.g. "Clear the highlighted cards", "Refill from the deck"
    highlight: tuple[Cell, ...] = ()
    pearl: Cell | None = None
    ended: bool = False
    winners: tuple[int, ...] = ()
    problem: str = ""  # what is wrong right now (no camera, no palette…) and what to do
    message: str = ""  # the answer to the last tap when it could not be done, e.g. "N3: …"
    options: dict[str, Any] = field(default_factory=dict)
    game_id: int | None = None  # the game in the store: what "export the record" exports
    actions: tuple[str, ...] = TABLE_ACTIONS
    """The taps that mean something now (the others are greyed): a draw or shifts first,
    then "End turn"; "Paid with 3 cards" after a shift paid with one card; "Undo"."""


@dataclass(frozen=True)
class CallOdds:
    p_success: float
    expected_points: float
    p_win: float


@dataclass(frozen=True)
class SandsView:
    """One moment of The Desert Sands."""

    players: tuple[str, str]
    scores: tuple[int, int]
    active: int
    bag: dict[str, int]  # stones left per colour: red, yellow, green, lilac
    calls: dict[str, CallOdds]  # per colour
    best: str
    last: str = ""  # e.g. "Ann called green and drew green: +5"
    ended: bool = False
    winners: tuple[int, ...] = ()
    target: int = 16
    message: str = ""  # the answer to the last tap when it could not be done
    problem: str = ""  # what is wrong right now (odds table, camera) and what to do
    called: str = ""  # the colour named, while the drawn stone is awaited (D2); "" otherwise
    game_id: int | None = None  # the game in the store: what "export the record" exports
    can_undo: bool = True  # something to take back (Undo is greyed otherwise)


class TableController(Protocol):
    """What a Nizam / Pearl screen talks to: the session (or a replay of a recording)."""

    def view(self) -> TableView: ...

    def camera(self) -> tuple[Any, Any]:
        """The newest camera frame (BGR numpy array, or None) and the grid's corners (or None)."""
        ...

    def tap(self, action: str, *args: Any) -> None:
        """``"draw"``, ``"wildcard"``, ``"end_turn"``, ``"undo"``, ``"confirm_misread"``,
        or ``"fix", row, col, letter``. The session commits the event before returning."""
        ...


class SandsController(Protocol):
    def view(self) -> SandsView: ...

    def tap(self, action: str, *args: Any) -> None:
        """``"call", colour`` then ``"drawn", colour``; ``"undo"``."""
        ...
