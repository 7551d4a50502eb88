"""The Desert Sands at the table (RULES.md D1–D6): calls and drawn stones in, events out.

The game is a log of events in the game store, one per tap or camera read (``events``:
``Call``, ``Drawn``, ``Undo``); each is committed (synced) before the state it makes is
shown (``core.SessionCore``), and the state is a fold over the log (``apply``).

The odds come from the solved table (``companion.sands``), which takes a second or two to
solve the first time a bag is played. The session never waits for it: it asks
``table_provider()``, which returns the table or None while it is not ready
(``TableLoader`` loads it on a thread of its own). Until then each call's ``p_success`` and
``expected_points`` are exact all the same (they need only the bag), ``p_win`` is NaN and
``best`` is ``""``: no call is marked best before it is known to be.

>>> from companion.store import GameStore
>>> s = SandsSession.new(GameStore(":memory:"), Bag.parse("r2y2g2l2"), ["Ann", "Bob"],
...                      table_provider=lambda: None)
>>> s.tap("call", "green"); s.tap("drawn", "green")
>>> v = s.view()
>>> v.last, v.scores, v.bag["green"], v.calls["green"].p_success, v.best
('Ann called green and drew green: +5', (5, 0), 1, 0.14285714285714285, '')
>>> s.tap("drawn", "red"); s.message
'D2: name a colour before the stone is drawn'
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import CompanionError, said
from companion.rules.sands import (
    CALLS,
    COLOURS,
    GOAL,
    LETTERS,
    PLAYERS,
    Bag,
    Sands,
    SandsError,
    SandsState,
    check_colour,
)
from companion.rules.setup import SANDS, GameSetup, player_names
from companion.sands.advice import advise
from companion.sands.odds import SandsTable, load_table
from companion.store import GameStore
from companion.view import CallOdds, SandsView

from .core import SessionCore, Shown, locked
from .events import Call, Drawn, Event, fold_log

TableProvider = Callable[[], SandsTable | None]


@dataclass(frozen=True)
class Draw:
    """One call and the stone it drew: who called, and the rules' state before and after."""

    player: int
    call: str
    drawn: str
    before: SandsState
    after: SandsState

    @property
    def success(self) -> bool:
        return self.drawn in CALLS[self.call].succeeds_on


@dataclass(frozen=True)
class SandsMoment:
    """What the session knows at one moment: the rules' state, the colour called while its
    stone is awaited (``""`` otherwise), and every draw so far."""

    rules: SandsState
    called: str = ""
    draws: tuple[Draw, ...] = ()


def _over(state: SandsState) -> SandsError:
    return SandsError("the game has ended: no more calls", "D6" if state.bag.total == 0 else "D5")


def apply(moment: SandsMoment, event: Event) -> SandsMoment:
    """The moment after ``event``; SandsError (with the rule ID) when it cannot happen now."""
    state = moment.rules
    match event:
        case Call(colour=colour):
            if state.ended:
                raise _over(state)
            if moment.called:
                raise SandsError(f"{moment.called} is already called: tap the stone that came "
                                 "out of the bag, or Undo", "D2")
            return replace(moment, called=check_colour(colour, "call"))
        case Drawn(colour=colour):
            if not moment.called:
                raise _over(state) if state.ended else SandsError(
                    "name a colour before the stone is drawn", "D2")
            after = state.after(moment.called, check_colour(colour, "drawn stone"))
            draw = Draw(state.turn, moment.called, colour, state, after)
            return SandsMoment(after, "", moment.draws + (draw,))
    raise SandsError(f"a {event.KIND} event is no part of The Desert Sands")


def fold(game: Sands, events: Iterable[Event], name: str = "the game") -> list[SandsMoment]:
    """Every moment the log passes through (``events.fold_log``): the last is the current one."""
    return fold_log(SandsMoment(game.start()), apply, events, name)


