"""The Desert Sands' stones through the camera, below the screen: the stone watcher counting
each drawn stone once into the session (D2) beside the players' taps, and the stones'
calibration learnt, checked and saved whole (or not at all)."""

import json
import threading

import pytest

from calibration.palette import Palette, default_palette
from calibration.spot import StoneSpot
from companion.live.app import Companion
from companion.live.stones import (
    NO_STONE_CAMERA,
    SPOT_OFF_PICTURE,
    STONE_CAMERA_STOPPED,
    STONES_NOT_SET_UP,
    STONES_UNREADABLE,
    SandsWatcher,
    learn_stones,
    load_stones,
    save_stones,
)
from companion.live.watcher import STABLE_FRAMES, camera_feed
from companion.session.sands import SandsSession
from companion.store import GameStore
from tests.waiting import wait_for

from .stone_camera import MARK, SIZE, SPOT, StandInCamera, captures, scene

HEADER = {"game": "sands", "players": ["Ann", "Bob"], "bag": {"red": 12, "yellow": 12,
                                                              "green": 12, "lilac": 12}}


@pytest.fixture(scope="module")
def learnt():
    return learn_stones(captures(), MARK)


def session(tmp_path):
    return SandsSession.from_header(GameStore(tmp_path / "g.sqlite"), HEADER,
                                    table_provider=lambda: None)


@pytest.fixture
def watching(tmp_path, learnt):
    """``(watcher, camera)``: a game whose camera shows the empty spot, calibrated."""
    camera = StandInCamera(scene(20))
    spot, palette = learnt
    watcher = SandsWatcher(session(tmp_path), camera_feed(camera), spot, palette, pace=0.0)
    yield watcher.start(), camera
    watcher.close()


def reads_more(watcher, frames=8):
    start = watcher.spots_read
    assert wait_for(lambda: watcher.spots_read >= start + frames)


def drawn(watcher):
    return [e for e in watcher.session.events() if e["kind"] == "drawn"]


def test_D2_a_stone_read_by_the_camera_is_the_draw_and_counts_once(watching):
    watcher, camera = watching
    assert wait_for(lambda: watcher.spot().ready)
    assert watcher.spot().line == "Camera: spot empty"
    watcher.tap("call", "green")
    camera.show(scene(21, "g", kelvin=5300))
    assert wait_for(lambda: watcher.view().bag["green"] == 11)
    reads_more(watcher)  # the stone still lies there: no second draw
    view = watcher.view()
    assert view.scores == (5, 0) and view.bag["green"] == 11
    assert drawn(watcher) == [{"kind": "drawn", "v": 6, "colour": "green", "by": "camera"}]
    assert watcher.spot().line == "Camera: green stone (clear the spot before the next draw)"


def test_D2_the_next_stone_counts_only_after_the_spot_was_empty(watching):
    watcher, camera = watching
    assert wait_for(lambda: watcher.spot().ready)
    watcher.tap("call", "red")
    camera.show(scene(22, "y"))
    assert wait_for(lambda: len(drawn(watcher)) == 1)  # D3: red succeeds on yellow, +1
    watcher.tap("call", "red")
    camera.show(scene(23, "l"))  # swapped without clearing the spot: no draw yet
    reads_more(watcher)
    assert len(drawn(watcher)) == 1 and watcher.view().called == "red"
    camera.show(scene(24))
    assert wait_for(lambda: watcher.spot().ready)
    camera.show(scene(25, "l"))
    assert wait_for(lambda: len(drawn(watcher)) == 2)
    assert watcher.view().scores == (1, 0) and watcher.view().active == 1  # D3: lilac fails


def test_D2_a_stone_tapped_in_first_is_not_counted_again_by_the_camera(watching):
    watcher, camera = watching
    assert wait_for(lambda: watcher.spot().ready)
    watcher.tap("call", "lilac")
    watcher.tap("drawn", "red")  # the players were quicker than the camera
    camera.show(scene(26, "r"))
    reads_more(watcher)
    assert [e["by"] for e in drawn(watcher)] == ["tap"]
    assert watcher.view().scores == (0, 2) and watcher.session.message == ""


