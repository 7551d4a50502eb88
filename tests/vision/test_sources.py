"""Frame sources: files, folders, video, cameras (a missing one, one that drops out and
comes back), the Pi camera without picamera2, and the newest-frame-wins capture thread."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.waiting import wait_for
from vision.sources import (
    ImageFiles,
    LatestFrame,
    OpenCVCamera,
    SourceError,
    VideoFile,
    open_source,
)
from vision.sources.picamera import PiCamera


def _write_images(folder, n):
    for i in range(n):
        img = np.full((48, 64, 3), 20 * i, np.uint8)
        cv2.imwrite(str(folder / f"{i:06d}.png"), img)


def test_a_folder_gives_its_images_in_name_order_with_times(tmp_path):
    _write_images(tmp_path, 3)
    (tmp_path / "notes.txt").write_text("not an image")
    with ImageFiles(tmp_path, fps=5.0) as source:
        frames = list(source)
    assert [f.index for f in frames] == [0, 1, 2]
    assert [round(f.timestamp, 3) for f in frames] == [0.0, 0.2, 0.4]
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 20, 40]


def test_missing_empty_and_unreadable_are_one_line_errors(tmp_path):
    with pytest.raises(SourceError, match="no such file or folder"):
        ImageFiles(tmp_path / "nope").open()
    with pytest.raises(SourceError, match="no images"):
        ImageFiles(tmp_path).open()
    bad = tmp_path / "broken.png"
    bad.write_bytes(b"not a png")
    with pytest.raises(SourceError, match="not a readable image"):
        list(ImageFiles(bad))


def test_a_broken_frame_can_be_skipped(tmp_path):
    _write_images(tmp_path, 2)
    (tmp_path / "000000.png").write_bytes(b"garbage")
    source = ImageFiles(tmp_path, skip_unreadable=True)
    frames = list(source)
    assert len(frames) == 1 and source.skipped == [tmp_path / "000000.png"]


def test_a_video_file_gives_every_frame_with_its_time(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    assert writer.isOpened()
    for i in range(5):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()
    with open_source(path) as source:
        assert isinstance(source, VideoFile)
        frames = list(source)
    assert len(frames) == 5
    assert frames[0].image.shape == (48, 64, 3)
    assert [round(f.timestamp, 2) for f in frames] == [0.0, 0.1, 0.2, 0.3, 0.4]
    assert abs(int(frames[4].image.mean()) - 160) < 10


def test_an_unreadable_video_is_a_one_line_error(tmp_path):
    path = tmp_path / "clip.mp4"
    path.write_bytes(b"not a video")
    with pytest.raises(SourceError, match="not a readable video"):
        VideoFile(path).open()


def test_a_missing_camera_is_a_clear_error():
    with pytest.raises(SourceError, match="camera 97: no such camera"):
        OpenCVCamera(97).open()


class FakeCapture:
    """A camera that delivers ``plan`` frames then fails (unplugged) on each open."""

    def __init__(self, frames: int, opens: list[bool]):
        self.frames = frames
        self.opens = opens

    def __call__(self, index):
        self.ok = self.opens.pop(0) if self.opens else False
        self.left = self.frames
        return self

    def isOpened(self):  # noqa: N802 (OpenCV's name)
        return self.ok

    def set(self, *args):
        return True

    def read(self):
        if not self.ok or self.left < 0:
            return False, None
        self.left -= 1
        return True, np.zeros((4, 4, 3), np.uint8)

    def release(self):
        self.ok = False


def test_a_camera_that_drops_out_is_retried_until_it_is_back():
    # opens, gives frames, is lost; two reconnects fail, the third works.
    fake = FakeCapture(frames=2, opens=[True, False, False, True])
    heard = []
    camera = OpenCVCamera(0, capture=fake, retry_delay=0.001, on_status=heard.append)
    camera.open()
    got = []
    for frame in camera:
        got.append(frame.index)
        if len(got) == 4:
            camera.close()
    assert got == [0, 1, 2, 3]
    assert heard == ["camera 0: open", "camera 0: lost, reconnecting", "camera 0: back"]


def test_a_camera_can_give_up_after_some_attempts():
    fake = FakeCapture(frames=1, opens=[True])
    camera = OpenCVCamera(0, capture=fake, retry_delay=0.001, retries=2)
    camera.open()
    with pytest.raises(SourceError, match="lost and not back after 2 attempts"):
        list(camera)


def test_the_pi_camera_without_picamera2_is_a_clear_error(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_picamera2(name, *args, **kwargs):
        if name == "picamera2":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_picamera2)
    with pytest.raises(SourceError, match="picamera2 is not installed"):
        PiCamera().open()


def test_open_source_picks_the_kind(tmp_path):
    _write_images(tmp_path, 1)
    assert isinstance(open_source(tmp_path), ImageFiles)
    assert isinstance(open_source(tmp_path / "000000.png"), ImageFiles)
    assert isinstance(open_source("3"), OpenCVCamera)
    assert isinstance(open_source("picamera"), PiCamera)
    with pytest.raises(SourceError, match="no such file, folder or camera"):
        open_source(tmp_path / "missing.mp4")


class Ticker(OpenCVCamera):
    """A live source that makes frames as fast as asked, numbered."""

    def __init__(self):
        super().__init__(0, capture=FakeCapture(frames=10**9, opens=[True]), retry_delay=0.001)


# Waits for the capture thread are generous, as a loaded 2-core CI machine may run it late;
# each ends as soon as the frame (or the end) comes.
WAIT = 30.0


def test_the_capture_thread_hands_out_the_newest_frame_and_counts_drops():
    with LatestFrame(Ticker()) as latest:
        first = latest.get(timeout=WAIT)
        assert first is not None
        dropped = latest.dropped
        # The camera runs on meanwhile: at least one frame comes and goes untaken.
        assert wait_for(lambda: latest.dropped > dropped)
        second = latest.get(timeout=WAIT)
        assert second is not None and second.index > first.index + 1
    assert wait_for(lambda: latest.ended)


def test_the_capture_thread_ends_with_a_file_source_and_reports_errors(tmp_path):
    _write_images(tmp_path, 2)
    latest = LatestFrame(ImageFiles(tmp_path))
    latest.start()
    seen = []
    while (frame := latest.get(timeout=WAIT)) is not None:
        seen.append(frame.index)
    latest.stop()
    assert seen and seen[-1] == 1 and latest.ended and latest.error is None
    bad = tmp_path / "zz.png"
    bad.write_bytes(b"garbage")
    broken = LatestFrame(ImageFiles(bad))
    broken.start()
    assert broken.get(timeout=WAIT) is None
    broken.stop()
    assert broken.error is not None and "not a readable image" in broken.error