def outcome_text(draw: Draw, names: Sequence[str]) -> str:
    """The last draw as the players read it.

    >>> state = Sands().start()
    >>> outcome_text(Draw(0, "lilac", "red", state, state.after("lilac", "red")), ["Ann", "Bob"])
    "Ann called lilac and drew red: Bob +2; Bob's turn"
    """
    me, other = names[draw.player], names[1 - draw.player]
    row = CALLS[draw.call]
    text = f"{me} called {draw.call} and drew {draw.drawn}: "
    if draw.success:
        text += f"+{row.points}"
    else:
        text += f"{other} +{row.penalty}" if row.penalty else "no points"
    after = draw.after
    if draw.success and after.scores[draw.player] >= GOAL:
        return f"{text}; {me} wins"
    if after.ended:
        who = f"{names[after.winners[0]]} wins" if after.winners else "a draw"
        return f"{text}; the bag is empty: {who}"
    return text if draw.success else f"{text}; {other}'s turn"


def stone_colour(label: str) -> str | None:
    """A stone read by the camera: a palette letter of the bag notation (``r``, ``y``, ``g``,
    ``l``) or a colour name; None for ``.`` (no stone) and ``?`` (unsure).

    >>> stone_colour("l"), stone_colour("green"), stone_colour("?")
    ('lilac', 'green', None)
    """
    if label in (".", "?"):
        return None
    if len(label) == 1 and label.lower() in LETTERS:
        return COLOURS[LETTERS.index(label.lower())]
    return check_colour(label, "stone read by the camera")


class TableLoader:
    """Loads the solved table for one full bag on a thread of its own; calling the loader
    returns the table, or None while it is still loading (and raises what loading raised)."""

    def __init__(self, full: Bag, cache_dir: str | os.PathLike[str] | None = None,
                 load: Callable[[Bag, Any], SandsTable] = load_table) -> None:
        self.full = full
        self._table: SandsTable | None = None
        self._error: Exception | None = None
        self._done = threading.Event()
        threading.Thread(target=self._run, args=(load, cache_dir), name="sands-table",
                         daemon=True).start()

    def _run(self, load: Callable[[Bag, Any], SandsTable], cache_dir: Any) -> None:
        try:
            self._table = load(self.full, cache_dir)
        except Exception as err:  # kept for the session, which shows it and plays on
            self._error = err
        finally:
            self._done.set()

    def __call__(self) -> SandsTable | None:
        if self._error is not None:
            raise self._error
        return self._table

    def wait(self, timeout: float | None = None) -> SandsTable | None:
        self._done.wait(timeout)
        return self()


