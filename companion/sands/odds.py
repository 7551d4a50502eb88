"""A solved Desert Sands table: look up a position's chances, solving it or reading it from disk.

The cache file (one per full bag) is a JSON header line, the table's values row after row as
float32, then one 64-bit checksum per row. A header for other bag counts, another solver
version, another D3 table or any other layout, a file of the wrong size, or a row whose
checksum does not match means a silent re-solve (and a fresh file): no answer comes from a
damaged table.

Why float32: the file is written to a Pi's SD card while a game may be committing its events
(each synced); 12 stones of each colour is 66 MB so (132 MB in float64, 386 MB at 16 of
each), and a chance rounded to float32 is within 6e-8 of the solver's, far below what a
player reads. The solver itself works in float64. Only the game's own bag and the newest
other bag are kept: writing a table removes the tables of other bags.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from companion import paths
from companion.errors import BrokenRule
from companion.rules.sands import CALLS, GOAL, Bag, Sands

from .solver import LOSE, SIDE, SOLVER_VERSION, TIE, WIN, Layout, score_class, solve, solve_layers

FORMAT = "nizam-companion sands table"
ROW_WORDS = 2 * SIDE * SIDE
STORED = np.dtype("<f4")
"""How the values are kept on disk."""
STORED_TIE = 1e-6
"""Chances closer than this count as equal when choosing a call from the stored table:
float32 rounding may split what the solver found equal."""
STALE_TEMP = 3600.0
"""Seconds after which a half-written table left by a crash is removed."""
_WEIGHTS = (np.arange(ROW_WORDS, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)) | np.uint64(1)
_ROW_SALT = np.uint64(0xD6E8FEB86659FD93)


def row_sums(values: np.ndarray, first_row: int) -> np.ndarray:
    """One checksum per row: any changed word, or a row moved to another place, changes it."""
    stored = np.ascontiguousarray(values, dtype=STORED)
    words = stored.reshape(len(values), ROW_WORDS).view(np.uint32).astype(np.uint64)
    rows = np.arange(first_row + 1, first_row + 1 + len(values), dtype=np.uint64)
    sums: np.ndarray = (words * _WEIGHTS).sum(axis=1, dtype=np.uint64) + rows * _ROW_SALT
    return sums


def cache_path(full: Bag, directory: str | os.PathLike[str] | None = None) -> Path:
    folder = Path(directory) if directory is not None else paths.cache_dir()
    return folder / f"sands-{full}.table"


def _header(layout: Layout) -> dict[str, object]:
    calls = [[c.colour, list(c.succeeds_on), c.points, c.penalty] for c in CALLS.values()]
    return {"format": FORMAT, "solver": SOLVER_VERSION, "full": str(layout.full), "goal": GOAL,
            "calls": calls, "rows": layout.rows, "side": SIDE, "dtype": STORED.str,
            "checksum": "<u8"}


def file_size(layout: Layout) -> int:
    """Bytes of ``layout``'s cache file: the header line, the values and the checksums."""
    header = len((json.dumps(_header(layout)) + "\n").encode())
    return header + layout.rows * ROW_WORDS * STORED.itemsize + layout.rows * 8


class SandsTable:
    """Every position's (P(mover wins), P(mover loses)) for one full bag."""

    def __init__(self, layout: Layout, values: np.ndarray, sums: np.ndarray | None = None,
                 resolve: Callable[[], SandsTable] | None = None) -> None:
        self.layout = layout
        self.values = values
        self._sums = sums
        self._checked = np.zeros(layout.rows, dtype=bool)
        self._resolve = resolve

    @property
    def full(self) -> Bag:
        return self.layout.full

    @property
    def tie(self) -> float:
        """Chances closer than this are equal for choosing a call (see STORED_TIE)."""
        return TIE if self.values.dtype == np.float64 else STORED_TIE

    def chances(self, bag: Bag, mover: int, other: int) -> tuple[float, float]:
        """(P(mover wins), P(mover loses)) with best play; scores are exact, 16+ is pending.

        For a bag with stones left; an empty bag is D6, which the rules decide exactly.
        """
        if bag.total == 0:
            raise BrokenRule("the bag is empty: the game is over (D6)")
        row = self.layout.row(bag)
        if self._sums is not None and not self._checked[row]:
            if row_sums(self.values[row : row + 1], row)[0] != self._sums[row]:
                self._replace_with(self._fresh())
            else:
                self._checked[row] = True
        cell = self.values[row, :, score_class(mover), score_class(other)]
        return float(cell[WIN]), float(cell[LOSE])

    def _fresh(self) -> SandsTable:
        return self._resolve() if self._resolve else SandsTable(self.layout, solve(self.full))

    def _replace_with(self, other: SandsTable) -> None:
        self.values, self._sums, self._checked = other.values, other._sums, other._checked


