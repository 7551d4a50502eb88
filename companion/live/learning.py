"""Colours that keep learning through a game, from cells the game has confirmed.

The palette is calibrated once; the light then drifts. A grid the session accepted (the
opening grid, a move, cleared or refilled cells, the grid a reading agrees with) tells the
true card in every cell, and so does a card a player fixed. ``ColourLearner`` keeps their
cells' features (:class:`calibration.adapt.Confirmed`) and reads with the calibrated
palette adapted to them (:func:`calibration.adapt.adapt`, bounded by each class's own
spread), so oranges seen and confirmed under today's light read as oranges under it, and
a card fixed once does not ask again in the next frames.

A cell the reader saw something over (a hand, an arm, a card held above: read ``?`` with
no confidence) teaches nothing, even when the rules settle which card lies under it: its
colours are the hand's. A card the palette only doubted (read ``?`` with some confidence)
and the rules settled is just what learning is for. A card laid under a provisional name
(the camera could not read it as it was laid, ``session.unread``) teaches nothing while the
name is a guess; once the camera, the rules or a player names it, it teaches that name.

What was learned is kept only while the game still holds it: an undo drops what the
undone event taught, a card fixed drops what its misread had taught (and so does a card
the rules name otherwise than the camera read it, ``session.misread``: it then teaches its
name from the next frame, as a fixed card does), and a reading the session refused teaches
nothing. The game log is never changed by learning: what was learned is derived from the
confirmations seen since this learner started, and starts fresh (the calibrated palette)
after the app restarts. A replay resumed from its store
plays its frames again from the first (``companion.live.playback``), so it learns again
all it had learned, and reads on as an unbroken replay does.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from calibration.adapt import ADAPT_BOUND, ADAPT_WINDOW, Confirmed, adapt
from calibration.palette import Palette
from companion.rules.explain import settle
from companion.session.nizam import SETTLE_AT_MOST, SETTLE_SHIFTS, TableSession
from companion.session.table import PLAY, TableState
from vision.reader import GridReading

UNSURE = "?"
LEARN_COLOURS = True
"""Whether the reader learns from confirmed cells; off (``--no-learning``) on a table where
the calibrated palette alone reads best."""


class ColourLearner:
    """The calibrated palette, adapted to the cells ``session`` has confirmed: ``palette``."""

    def __init__(self, session: TableSession, calibrated: Palette,
                 window: int = ADAPT_WINDOW, bound: float = ADAPT_BOUND) -> None:
        self.session = session
        self.calibrated = calibrated
        self.palette = calibrated
        self.bound = bound
        self.confirmed = Confirmed(window=window)
        self._adapted = self.confirmed  # what ``palette`` is adapted to
        self._counter = itertools.count()
        self._sources: dict[int, tuple[int, TableState]] = {}
        """Each confirmation: the state of the game it belongs to, by its place in history."""
        self._seen = self._newest()

    def __repr__(self) -> str:
        return f"<ColourLearner {self.confirmed!r}>"

    def _newest(self) -> tuple[int, TableState]:
        history = self.session.history
        return len(history), history[-1]

    # -- what teaches ---------------------------------------------------------------------

    def passed(self, before: tuple[int, TableState], reading: GridReading,
               rows: tuple[str, ...]) -> None:
        """The session was given ``rows`` (read in ``reading``) when its history stood at
        ``before`` (:meth:`mark`): learn from every cell if it took them in (an event
        logged) or they show the grid it holds, the rules naming the cells read ``?``."""
        with self.session.lock:  # taps change the history from the screen's thread
            self._passed(before, reading, rows)
        self._adapt()

    def _passed(self, before: tuple[int, TableState], reading: GridReading,
                rows: tuple[str, ...]) -> None:
        self._catch_up(reading, set_up=False)  # an opening grid taken in is learned below
        length, state = self._newest()
        grid = state.grid
        if grid is None or reading.features is None:
            return
        text = "/".join(rows)
        truth = str(grid).replace("/", "")
        read = text.replace("/", "")
        if len(truth) != len(read) or len(read) != len(reading.features):
            return
        if length == before[0] and state is before[1]:  # no event: the grid it holds?
            if read != truth and (state.phase != PLAY or read.count(UNSURE) > SETTLE_AT_MOST
                                  or settle(grid, text, SETTLE_SHIFTS) != grid):
                return
        elif length <= before[0]:
            return
        self._learn(_confirmed(truth, read, _covered(reading)), reading, state)

    def mark(self) -> tuple[int, TableState]:
        """Where the session's history stands, to give :meth:`passed`."""
        self.catch_up(None)
        return self._seen

    def catch_up(self, reading: GridReading | None) -> None:
        """Follow what changed in the session since last asked (taps: an undo, a fixed
        card, a card named on the opening layout): drop what no longer holds; learn a fixed
        card, or the opening grid a named card completed, from ``reading`` (the newest
        frame's)."""
        with self.session.lock:  # taps change the history from the screen's thread
            self._catch_up(reading)
        self._adapt()

    def _adapt(self) -> None:
        """The palette adapted to what is confirmed now, worked out outside the session's
        lock: checking it reads the grids confirmed again, and the screen and taps must
        not wait for that."""
        if self._adapted is not self.confirmed:
            self.palette = adapt(self.calibrated, self.confirmed, self.bound)
            self._adapted = self.confirmed

    def _catch_up(self, reading: GridReading | None, set_up: bool = True) -> None:
        now = self._newest()
        if now[0] == self._seen[0] and now[1] is self._seen[1]:
            return
        before, self._seen = self._seen, now
        history = self.session.history
        named = set(before[1].provisional) - set(now[1].provisional)  # named for good
        # events since, none undone: a card named otherwise (a tap, or the rules naming a
        # card the camera misread, with what the players did next) teaches its name
        grew = now[0] > before[0] and history[before[0] - 1] is before[1]
        renamed = {card for card, (a, b) in enumerate(zip(before[1].cards, now[1].cards,
                                                          strict=False)) if a != b}
        fixed = grew and bool(renamed or named)
        self._keep_what_holds()
        if reading is None or reading.features is None:
            return
        grid = now[1].grid
        if set_up and before[1].grid is None and grid is not None and reading.cells:
            # set up by a tap (a card named on the opening layout): every cell confirmed
            truth, read = str(grid).replace("/", ""), "".join(reading.cells)
            if len(truth) == len(read) == len(reading.features):
                self._learn(_confirmed(truth, read, _covered(reading)), reading, now[1])
        elif fixed:
            cards = now[1].cards
            letters = [UNSURE] * len(now[1].origin)
            covered = _covered(reading)
            for card, fix in enumerate(cards):
                if (card in renamed or card in named) and card in now[1].origin:
                    cell = now[1].origin.index(card)
                    letters[cell] = UNSURE if cell < len(covered) and covered[cell] else fix
            if len(letters) == len(reading.features):
                self._learn(letters, reading, now[1])

    def _learn(self, letters: list[str], reading: GridReading, state: TableState) -> None:
        assert reading.features is not None
        source = next(self._counter)
        self._sources[source] = (len(self.session.history) - 1, state)
        cards = [state.origin[i] if i < len(state.origin) else -1 for i in range(len(letters))]
        # a card laid unread holds a provisional name: what it is, the game does not know yet
        letters = [UNSURE if card in state.provisional else x for x, card in zip(
            letters, cards, strict=True)]
        self.confirmed = self.confirmed.add(source, letters, reading.features, cards,
                                            reading.read_from)
        self._sources = {s: v for s, v in self._sources.items() if s in self.confirmed.sources}

    def _keep_what_holds(self) -> None:
        """Drop the confirmations of states no longer in the game's history (undone), and
        the samples of cards the game now says are another card (fixed since)."""
        history = self.session.history
        cards = history[-1].cards

        def holds(source: Any, card: Any, letter: str) -> bool:
            place, state = self._sources.get(source, (-1, None))
            return (0 <= place < len(history) and history[place] is state
                    and 0 <= card < len(cards) and cards[card] == letter)

        kept = self.confirmed.keeping(holds)
        if kept is not self.confirmed:
            self.confirmed = kept
            self._sources = {s: v for s, v in self._sources.items() if s in kept.sources}


def _covered(reading: GridReading) -> list[bool]:
    """Per cell in reading order: the reader saw something over it (a hand, an arm, a card
    held above, no outline where a card should be): it reads such a cell ``?`` with no
    confidence at all, where a card whose colour it doubts keeps some (``vision.reader``)."""
    if reading.cells is None:
        return []
    labels = "".join(reading.cells)
    flat = np.asarray(reading.confidence, float).ravel()
    return [x == UNSURE and i < len(flat) and flat[i] <= 0.0 for i, x in enumerate(labels)]


def _confirmed(truth: str, read: str, covered: Sequence[bool] = ()) -> list[str]:
    """The letters the game confirms, cell by cell: its card where the camera read it or
    was unsure of its colour; a cell read as another card than the game holds, or one the
    camera saw something over (``covered``: the rules settled it, but its colours are the
    hand's), is not confirmed by it."""
    hidden = list(covered) + [False] * (len(read) - len(covered))
    # a covered cell may read as the card a frame before it read (``vision.stability``)
    return [t if r in (t, UNSURE) and not h else UNSURE
            for t, r, h in zip(truth, read, hidden, strict=True)]
