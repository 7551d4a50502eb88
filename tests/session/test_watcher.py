"""The table watcher: frames read off the screen's thread, stable readings to the session."""

import json
import math

from companion.demo import RECORDINGS
from companion.live.app import Companion, demo_watcher
from companion.session import nizam as nizam_session
from companion.store import GameStore
from tests.waiting import wait_for


def test_N13_demo_plays_to_the_recorded_scores_then_starts_again(monkeypatch):
    # the fold ahead runs on the watcher's thread, a slice a frame; the last turn leaves
    # few frames, too few for a slow machine's slices: the slice here is unbounded
    monkeypatch.setattr(nizam_session, "FOLD_AHEAD_SECONDS", math.inf)
    watcher = demo_watcher("nizam", pace=0.0)
    watcher.restart_pause = 30.0
    truth = json.loads((RECORDINGS["nizam"] / "truth.json").read_text())
    first = watcher.session
    try:
        watcher.start()
        assert wait_for(lambda: watcher.view().turn == truth["turns"] + 1)
        view = watcher.view()
        assert [p.score for p in view.players] == truth["scores"]
        assert view.deck == truth["deck"] and view.discard == truth["discard"]
        frame, corners = watcher.camera()
        assert frame is not None and frame.shape[2] == 3 and corners is not None
        # between frames, once the screen has a reading's verdict, the game is folded
        # ahead (N9: the search after a refused reading goes on from there)
        assert wait_for(lambda: first._ahead == first.seq)
    finally:
        watcher.close()
    assert watcher.session is first  # closed before the pause ended: no restart


def test_game_without_a_camera_says_so_and_keeps_running(tmp_path):
    companion = Companion(GameStore(tmp_path / "g.sqlite"), camera=lambda: None)
    header = {"game": "nizam", "players": ["Ann", "Bob"], "options": {}}
    watcher = companion.start_game(header)
    try:
        assert wait_for(lambda: "No camera found" in watcher.view().problem)
        watcher.tap("draw")  # no setup yet: refused with a message, nothing breaks
        assert watcher.view().message
    finally:
        watcher.close()
    (game,) = companion.games()
    assert game.header["names"] == ["Ann", "Bob"]


def test_closing_lets_go_of_a_camera_that_gives_no_frames(tmp_path):
    # A camera reconnecting gives no picture for a long time: closing the game must still
    # stop the watcher and close the camera, or the next game finds /dev/video0 taken.
    from calibration.palette import default_palette
    from companion.live.watcher import TableWatcher, camera_feed
    from companion.session.nizam import TableSession
    from tests.session.stone_camera import StandInCamera

    store = GameStore(tmp_path / "g.sqlite")
    game = store.new_game({"game": "nizam", "players": 2, "options": {},
                           "names": ["Ann", "Bob"]})
    camera = StandInCamera(None)
    watcher = TableWatcher(TableSession(store, game), camera_feed(camera), default_palette())
    watcher.start()
    assert wait_for(lambda: camera.status == "open")
    watcher.close()
    assert not watcher.running and camera.status == "closed"


def test_a_palette_from_an_older_version_falls_back_to_the_deck_profile(tmp_path, monkeypatch):
    # An update changed what a palette holds: the app must still start (so the players can
    # calibrate again), read with the default deck profile, and say why on the table screen.
    from calibration.palette import default_palette
    from calibration.store import palette_path
    from companion.live.app import open_companion

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    old = default_palette().to_json()
    old["features"] = ["I", "u", "v", "hue_u", "hue_v", "rel_I", "rel_u", "rel_v", "texture",
                       "ink", "frame"]
    palette_path().parent.mkdir(parents=True, exist_ok=True)
    palette_path().write_text(json.dumps(old))
    companion = open_companion()
    companion.camera = lambda: None
    assert companion.palette.classes == default_palette().classes
    assert "calibrate again" in companion.palette_problem
    game = companion.start_game({"game": "nizam", "players": ["Ann", "Bob"], "options": {}})
    try:
        assert "calibrate again" in game.view().problem
    finally:
        game.close()


def test_a_frame_vision_cannot_take_is_reported_and_the_watcher_reads_on(tmp_path):
    import numpy as np

    from calibration.palette import default_palette
    from companion.live.watcher import TableWatcher
    from companion.session.nizam import TableSession
    from tests.vision.scenes import CALM, GEMS
    from tools.synthetic import render_scene

    good = render_scene(np.random.default_rng(2), GEMS, 5, 5, CALM).image
    seen = []

    def feed(report):
        yield 0, np.zeros((480, 640), np.uint8)  # a grey frame from a misconfigured camera
        seen.append(watcher.view().problem)
        yield 1, good
        seen.append(watcher.view().problem)

    store = GameStore(tmp_path / "g.sqlite")
    game = store.new_game({"game": "nizam", "players": 2, "options": {},
                           "names": ["Ann", "Bob"]})
    # Built before it starts: the feed runs on the watcher's thread and looks at it.
    watcher = TableWatcher(TableSession(store, game), feed, default_palette())
    watcher.start()
    assert wait_for(lambda: not watcher.running)
    assert "could not be read" in seen[0] and seen[1] == ""
    assert watcher.frames_read == 1
