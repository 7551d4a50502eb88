"""The events of a game as the sessions log them: small typed values, each with a version.

The state is a fold over them (``table.fold``, ``sands.fold``); nothing is overwritten: a
fix or an undo is one more event. In the store each is a JSON object with its ``kind`` and
its version ``v`` (``to_json``); ``parse`` reads one back, upgrading an older version step by
step (``UPGRADES``), so a game stored by an older companion reopens as it was played.

Each kind is a class below, named as players say it (``Setup``, ``Shifts``, ``Wildcard``,
``Draw``, ``EndTurn``, ``Cleared``, ``Refill``, ``Fix``, ``Misread``, ``Relaid``, ``Kept``,
``Settled``; The
Desert Sands' ``Call`` and ``Drawn``; ``Undo`` for both), registered in ``KINDS`` by its
stored name.

Every event may carry where a recording was when it happened (``frame``, and ``tap``, the
number of the recording's tap), as ``companion replay`` stamps them; and ``joined``, how many
events just before it were logged with it as one thing the players did (a tap and the shift
the camera saw only briefly before it, a turn worked out whole): one undo takes them all back,
in the game as played and in the game reopened.

Versions: 1 is the companion up to commit d42cb3e, which wrote no ``v`` (and the same
fields); 2 numbers every event; 3 adds the opening layout a card was named on
(``Fix.layout``, absent before: not known) and ``Relaid``; 4 adds ``Kept``; 5 adds the cells
a ``Setup`` or a ``Refill`` laid unread (``unread``, absent before: none) and ``Settled`` (the
fields of every other kind are unchanged); 6 adds ``joined`` (absent before: none joined; a
game reopened undid them one by one). A field that is None is not written.

>>> Fix((2, 3), "R").to_json()
{'kind': 'fix', 'v': 6, 'cell': [2, 3], 'letter': 'R'}
>>> parse(EndTurn(joined=1).to_json())
EndTurn(joined=1)
>>> Refill("RG?", unread=((1, 3),)).to_json()["unread"]
[[1, 3]]
>>> parse({"kind": "shifts", "shifts": ["r2<", "c3^!3"], "frame": 40})
Shifts(shifts=(Shift.parse('r2<'), Shift.parse('c3^!3')), frame=40)
>>> parse({"kind": "relaid", "v": 2, "cells": [[1, 3]]})
Traceback (most recent call last):
...
companion.session.events.EventError: a relaid event of version 2: that version had none
>>> parse({"kind": "teleport", "v": 2})
Traceback (most recent call last):
...
companion.session.events.EventError: unknown event kind 'teleport'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar, TypeGuard, TypeVar

from companion.errors import BadInput, CompanionError, DamagedFile
from companion.rules.grid import NotationError
from companion.rules.setup import GameSetup
from companion.rules.shift import Shift

VERSION = 6
"""The version every event is written with."""
STAMP = ("frame", "tap")


class EventError(BadInput):
    """An event the session cannot apply now, or cannot read; says why in the players' words."""


class DamagedLog(DamagedFile):
    """A stored game whose log cannot be read or replayed: names the game and the event."""


KINDS: dict[str, type[Event]] = {}
"""Every kind of event by its name, filled as each is defined."""


