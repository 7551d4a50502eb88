"""`companion replay` killed part way and started again logs exactly the events an unbroken
replay logs (issue 11's learning colours): the resumed replay plays its frames again from
the first, making its stored events again without logging them twice, so the reader and
the colours it learned from confirmed cells are where they were when it was killed."""

from __future__ import annotations

import contextlib
import json
import shutil
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.live.playback import play, recording_setup
from companion.live.recording import open_recording
from companion.rules.game import Game
from companion.rules.grid import Grid
from companion.rules.shift import Shift
from companion.session.nizam import TableSession
from companion.store import GameStore
from tests.session.test_brief import CLEARED, SETUP, SHIFTED, rows
from tests.vision.scenes import CALM, GEMS, gem_palette
from tools.synthetic import render_scene

OPENING = ("RROGY", "CBVPR", "GGYOC", "BVPRO", "YGCBV")
MOVED = tuple(str(Shift.parse("r1<").apply(Grid("/".join(OPENING)))).split("/"))


class Killed(Exception):
    """The replay's process killed: nothing after this moment happens."""


@pytest.fixture(scope="module")
def recording(tmp_path_factory) -> Path:
    """Ten frames under a warm lamp: the opening layout (a thin veil of flare), then row 1
    moved left as the veil grows thick. Read with the calibrated colours alone, the moved
    grid has five cards seen but not named: the rules settle them from the cards read;
    colours learned from the opening grid the game confirmed read them all. Then End
    turn."""
    root = tmp_path_factory.mktemp("drift")
    (root / "frames").mkdir()

    def frame(labels: tuple[str, ...], veil: float) -> np.ndarray:
        conditions = replace(CALM, kelvin=3000.0, veil=veil, noise=2.0)
        return render_scene(np.random.default_rng(7), GEMS, 5, 5, conditions,
                            labels=labels).image

    first, later = frame(OPENING, 0.02), frame(MOVED, 0.18)
    for number in range(10):
        cv2.imwrite(str(root / "frames" / f"{number:06d}.png"), first if number < 4 else later)
    (root / "game.json").write_text(json.dumps(
        {"game": "nizam", "players": ["Ann", "Bob"], "options": {"setup_lines": "keep"}}))
    (root / "taps.jsonl").write_text('{"frame": 9, "tap": "end_turn"}\n')
    return root


@pytest.fixture(scope="module")
def palette():
    return gem_palette()


def logged(path: Path) -> list[dict]:
    with GameStore(path) as store:
        (game,) = store.games()
        return [dict(e.payload) for e in store.events(game.id)]


def replay(recording: Path, palette, path: Path, kill_after: int | None = None,
           learn: bool = True) -> list[dict]:
    """One run of ``companion replay --store path``; killed right after the ``kill_after``th
    event it logs. The lines it emits."""
    lines: list[dict] = []

    def emit(line: dict) -> None:
        lines.append(line)
        if kill_after is not None and sum("event" in x for x in lines) == kill_after:
            raise Killed

    with GameStore(path) as store, contextlib.suppress(Killed):
        play(open_recording(recording), palette, store, emit, learn)
    return lines


def test_N4_an_unbroken_replay_sees_the_move_with_colours_learned_or_settled_by_the_rules(
        recording, palette, tmp_path):
    replay(recording, palette, tmp_path / "learning.sqlite")
    replay(recording, palette, tmp_path / "calibrated.sqlite", learn=False)
    for store in ("learning.sqlite", "calibrated.sqlite"):
        events = logged(tmp_path / store)
        assert [e["kind"] for e in events] == ["setup", "shifts", "end_turn"]
        assert events[1]["shifts"] == ["r1<"]


@pytest.mark.parametrize("kill_after", [1, 2])
def test_a_replay_killed_and_resumed_logs_exactly_the_events_of_an_unbroken_one(
        recording, palette, tmp_path, kill_after):
    replay(recording, palette, tmp_path / "unbroken.sqlite")
    killed = tmp_path / "killed.sqlite"
    replay(recording, palette, killed, kill_after=kill_after)
    assert len(logged(killed)) == kill_after
    resumed = replay(recording, palette, killed)
    assert logged(killed) == logged(tmp_path / "unbroken.sqlite")
    # it says only what the killed run had not said
    said = [line["event"] for line in resumed if "event" in line]
    assert said == logged(killed)[kill_after:]


