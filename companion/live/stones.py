"""The Desert Sands' stones through the camera: the stone watcher (frames → the stone spot →
each drawn stone once → the session, off the screen's thread, as ``watcher.TableWatcher``
does for the grid), and learning the spot and the stones' colours at calibration.

A capture thread keeps only the newest frame (``watcher.camera_feed``); the watcher's own
thread reads the spot in it (``vision.spot.read_stone``) and ``vision.spot.StoneWatcher``
passes each stone once to ``SandsSession.on_stone``, under the lock the players' taps take
too. The screens poll ``view()``, ``spot()`` and ``camera()``, cheap reads under that lock.
A stone the players tap in while the camera waits for one is not counted again when it
lands; a camera that stops is said in one line and opened again, the taps working meanwhile.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from calibration.files import write_atomic
from calibration.palette import Palette
from calibration.spot import SpotError, StoneSpot
from companion.errors import BadInput, CameraError
from companion.rules.sands import LETTERS
from companion.session.kinds import CALLS_SCREEN
from companion.session.sands import SandsSession, stone_colour
from companion.view import SandsView
from vision.sources import SourceError
from vision.spot import StoneWatcher, learn_stone_palette, read_stone

from .threads import Stopped, WatcherThread
from .watcher import STABLE_FRAMES, FrameFeed

STONE_PACE = 0.1
"""Seconds between two reads of the stone spot: a stone lies still for a second or more, so
ten reads a second count it soon enough and leave the Pi's cores to the rest."""
RETRY_FIRST, RETRY_MOST = 1.0, 30.0
"""Seconds before the camera is opened again after it stopped, doubling up to the most:
soon enough for a replugged camera, seldom enough not to load a Pi with a broken one."""

NO_STONE_CAMERA = "No camera: tap the drawn stone"
STONES_NOT_SET_UP = "Camera not set up: tap Camera"
STONES_UNREADABLE = "Camera set-up unreadable: tap Camera"
STONE_CAMERA_LOST = "Camera lost: tap the drawn stone"
STONE_CAMERA_STOPPED = "Camera stopped, trying again: tap the drawn stone"
SPOT_OFF_PICTURE = "Spot off the picture: tap Camera"


@dataclass(frozen=True)
class SpotStatus:
    """What the camera makes of the stone spot now, as the Sands screen shows it.

    ``label`` is the newest read (a stone letter, ``.`` empty, ``?`` unsure, ``""`` none
    yet); ``ready`` whether the spot has been seen empty long enough for the next stone
    laid to count; ``problem`` why stones are not read (then the players tap them in).

    >>> SpotStatus(camera=True, label=".").line, SpotStatus(camera=True, label="l").line
    ('Camera: spot empty', 'Camera: lilac stone (clear the spot before the next draw)')
    >>> SpotStatus(camera=True, label="l", ready=True).line  # laid, about to count
    'Camera: lilac stone'
    >>> SpotStatus(camera=False, problem=NO_STONE_CAMERA).line
    'No camera: tap the drawn stone'
    """

    camera: bool
    label: str = ""
    problem: str = ""
    paused: bool = False
    ready: bool = False

    @property
    def line(self) -> str:
        if self.problem:
            return self.problem
        if self.paused:
            return "Camera: paused while it is set up"
        if not self.label:
            return "Camera: reading…"
        if self.label == ".":
            return "Camera: spot empty"
        colour = stone_colour(self.label)
        if not colour:
            return "Camera: can't tell"
        # Counted already, or lying there since before: either way no draw until cleared.
        return f"Camera: {colour} stone" + ("" if self.ready else
                                            " (clear the spot before the next draw)")


Mark = tuple[tuple[float, float], float]
"""The spot as the players mark it on the picture: its centre and side, in frame pixels."""

StoneSaver = Callable[[Sequence[tuple[np.ndarray, str]], Mark], tuple[StoneSpot, Palette, str]]
"""Learns the stones from (frame, letter) captures and the spot's mark, saves them, and
returns the spot, the palette and a line to show (``Companion.save_stones``)."""


log = logging.getLogger(__name__)


