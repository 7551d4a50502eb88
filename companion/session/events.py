"""The events of a Nizam or Pearl of the East game as the session logs them.

Each is a small JSON object with a ``kind``. The state is a fold over them
(``table.fold``); nothing is overwritten: a fix or an undo is one more event.

==============  =====================================================================
kind            fields
==============  =====================================================================
``setup``       ``grid``: the opening layout read by the camera (after N2)
``shifts``      ``shifts``: the shift(s) between two stable grids, as the record writes them
``wildcard``    the last shift was paid with three cards (N5)
``draw``        the active player took three cards (N3)
``end_turn``    shifting is over: the scoring phase begins
``cleared``     the scored cards have left the grid (N9)
``refill``      ``cards``: the cards laid in the emptied cells, in reading order
``fix``         ``cell`` [row, col] and ``letter``: a misread cell corrected by a tap
``misread``     ``reading``: the players confirmed this reading is a misread, not a move
``undo``        cancels the latest event not yet undone
==============  =====================================================================
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from companion.errors import BadInput, CompanionError

S = TypeVar("S")

KINDS = (
    "setup", "shifts", "wildcard", "draw", "end_turn", "cleared", "refill", "fix",
    "misread", "undo",
)


class EventError(BadInput):
    """An event the session cannot apply now; says why in the players' words."""


def check_event(event: Mapping[str, Any]) -> None:
    kind = event.get("kind")
    if kind not in KINDS:
        raise EventError(f"unknown event kind {kind!r}")
    if kind == "setup" and not isinstance(event.get("grid"), str):
        raise EventError("a setup event needs its grid")
    if kind == "shifts" and not (
        isinstance(event.get("shifts"), list) and event["shifts"]
    ):
        raise EventError("a shifts event needs at least one shift")
    if kind == "refill" and not isinstance(event.get("cards"), str):
        raise EventError("a refill event needs its cards")
    if kind == "fix":
        cell, letter = event.get("cell"), event.get("letter")
        if not (isinstance(cell, list) and len(cell) == 2 and isinstance(letter, str)):
            raise EventError("a fix event needs a cell [row, col] and a letter")


_log = logging.getLogger(__name__)


def fold_log(
    start: S, apply: Callable[[S, Mapping[str, Any]], S], events: Iterable[Mapping[str, Any]]
) -> list[S]:
    """Every state a log passes through, undone ones dropped: the last is the current one.

    An event that cannot be applied (a log written by an older version, say) is skipped,
    so one bad line never loses the game; ``apply`` is what keeps bad events out of the log.
    Each one skipped is logged as a warning, never silently.
    """
    history = [start]
    for number, event in enumerate(events, 1):
        if event.get("kind") == "undo":
            if len(history) > 1:
                history.pop()
            continue
        try:
            history.append(apply(history[-1], event))
        except CompanionError as err:  # anything else is a bug, and is raised as one
            _log.warning("game log event %d (%s) skipped: %s", number, event.get("kind"), err)
    return history
