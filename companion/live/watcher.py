"""The table watcher: frames → vision → stability → session, off the screen's thread.

It is the ``TableController`` the Nizam screen talks to. A capture thread keeps only the
newest frame (``vision.sources.LatestFrame``); the watcher's own thread reads the grid in
each frame it gets and hands stable readings to the session. The screen polls ``view()``
and ``camera()``, cheap reads under a lock; taps reach the session under the same lock, so
the session only ever runs one thing at a time.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, Literal

import numpy as np

from calibration.lens import LensModel
from calibration.palette import Palette
from companion.live.learning import LEARN_COLOURS, ColourLearner
from companion.live.recording import Recording
from companion.live.threads import Stopped, WatcherThread
from companion.session.kinds import TABLE_SCREEN
from companion.session.nizam import SETTLE_AT_MOST, TableSession
from companion.view import TableView
from vision.reader import UNSURE, GridReading
from vision.sources import FrameSource, LatestFrame, SourceError, read_image_or_none
from vision.stability import BriefFilter, StabilityFilter
from vision.tracker import GridTracker

_log = logging.getLogger(__name__)
STABLE_FRAMES = 3
RESTART_PAUSE = 6.0
"""Seconds a finished demo stays on the screen before it plays again."""
FrameFeed = Callable[[Callable[[str], None]], Iterator[tuple[int, np.ndarray | None]]]
"""Given a way to report trouble (one line, "" when it is over), yields (number, image)."""


class GridFollower:
    """Reads the grid in each frame and gives the session every new stable reading.
    ``learn``: the colours keep learning from the cells the session confirms
    (:mod:`companion.live.learning`); ``palette`` is then the calibrated one adapted."""

    def __init__(self, session: TableSession, palette: Palette, lens: LensModel | None = None,
                 stable_frames: int = STABLE_FRAMES, learn: bool = LEARN_COLOURS) -> None:
        self.session = session
        self.learner = ColourLearner(session, palette) if learn else None
        self.palette = palette
        self.lens = lens
        # A reading with a cell or two unsure counts too: the rules may settle them in play.
        # On the opening layout any number counts (``TableSession.unsure_taken``).
        self.stability = StabilityFilter(stable_frames, unsure=SETTLE_AT_MOST)
        # grids held too briefly to count: kept by the session in case the game needs them
        self.brief = BriefFilter()
        self.tracker = GridTracker()
        self.last: tuple[str, ...] | None = None
        self._taught: set[tuple[str, ...]] = set()  # frames learned from, this stable reading
        self.problem = ""

    def read(self, image: np.ndarray | None) -> GridReading | None:
        """The frame's reading (slow: call it outside any lock); None for a missing frame,
        or for one vision cannot take (``problem`` says why): the watcher lives on."""
        self.problem = ""
        if image is not None:
            try:
                return self.tracker.read(image, self.palette, 5, 5, self.lens)
            except Exception as err:  # a strange frame must not end the watcher: log it
                _log.exception("a frame could not be read")
                first = str(err).strip().splitlines()[0] if str(err).strip() else ""
                self.problem = f"a camera frame could not be read ({type(err).__name__}: {first})"
                self.tracker.reset()
        self.stability.reset()
        return None

    def follow(self, reading: GridReading | None) -> bool:
        """Pass a new stable reading to the session; True when one was passed. With
        learning, taps since the last frame (an undo, a fixed card) are followed first, the
        reading's cells are learned if the session took it in, and the next frames are read
        with what was learned."""
        learner = self.learner
        if learner is None:
            return self._pass(reading)
        learner.catch_up(reading)  # taps since the last frame: an undo, a fixed card
        before = learner.mark()
        logged = len(self.session.history)
        passed = self._pass(reading)
        if len(self.session.history) != logged:
            self._taught.clear()  # the game moved on: every frame teaches anew
        # A frame of a held grid that read a card ``?`` the other frames read: the card it
        # holds is named (the stable reading), and its doubted colours are what learning is
        # for. Each way the frames read one grid teaches once, not once a frame.
        held = self.stability.run >= self.stability.k and reading is not None and any(
            UNSURE in row for row in reading.cells or ())
        if ((passed or held) and reading is not None and reading.cells is not None
                and reading.cells not in self._taught and self.last is not None):
            learner.passed(before, reading, self.last)
            self._taught.add(reading.cells)
        self.palette = learner.palette
        return passed

    def _pass(self, reading: GridReading | None) -> bool:
        if reading is None:
            return False
        self.stability.unsure = self.session.unsure_taken
        if reading.cells is not None:  # a frame that found no grid tells nothing of it
            self.session.on_look(reading.cells)
        stable = self.stability.push(reading)
        brief = self.brief.push(reading, held=_held_as_known(self.last, self.session))
        if stable is None and brief is not None:
            self.session.on_brief(brief, self.brief.guesses, self.brief.in_a_row)
        elif stable is None and self.brief.whole is not None:
            self.session.on_glimpse(*self.brief.whole)
        if stable is None or stable == self.last:
            return False
        self.last = stable
        self.session.on_reading(stable, self.stability.guesses(stable))
        return True


class TableWatcher(WatcherThread):
    """Watches one game. ``feed`` yields (frame number, image or None); ``taps`` are taps
    scripted at frame numbers (a recording's), applied after that frame is read. ``learn``:
    the colours keep learning from the cells the game confirms (``GridFollower``)."""

    kind: Literal["table"] = TABLE_SCREEN

    def __init__(
        self, session: TableSession, feed: FrameFeed, palette: Palette, *,
        lens: LensModel | None = None, taps: dict[int, list[tuple[str, tuple[Any, ...]]]] | None
        = None, pace: float = 0.0, restart: Callable[[], TableSession] | None = None,
        learn: bool = LEARN_COLOURS,
    ) -> None:
        self.session = session
        self.learn = learn
        self.feed = feed
        self.palette = palette
        self.lens = lens
        self.taps = taps or {}
        self.pace = pace
        self.restart = restart
        self.restart_pause = RESTART_PAUSE
        """For a demo: when the frames run out, a new session to play them again with."""
        self.problem = ""
        self.note = ""
        """A standing problem shown beside the camera's (a saved palette that cannot be used)."""
        self.frames_read = 0
        self._lock = threading.RLock()
        self._frame: np.ndarray | None = None
        self._corners: Any = None
        super().__init__("table watcher")
        self._view: TableView | None = None
        self._view_key: tuple[Any, ...] = ()

    # -- the controller the screen uses ----------------------------------------------------

    def view(self) -> TableView:
        with self._lock:
            s = self.session
            key = (s, s.changes, self.problem, self.note)
            if self._view is None or key != self._view_key:
                view = s.view()
                problem = " ".join(p for p in (self.problem, self.note) if p)
                self._view = replace(view, problem=problem) if problem else view
                self._view_key = key
            return self._view

    def camera(self) -> tuple[np.ndarray | None, Any]:
        with self._lock:
            return self._frame, self._corners

    def tap(self, action: str, *args: Any) -> None:
        with self._lock:
            self.session.tap(action, *args)

    def record(self) -> str:
        with self._lock:
            return self.session.record()

    # -- the thread ----------------------------------------------------------------------

    def _report(self, problem: str) -> None:
        self._unless_stopped()  # a feed waiting for a camera lets go of it once closed
        with self._lock:
            self.problem = problem

    def _run(self) -> None:
        while not self._stop.is_set():
            self._watch()
            if self.restart is None or self._stop.wait(self.restart_pause):
                return
            with self._lock:
                self.session = self.restart()

    def _watch(self) -> None:
        follower = GridFollower(self.session, self.palette, self.lens, learn=self.learn)
        trouble = ""  # a frame's own problem, shown until a frame is read again
        try:
            for number, image in self.feed(self._report):
                if self._stop.is_set():
                    return
                started = time.monotonic()
                reading = follower.read(image)
                if follower.problem:
                    trouble = follower.problem
                    self._report(trouble)
                elif trouble and reading is not None:
                    if self.problem == trouble:  # the frames are fine again
                        self._report("")
                    trouble = ""
                with self._lock:
                    if reading is not None:
                        self._frame, self._corners = image, reading.corners
                        self.frames_read += 1
                    follower.follow(reading)
                for action, args in self.taps.get(number, ()):
                    self.tap(action, *args)
                self.view()  # the screen has the reading's (or tap's) verdict first
                self.session.fold_ahead()
                if self.pace:
                    self._stop.wait(max(0.0, self.pace - (time.monotonic() - started)))
        except Stopped:
            return
        except (SourceError, OSError) as err:
            with self._lock:
                self.problem = f"the camera stopped: {err}. Check its cable, then start again."


def _held_as_known(last: tuple[str, ...] | None, session: TableSession
                   ) -> tuple[str, ...] | None:
    """The grid last held stable, each cell where the game now knows another card (or
    none) marked ``#``, which no reading shows: a cell a hand hid beside a grid shown whole
    is one nobody touched only where both agree (the game moves on through grids held
    briefly and taps while the last stable reading stays, and a card laid since may be
    misread as the one there then). None before the layout."""
    grid = session.state.grid
    if last is None or grid is None:
        return None
    known = str(grid).split("/")
    if [len(row) for row in known] != [len(row) for row in last]:
        return None
    return tuple("".join(a if a == b else "#" for a, b in zip(x, y, strict=True))
                 for x, y in zip(last, known, strict=True))


def recording_feed(rec: Recording) -> FrameFeed:
    """A recording's frames in order (an unreadable one as None)."""

    def frames(report: Callable[[str], None]) -> Iterator[tuple[int, np.ndarray | None]]:
        for number, path in rec.frames:
            yield number, read_image_or_none(path)

    return frames


def recording_taps(rec: Recording) -> dict[int, list[tuple[str, tuple[Any, ...]]]]:
    taps: dict[int, list[tuple[str, tuple[Any, ...]]]] = {}
    for tap in rec.taps:
        taps.setdefault(tap.frame, []).append((tap.tap, tap.args))
    return taps


def camera_feed(source: FrameSource) -> FrameFeed:
    """Frames from a live source through a capture thread where the newest frame wins."""

    def frames(on_problem: Callable[[str], None]) -> Iterator[tuple[int, np.ndarray | None]]:
        with LatestFrame(source) as latest:
            while not latest.ended:
                frame = latest.get(timeout=1.0)
                status = getattr(source, "status", "open")
                on_problem("" if status in ("open", "back") else
                           f"the camera is {status}: check its cable; the game is kept")
                if frame is not None:
                    yield frame.index, frame.image
            if latest.error:
                raise SourceError(latest.error)

    return frames
