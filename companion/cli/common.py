"""Small helpers the commands share: JSON output and files written whole or not at all."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def print_json(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False))


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write to a temporary file beside ``path``, then rename: never a half file."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