class SandsWatcher(WatcherThread):
    """One Desert Sands game with the camera on the stone spot: the ``SandsController`` the
    Sands screen talks to, and what its stone calibration screen calls. ``feed`` None means
    no camera: the screen says so and the players tap every stone in; no ``spot`` or
    ``palette``: the frames still come (for the calibration's picture), no stone is read.
    When the camera stops (or reading fails) the screen says so in one line and the camera
    is opened again after ``RETRY_FIRST`` seconds, then less often; taps work throughout.
    """

    kind: Literal["sands"] = CALLS_SCREEN

    def __init__(self, session: SandsSession, feed: FrameFeed | None,
                 spot: StoneSpot | None = None, palette: Palette | None = None, *,
                 problem: str = "", save: StoneSaver | None = None,
                 stable_frames: int = STABLE_FRAMES, pace: float = STONE_PACE) -> None:
        super().__init__("stone watcher")
        self.session = session
        self.feed = feed
        self.save = save
        self.stable_frames = stable_frames
        self.pace = pace
        self.spots_read = 0
        """Frames whose spot was read (tests wait on it)."""
        self._lock = threading.RLock()
        self._spot, self._palette = spot, palette
        self._setup_problem = problem or ("" if spot and palette else STONES_NOT_SET_UP)
        self._camera_problem = "" if feed is not None else NO_STONE_CAMERA
        self._counter = StoneWatcher(stable_frames)
        self._label = ""
        self._tapped = ""
        """The colour of a stone tapped in that the camera has not counted yet."""
        self._paused = False
        self._frame: np.ndarray | None = None
        self.retry_first, self.retry_most = RETRY_FIRST, RETRY_MOST
        self._frames_seen = 0

    # -- the controller the screens use ---------------------------------------------------

    def view(self) -> SandsView:
        with self._lock:
            return self.session.view()

    def tap(self, action: str, *args: Any) -> None:
        with self._lock:
            before, waiting = self.session.state, self._counter.armed
            self.session.tap(action, *args)
            moment = self.session.state
            if moment is before or action == "call":
                return
            # A stone tapped in while the camera waits for one is on its way to the spot:
            # counted when it lands, it would be the draw of the next call (D4) too.
            self._tapped = moment.draws[-1].drawn if action == "drawn" and waiting else ""

    def record(self) -> str:
        with self._lock:
            return self.session.record()

    def stone_camera(self) -> SandsWatcher:
        """The camera side is this watcher itself (``view.StoneCamera``)."""
        return self

    def spot(self) -> SpotStatus:
        """The camera's newest read of the spot, or why there is none."""
        with self._lock:
            return SpotStatus(self.feed is not None, self._label,
                              self._camera_problem or self._setup_problem, self._paused,
                              self._counter.armed)

    def camera(self) -> tuple[np.ndarray | None, np.ndarray | None]:
        """The newest frame (or None) and the saved spot's corners in it (or None)."""
        with self._lock:
            frame, spot = self._frame, self._spot
        if frame is None or spot is None:
            return frame, None
        return frame, spot.corners((frame.shape[1], frame.shape[0]))

    def pause(self, paused: bool) -> None:
        """Stop counting stones while the spot is set up (its stones are no draws); the
        frames keep coming for the picture. Counting starts again after an empty spot."""
        with self._lock:
            self._paused = paused
            self._restart_count()

    def calibrate(self, spot: StoneSpot, palette: Palette) -> None:
        """Read the spot with a new calibration from the next frame on."""
        with self._lock:
            self._spot, self._palette, self._setup_problem = spot, palette, ""
            self._restart_count()

    def calibrate_stones(self, samples: Sequence[tuple[np.ndarray, str]], mark: Mark) -> str:
        """Learn and save the stones from the calibration screen's captures (slow: the
        worker thread calls it); a ``BadInput`` with a line for the players when it cannot."""
        if self.save is None:
            raise BadInput("the stone calibration cannot be saved here")
        spot, palette, message = self.save(samples, mark)
        self.calibrate(spot, palette)
        return message

    def _restart_count(self) -> None:
        self._counter = StoneWatcher(self.stable_frames)
        self._label = self._tapped = ""

    # -- the thread ----------------------------------------------------------------------

    def start(self) -> SandsWatcher:
        return super().start() if self.feed is not None else self

    def _camera_trouble(self, problem: str) -> None:
        self._unless_stopped()  # a feed waiting for a lost camera lets go of it on close
        with self._lock:
            self._camera_problem = STONE_CAMERA_LOST if problem else ""

    def _run(self) -> None:
        delay = self.retry_first
        while not self._stop.is_set():
            seen = self._frames_seen
            try:
                self._watch()
            except Stopped:
                return
            except (SourceError, OSError) as err:
                log.warning("stone camera stopped: %s", err)
            except Exception:  # a dead thread would leave a stale line on the screen
                log.exception("reading the stone spot failed")
            with self._lock:
                if self._stop.is_set():
                    return
                self._camera_problem = STONE_CAMERA_STOPPED
            if self._frames_seen != seen:  # it worked for a while: a new fault starts afresh
                delay = self.retry_first
            if self._stop.wait(delay):
                return
            delay = min(self.retry_most, delay * 2)

    def _watch(self) -> None:
        """Read the feed's frames until it ends or ``close`` is called."""
        assert self.feed is not None
        frames = self.feed(self._camera_trouble)
        try:
            for _number, image in frames:
                if self._stop.is_set():
                    return
                started = time.monotonic()
                self._frames_seen += 1
                self._read(image)
                self._stop.wait(max(0.0, self.pace - (time.monotonic() - started)))
        finally:
            # Let go of the camera now, not whenever the generator is collected.
            close = getattr(frames, "close", None)
            if close is not None:
                close()

    def _read(self, image: np.ndarray | None) -> None:
        with self._lock:
            if image is not None:
                self._frame = image
            spot, palette, counter = self._spot, self._palette, self._counter
            if image is None or spot is None or palette is None or self._paused:
                return
        try:
            read = read_stone(image, spot, palette)  # slow: outside the lock
        except SpotError:
            with self._lock:
                if self._spot is spot:
                    self._setup_problem = SPOT_OFF_PICTURE
            return
        with self._lock:
            if counter is not self._counter:
                return  # calibrated or paused meanwhile: this read is of the old set-up
            if self._setup_problem == SPOT_OFF_PICTURE:
                self._setup_problem = ""  # the camera's picture fits the spot again
            self._label = read[0]
            self.spots_read += 1
            stone = counter.push(read)
            if stone is None:
                return
            tapped, self._tapped = self._tapped, ""
            if stone_colour(stone) != tapped:
                self.session.on_stone(stone)


