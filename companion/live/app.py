"""`companion`: the touchscreen app, wired to the camera, the game store and the sessions.

It uses the Pi camera when there is one, else a USB camera, else it plays the bundled demo
recording, so it always shows something. Everything the screens call is built here; the
screens themselves (``companion.ui``) know nothing of cameras or files.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from calibration.camera import CameraLock
from calibration.files import write_atomic
from calibration.lens import LensError, LensModel
from calibration.palette import Palette, PaletteError, default_palette, learn_palette
from calibration.spot import StoneSpot, spot_path, stone_palette_path
from calibration.store import (
    camera_lock_path,
    palette_path,
    saved_camera_lock,
    saved_lens,
    saved_palette,
)
from companion import paths
from companion.demo import RECORDINGS
from companion.errors import BadInput, CameraError
from companion.live.learning import LEARN_COLOURS
from companion.live.playback import palette_from_calibration, recording_setup
from companion.live.recording import open_recording
from companion.live.stones import Mark, SandsWatcher, learn_stones, load_stones, save_stones
from companion.live.watcher import TableWatcher, camera_feed, recording_feed, recording_taps
from companion.rules.setup import GameSetup
from companion.session.events import read_header
from companion.session.kinds import (
    CALLS_SCREEN,
    TABLE_SCREEN,
    GameKind,
    GameSession,
    OddsFor,
    kind_of,
)
from companion.session.nizam import TableSession
from companion.session.sands import SandsSession, TableProvider
from companion.store import GameStore
from companion.story import PastGame, game_story, players_games, solved_best_calls
from companion.view import Controller
from companion.words import OVER_EXPOSED
from vision.cells import layout_patches
from vision.reader import read_grid
from vision.sources import (
    FrameSource,
    OpenCVCamera,
    SourceError,
    read_image_or_none,
    usb_cameras,
)
from vision.sources.usb import node_number

DEMO_PACE = 0.2
"""Seconds a demo frame stays up: the recordings are 5 frames a second."""

NO_CAMERA = ("No camera found: connect the Pi camera or a USB camera and start the game "
             "again (`companion doctor` says what is missing).")


def find_camera() -> FrameSource | None:
    """The Pi camera when libcamera sees one (with the exposure, white balance and focus
    saved at calibration), else the first USB camera that opens (``usb_cameras``: the doctor
    looks for them the same way)."""
    if importlib.util.find_spec("picamera2") is not None:
        from vision.sources.picamera import PiCamera

        def pi_camera() -> FrameSource:
            return PiCamera(lock=saved_camera_lock())

        if _opens(pi_camera()):
            return pi_camera()
    for node, _name in usb_cameras():
        index = node_number(node)
        if _opens(OpenCVCamera(index)):
            return OpenCVCamera(index)
    return None


def _opens(camera: FrameSource) -> bool:
    try:
        camera.open()
    except (SourceError, OSError):
        return False
    camera.close()
    return True


def demo_watcher(mode: str = "nizam", pace: float = DEMO_PACE) -> TableWatcher:
    """A watcher playing a bundled recording in real time, again and again, in a throwaway
    store (a demo is no game of the players')."""
    rec = open_recording(RECORDINGS["pearl" if mode == "pearl" else "nizam"])
    setup = recording_setup(rec)

    def session() -> TableSession:
        return TableSession.start(GameStore(":memory:"), setup)

    return TableWatcher(session(), recording_feed(rec), palette_from_calibration(rec),
                        taps=recording_taps(rec), pace=pace, restart=session)


def _no_frames(report: Callable[[str], None]) -> Iterator[tuple[int, np.ndarray | None]]:
    report(NO_CAMERA)
    return iter(())


def usable_palette() -> tuple[Palette, str]:
    """The saved palette, or the default deck profile and why the saved one cannot be used
    (damaged, or saved by an older version): the app must start so players can calibrate."""
    try:
        return saved_palette(), ""
    except PaletteError as err:
        return default_palette(), f"{err}: cards are read with the default deck profile"


def usable_lens() -> tuple[LensModel | None, str]:
    """The saved lens model, or None and why the saved one cannot be used."""
    try:
        return saved_lens(), ""
    except LensError as err:
        return None, f"{err}: the picture is not undistorted"


@dataclass
class Companion:
    """The app's services: the store, the camera, the palette and lens, and the stone spot
    and stones' palette of The Desert Sands (read by each Sands game, saved by its set-up)."""

    store: GameStore
    camera: Callable[[], FrameSource | None] = find_camera
    demo_games: bool = False
    """Start games on the demo recordings (screenshots, shows) instead of the camera."""
    palette: Palette = field(default_factory=lambda: usable_palette()[0])
    learn_colours: bool = LEARN_COLOURS
    """Cards read with colours that keep learning from the cells the game confirms."""
    palette_problem: str = ""
    """Why the saved palette or lens is not used (shown on the table screen), or ""."""
    stone_spot_file: Path = field(default_factory=spot_path)
    stone_palette_file: Path = field(default_factory=stone_palette_path)
    sands_table: OddsFor | None = None
    """Given a full bag, what gives a Sands game its solved table (default: the session's
    own loader, which solves or reads the cache on a thread)."""
    camera_lock: CameraLock | None = None
    """The camera settings the calibration picture was taken under (saved with the palette)."""

    def start_game(self, header: Mapping[str, Any]) -> Controller:
        """A new game of the start screen's choice (``recording/game.json``'s form)."""
        setup = GameSetup.from_header(header)
        kind = kind_of(setup)
        if self.demo_games and kind.screen == TABLE_SCREEN:
            return demo_watcher(setup.kind).start()
        return self._watch_game(kind, kind.start(self.store, setup, self._odds(setup)))

    def resume_game(self, game_id: int) -> Controller:
        setup = read_header(self.store.game(game_id).header, f"game {game_id} in {self.store.path}")
        kind = kind_of(setup)
        return self._watch_game(kind, kind.open(self.store, game_id, self._odds(setup)))

    def _watch_game(self, kind: GameKind, session: GameSession) -> Controller:
        watchers: dict[str, Callable[[Any], Controller]] = {
            TABLE_SCREEN: self._watch, CALLS_SCREEN: self._watch_stones}
        return watchers[kind.screen](session)

    def _watch(self, session: TableSession) -> TableWatcher:
        source = self.camera()
        feed = camera_feed(source) if source is not None else _no_frames
        lens, lens_problem = usable_lens()
        watcher = TableWatcher(session, feed, self.palette, lens=lens, learn=self.learn_colours)
        watcher.note = " ".join(p for p in (self.palette_problem, lens_problem) if p)
        return watcher.start()

    def _odds(self, setup: GameSetup) -> TableProvider | None:
        """A Sands game's solved table, from ``sands_table`` (None: the session's own)."""
        if self.sands_table is None or setup.bag is None:
            return None
        return self.sands_table(setup.bag)

    def _watch_stones(self, session: SandsSession) -> SandsWatcher:
        source = self.camera()
        spot, palette, problem = load_stones(self.stone_spot_file, self.stone_palette_file)
        return SandsWatcher(session, camera_feed(source) if source is not None else None,
                            spot, palette, problem=problem, save=self.save_stones).start()

    def games(self) -> list[Any]:
        best_calls = solved_best_calls()
        return [PastGame(g, partial(game_story, self.store, g.id, best_calls),
                         story_without_best_calls=partial(game_story, self.store, g.id))
                for g in players_games(self.store)]

    def export_record(self, game_id: int) -> str:
        """Write the game's record; where it is, and what it leaves out of a move under way."""
        kind = kind_of(self.store.game(game_id).header)
        # A record needs no odds: no solved table for a Sands game.
        session = kind.open(self.store, game_id, lambda: None)
        out = paths.data_dir() / "records" / f"game-{game_id}.jsonl"
        write_atomic(out, session.record())
        note = session.unrecorded()
        return f"{out}\n{note}" if note else str(out)

    # The calibration wizard ------------------------------------------------------------

    def read_layout(self) -> tuple[Any, Any, tuple[str, ...] | None, str]:
        frame = self._snapshot()
        reading = read_grid(frame, self.palette)
        return frame, reading.corners, reading.cells, reading.reason

    def save_palette(self, frame: Any, cells: tuple[str, ...]) -> str:
        patches = layout_patches(frame, len(cells), len(cells[0]))
        if patches is None:
            raise BadInput("the grid is not in view any more: lay it out and read again")
        palette = learn_palette([(patches, "".join(cells))])
        palette.save(palette_path())
        # The camera settings the colours were seen under go with them; settings from an
        # older calibration would no longer match the new palette.
        if self.camera_lock is not None:
            self.camera_lock.save(camera_lock_path())
        else:
            camera_lock_path().unlink(missing_ok=True)
        self.palette, self.palette_problem = palette, ""
        saved = f"Colours saved to {palette_path()}."
        return f"{saved} {OVER_EXPOSED}" if palette.over_exposed else saved

    def _snapshot(self) -> np.ndarray:
        source = self.camera()
        if source is None:
            rec = open_recording(RECORDINGS["nizam"])
            if rec.calib_image is None:
                raise CameraError(NO_CAMERA)
            image = read_image_or_none(rec.calib_image)
            if image is None:
                raise CameraError(NO_CAMERA)
            return image
        with source:
            # Exposure, white balance and focus settle on the laid-out cards and are frozen
            # for the picture the palette is learned from (and saved with it).
            self.camera_lock = source.lock()
            for frame in source:
                return frame.image
        raise CameraError("the camera gave no picture")

    # The stone spot (The Desert Sands) ------------------------------------------------------

    def save_stones(self, samples: Any, mark: Mark) -> tuple[StoneSpot, Palette, str]:
        """Learn the spot and the stones from the calibration screen's captures and save
        both (or neither); a ``CompanionError`` with a line for the players when they cannot be."""
        spot, palette = learn_stones(samples, mark)
        save_stones(spot, palette, self.stone_spot_file, self.stone_palette_file)
        return spot, palette, f"Stones saved to {self.stone_palette_file.parent}"


def open_companion(demo_games: bool = False, learn_colours: bool = LEARN_COLOURS) -> Companion:
    palette, problem = usable_palette()
    if problem:
        print(f"companion: {problem}", file=sys.stderr)
    return Companion(GameStore(paths.database_path()), demo_games=demo_games, palette=palette,
                     palette_problem=problem, learn_colours=learn_colours)