@dataclass(frozen=True, kw_only=True)
class Event:
    """What every event carries: the recording's frame and tap it came from (or None)."""

    KIND: ClassVar[str] = ""

    frame: int | None = None
    tap: int | None = None
    joined: int | None = None

    def __init_subclass__(cls, kind: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if kind:  # Event itself names none
            cls.KIND = kind
            KINDS[kind] = cls

    def to_json(self) -> dict[str, Any]:
        """The event as the store keeps it: kind, version, fields, then the stamp."""
        out: dict[str, Any] = {"kind": self.KIND, "v": VERSION}
        out.update((name, _json_value(value)) for name, value in self._shown())
        return out

    def _shown(self) -> list[tuple[str, Any]]:
        """The fields (bar those None by default and now), then ``joined`` and the stamp when
        there are."""
        own = [(f.name, getattr(self, f.name)) for f in fields(self)
               if f.name not in STAMP and f.name != "joined"
               and not (f.default is None and getattr(self, f.name) is None)]
        return own + [(name, getattr(self, name)) for name in ("joined", *STAMP)
                      if getattr(self, name) is not None]

    def __repr__(self) -> str:  # pastes back; the stamp only when there is one
        shown = ", ".join(f"{name}={value!r}" for name, value in self._shown())
        return f"{type(self).__name__}({shown})"


def _json_value(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_json_value(v) for v in value]
    if isinstance(value, Shift):
        return str(value)
    return value


@dataclass(frozen=True, repr=False)
class Setup(Event, kind="setup"):
    """The opening layout read by the camera (after N2). ``unread``: the cells the camera
    could not read; their cards are laid with a provisional name, until the camera or the
    rules settle it (``Settled``) or a player names it (``Fix``)."""

    grid: str
    unread: tuple[tuple[int, int], ...] | None = None


@dataclass(frozen=True, repr=False)
class Shifts(Event, kind="shifts"):
    """The shift(s) between two stable grids, each paid as the record writes it."""

    shifts: tuple[Shift, ...]


@dataclass(frozen=True, repr=False)
class Wildcard(Event, kind="wildcard"):
    """The last shift (or, before any, the next) was paid with three cards (N5)."""


@dataclass(frozen=True, repr=False)
class Draw(Event, kind="draw"):
    """The active player took three cards (N3)."""


@dataclass(frozen=True, repr=False)
class EndTurn(Event, kind="end_turn"):
    """Shifting is over: the scoring phase begins."""


@dataclass(frozen=True, repr=False)
class Cleared(Event, kind="cleared"):
    """The scored cards have left the grid (N9)."""


@dataclass(frozen=True, repr=False)
class Refill(Event, kind="refill"):
    """The cards laid in the emptied cells, in reading order; ``unread``, the cells of
    those the camera could not read, laid with a provisional name (as ``Setup.unread``)."""

    cards: str
    unread: tuple[tuple[int, int], ...] | None = None


@dataclass(frozen=True, repr=False)
class Fix(Event, kind="fix"):
    """A misread cell (row, col from 1) corrected by a tap; before the opening grid is set
    up, the card named for a cell the camera is unsure of, with the ``layout`` the camera
    read then (rows joined by "/"; None: not known), the card the name belongs to."""

    cell: tuple[int, int]
    letter: str
    layout: str | None = None


@dataclass(frozen=True, repr=False)
class Misread(Event, kind="misread"):
    """The players confirmed this reading is a misread, not a move."""

    reading: str


@dataclass(frozen=True, repr=False)
class Relaid(Event, kind="relaid"):
    """Before the opening grid is set up: other cards now lie in these named ``cells`` (the
    cards gathered, or a new layout dealt; companions of version 3 logged it too for
    one card read otherwise): the names given them are dropped."""

    cells: tuple[tuple[int, int], ...]


@dataclass(frozen=True, repr=False)
class Kept(Event, kind="kept"):
    """Before the opening grid is set up: the names of these ``cells`` hold for the cards
    the camera reads now (``layout``, rows joined by "/"): the players undid a ``Relaid``,
    saying the cards there were not laid anew."""

    cells: tuple[tuple[int, int], ...]
    layout: str


SETTLED_BY = ("camera", "rules", "tap", "likeliest")
"""Who named an unread card: the camera read it at last; the rules, as the only name under
which what the players did next is consistent; the rules, as the only name under which a tap
the players made can be taken (undone with the tap); or, when several names are, the
likeliest of them (the card stays provisional). A card the camera read, sure, as another is
named by the rules, or (its name not known) as the likeliest, laid unread from then on."""


@dataclass(frozen=True, repr=False)
class Settled(Event, kind="settled"):
    """The card laid unread as number ``card`` of the game (in the order cards were laid:
    the 25 of the setup, then each refill's) is ``letter``, named ``by`` the camera, the
    rules or as the likeliest (``SETTLED_BY``). The game is folded again as if it had been
    laid under that name: what was scored is counted again. Since companions after commit
    807c536 (same version, same fields), also a card laid under the name the camera read,
    sure, that the rules name otherwise (``session.misread``)."""

    card: int
    letter: str
    by: str = "rules"


@dataclass(frozen=True, repr=False)
class Call(Event, kind="call"):
    """The colour The Desert Sands' player to move names (D2)."""

    colour: str


@dataclass(frozen=True, repr=False)
class Drawn(Event, kind="drawn"):
    """The stone that came out of the bag, entered by a ``tap`` or read by the ``camera``."""

    colour: str
    by: str = "tap"


@dataclass(frozen=True, repr=False)
class Undo(Event, kind="undo"):
    """Cancels the latest event not yet undone."""


def _numbered(obj: dict[str, Any]) -> dict[str, Any]:
    """Version 1 to 2: the fields are unchanged; the event gets its number."""
    return {**obj, "v": 2}


def _layouts(obj: dict[str, Any]) -> dict[str, Any]:
    """Version 2 to 3: a fix was named on a layout not known (no ``layout``)."""
    return {**obj, "v": 3}


def _kept(obj: dict[str, Any]) -> dict[str, Any]:
    """Version 3 to 4: the fields are unchanged (4 adds a kind, ``Kept``)."""
    return {**obj, "v": 4}


def _unread(obj: dict[str, Any]) -> dict[str, Any]:
    """Version 4 to 5: a setup or a refill laid no card unread (no ``unread``)."""
    return {**obj, "v": 5}


def _unjoined(obj: dict[str, Any]) -> dict[str, Any]:
    """Version 5 to 6: no event was joined by the ones before it (no ``joined``)."""
    return {**obj, "v": 6}


UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _numbered, 2: _layouts, 3: _kept, 4: _unread, 5: _unjoined}
"""For each older version, what turns an event of it into the next version."""
SINCE = {"relaid": 3, "kept": 4, "settled": 5}
"""The kinds no version before this one had."""


