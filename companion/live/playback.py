"""`companion replay`: the whole pipeline over a recording, with no screen.

frame source → vision (find the grid, read each cell) → stability filter → session →
rules. Every event is committed to a game store as it happens; killed and started again
with the same store, a replay resumes where the log ends, so no event is lost or doubled,
and the events after it are those an unbroken replay logs (``play``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from calibration.palette import Palette, learn_palette
from companion.errors import CompanionError, DamagedFile
from companion.live.learning import LEARN_COLOURS
from companion.live.recording import Recording, open_recording
from companion.live.watcher import GridFollower
from companion.rules.setup import GameSetup
from companion.session.core import LogDiverged
from companion.session.events import Shifts
from companion.session.kinds import TABLE_SCREEN, kind_of
from companion.session.nizam import TableSession
from companion.store import GameStore
from vision.cells import layout_patches
from vision.lattice import GridSizeError
from vision.sources import SourceError, read_image, read_image_or_none


class PlaybackError(DamagedFile):
    """A recording that cannot be played at all (no readable calibration, say)."""


def recording_setup(rec: Recording) -> GameSetup:
    """The game a recording plays (its ``game.json``): one played on the grid."""
    where = rec.root / "game.json"
    try:
        setup = GameSetup.from_header(rec.game)
    except CompanionError as err:
        raise PlaybackError(f"{where}: {err}") from None
    kind = kind_of(setup)
    if kind.screen != TABLE_SCREEN:
        raise PlaybackError(f"{where}: a recording of {kind.title}; replay plays Nizam and "
                            "Pearl of the East tables")
    return setup


def palette_from_calibration(rec: Recording) -> Palette:
    """Learn the recording's palette from its calibration layout (calib.jpg + calib.json)."""
    if rec.calib_image is None or rec.calib_grid is None:
        raise PlaybackError(f"{rec.root}: no calib.jpg and calib.json to learn colours from; "
                            f"give --palette FILE")
    try:
        image = read_image(rec.calib_image)
    except SourceError as err:
        raise PlaybackError(str(err)) from None
    labels = rec.calib_grid.split("/")
    try:
        patches = layout_patches(image, len(labels), len(labels[0]))
    except GridSizeError as err:
        raise PlaybackError(f"{rec.root / 'calib.json'}: {err}") from None
    if patches is None:
        raise PlaybackError(f"{rec.calib_image}: no {len(labels)}×{len(labels[0])} grid found")
    return learn_palette([(patches, "".join(labels))])