class SandsSession(SessionCore[SandsMoment]):
    """One Desert Sands game in the store, with what the players and the camera tell it.

    Taps: ``("call", colour)``, then ``("drawn", colour)``, or the camera's ``on_stone``;
    ``("undo",)``. A tap that cannot be done sets ``message`` and changes nothing.
    ``problem`` says why the odds are missing when the table could not be had.
    """

    PLAYS = (SANDS,)
    TITLE = "The Desert Sands"

    problem = Shown[str]()

    def __init__(self, store: GameStore, game_id: int,
                 table_provider: TableProvider | None = None) -> None:
        super().__init__(store, game_id)
        self.game = self.setup.sands()
        first, second = self.setup.names
        self.names = (first, second)
        self.problem = ""
        self._provider = table_provider or TableLoader(self.game.full)
        self._table: SandsTable | None = None

    @classmethod
    def new(cls, store: GameStore, full: Bag | None = None, names: Sequence[str] = (),
            table_provider: TableProvider | None = None) -> SandsSession:
        """A new game with ``full`` in the bag (D1's 12 of each by default)."""
        setup = GameSetup(SANDS, player_names(names, len(names) or PLAYERS), bag=full)
        return cls.start(store, setup, table_provider)

    @classmethod
    def start(cls, store: GameStore, setup: GameSetup,
              table_provider: TableProvider | None = None) -> SandsSession:
        """A new game of ``setup`` (``rules.setup``) in ``store``."""
        if setup.sands().full.total == 0:
            raise SandsError("the bag needs at least one stone", "D1")
        return cls(store, store.new_game(setup.header()), table_provider)

    @classmethod
    def from_header(cls, store: GameStore, header: Mapping[str, Any],
                    table_provider: TableProvider | None = None) -> SandsSession:
        """A new game from the start screen's ``{"game": "sands", "players": [names],
        "bag": {...}}``."""
        return cls.start(store, GameSetup.from_header(header), table_provider)

    # -- the game's own part of the core -------------------------------------------------

    def begin(self, setup: GameSetup) -> SandsMoment:
        return SandsMoment(setup.sands().start())

    def apply(self, state: SandsMoment, event: Event) -> SandsMoment:
        return apply(state, event)

    def over(self, state: SandsMoment) -> bool:
        return state.rules.ended

    def record_lines(self) -> list[dict[str, Any]]:
        """One ``{"call", "drawn"}`` a line."""
        return [{"call": d.call, "drawn": d.drawn} for d in self.state.draws]

    def unrecorded(self) -> str:
        """A call whose stone is not drawn yet: a record's line is a call and its stone."""
        called = self.state.called
        if not called:
            return ""
        who = self.names[self.state.rules.turn]
        return (f"{who} called {called} and no stone was drawn yet: the record ends before "
                "that call.")

    # -- events ------------------------------------------------------------------------

    @locked
    def tap(self, action: str, *args: Any) -> None:
        """``"call", colour``, ``"drawn", colour`` or ``"undo"``; committed before returning."""
        self.message = ""
        try:
            if action == "undo" and not args:
                self.undo()
            elif action == "call" and len(args) == 1:
                self.commit(Call(args[0]))
            elif action == "drawn" and len(args) == 1:
                self.commit(Drawn(args[0], "tap"))
            else:
                raise SandsError(f"unknown tap {(action, *args)!r}")
        except CompanionError as err:
            self.message = str(err)

    @locked
    def on_stone(self, label: str) -> None:
        """A stone the camera has read on the stone spot, counted once per draw (e.g. by
        ``vision.spot.StoneWatcher``): a palette letter ``r y g l`` or a colour name.

        It is the drawn stone of the colour called. When the same stone was already entered
        by a tap, it is ignored; when no colour is called, it is refused with a message.
        """
        self.message = ""
        try:
            colour = stone_colour(label)
            if colour is None:
                return
            moment = self.state
            if moment.called:
                self.commit(Drawn(colour, "camera"))
                return
            last = moment.draws[-1] if moment.draws else None
            if last is not None and last.drawn == colour:
                return  # the players tapped it in before the camera was sure
            if last is not None:
                raise SandsError(f"the camera read {colour} but {last.drawn} was entered: "
                                 f"if the stone is {colour}, tap Undo and then {colour}")
            raise SandsError(f"a {colour} stone is on the spot but no colour is called",
                             "D2")
        except CompanionError as err:
            self.message = str(err)

    # -- what the screen shows ---------------------------------------------------------

    def table(self) -> SandsTable | None:
        """The solved table once the provider has it; None before (or when it failed)."""
        if self._table is None and not self.problem:
            try:
                table = self._provider()
            except Exception as err:  # the odds are an aid: the game goes on without them
                self.problem = f"no chances to win: {said(err)}"  # a bug's type is named
                return None
            if table is not None and table.full != self.game.full:
                self.problem = (f"no chances to win: the table is for the bag {table.full}, "
                                f"this game's is {self.game.full}")
                return None
            self._table = table
        return self._table

    @property
    def odds_ready(self) -> bool:
        return self.table() is not None

    @locked
    def view(self) -> SandsView:
        """What the screen shows now; cheap when nothing changed (the screen polls it)."""
        table = self.table()
        return self.kept_view(lambda: self._build(self.state, table), table is not None)

    def _build(self, moment: SandsMoment, table: SandsTable | None) -> SandsView:
        state = moment.rules
        calls: dict[str, CallOdds] = {}
        best = ""
        if not state.ended:
            mover = (state.scores[state.turn], state.scores[1 - state.turn])
            advice = advise(table, state.bag, mover) if table is not None else None
            for colour in COLOURS:
                p = state.p_success(colour)
                p_win = advice.calls[colour].p_win if advice else math.nan
                calls[colour] = CallOdds(float(p), float(p * CALLS[colour].points), p_win)
            best = advice.best if advice else ""
        return SandsView(
            players=self.names,
            scores=state.scores,
            active=state.turn,
            bag=state.bag.to_json(),
            calls=calls,
            best=best,
            last=outcome_text(moment.draws[-1], self.names) if moment.draws else "",
            ended=state.ended,
            winners=state.winners,
            target=GOAL,
            called=moment.called,
            game_id=self.game_id,
            message=self.message,
            problem=self.problem,
            can_undo=self.can_undo,
        )
