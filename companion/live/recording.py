"""A recorded game on camera (DESIGN.md, "Recording"): what `companion replay` plays.

::

    recording/game.json      {"game": "nizam", "players": ["Ann", "Bob"], "options": {…}}
    recording/calib.jpg      a layout under the same camera and light; calib.json {"grid": …}
    recording/frames/000000.jpg …
    recording/taps.jsonl     {"frame": 17, "tap": "draw"} …

Frames are numbered by their file names; a missing number is a gap in the recording,
not an error. Frame images are not read here: the frame source reads them when played.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Set
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import DamagedFile
from companion.rules.record import GAMES, UNREADABLE_JSON, json_lines

FRAME_SUFFIXES = (".jpg", ".jpeg", ".png")
TAPS = ("draw", "wildcard", "end_turn", "undo", "fix", "confirm_misread")


class RecordingError(DamagedFile):
    """A recording folder that cannot be played: names the file and what is wrong."""


@dataclass(frozen=True)
class Tap:
    frame: int
    tap: str
    args: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Recording:
    root: Path
    game: Mapping[str, Any]
    frames: tuple[tuple[int, Path], ...]  # (frame number, image file), in order
    taps: tuple[Tap, ...]
    calib_image: Path | None
    calib_grid: str | None

    @property
    def gaps(self) -> list[int]:
        """Frame numbers missing between the first and the last frame."""
        numbers = [n for n, _ in self.frames]
        have = set(numbers)
        return [n for n in range(numbers[0], numbers[-1] + 1) if n not in have] if numbers else []

    def taps_at(self, frame: int) -> list[Tap]:
        return [t for t in self.taps if t.frame == frame]


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RecordingError(f"{path}: missing") from None
    except json.JSONDecodeError as err:
        raise RecordingError(f"{path}: not JSON ({err.msg}, line {err.lineno})") from None
    except UnicodeDecodeError:  # a ValueError too: asked first
        raise RecordingError(f"{path}: not UTF-8 text") from None
    except (ValueError, RecursionError):  # JSON, but past what Python will read
        raise RecordingError(f"{path}: damaged ({UNREADABLE_JSON})") from None


def _read_taps(path: Path, frames: Set[int]) -> tuple[Tap, ...]:
    """The taps, each at one of ``frames`` (a tap at a frame the recording lacks would never
    be played)."""
    if not path.exists():
        return ()
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RecordingError(f"{path}: not UTF-8 text") from None
    taps = []

    def damaged(number: int, what: str) -> RecordingError:
        return RecordingError(f"{path} line {number}: {what}")

    for number, obj in json_lines(text, damaged):
        frame, tap = obj.get("frame"), obj.get("tap")
        if isinstance(frame, bool) or not isinstance(frame, int) or frame < 0:
            raise RecordingError(f"{path} line {number}: 'frame' must be a frame number")
        if frame not in frames:
            first, last = min(frames), max(frames)
            where = "a gap" if first < frame < last else f"frames/ holds {first} to {last}"
            raise RecordingError(f"{path} line {number}: frame {frame} is not in the recording "
                                 f"({where})")
        if tap not in TAPS:
            raise RecordingError(
                f"{path} line {number}: unknown tap {tap!r}, expected one of {', '.join(TAPS)}"
            )
        args = obj.get("args", [])
        if not isinstance(args, list):
            raise RecordingError(f"{path} line {number}: 'args' must be a list")
        taps.append(Tap(frame, tap, tuple(args)))
    return tuple(sorted(taps, key=lambda t: t.frame))


def open_recording(root: str | Path) -> Recording:
    """Read a recording folder's index (not its frames)."""
    folder = Path(root)
    if not folder.is_dir():
        raise RecordingError(f"{folder}: no such recording folder")
    game = _read_json(folder / "game.json")
    if not isinstance(game, dict) or game.get("game") not in GAMES:
        raise RecordingError(f"{folder / 'game.json'}: 'game' must be one of {', '.join(GAMES)}")
    frames = []
    frame_dir = folder / "frames"
    if frame_dir.is_dir():
        for path in frame_dir.iterdir():
            # ASCII digits only: str.isdigit() takes '²³', which is no frame number
            if path.suffix.lower() in FRAME_SUFFIXES and path.stem.isascii() \
                    and path.stem.isdigit():
                frames.append((int(path.stem), path))
    if not frames:
        raise RecordingError(f"{frame_dir}: no frames (000000.jpg, 000001.jpg, …)")
    frames.sort()
    calib_image = next(
        (folder / f"calib{s}" for s in FRAME_SUFFIXES if (folder / f"calib{s}").exists()), None
    )
    calib_grid = None
    if (folder / "calib.json").exists():
        calib = _read_json(folder / "calib.json")
        calib_grid = calib.get("grid") if isinstance(calib, dict) else None
        if not isinstance(calib_grid, str):
            raise RecordingError(f"{folder / 'calib.json'}: 'grid' must be a grid string")
    return Recording(
        folder, game, tuple(frames), _read_taps(folder / "taps.jsonl", {n for n, _ in frames}),
        calib_image, calib_grid
    )