def _text(obj: Mapping[str, Any], name: str, what: str) -> str:
    value = obj.get(name)
    if not isinstance(value, str):
        raise EventError(f"a {obj['kind']} event needs its {what}")
    return value


def _number(obj: Mapping[str, Any], name: str) -> int | None:
    value = obj.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise EventError(f"a {obj['kind']} event's {name} must be a number, not {value!r}")
    return value


def _fields(kind: str, obj: Mapping[str, Any]) -> dict[str, Any]:
    if kind == "setup":
        return {"grid": _text(obj, "grid", "grid"), "unread": _cells(obj, "unread")}
    if kind == "shifts":
        given = obj.get("shifts")
        if not (isinstance(given, list) and given and all(isinstance(s, str) for s in given)):
            raise EventError("a shifts event needs at least one shift")
        try:
            return {"shifts": tuple(Shift.parse(s) for s in given)}
        except NotationError as err:
            raise EventError(f"a shifts event: {err}") from None
    if kind == "refill":
        return {"cards": _text(obj, "cards", "cards"), "unread": _cells(obj, "unread")}
    if kind == "settled":
        card, letter, by = obj.get("card"), obj.get("letter"), obj.get("by", "rules")
        if isinstance(card, bool) or not (isinstance(card, int) and card >= 0
                                          and isinstance(letter, str) and by in SETTLED_BY):
            raise EventError(f"a settled event needs a card number, a letter and who named "
                             f"it ({', '.join(SETTLED_BY)})")
        return {"card": card, "letter": letter, "by": by}
    if kind == "fix":
        cell, letter = obj.get("cell"), obj.get("letter")
        if not (_is_cell(cell) and isinstance(letter, str)):
            raise EventError("a fix event needs a cell [row, col] and a letter")
        layout = obj.get("layout")
        if layout is not None and not isinstance(layout, str):
            raise EventError(f"a fix event's layout must be rows of cards, not {layout!r}")
        return {"cell": (cell[0], cell[1]), "letter": letter, "layout": layout}
    if kind in ("relaid", "kept"):
        cells = obj.get("cells")
        if not (isinstance(cells, list) and cells and all(_is_cell(c) for c in cells)):
            raise EventError(f"a {kind} event needs its cells [[row, col], …]")
        named = {"cells": tuple((c[0], c[1]) for c in cells)}
        return named if kind == "relaid" else {**named, "layout": _text(obj, "layout", "layout")}
    if kind == "misread":
        return {"reading": _text(obj, "reading", "reading")}
    if kind in ("call", "drawn"):
        out: dict[str, Any] = {"colour": _text(obj, "colour", "colour")}
        if kind == "drawn" and "by" in obj:
            out["by"] = _text(obj, "by", "reader (tap or camera)")
        return out
    return {}


