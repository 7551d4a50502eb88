"""What every session does the same way, whatever the game: its log in the game store folded
into states, commit (logged and synced before anyone sees the result), undo (one more event),
the record, and a count of changes for whoever keeps the screen's view.

Each game says only what is its own (``SessionCore``'s abstract methods): the state before
any event, how an event changes it, when the game is over and the record's lines.

>>> from companion.rules.sands import Bag
>>> from companion.session.events import Call, Drawn
>>> from companion.session.sands import SandsSession
>>> from companion.store import GameStore
>>> s = SandsSession.new(GameStore(":memory:"), Bag.parse("r1l1"), table_provider=lambda: None)
>>> before = s.changes
>>> s.commit(Call("red")).called, s.seq, s.changes > before
('red', 1, True)
>>> s.undo(); s.state.called, s.seq, [e["kind"] for e in s.events()]
('', 2, ['call', 'undo'])
"""

from __future__ import annotations

import functools
import threading
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import Any, ClassVar, Concatenate, Generic, ParamSpec, Protocol, TypeVar

from companion.errors import BadInput
from companion.rules.record import format_record
from companion.rules.setup import GameSetup, SetupError
from companion.store import GameStore

from .events import Event, Undo, fold_log, read_header, read_log, stamped

S = TypeVar("S")
T = TypeVar("T")
V = TypeVar("V")
R = TypeVar("R")
P = ParamSpec("P")


class LogDiverged(Exception):  # noqa: N818 (said as players would: the log went its own way)
    """A session re-making its stored log was about to log another event than the one
    stored next (``SessionCore(remake=True)``): what it is given now is not what made the
    log. Not a ``CompanionError``: no tap or reading may take it for a refusal."""


class Shown(Generic[T]):
    """An attribute the screen shows (a message, a verdict): setting it counts a change."""

    def __set_name__(self, owner: type, name: str) -> None:
        self._slot = f"_shown_{name}"

    def __get__(self, obj: Any, owner: Any = None) -> T:
        value: T = getattr(obj, self._slot)
        return value

    def __set__(self, obj: Any, value: T) -> None:
        setattr(obj, self._slot, value)
        obj.changes += 1


class _Locked(Protocol):
    @property
    def lock(self) -> AbstractContextManager[Any]: ...


L = TypeVar("L", bound=_Locked)