def load_table(full: Bag | None = None,
               cache_dir: str | os.PathLike[str] | None = None) -> SandsTable:
    """The table for ``full`` (D1's 12 of each by default): from the cache when it is sound,
    else solved (and cached). A cache folder that cannot be written only means solving in memory.
    """
    layout = Layout.of(full or Sands().full)
    path = cache_path(layout.full, cache_dir)

    def resolve() -> SandsTable:
        return _solve_to_file(layout, path)

    table = _read(layout, path)
    if table is None:
        return resolve()
    table._resolve = resolve
    return table


def _read(layout: Layout, path: Path) -> SandsTable | None:
    try:
        with open(path, "rb") as f:
            line = f.readline(4096)
        if _header_of(line) != _header(layout):
            return None
        offset = len(line)
        data_bytes = layout.rows * ROW_WORDS * STORED.itemsize
        if path.stat().st_size != file_size(layout):
            return None
        values = np.memmap(path, dtype=STORED, mode="r", offset=offset,
                           shape=(layout.rows, 2, SIDE, SIDE))
        sums = np.fromfile(path, dtype="<u8", count=layout.rows, offset=offset + data_bytes)
    except (OSError, json.JSONDecodeError, UnicodeDecodeError):
        return None  # no cache, or a damaged one: solved again (any other error is a bug)
    return SandsTable(layout, values, sums)


def _header_of(line: bytes) -> object:
    """The cache's header line, or None when it cannot be read: not JSON, not UTF-8, or JSON
    past what Python reads (an integer past 4300 digits, nesting too deep). A ValueError
    anywhere else in reading the cache is a bug and is raised."""
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def _solve_to_file(layout: Layout, path: Path) -> SandsTable:
    """Solve layer by layer straight into a temporary file beside ``path``, then rename it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError:
        return SandsTable(layout, solve(layout.full))
    sums = np.empty(layout.rows, dtype=np.uint64)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write((json.dumps(_header(layout)) + "\n").encode())
            for n, values in enumerate(solve_layers(layout)):
                first = int(layout.starts[n])
                sums[first : first + len(values)] = row_sums(values, first)
                f.write(np.ascontiguousarray(values, dtype=STORED).data)
            f.write(sums.astype("<u8").tobytes())
        # No fsync: a file cut short by a crash fails the size or checksum test and is solved
        # again, and the rename means no reader ever sees a file still being written.
        os.replace(tmp, path)
        _remove_other_tables(path)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
        return SandsTable(layout, solve(layout.full))
    table = _read(layout, path)
    return table if table is not None else SandsTable(layout, solve(layout.full))


def _remove_other_tables(kept: Path) -> None:
    """Remove the tables of bags other than ``kept``'s and the game's own (D1), and the
    half-written files of crashed solves (old enough that no solve is still writing them)."""
    keep = {kept.name, cache_path(Sands().full, kept.parent).name}
    now = time.time()
    for other in kept.parent.glob("sands-*.table"):
        if other.name not in keep:
            other.unlink(missing_ok=True)
    for temp in kept.parent.glob(".sands-*.table.*"):
        with contextlib.suppress(OSError):
            if now - temp.stat().st_mtime > STALE_TEMP:
                temp.unlink()