# -- the stones' calibration -----------------------------------------------------------

STONE_NAMES = {".": "the empty spot", **{letter: f"the {stone_colour(letter)} stone"
                                        for letter in LETTERS}}


def learn_stones(samples: Sequence[tuple[np.ndarray, str]], mark: Mark
                 ) -> tuple[StoneSpot, Palette]:
    """The spot and the stones' palette from captures of the spot: ``(frame, letter)``, a
    letter of the bag (``r y g l``) or ``.`` for the empty spot, each stone at least once.

    Each capture must read back as itself with the palette learnt, so a stone taken for
    another (or a capture made before the stone was laid) is refused, not saved; every
    refusal is a ``BadInput`` with one line for the players.
    """
    frames = [(np.asarray(frame), str(label)) for frame, label in samples]
    labels = {label for _, label in frames}
    for letter in "." + LETTERS:
        if letter not in labels:
            raise BadInput(f"capture {STONE_NAMES[letter]} too, then save")
    sizes = {(f.shape[1], f.shape[0]) for f, _ in frames}
    if len(sizes) != 1:
        raise BadInput("the captures differ in size: the camera changed; capture them again")
    centre, side = mark
    spot = StoneSpot.around(centre, side, image_size=sizes.pop())
    palette = learn_stone_palette(frames, spot)
    for frame, label in frames:
        read, _ = read_stone(frame, spot, palette)
        if read != label:
            what = (f"{STONE_NAMES[label]} is not told apart from the others" if read == "?"
                    else f"{STONE_NAMES[label]} reads as {STONE_NAMES.get(read, read)}")
            raise BadInput(f"{what}: light the spot evenly, lay each stone in the middle "
                             "and capture again")
    return spot, palette


def _staged(path: Path) -> Path:
    return path.with_name(f".{path.name}.new")


def save_stones(spot: StoneSpot, palette: Palette, spot_file: Path, palette_file: Path
                ) -> None:
    """Write the spot and the palette together: both new files, or the old ones kept.

    Both are written whole beside their files first; renaming the palette's into place
    commits the pair. A power cut before the spot's rename is finished by ``load_stones``.
    """
    staged_spot, staged_palette = _staged(spot_file), _staged(palette_file)
    _finish_save(spot_file, palette_file)  # an earlier save's leftovers are not this one's
    old = palette_file.read_bytes() if palette_file.exists() else None
    try:
        palette.save(staged_palette)
        spot.save(staged_spot)
    except BaseException:
        staged_palette.unlink(missing_ok=True)
        staged_spot.unlink(missing_ok=True)
        raise
    os.replace(staged_palette, palette_file)
    try:
        os.replace(staged_spot, spot_file)
    except BaseException:  # not a power cut but an error: put the old palette back
        staged_spot.unlink(missing_ok=True)
        if old is None:
            palette_file.unlink(missing_ok=True)
        else:
            write_atomic(palette_file, old)
        raise


def _finish_save(spot_file: Path, palette_file: Path) -> None:
    """Finish or drop a save that a power cut stopped (see ``save_stones``)."""
    staged_spot, staged_palette = _staged(spot_file), _staged(palette_file)
    if staged_palette.exists():  # stopped before the commit: the old pair stands
        staged_palette.unlink()
        staged_spot.unlink(missing_ok=True)
    elif staged_spot.exists():  # stopped after it: the new palette needs its spot
        os.replace(staged_spot, spot_file)


def load_stones(spot_file: Path, palette_file: Path
                ) -> tuple[StoneSpot | None, Palette | None, str]:
    """The saved spot and stones' palette, or Nones and the line the Sands screen shows."""
    try:
        _finish_save(spot_file, palette_file)
        if not spot_file.exists() or not palette_file.exists():
            return None, None, STONES_NOT_SET_UP
        spot, palette = StoneSpot.load(spot_file), Palette.load(palette_file)
    except (CameraError, OSError):  # a damaged spot or palette file
        return None, None, STONES_UNREADABLE
    if not set(LETTERS) <= set(palette.classes):
        return None, None, STONES_UNREADABLE
    return spot, palette, ""
