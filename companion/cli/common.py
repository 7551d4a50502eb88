"""Small helpers the commands share: JSON output, files written whole or not at all, and
output paths checked before any work is done."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from calibration.files import write_atomic as _write_atomic
from companion.errors import BadInput, DamagedFile

__all__ = [
    "finite_positive", "output_path", "print_json", "quiet_stderr", "write_atomic", "writing"
]


def print_json(obj: Any) -> None:
    """One line of strict JSON; a NaN or infinity (from a damaged file, say) is a ValueError,
    since other tools could not read it."""
    try:
        text = json.dumps(obj, ensure_ascii=False, allow_nan=False)
    except ValueError:
        raise DamagedFile("the result holds a value that is not a finite number "
                         "(is a palette or lens file damaged?)") from None
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            # A file name that is not UTF-8: escaped (\udcff), so the line stays JSON and a
            # reader gets the name's bytes back (os.fsencode), where raw bytes would not be.
            text = json.dumps(obj, allow_nan=False)
    print(text)


@contextlib.contextmanager
def writing(path: str | os.PathLike[str]) -> Iterator[None]:
    """A file error while writing ``path`` names ``path``, not the temporary file beside it."""
    try:
        yield
    except OSError as err:
        raise OSError(err.errno, err.strerror, os.fspath(path)) from None


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """``calibration.files.write_atomic``, its errors naming ``path``."""
    with writing(path):
        _write_atomic(path, data)


def output_path(path: str, option: str, folder: bool = False) -> Path:
    """``path`` given with ``option`` as a place to write a file (a folder with ``folder``),
    checked up front so no work is lost: not empty, its folder exists and can be written
    to, not the wrong kind.

    >>> output_path("", "--out")
    Traceback (most recent call last):
    ...
    companion.rules.errors.BadInput: --out '': give a file name
    """
    what = "folder" if folder else "file"
    if not path:
        raise BadInput(f"{option} '': give a {what} name")
    target = Path(path)
    if target.is_dir() != folder and target.exists():
        raise BadInput(f"{option} {path}: is a {'file' if folder else 'folder'}, "
                         f"not a {what}")
    parent = target.parent
    if not parent.is_dir():
        raise BadInput(f"{option} {path}: no folder {parent} to write it in")
    # Files are written beside the target, then renamed (or into the folder given): the
    # folder that takes them must let us, or a whole game is played before the write fails.
    holder = target if folder and target.is_dir() else parent
    if not os.access(holder, os.W_OK | os.X_OK):
        raise BadInput(f"{option} {path}: the folder {holder} cannot be written to")
    return target


def finite_positive(text: str) -> float:
    """An argparse type: a finite number above 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r}: give a number above 0")
    return value


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """Silence what C libraries print straight to the stderr file (libpng's "Read Error"):
    a command says what is wrong in its own one line."""
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no stderr file at all: nothing to silence
        yield
        return
    try:
        with open(os.devnull, "wb") as devnull:
            os.dup2(devnull.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