@dataclass
class Playback:
    """What a replay did: one entry per event or refusal, and the turns it could not resolve."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    unresolved: list[dict[str, Any]] = field(default_factory=list)
    frames_read: int = 0
    frames_unreadable: int = 0


def _frames(rec: Recording, start: int) -> Iterator[tuple[int, np.ndarray | None]]:
    for number, path in rec.frames:
        if number >= start:
            yield number, read_image_or_none(path)


def play(
    rec: Recording, palette: Palette, store: GameStore,
    emit: Callable[[dict[str, Any]], None] = lambda line: None, learn: bool = LEARN_COLOURS,
) -> tuple[TableSession, Playback]:
    """Run the recording through vision and the session (``learn``: the colours learn from
    confirmed cells, :mod:`companion.live.learning`), resuming a game already begun.

    A game resumed is played again from the first frame, its stored events made again and
    not logged twice (``TableSession(remake=True)``): the reader, the stability filter and
    what the colours learned pass through every state they passed through before, so the
    frames after the interruption are read as an unbroken replay reads them, and the same
    events are logged. Nothing is emitted until the stored events are made again (a refusal
    after the last of them, never logged, is said again). When the frames read again
    do not give the stored events (another palette, ``--no-learning`` changed, another
    version of the reader), it says so and goes on from the last frame logged, learning
    afresh."""
    setup = recording_setup(rec)
    key = str(rec.root.resolve())
    game_id = next((g.id for g in store.games() if g.header.get("recording") == key), None)
    if game_id is None:
        session = TableSession.start(store, setup, recording=key)
        return session, _run(rec, palette, session, emit, learn)
    again = TableSession(store, game_id, remake=True)
    try:
        return again, _run(rec, palette, again, emit, learn)
    except LogDiverged:
        pass  # nothing was logged or emitted yet: every event made so far was a stored one
    session = TableSession(store, game_id)
    done = [e for e in session.events() if "frame" in e]
    start = max((int(e["frame"]) for e in done), default=0)
    taps_done = max((int(e["tap"]) for e in done if "tap" in e), default=-1)
    line = {"frame": start, "problem": "the frames read again do not give the events logged "
            "before (another palette or version?): going on from here, the colours learning "
            "afresh"}
    emit(line)
    out = _run(rec, palette, session, emit, learn, start, taps_done)
    out.lines.insert(0, line)
    return session, out


def _run(rec: Recording, palette: Palette, session: TableSession,
         emit: Callable[[dict[str, Any]], None], learn: bool, start: int = 0,
         taps_done: int = -1) -> Playback:
    """Play the frames from ``start`` on (the taps after ``taps_done``); what the session
    makes again of its stored log (``remaking``) is not emitted."""
    out = Playback()

    def say(line: dict[str, Any]) -> None:
        if not session.remaking:
            out.lines.append(line)
            emit(line)

    follower = GridFollower(session, palette, learn=learn)
    for number, frame in _frames(rec, start):
        out.frames_read += 1
        if frame is None:
            out.frames_unreadable += 1
            say({"frame": number, "problem": "frame is not a readable image"})
        before = session.verdict
        session.stamp = {"frame": number}
        reading = follower.read(frame)
        if follower.problem:
            say({"frame": number, "problem": follower.problem})
        if follower.follow(reading):
            _report(session, number, before, say)
        for index, tap in enumerate(rec.taps):
            if tap.frame != number or index <= taps_done:
                continue
            before = session.verdict
            session.stamp = {"frame": number, "tap": index}
            session.tap(tap.tap, *tap.args)
            if session.message:
                say({"frame": number, "tap": tap.tap, "refused": session.message})
            _report(session, number, before, say)
    if session.remaking:
        raise LogDiverged(f"the recording ended with {len(session.remaking)} logged events "
                          f"not made again")
    if session.verdict is not None and not session.verdict.legal:
        out.unresolved.append({"turn": session.view().turn, "reason": session.verdict.reason})
    return out


def _report(session: TableSession, frame: int, before: Any,
            say: Callable[[dict[str, Any]], None]) -> None:
    for event in session.committed:
        view = session.view()
        line = {"frame": frame, "event": event.to_json(), "scores": [p.score for p in view.players],
                "deck": view.deck, "discard": view.discard}
        if isinstance(event, Shifts) and session.verdict is not None:
            line["verdict"] = {"legal": True, "payment": session.verdict.payment}
        say(line)
    session.committed.clear()
    verdict = session.verdict
    if verdict is not None and not verdict.legal and verdict is not before:
        say({"frame": frame, "verdict": {"legal": False, "reason": verdict.reason,
                                         "cells": [list(c) for c in verdict.cells],
                                         "hint": verdict.undo_hint}})


def summary(session: TableSession, playback: Playback) -> dict[str, Any]:
    """DESIGN.md's final line of ``replay``: the ``rules replay`` keys, plus what went wrong."""
    state = session.state
    view = session.view()
    out: dict[str, Any] = {
        "scores": [p.score for p in view.players],
        "deck": view.deck,
        "discard": view.discard,
        "deck_runs_out": view.deck_runs_out,
        "ended": view.ended,
        "winners": list(view.winners),
    }
    if session.game.pearl:
        out["tasks_left"] = [list(p.tasks_left) for p in view.players]
    out["turns"] = len(state.turns)
    out["frames"] = playback.frames_read
    out["unresolved"] = playback.unresolved
    return out


def open_and_play(path: str | Path, palette: Palette | None, store: Callable[[], GameStore],
                  emit: Callable[[dict[str, Any]], None], learn: bool = LEARN_COLOURS
                  ) -> dict[str, Any]:
    """Replay the recording at ``path`` into the store ``store()`` opens (and this closes),
    opened only once the recording and its colours are read: a recording that cannot be
    played leaves no game database behind."""
    rec = open_recording(path)
    recording_setup(rec)  # a wrong game.json is said before any colours are learned
    palette = palette or palette_from_calibration(rec)
    with store() as opened:
        session, playback = play(rec, palette, opened, emit, learn)
        return summary(session, playback)
