"""A replay killed after any event it logged, and started again, ends exactly as an unbroken
one: the same log, record, grid, phase and verdict, and no "the frames read again do not
give the events logged before". Played on games the rules simulate and film (no rendering:
each frame's reading is the filmed grid, a few cells '?' where a hand or a bad frame was),
with taps undone and tapped again as players do, so every kind of moment is a place to be
killed at: a tap that caught moves held briefly, a turn worked out, an undo."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import companion.live.playback as playback
from companion.live.recording import Recording, Tap
from companion.live.watcher import GridFollower
from companion.rules.game import Game, Options
from companion.rules.setup import GameSetup
from companion.rules.simulate import greedy, simulate
from companion.store import GameStore
from tools.recorder import film_game
from vision.reader import GridReading


class Killed(BaseException):
    """The process killed: nothing after the write that raised it happens."""


def filmed(root: Path, seed: int, turns: int, undo: float, blurred: float) -> Recording:
    """A simulated game filmed: ``blurred``, the share of frames (besides those with a hand)
    read with some cells '?'; ``undo``, how often a tap is undone and tapped again."""
    game = Game("classic", 2, Options())
    rng = random.Random(seed * 31 + 1)
    film = film_game(simulate(game, random.Random(seed), greedy, max_turns=turns), rng)
    readings = []
    for rows, hand in film.frames:
        cells = list("".join(rows))
        if hand or rng.random() < blurred:
            for i in rng.sample(range(25), rng.randint(3, 9)):
                cells[i] = "?"
        readings.append(tuple("".join(cells[r * 5 : r * 5 + 5]) for r in range(5)))
    taps = []
    for tap in film.taps:
        taps.append(Tap(tap["frame"], tap["tap"]))
        if rng.random() < undo:
            taps += [Tap(tap["frame"], "undo"), Tap(tap["frame"], tap["tap"])]
    header = GameSetup.of_game(game, ["Ann", "Bob"]).recording_header()
    frames = tuple((n, root / f"{n:06d}.png") for n in range(len(readings)))
    root.mkdir()
    READINGS[str(root)] = readings
    return Recording(root, header, frames, tuple(taps), None, None)


READINGS: dict[str, list[tuple[str, ...]]] = {}


@pytest.fixture
def readings_for_frames(monkeypatch):
    """Each frame's reading is the filmed one: the session, not vision, is under test."""
    def frames(rec, start):
        return ((n, READINGS[str(rec.root)][n]) for n, _ in rec.frames if n >= start)

    def read(self, rows):
        self.problem = ""
        return GridReading(5, 5, None, rows, np.ones((5, 5)), guesses=rows)

    monkeypatch.setattr(playback, "_frames", frames)
    monkeypatch.setattr(GridFollower, "read", read)


def replayed(rec: Recording, path: Path, killed_after: int | None = None):
    """What a replay into ``path`` ends with; None when it was killed."""
    lines: list[dict] = []
    with GameStore(path) as store:
        if killed_after is not None:
            append = store.append

            def append_then_die(game_id, payload, expect_seq=None):
                seq = append(game_id, payload, expect_seq=expect_seq)
                if seq >= killed_after:
                    raise Killed
                return seq

            store.append = append_then_die  # type: ignore[method-assign]
        try:
            session, _ = playback.play(rec, None, store, lines.append, learn=False)
        except Killed:
            return None
        assert not [line for line in lines if "frames read again" in line.get("problem", "")]
        return (session.record(), session.seq, str(session.state.grid), session.state.phase,
                session.verdict, session.message,
                [dict(e.payload) for e in store.events(session.game_id)])


@pytest.mark.parametrize("seed, turns, undo, blurred", [(3, 10, 0.3, 0.15), (7, 8, 0.6, 0.3),
                                                        (8, 8, 0.6, 0.3)])
def test_a_replay_killed_after_any_event_resumes_to_the_unbroken_end(
        readings_for_frames, tmp_path, seed, turns, undo, blurred):
    rec = filmed(tmp_path / "recording", seed, turns, undo, blurred)
    unbroken = replayed(rec, tmp_path / "unbroken.sqlite")
    kinds = [e["kind"] for e in unbroken[-1]]
    assert "undo" in kinds and "end_turn" in kinds  # the moments the test is about
    for k in range(1, len(kinds)):
        path = tmp_path / f"killed-{k}.sqlite"
        assert replayed(rec, path, killed_after=k) is None
        assert replayed(rec, path) == unbroken, f"killed after event {k} of {kinds}"