def test_D2_a_stone_tapped_in_is_not_counted_again_after_the_next_call(watching):
    watcher, camera = watching
    assert wait_for(lambda: watcher.spot().ready)
    watcher.tap("call", "red")
    watcher.tap("drawn", "red")  # tapped in while the hand still lays it: D4, call again
    watcher.tap("call", "red")
    camera.show(scene(33, "r"))
    reads_more(watcher)
    assert [e["by"] for e in drawn(watcher)] == ["tap"] and watcher.view().called == "red"
    camera.show(scene(34))  # cleared: the next stone laid is the next draw
    assert wait_for(lambda: watcher.spot().ready)
    camera.show(scene(35, "y"))
    assert wait_for(lambda: len(drawn(watcher)) == 2)
    assert watcher.view().scores == (2, 0)


def test_D2_no_stone_counts_while_the_spot_is_set_up(watching):
    watcher, camera = watching
    assert wait_for(lambda: watcher.spot().ready)
    watcher.tap("call", "green")
    watcher.pause(True)
    assert watcher.spot().line == "Camera: paused while it is set up"
    read = watcher.spots_read
    green = scene(27, "g")
    for _ in range(STABLE_FRAMES + 2):  # the picture still comes, frame after frame
        frame = green.copy()  # a frame of its own: seen in camera() once the watcher took it
        camera.show(frame)
        assert wait_for(lambda frame=frame: watcher.camera()[0] is frame)
    # Each frame before the last was taken and done with: enough to count a stone if read.
    assert drawn(watcher) == [] and watcher.spots_read == read
    watcher.pause(False)  # the green stone lies there: it is no new draw until cleared
    reads_more(watcher)
    assert drawn(watcher) == []
    camera.show(scene(28))
    assert wait_for(lambda: watcher.spot().ready)
    camera.show(scene(29, "g"))
    assert wait_for(lambda: len(drawn(watcher)) == 1)


def test_D2_without_a_camera_the_players_tap_the_stones_in(tmp_path):
    watcher = SandsWatcher(session(tmp_path), None).start()
    assert watcher.spot().line == NO_STONE_CAMERA and not watcher.spot().camera
    assert watcher.camera() == (None, None)
    watcher.tap("call", "yellow")
    watcher.tap("drawn", "green")
    assert watcher.view().scores == (2, 0)
    watcher.close()


def test_not_set_up_the_picture_still_comes_for_the_set_up(tmp_path):
    camera = StandInCamera(scene(30))
    watcher = SandsWatcher(session(tmp_path), camera_feed(camera), pace=0.0).start()
    try:
        assert watcher.spot().line == STONES_NOT_SET_UP
        assert wait_for(lambda: watcher.camera()[0] is camera.image)
        assert watcher.camera()[1] is None and watcher.spots_read == 0
    finally:
        watcher.close()
    assert camera.status == "closed"


def test_a_spot_off_the_picture_and_a_stopped_camera_say_so(tmp_path, learnt):
    _, palette = learnt
    small = StandInCamera(scene(31)[:200, :300])  # a camera giving another picture
    off = StoneSpot.around((600, 180), 60)  # no image size: taken as it is
    watcher = SandsWatcher(session(tmp_path), camera_feed(small), off, palette).start()
    try:
        assert wait_for(lambda: watcher.spot().line == SPOT_OFF_PICTURE)
    finally:
        watcher.close()

    def broken(report):
        raise OSError("camera unplugged")
        yield

    watcher = SandsWatcher(session(tmp_path), broken, *learnt).start()
    assert wait_for(lambda: watcher.spot().line == STONE_CAMERA_STOPPED)
    watcher.tap("call", "red")
    assert watcher.view().called == "red"
    watcher.close()


def test_closing_lets_go_of_a_camera_that_gives_no_frames(tmp_path, learnt):
    camera = StandInCamera(None)  # open, but no picture comes (a camera reconnecting)
    watcher = SandsWatcher(session(tmp_path), camera_feed(camera), *learnt).start()
    assert wait_for(lambda: camera.status == "open")
    watcher.close()
    assert not watcher.running and camera.status == "closed"