def _cells(obj: Mapping[str, Any], name: str) -> tuple[tuple[int, int], ...] | None:
    cells = obj.get(name)
    if cells is None:
        return None
    if not (isinstance(cells, list) and cells and all(_is_cell(c) for c in cells)):
        raise EventError(f"a {obj['kind']} event's {name} must be cells [[row, col], …]")
    return tuple((c[0], c[1]) for c in cells)


def _is_cell(value: Any) -> TypeGuard[list[int]]:
    return (isinstance(value, list) and len(value) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in value))


def parse(obj: Mapping[str, Any]) -> Event:
    """The typed event of a stored object, upgraded from its version to today's; an
    ``EventError`` when it is no event of any version (a damaged or foreign log)."""
    kind = obj.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise EventError(f"unknown event kind {kind!r}")
    version = obj.get("v", 1)
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= VERSION:
        raise EventError(f"a {kind} event of version {version!r}; this companion reads "
                         f"versions 1 to {VERSION}")
    if version < SINCE.get(kind, 1):
        raise EventError(f"a {kind} event of version {version}: that version had none")
    current = dict(obj)
    while version < VERSION:
        current = UPGRADES[version](current)
        version = current["v"]
    stamp = {name: _number(current, name) for name in STAMP}
    joined = _number(current, "joined")
    if joined is not None and joined < 1:
        raise EventError(f"a {kind} event's joined must be 1 or more, not {joined}")
    return KINDS[kind](**_fields(kind, current), **stamp, joined=joined)


def stamped(event: Event, stamp: Mapping[str, int]) -> Event:
    """``event`` with the recording's frame (and tap) it came from."""
    return replace(event, **stamp) if stamp else event


S = TypeVar("S")


def read_header(header: Mapping[str, Any], game: str) -> GameSetup:
    """The set-up a stored ``game`` (its name in messages) is played with; a ``DamagedLog``
    naming the game when its header reads as no set-up (the store takes what it is given)."""
    try:
        return GameSetup.from_header(header)
    except CompanionError as err:
        raise DamagedLog(f"{game}: its header cannot be read: {err}") from None


def read_log(payloads: Iterable[Mapping[str, Any]], game: str) -> list[Event]:
    """The stored events of ``game`` (its name in messages), typed and upgraded; a
    ``DamagedLog`` naming the first one that cannot be read."""
    out = []
    for number, payload in enumerate(payloads, 1):
        try:
            out.append(parse(payload))
        except CompanionError as err:
            raise DamagedLog(f"{game}: event {number} cannot be read: {err}") from None
    return out


def fold_log(start: S, apply: Callable[[S, Event], S], events: Iterable[Event],
             game: str = "the game") -> list[S]:
    """Every state a log passes through, undone ones dropped: the last is the current one.

    Every event was applied once before it was logged, so one the game cannot take now means
    a damaged log (or an older version's event that needs an upgrade): a ``DamagedLog``
    naming it, never a game silently played another way.
    """
    history = [start]
    for number, event in enumerate(events, 1):
        if isinstance(event, Undo):
            if len(history) > 1:
                history.pop()
            continue
        try:
            history.append(apply(history[-1], event))
        except CompanionError as err:  # anything else is a bug, and is raised as one
            raise DamagedLog(f"{game}: event {number} ({event.KIND}) cannot be replayed: "
                             f"{err}") from None
    return history
