"""The ``companion`` command line (DESIGN.md, "Interfaces other tools rely on").

Each ``*_cmd`` module adds its subcommand with ``register(subparsers)`` and sets
``handler`` to a function ``(args) -> int``. Errors from bad input are ``ValueError``
(or ``OSError`` for files) and come out here as one line on stderr with exit code 2; so do
the parser's own complaints (a bad option). A reader that stops reading (``| head``) is no
error: the command stops quietly, exit 141 as if killed by SIGPIPE. Anything else that
escapes a command is a bug, still reported in one line (exit 1); ``COMPANION_TRACEBACK=1``
shows its traceback.
"""

from __future__ import annotations

import argparse
import logging
import logging.handlers
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from companion.errors import EXPECTED
from companion.paths import data_dir
from companion.words import players_from_one

from . import (
    app_cmd,
    calibrate_cmd,
    demo_cmd,
    detect_cmd,
    doctor_cmd,
    history_cmd,
    replay_cmd,
    rules_cmd,
    sands_cmd,
)

COMMANDS = (
    app_cmd, rules_cmd, sands_cmd, detect_cmd, calibrate_cmd, replay_cmd, doctor_cmd, demo_cmd,
    history_cmd,
)


BAD_INPUT: tuple[type[Exception], ...] = (*EXPECTED, OSError)
"""What a command reports as the user's to fix (exit 2): an expected error, a file error."""


class Parser(argparse.ArgumentParser):
    """argparse, but a bad option is one line on stderr (usage is in ``--help``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="companion",
        description="Nizam table companion. With no command it starts the companion itself.",
    )
    app_cmd.add_arguments(parser)  # `companion --demo` and the like start the app
    parser.set_defaults(handler=app_cmd.run)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # Kivy parses sys.argv as its own unless told not to; the command line is ours.
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    _print_names_as_given()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except BrokenPipeError:  # --help into a closed pipe
        return _reader_gone()
    try:
        code = int(args.handler(args))
        if sys.stdout is not None:  # None when started with stdout closed
            sys.stdout.flush()  # a reader gone shows here, not at exit as Python's complaint
        return code
    except BrokenPipeError:  # before BAD_INPUT: it is an OSError, but nothing the user did
        return _reader_gone()
    except BAD_INPUT as err:  # any other ValueError is a bug, below
        print(f"companion: {_one_line(err)}", file=sys.stderr)
        return 2
    except MemoryError:
        print("companion: not enough memory for this input", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as err:
        if os.environ.get("COMPANION_TRACEBACK"):
            raise
        kept = _keep_traceback(sys.argv[1:] if argv is None else list(argv))
        print(f"companion: unexpected error, please report it: {type(err).__name__}: "
              f"{_one_line(err)}" + (f" (the details are in {kept})" if kept else ""),
              file=sys.stderr)
        return 1


SIGPIPE_EXIT = 141
"""A command whose reader stopped reading (``| head``) exits as one killed by SIGPIPE."""


def _reader_gone() -> int:
    """stdout's reader closed the pipe: no error to say, nothing more to print. stdout is
    pointed at /dev/null so Python's flush at exit does not complain of it either."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):  # no real stdout file (a test's capture)
        pass
    return SIGPIPE_EXIT


def _print_names_as_given() -> None:
    """A file name need not be UTF-8 (Python holds its stray bytes as surrogates): printed,
    it goes out as the bytes it was given, as ``ls`` prints it, where a strict stdout (any
    UTF-8 locale but C) would fail the command after its work was done."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    # only over the strict default: a lenient handler the user chose (PYTHONIOENCODING) stays
    if reconfigure is not None and getattr(sys.stdout, "errors", None) == "strict":
        reconfigure(errors="surrogateescape")


CRASH_LOG_BYTES = 1 << 20  # the log is started afresh past this (the last one kept as .1)


class _CrashLog(logging.handlers.RotatingFileHandler):
    """The crash log's file: a write that fails is raised (and the path not promised), not
    printed over the one line the command says."""

    def handleError(self, record: logging.LogRecord) -> None:
        raise  # the OSError emit() is handling


def _keep_traceback(argv: Sequence[str]) -> Path | None:
    """Append the exception being handled, with its traceback, to the crash log in the data
    folder (a box on a table has no terminal to scroll back in); its path, or None when it
    cannot be written."""
    path = data_dir() / "crash.log"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        log = _CrashLog(path, maxBytes=CRASH_LOG_BYTES, backupCount=1, encoding="utf-8",
                         errors="backslashreplace")  # a file name not UTF-8 in the command
    except OSError:
        return None
    log.setFormatter(logging.Formatter("--- %(asctime)s %(message)s", "%Y-%m-%dT%H:%M:%S"))
    record = logging.LogRecord("companion", logging.ERROR, __file__, 0,
                               f"companion {' '.join(argv)}", None, sys.exc_info())
    try:
        log.emit(record)
    except OSError:
        return None
    finally:
        log.close()
    return path


def _one_line(err: BaseException) -> str:
    """The error as one line; a file error names the file, not Python's errno tuple."""
    if isinstance(err, OSError) and err.strerror:
        where = err.filename2 if err.filename2 is not None else err.filename
        text = f"{where}: {err.strerror}" if where is not None else err.strerror
    else:
        # The rules count players from 0; people count them from 1.
        text = players_from_one(str(err)) or type(err).__name__
    return " ".join(text.split())