def locked(method: Callable[Concatenate[L, P], R]) -> Callable[Concatenate[L, P], R]:
    """``method`` of a session, run holding the session's lock: what the players tap and
    what the camera reads reach the session from threads of their own."""

    @functools.wraps(method)
    def run(session: L, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with session.lock:
            return method(session, *args, **kwargs)

    return run


class SessionCore(ABC, Generic[S]):
    """One game in the store: ``history`` is every state its log passes through (undone ones
    dropped; the last is ``state``), ``seq`` the number of the last event logged.

    ``changes`` grows with every change the screen could show (an event, an undo, a new
    message): a view kept while it stays the same is still the view. ``lock`` is held by
    whoever feeds the session from another thread (taps, the camera).

    ``remake``: start from the beginning, not from the stored log, and make its events
    again from what the session is given (``remaking``): a recording's replay resumed
    this way passes through every state it passed through before, so what the reader
    learned from them is learned again (``companion.live.playback``).
    """

    PLAYS: ClassVar[tuple[str, ...]]
    """The game kinds (``rules.setup``) this session plays."""
    TITLE: ClassVar[str]

    message = Shown[str]()
    """Why the last tap or reading could not be taken, in the players' words; "" when it was."""

    def __init__(self, store: GameStore, game_id: int, remake: bool = False) -> None:
        self.changes = 0
        self.store = store
        self.game_id = game_id
        header = store.game(game_id).header
        if header.get("game") not in self.PLAYS:
            raise SetupError(f"game {game_id} is {header.get('game')!r}, not {self.TITLE}")
        name = f"game {game_id} in {store.path}"
        self.setup = read_header(header, name)
        stored = store.events(game_id)
        events = read_log((e.payload for e in stored), name)
        self.remaking: deque[tuple[int, Event]] = deque(
            zip((e.seq for e in stored), events, strict=True) if remake else ())
        """With ``remake``: the stored events not yet made again, each with its number. The
        session starts from the beginning and each event it would log must be the next of
        these (a ``LogDiverged`` when it is not); it is not written again, and ``seq`` moves
        to its number, as it did when it was logged. Once none are left, it logs as any
        other."""
        self.joined_remade: dict[int, int] = {}
        """While ``remake``: events made again joined (``Event.joined``) where a log written
        before version 6 stored none, by number: an undo after one takes back what it
        joined, as the companion that wrote the log did."""
        self.seq = 0 if remake or not stored else stored[-1].seq
        self.history: list[S] = (
            [self.begin(self.setup)] if remake
            else fold_log(self.begin(self.setup), self.apply, events, name))
        self.message = ""
        self.stamp: dict[str, int] = {}
        """Stamped on each event logged: the frame (and tap) a recording was at."""
        self.committed: list[Event] = []
        """Events logged since the caller last emptied this list."""
        self.lock = threading.RLock()
        self._view: tuple[tuple[Any, ...], Any] | None = None

    # -- what each game says -------------------------------------------------------------

    @abstractmethod
    def begin(self, setup: GameSetup) -> S:
        """The state before the first event."""

    @abstractmethod
    def apply(self, state: S, event: Event) -> S:
        """The state after ``event``; a ``CompanionError`` saying why when it cannot happen."""

    @abstractmethod
    def over(self, state: S) -> bool:
        """True once the game has ended: the store marks it finished."""

    @abstractmethod
    def record_lines(self) -> list[dict[str, Any]]:
        """The game record's lines after its header (DESIGN.md): the moves ended so far."""

    @abstractmethod
    def unrecorded(self) -> str:
        """What the record leaves out of the move under way (a turn not over, a call whose
        stone is not drawn), in one line for the players; "" when it holds every move
        logged."""

    # -- written once for every game ---------------------------------------------------------

    @property
    def state(self) -> S:
        return self.history[-1]

    @property
    def can_undo(self) -> bool:
        return len(self.history) > 1

    def commit(self, event: Event) -> S:
        """Apply ``event``, then log it (synced) before anyone sees the result; a
        ``CompanionError`` when the game refuses it, and nothing is logged."""
        new = self.apply(self.state, event)
        self._log(event)
        self.history.append(new)
        if self.over(new):
            self.store.finish(self.game_id)
        return new

    def undo(self) -> None:
        """Cancel the latest event not yet undone, by logging one more event."""
        if not self.can_undo:
            raise BadInput("nothing to undo")
        self._log(Undo())
        self.history.pop()

    def _log(self, event: Event) -> None:
        event = stamped(event, self.stamp)
        if self.remaking:
            seq, stored = self.remaking.popleft()
            if event != stored:
                if replace(event, joined=None) != stored:
                    raise LogDiverged(f"game {self.game_id}: {event!r} made again where "
                                      f"{stored!r} was logged")
                # a log written before events were joined (``Event.joined``) joined none
                self.joined_remade[seq] = event.joined or 0
            self.seq = seq  # what the session keyed to the number it had then still holds
            self.changes += 1
            return
        self.seq = self.store.append(self.game_id, event.to_json(), expect_seq=self.seq + 1)
        self.committed.append(event)
        self.changes += 1

    def events(self) -> list[Mapping[str, Any]]:
        """Every event of this game as logged, undone ones included; while ``remaking``, those
        made again so far (what the session asks of its past must be what it asked then)."""
        stored = self.store.events(self.game_id)
        return [e.payload for e in stored[: len(stored) - len(self.remaking)]]

    def record(self) -> str:
        """The game record of DESIGN.md, as text (fixes and undos applied)."""
        return format_record(self.setup.record_header(), self.record_lines())

    def kept_view(self, build: Callable[[], V], *also: Any) -> V:
        """The view ``build`` makes, built again only after a change (or when ``also``,
        what else it shows, differs): the screens poll it many times a second."""
        key = (self.changes, *also)
        if self._view is None or self._view[0] != key:
            self._view = (key, build())
        view: V = self._view[1]
        return view