def test_a_camera_that_fails_is_opened_again_and_reads_on(tmp_path, learnt):
    camera = StandInCamera(scene(36))
    opens = []

    def unplugged_at_first(report):
        opens.append(1)
        if len(opens) == 1:
            raise OSError("camera unplugged")
        return camera_feed(camera)(report)

    watcher = SandsWatcher(session(tmp_path), unplugged_at_first, *learnt, pace=0.0)
    watcher.retry_first = 0.05
    watcher.start()
    try:
        assert wait_for(lambda: watcher.spot().line == "Camera: spot empty")
        assert len(opens) == 2 and watcher.running
    finally:
        watcher.close()
    assert camera.status == "closed"


def test_a_failing_read_says_so_and_the_watcher_carries_on(tmp_path, learnt, monkeypatch):
    import companion.live.stones as stones

    faults = []

    def read_once_broken(*args):
        if not faults:
            faults.append(1)
            raise RuntimeError("a fault in reading")
        return read_stone(*args)

    read_stone = stones.read_stone
    monkeypatch.setattr(stones, "read_stone", read_once_broken)
    camera = StandInCamera(scene(37))
    feed = camera_feed(camera)
    seen = threading.Event()

    def reopened_once_seen(report):
        if camera.opened:  # opened again only once the test saw the line: no race for it
            seen.wait(60)
        return feed(report)

    watcher = SandsWatcher(session(tmp_path), reopened_once_seen, *learnt, pace=0.0)
    watcher.retry_first = 0.05
    watcher.start()
    try:
        assert wait_for(lambda: watcher.spot().line == STONE_CAMERA_STOPPED)
        seen.set()
        assert wait_for(lambda: watcher.spot().ready)
        watcher.tap("call", "yellow")
        camera.show(scene(38, "g"))
        assert wait_for(lambda: len(drawn(watcher)) == 1)  # D3: yellow succeeds on green
        assert watcher.view().scores == (2, 0) and camera.opened == 2
    finally:
        seen.set()
        watcher.close()


def test_calibrating_reads_the_new_spot_from_the_next_frame(tmp_path, learnt):
    camera = StandInCamera(scene(32))
    watcher = SandsWatcher(session(tmp_path), camera_feed(camera), pace=0.0).start()
    try:
        assert wait_for(lambda: watcher.camera()[0] is not None)
        watcher.calibrate(*learnt)
        assert wait_for(lambda: watcher.spot().line == "Camera: spot empty")
        corners = watcher.camera()[1]
        assert corners.tolist() == SPOT.corners(SIZE).tolist()
    finally:
        watcher.close()


# -- learning and saving the stones ------------------------------------------------------


def test_learn_stones_needs_every_capture_of_one_size():
    shots = captures()
    with pytest.raises(ValueError, match="capture the lilac stone too"):
        learn_stones(shots[:-1], MARK)
    with pytest.raises(ValueError, match="capture the empty spot too"):
        learn_stones(shots[1:], MARK)
    smaller = [(frame[:300], label) for frame, label in shots[:1]] + shots[1:]
    with pytest.raises(ValueError, match="differ in size"):
        learn_stones(smaller, MARK)
    with pytest.raises(ValueError, match="outside the 640x360 frame"):
        learn_stones(shots, ((620.0, 180.0), 100.0))


def test_a_stone_captured_before_it_was_laid_is_refused():
    shots = captures()
    shots[3] = (scene(40), "g")  # the green capture shows the empty spot
    with pytest.raises(ValueError, match="green stone|empty spot") as err:
        learn_stones(shots, MARK)
    assert "capture again" in str(err.value) and "\n" not in str(err.value)


def test_stones_are_saved_together_and_load_back(tmp_path, learnt):
    spot_file, palette_file = tmp_path / "cfg" / "spot.json", tmp_path / "cfg" / "stones.json"
    assert load_stones(spot_file, palette_file) == (None, None, STONES_NOT_SET_UP)
    save_stones(*learnt, spot_file, palette_file)
    spot, palette, problem = load_stones(spot_file, palette_file)
    assert (spot, problem) == (learnt[0], "") and palette.classes == learnt[1].classes
    assert sorted(p.name for p in spot_file.parent.iterdir()) == ["spot.json", "stones.json"]


