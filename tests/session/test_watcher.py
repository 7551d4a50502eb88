"""The table watcher: frames read off the screen's thread, stable readings to the session."""

import json
import time

from companion.app import Companion, demo_watcher
from companion.demo import RECORDINGS
from companion.store import GameStore


def wait_for(predicate, seconds=60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def test_N13_demo_plays_to_the_recorded_scores_then_starts_again():
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
    finally:
        watcher.close()
    assert watcher.session is first  # closed before the pause ended: no restart


def test_game_without_a_camera_says_so_and_keeps_running(tmp_path):
    companion = Companion(GameStore(tmp_path / "g.sqlite"), camera=lambda: None)
    header = {"game": "nizam", "players": ["Ann", "Bob"], "options": {}}
    watcher = companion.start_game(header)
    try:
        assert wait_for(lambda: "No camera found" in watcher.view().problem, 5)
        watcher.tap("draw")  # no setup yet: refused with a message, nothing breaks
        assert watcher.view().message
    finally:
        watcher.close()
    (game,) = companion.games()
    assert game.header["names"] == ["Ann", "Bob"]
