"""Small JSON files written whole or not at all (calibration may not use companion's helper)."""

from __future__ import annotations

import errno
import json
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .errors import CameraError

T = TypeVar("T")


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write to a temporary file beside ``path``, then rename: never a half file.

    The one copy of this for the whole project: calibration may not import companion,
    so companion imports it from here.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _beside(target)
    try:
        with os.fdopen(fd, "wb") as f:
            _keep_mode(f.fileno(), target)
            f.write(data.encode() if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _beside(target: Path) -> tuple[int, str]:
    """A new, empty file beside ``target`` (open for writing) and its name. Made with the
    mode a plain ``open()`` gives (0666 less the umask), where ``tempfile.mkstemp`` makes
    every file 0600: a palette or record saved this way is as readable as any other file."""
    for _ in range(100):
        tmp = target.parent / f".{target.name}.{secrets.token_hex(4)}"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), str(tmp)
        except FileExistsError:
            continue  # another writer's temporary file: try another name
    raise FileExistsError(errno.EEXIST, "no free temporary name beside it", str(target))


def _keep_mode(fd: int, target: Path) -> None:
    """Give the file ``fd`` the mode of the ``target`` it will replace, if there is one: a
    file saved again keeps who may read it."""
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        return
    os.fchmod(fd, mode)


def write_json_atomic(path: str | os.PathLike[str], obj: Any) -> None:
    """Write ``obj`` as JSON, whole or not at all."""
    write_atomic(path, json.dumps(obj, indent=1) + "\n")


def read_json(path: str | os.PathLike[str], what: str, error: type[CameraError]) -> Any:
    """The JSON in ``path``; ``error`` naming the file when it is missing or not JSON."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{what} file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as err:
        raise error(f"cannot read {what} file {path}: {err}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise error(
            f"{what} file {path} is not valid JSON ({err.msg}, line {err.lineno})"
        ) from None
    except (ValueError, RecursionError):  # JSON, but an integer past 4300 digits or too deep
        raise error(f"{what} file {path} is damaged (a number too long or lists nested too "
                    "deep to read)") from None


def check_header(obj: object, kind: str, what: str, version: int, error: type[CameraError]
                 ) -> dict:
    """``obj`` as a dict if it is a ``kind`` file of ``version``; ``error`` otherwise."""
    if not isinstance(obj, dict) or obj.get("format") != kind:
        raise error(f"not a {what} (no 'format': '{kind}')")
    if obj.get("version") != version:
        raise error(
            f"{what} version {obj.get('version')!r} is not supported (this reads {version})"
        )
    return obj


def load_json_file(
    path: str | os.PathLike[str], what: str, error: type[CameraError],
    parse: Callable[[Any], T],
) -> T:
    """``parse`` of the JSON in ``path``; its errors (type ``error``) name the file."""
    obj = read_json(path, what, error)
    try:
        return parse(obj)
    except error as err:
        raise error(f"{path}: {err}") from None
