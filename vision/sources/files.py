"""Frames from image files: one image, a list of them, or every image in a folder (sorted
by name, as recordings number their frames)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np

from .base import Frame, FrameSource, SourceError

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}


def image_file(path: str | Path) -> Path:
    """``path`` when it names a file, or SourceError saying what it names instead (a command
    checks every image this way before it reads the first)."""
    p = Path(path)
    if not p.exists():
        raise SourceError(f"{p}: no such file")
    if p.is_dir():
        raise SourceError(f"{p}: is a folder, not an image")
    return p


def read_image(path: str | Path) -> np.ndarray:
    """The image at ``path`` as BGR uint8, or SourceError saying why not."""
    p = Path(path)
    # Read as bytes and decode: cv2.imread takes the name as UTF-8 and crashes the process
    # on a name that is not (surrogate-escaped bytes), which a file system allows. What
    # ``image_file`` would say is said from the read itself: replays read every frame so.
    try:
        data = np.fromfile(p, dtype=np.uint8)
    except (FileNotFoundError, NotADirectoryError):
        raise SourceError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise SourceError(f"{p}: is a folder, not an image") from None
    except OSError as err:
        raise SourceError(f"{p}: {err.strerror or err}") from None
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise SourceError(f"{p}: not a readable image")
    return image


def read_image_or_none(path: str | Path) -> np.ndarray | None:
    """The image at ``path``, or None when it cannot be read (a recording's broken frame,
    which a replay reports and plays on past)."""
    try:
        return read_image(path)
    except SourceError:
        return None


class ImageFiles(FrameSource):
    """Images as frames, ``fps`` apart in time. With ``skip_unreadable`` a frame that will
    not decode is skipped (a recording with one broken frame plays on); otherwise it is a
    SourceError."""

    def __init__(
        self,
        paths: str | Path | Sequence[str | Path],
        fps: float = 5.0,
        skip_unreadable: bool = False,
    ) -> None:
        self.paths = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
        self.fps = fps
        self.skip_unreadable = skip_unreadable
        self.files: list[Path] = []
        self.skipped: list[Path] = []

    def __repr__(self) -> str:
        return f"ImageFiles({[str(p) for p in self.paths]!r})"

    def open(self) -> None:
        files: list[Path] = []
        for p in self.paths:
            if p.is_dir():
                found = sorted(f for f in p.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES)
                if not found:
                    raise SourceError(f"{p}: no images in this folder")
                files += found
            elif p.exists():
                files.append(p)
            else:
                raise SourceError(f"{p}: no such file or folder")
        self.files = files

    def close(self) -> None:
        pass

    def frames(self) -> Iterator[Frame]:
        if not self.files:
            self.open()
        index = 0
        for path in self.files:
            try:
                image = read_image(path)
            except SourceError:
                if not self.skip_unreadable:
                    raise
                self.skipped.append(path)
                continue
            yield Frame(image, index / self.fps, index, str(path))
            index += 1
