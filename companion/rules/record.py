"""The game record of DESIGN.md: JSON lines, a header line then one object per line.

>>> rec = parse_record('{"game": "sands", "bag": {"red": 1}}\\n{"call": "red", "drawn": "red"}\\n')
>>> rec.game, rec.entries
('sands', ((2, {'call': 'red', 'drawn': 'red'}),))
>>> parse_record(format_record(rec.header, [e for _, e in rec.entries])) == rec
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import DamagedFile

GAMES = ("nizam", "pearl", "sands")


class RecordError(DamagedFile):
    """A record line that cannot be read or that breaks a rule: names the line (and rule)."""

    def __init__(self, line: int, message: str, rule: str | None = None) -> None:
        self.line = line
        self.rule = rule
        where = f"line {line}" + (f" ({rule})" if rule else "")
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Record:
    """A whole game record: its header and its entries, each with its line number."""

    header: Mapping[str, Any]
    entries: tuple[tuple[int, Mapping[str, Any]], ...]

    @property
    def game(self) -> str:
        return str(self.header["game"])


UNREADABLE_JSON = "a number too long or lists nested too deep to read"
"""Why valid JSON is refused: an integer past Python's 4300 digits, or nesting past its
recursion limit (each a ValueError or RecursionError, not a JSONDecodeError)."""


def json_lines(text: str, error: Callable[[int, str], Exception] = RecordError
               ) -> Iterator[tuple[int, dict[str, Any]]]:
    """The JSON object on each line of ``text`` with its line number (from 1); blank lines
    are skipped but still counted. A line that holds no JSON object raises ``error(line,
    what is wrong)``: the game record's, or its reader's own.

    >>> list(json_lines('{"frame": 1}\\n\\n{"frame": 3}'))
    [(1, {'frame': 1}), (3, {'frame': 3})]
    >>> list(json_lines('{"frame": 1}\\n[3]'))
    Traceback (most recent call last):
    ...
    companion.rules.record.RecordError: line 2: a line must be a JSON object, not [3]
    """
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            raise error(number, f"not JSON ({err.msg} at column {err.colno})") from None
        except (ValueError, RecursionError):  # JSON, but past what Python will read
            raise error(number, f"damaged ({UNREADABLE_JSON})") from None
        if not isinstance(obj, dict):
            raise error(number, f"a line must be a JSON object, not {line.strip()[:40]}")
        yield number, obj


def parse_record(text: str) -> Record:
    """Read a record from its text; blank lines are skipped but still counted."""
    header: dict[str, Any] | None = None
    entries: list[tuple[int, Mapping[str, Any]]] = []
    for number, obj in json_lines(text):
        if header is None:
            if obj.get("game") not in GAMES:
                raise RecordError(
                    number, f"the first line must name the game, one of {', '.join(GAMES)}"
                )
            header = obj
        else:
            entries.append((number, obj))
    if header is None:
        raise RecordError(1, "empty record: no header line")
    return Record(header, tuple(entries))


def read_record(path: str | Path) -> Record:
    return parse_record(Path(path).read_text(encoding="utf-8"))


def format_record(header: Mapping[str, Any], entries: Iterable[Mapping[str, Any]]) -> str:
    """The record's text, one compact JSON object a line."""
    lines = [json.dumps(dict(header), ensure_ascii=False)]
    lines.extend(json.dumps(dict(e), ensure_ascii=False) for e in entries)
    return "\n".join(lines) + "\n"
