"""Folds of a game kept part-way, to go on from as its log grows.

A card laid unread, or one the camera may have misread, is tried under each other name by
folding the game again from the event that laid it (``table._refold``): every event since,
for every name. The session tries the same names again after each reading it cannot take
while the game grows by a few events between them, and a search of two cards' names folds
the game 63 times (``unread.SETTLE_BUDGET``): a game of 100 events took seconds on a Pi
that way. A fold kept with the events it went through goes on from its last event for any
log that begins with them; an event it could not take ends it for every such log.

>>> kept = KeptFolds()
>>> kept.keep("R at card 5", FoldSoFar(("setup", "draw"), "state after draw", 27))
>>> kept.longest("R at card 5", ("setup", "draw", "end_turn")).state
'state after draw'
>>> kept.longest("R at card 5", ("setup", "shifts")) is None
True
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from companion.errors import CompanionError

S = TypeVar("S")

KEEP_AT_MOST = 2048
"""Folds kept in all (about 5 kB each): the session keeps about 600 going (the 63 names of
two cards laid unread, ``unread.SETTLE_BUDGET``, each card on the grid under each other gem,
25 x 7, two of each); the rest are of cards gone from the grid, dropped first."""
PER_KEY = 24
"""Folds kept of one name at most: of the logs with each other card named each way (8),
the last fold of each and the one before it (an Undo goes back to it)."""


@dataclass(frozen=True)
class FoldSoFar(Generic[S]):
    """A fold through ``events``: the ``state`` it made and what else it carries from one
    event to the next (``carried``); or the ``error`` of the last one, which it could not
    take (then ``state`` is the state before it)."""

    events: tuple[Any, ...]
    state: S
    carried: Any = None
    error: CompanionError | None = None

    def refusal(self) -> CompanionError:
        """The ``error`` anew, to raise: the one kept holds no traceback (its frames would
        keep a session alive), and each raise makes its own."""
        assert self.error is not None
        return _anew(self.error)


def _anew(err: CompanionError) -> CompanionError:
    """A copy of ``err`` with no traceback, cause or context (``__init__`` not called again:
    a ``RuleError`` takes its rule and message apart)."""
    copy = type(err).__new__(type(err))
    copy.args = err.args
    copy.__dict__.update(vars(err))
    return copy


class KeptFolds(Generic[S]):
    """Folds kept by what was folded (a key: the game, the card, its name), several of each
    at different lengths of the log, the least recently used dropped first. Safe to share
    between threads."""

    def __init__(self, at_most: int = KEEP_AT_MOST) -> None:
        self._folds: OrderedDict[Hashable, list[FoldSoFar[S]]] = OrderedDict()
        self._at_most = at_most
        self._size = 0
        self._lock = threading.Lock()

    def longest(self, key: Hashable, log: Sequence[Any]) -> FoldSoFar[S] | None:
        """The kept fold of ``key`` through the most events ``log`` begins with; None when
        none is (events are compared by ``==``: an event read back from the store is the
        one logged)."""
        with self._lock:
            folds = self._folds.get(key, [])
            if folds:
                self._folds.move_to_end(key)
            best = None
            for kept in folds:
                n = len(kept.events)
                if n <= len(log) and (best is None or n > len(best.events)) and (
                        tuple(log[:n]) == kept.events):
                    best = kept
            return best

    def keep(self, key: Hashable, kept: FoldSoFar[S]) -> None:
        """Keep ``kept`` (a fold of ``key``). Of the folds of ``key`` it goes on from, only
        the longest stays (an Undo goes back to it); folds of other logs stay too (a card
        named with another card named each way first)."""
        if kept.error is not None:
            kept = FoldSoFar(kept.events, kept.state, kept.carried, _anew(kept.error))
        n = len(kept.events)
        with self._lock:
            old = self._folds.pop(key, [])
            shorter = {id(k): k for k in old
                       if len(k.events) < n and kept.events[: len(k.events)] == k.events}
            back = max(shorter.values(), key=lambda k: len(k.events), default=None)
            folds = [k for k in old if k is back or (id(k) not in shorter
                                                      and k.events != kept.events)]
            folds = [*folds, kept][-PER_KEY:]
            self._folds[key] = folds
            self._size += len(folds) - len(old)
            while self._size > self._at_most and self._folds:
                _, gone = self._folds.popitem(last=False)
                self._size -= len(gone)

    def clear(self) -> None:
        with self._lock:
            self._folds.clear()
            self._size = 0