def test_a_resumed_replay_whose_frames_no_longer_give_its_log_says_so_and_goes_on(
        recording, palette, tmp_path):
    path, own = tmp_path / "games.sqlite", tmp_path / "recording"
    shutil.copytree(recording, own)
    replay(own, palette, path)
    before = logged(path)
    # resumed from frames that no longer show the move (its later frames written again
    # from the first, as another camera's frames would not show what the first saw)
    for frame in sorted((own / "frames").iterdir())[4:]:
        shutil.copy(own / "frames" / "000000.png", frame)
    lines = replay(own, palette, path)
    assert lines[0]["problem"].startswith("the frames read again do not give the events")
    assert lines[0]["frame"] == 9
    assert logged(path) == before  # nothing lost, nothing doubled


def test_a_resumed_replay_that_makes_another_event_than_the_stored_one_says_so(
        recording, palette, tmp_path):
    # The stored shifts came a frame later than the frames read again give them (as if
    # another version of the reader had read them): made again, the event differs from the
    # stored one, and the replay must say so rather than take the stored one as made.
    replay(recording, palette, tmp_path / "unbroken.sqlite")
    setup, moved, _ = logged(tmp_path / "unbroken.sqlite")
    path = tmp_path / "games.sqlite"
    with GameStore(path) as store:
        session = TableSession.start(store, recording_setup(open_recording(recording)),
                                     recording=str(recording.resolve()))
        stored = [setup, {**moved, "frame": moved["frame"] + 1}]
        for seq, payload in enumerate(stored, 1):
            store.append(session.game_id, payload, expect_seq=seq)
    lines = replay(recording, palette, path)
    assert lines[0] == {"frame": moved["frame"] + 1, "problem": (
        "the frames read again do not give the events logged before (another palette or "
        "version?): going on from here, the colours learning afresh")}
    said = [line["event"]["kind"] for line in lines if "event" in line]
    assert said == ["end_turn"]  # nothing said or logged twice
    assert logged(path) == stored + logged(tmp_path / "unbroken.sqlite")[2:]


def test_N4_an_undo_after_a_resumed_game_takes_back_what_it_would_have_unbroken(tmp_path):
    # End turn took the shift the camera held only briefly: one undo would take back both
    # while nothing was logged after them. Made again from the log, the session must know
    # that the grid cleared was logged after them, as it did then: the undo takes back the
    # clear alone (it took back the turn too, as if the tap were the last thing logged).
    def played(session: TableSession) -> TableSession:
        session.on_reading(rows(SETUP))
        session.on_brief(rows(SHIFTED))  # RRR in column 1
        session.tap("end_turn")
        session.on_reading(rows(CLEARED))
        return session

    def undone(session: TableSession) -> list[str]:
        session.tap("undo")
        return [e["kind"] for e in session.events()]

    game = Game("classic", 2)
    unbroken = played(TableSession.new(GameStore(tmp_path / "a.sqlite"), game, ["A", "B"]))
    store = GameStore(tmp_path / "b.sqlite")
    killed = played(TableSession.new(store, game, ["A", "B"]))
    resumed = played(TableSession(store, killed.game_id, remake=True))
    assert not resumed.remaking and resumed.seq == killed.seq
    assert undone(resumed) == undone(unbroken) == [
        "setup", "shifts", "end_turn", "cleared", "undo"]
    assert resumed.state.phase == unbroken.state.phase == "clear"


@pytest.mark.parametrize("undone", [False, True])
def test_a_resumed_replay_goes_on_over_a_log_written_before_events_were_joined(
        tmp_path, undone):
    # An older companion logged "end turn" and the shift it took as two events, unjoined
    # (event version 5), and took both back with two undos: made again, the tap now joins
    # the shift, and one undo tap takes both back as then; the log stands as written.
    def played(session: TableSession) -> TableSession:
        session.on_reading(rows(SETUP))
        session.on_brief(rows(SHIFTED))
        session.tap("end_turn")
        if undone:
            session.tap("undo")
            session.on_reading(rows(Shift.parse("r4>").apply(SETUP)))
        return session

    game = Game("classic", 2)
    new = played(TableSession.new(GameStore(tmp_path / "a.sqlite"), game, ["A", "B"]))
    assert [e.get("joined") for e in new.events() if e["kind"] == "end_turn"] == [1]
    store = GameStore(tmp_path / "b.sqlite")
    old = TableSession.new(store, game, ["A", "B"])
    for seq, payload in enumerate(new.events(), 1):
        older = {key: value for key, value in payload.items() if key != "joined"}
        store.append(old.game_id, {**older, "v": 5}, expect_seq=seq)
    resumed = played(TableSession(store, old.game_id, remake=True))
    assert not resumed.remaking and resumed.seq == new.seq
    assert all("joined" not in e for e in resumed.events())
    assert resumed.state == new.state
