"""Frame sources behind one interface (``FrameSource``) and a capture thread (``LatestFrame``).

``open_source(spec)`` picks one from a short description: ``picamera`` for the Pi camera,
a number for an OpenCV camera, a folder or image file for images, a video file for video.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .base import Frame, FrameSource, LiveSource, SourceError
from .files import IMAGE_SUFFIXES, ImageFiles, image_file, read_image, read_image_or_none
from .latest import LatestFrame
from .opencv_camera import OpenCVCamera
from .usb import usb_cameras
from .video import VIDEO_SUFFIXES, VideoFile

__all__ = [
    "Frame",
    "FrameSource",
    "ImageFiles",
    "LatestFrame",
    "LiveSource",
    "OpenCVCamera",
    "SourceError",
    "VideoFile",
    "image_file",
    "open_source",
    "read_image",
    "read_image_or_none",
    "usb_cameras",
]


def open_source(spec: str | Path, **options: Any) -> FrameSource:
    """A source (not yet opened) for ``spec``; SourceError if it names nothing usable."""
    text = str(spec)
    if text.lower() in ("picamera", "pi"):
        from .picamera import PiCamera

        return PiCamera(**options)
    if text.isdigit():
        return OpenCVCamera(int(text), **options)
    path = Path(text)
    if path.is_dir():
        return ImageFiles(path, **options)
    if path.exists():
        suffix = path.suffix.lower()
        if suffix in VIDEO_SUFFIXES:
            return VideoFile(path)
        if suffix in IMAGE_SUFFIXES:
            return ImageFiles(path, **options)
        raise SourceError(f"{path}: neither an image nor a video (by its name)")
    raise SourceError(f"{text}: no such file, folder or camera")
