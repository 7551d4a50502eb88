"""The ``companion`` command line (DESIGN.md, "Interfaces other tools rely on").

Each ``*_cmd`` module adds its subcommand with ``register(subparsers)`` and sets
``handler`` to a function ``(args) -> int``. Errors from bad input are ``ValueError``
(or ``OSError`` for files) and come out here as one line on stderr with exit code 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from . import (
    app_cmd,
    calibrate_cmd,
    demo_cmd,
    detect_cmd,
    doctor_cmd,
    replay_cmd,
    rules_cmd,
    sands_cmd,
)

COMMANDS = (
    app_cmd, rules_cmd, sands_cmd, detect_cmd, calibrate_cmd, replay_cmd, doctor_cmd, demo_cmd
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Nizam table companion. With no command it starts the companion itself.",
    )
    app_cmd.add_arguments(parser)  # `companion --screenshot DIR` and the like start the app
    parser.set_defaults(handler=app_cmd.run)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # Kivy parses sys.argv as its own unless told not to; the command line is ours.
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args))
    except (ValueError, OSError) as err:
        print(f"companion: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