def test_a_failed_save_keeps_the_old_stones(tmp_path, learnt, monkeypatch):
    spot_file, palette_file = tmp_path / "spot.json", tmp_path / "stones.json"
    save_stones(*learnt, spot_file, palette_file)
    before = spot_file.read_bytes(), palette_file.read_bytes()

    def full_disk(self, path):
        raise OSError("no space left on device")

    moved = StoneSpot.around((300, 170), 90, SIZE)
    monkeypatch.setattr(StoneSpot, "save", full_disk)
    with pytest.raises(OSError, match="no space"):
        save_stones(moved, learnt[1], spot_file, palette_file)
    assert (spot_file.read_bytes(), palette_file.read_bytes()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spot.json", "stones.json"]


def test_a_failed_rename_puts_the_old_palette_back(tmp_path, learnt, monkeypatch):
    import companion.live.stones as stones

    spot_file, palette_file = tmp_path / "spot.json", tmp_path / "stones.json"
    save_stones(*learnt, spot_file, palette_file)
    before = spot_file.read_bytes(), palette_file.read_bytes()
    replace = stones.os.replace

    def spot_rename_fails(src, dst):
        if dst == spot_file:
            raise OSError("read-only file system")
        replace(src, dst)

    monkeypatch.setattr(stones.os, "replace", spot_rename_fails)
    other = learn_stones(captures(seed=60), MARK)
    assert other[1].to_json() != learnt[1].to_json()
    with pytest.raises(OSError, match="read-only"):
        save_stones(*other, spot_file, palette_file)
    assert (spot_file.read_bytes(), palette_file.read_bytes()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spot.json", "stones.json"]


def test_a_save_cut_by_the_power_is_finished_or_dropped_whole(tmp_path, learnt):
    spot_file, palette_file = tmp_path / "spot.json", tmp_path / "stones.json"
    staged_spot, staged_palette = tmp_path / ".spot.json.new", tmp_path / ".stones.json.new"
    save_stones(*learnt, spot_file, palette_file)
    moved = StoneSpot.around((300, 170), 90, SIZE)

    moved.save(staged_spot)  # cut before the palette's rename: the old pair stands
    learnt[1].save(staged_palette)
    assert load_stones(spot_file, palette_file)[0] == learnt[0]
    assert not staged_spot.exists() and not staged_palette.exists()

    moved.save(staged_spot)  # cut after it: the staged spot belongs to the new palette
    assert load_stones(spot_file, palette_file)[0] == moved
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spot.json", "stones.json"]


def test_damaged_or_wrong_stone_files_ask_for_the_set_up_again(tmp_path, learnt):
    spot_file, palette_file = tmp_path / "spot.json", tmp_path / "stones.json"
    save_stones(*learnt, spot_file, palette_file)
    default_palette().save(palette_file)  # the cards' palette is no stones' palette
    assert load_stones(spot_file, palette_file) == (None, None, STONES_UNREADABLE)
    palette_file.write_text("{")
    assert load_stones(spot_file, palette_file)[2] == STONES_UNREADABLE


def test_companion_saves_the_set_up_and_the_next_game_reads_with_it(tmp_path):
    camera = StandInCamera(scene(50))
    companion = Companion(GameStore(tmp_path / "g.sqlite"), camera=lambda: camera,
                          stone_spot_file=tmp_path / "cfg" / "spot.json",
                          stone_palette_file=tmp_path / "cfg" / "stones.json",
                          sands_table=lambda full: (lambda: None))
    first = companion.start_game(HEADER)
    try:
        assert first.spot().line == STONES_NOT_SET_UP
        message = first.calibrate_stones(captures(), MARK)
        assert str(tmp_path / "cfg") in message
        assert wait_for(lambda: first.spot().line == "Camera: spot empty")
    finally:
        first.close()
    assert json.loads((tmp_path / "cfg" / "spot.json").read_text())["format"] == (
        "nizam-stone-spot")
    assert isinstance(Palette.load(tmp_path / "cfg" / "stones.json"), Palette)
    again = companion.resume_game(first.session.game_id)
    try:
        assert again.spot().problem == ""
        assert wait_for(lambda: again.spot().line == "Camera: spot empty")
    finally:
        again.close()
