"""`companion demo`: PLACEHOLDER, to be written by its owner before anything lands."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("demo", help="(being written)")
    p.set_defaults(handler=_todo)


def _todo(args: argparse.Namespace) -> int:
    raise NotImplementedError("companion demo is being written")
