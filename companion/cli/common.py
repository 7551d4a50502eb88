"""Small helpers the commands share: JSON output and files written whole or not at all."""

from __future__ import annotations

import json
from typing import Any

from calibration._files import write_atomic

__all__ = ["print_json", "write_atomic"]


def print_json(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False))
