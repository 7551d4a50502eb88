"""What the screen shows: plain immutable values the session builds and the UI renders.

The UI never computes a rule or reads a camera; it draws a ``TableView`` and sends taps.
Keeping this contract small lets the screens be built and tested without a camera.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

if TYPE_CHECKING:
    import numpy as np

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
class OpeningAsk:
    """Before the first turn, what the prompt asks of the players, as the session sees the
    opening layout (the header says it in a few words, and never counts cards of its own)."""

    case: Literal["deal", "uncover", "name", "check", "refused"]
    """"deal": cells are still empty, the deal goes on (while more are empty than a misread
    makes, cards the camera cannot read wait for it to end); "uncover": more cards unread
    than a misread makes (a hand or a sleeve over the layout, or colours the camera renders
    otherwise): clear the grid or calibrate; "name": the cards marked ? are to be named (or
    chosen again); "check": every card read, the game waits for a card chosen; "refused":
    every card read, and the layout refused."""
    cards: int = 0
    """"name": how many cards the prompt asks to name."""


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
    scoring: bool = False
    """The combinations are the turn being scored now (its cards cleared, its cells
    refilled), not the last turn: the grid still shows where they lay."""
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
    opening: OpeningAsk | None = None
    """Before the first turn (the opening layout not yet set up), what the prompt asks."""
    undo_deal: bool = False
    """The next "Undo" takes the game back to its opening layout: it takes back the deal (the
    opening grid the game started from), alone or with the first move joined to it (an "End
    turn" that took the layout and the shifts the camera saw only briefly): the button says
    so."""


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


ViewT = TypeVar("ViewT", covariant=True)


class GameController(Protocol[ViewT]):
    """What every game screen talks to: polled for its view on the main thread (cheap),
    tapped on the worker thread, closed when the players leave the game."""

    def view(self) -> ViewT: ...

    def tap(self, action: str, *args: Any) -> None: ...

    def close(self) -> None:
        """Let go of what the game holds (its camera thread); nothing when it holds nothing."""
        ...


class TableController(GameController[TableView], Protocol):
    """What a Nizam / Pearl screen talks to: the session (or a replay of a recording)."""

    @property
    def kind(self) -> Literal["table"]:
        """Which screen shows the game (``Controller``): this one, the Nizam screen."""
        ...

    def camera(self) -> tuple[np.ndarray | None, np.ndarray | None]:
        """The newest camera frame (BGR, or None) and the grid's corners in it (or None)."""
        ...

    def tap(self, action: str, *args: Any) -> None:
        """``"draw"``, ``"wildcard"``, ``"end_turn"``, ``"undo"``, ``"confirm_misread"``,
        or ``"fix", row, col, letter``. The session commits the event before returning."""
        ...


class SpotReading(Protocol):
    """The camera's newest read of the Desert Sands stone spot (``stones.SpotStatus``)."""

    @property
    def camera(self) -> bool:
        """Whether there is a camera at all (the spot's set-up needs one)."""
        ...

    @property
    def line(self) -> str:
        """One line for the screen: what the camera sees on the spot, or why nothing."""
        ...


class StoneCamera(Protocol):
    """The camera side of a Desert Sands game (``stones.SandsWatcher``): the spot's picture
    and read, its set-up, and a pause while the set-up screen is open."""

    def camera(self) -> tuple[np.ndarray | None, np.ndarray | None]:
        """The newest frame (or None) and the saved spot's corners in it (or None)."""
        ...

    def spot(self) -> SpotReading: ...

    def pause(self, paused: bool) -> None: ...

    def calibrate_stones(self, samples: Sequence[tuple[np.ndarray, str]],
                         mark: tuple[tuple[float, float], float]) -> str:
        """Learn and save the stones from ``(frame, letter)`` captures and the spot's
        ``((x, y), side)``; slow; returns a line to show."""
        ...


class SandsController(GameController[SandsView], Protocol):
    @property
    def kind(self) -> Literal["sands"]:
        """Which screen shows the game (``Controller``): The Desert Sands screen."""
        ...

    def tap(self, action: str, *args: Any) -> None:
        """``"call", colour`` then ``"drawn", colour``; ``"undo"``."""
        ...

    def stone_camera(self) -> StoneCamera | None:
        """The game's camera side, or None when the stones are only tapped in."""
        ...


Controller = TableController | SandsController
"""A game the app shows; ``kind`` says which screen shows it."""


class PastGameEntry(Protocol):
    """A stored game as the past-games list shows it (``store.StoredGame``, ``story.PastGame``)."""

    @property
    def id(self) -> int: ...

    @property
    def header(self) -> Mapping[str, Any]: ...

    @property
    def started(self) -> str: ...

    @property
    def finished(self) -> str | None:
        """When it ended; None while it is not finished."""
        ...
