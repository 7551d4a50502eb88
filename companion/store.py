"""The game store: every game is an append-only log of events in SQLite (WAL).

An event is committed (and synced) before anything shows its result, so a crash or a
pulled plug loses nothing that was shown. Nothing is ever overwritten: a correction or an
undo is a new event. The store does not interpret events; the session folds them.

>>> store = GameStore(":memory:")
>>> game = store.new_game({"game": "nizam", "players": 2})
>>> store.append(game, {"kind": "setup", "grid": "RROGY/CBVPR/GGYOC/BVPRO/YGCBV"})
1
>>> [e.payload["kind"] for e in store.events(game)]
['setup']
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from companion.errors import DamagedFile
from companion.rules.record import UNREADABLE_JSON

SCHEMA_VERSION = 1

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS games (
        id       INTEGER PRIMARY KEY,
        header   TEXT NOT NULL,
        started  TEXT NOT NULL,
        finished TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS events (
        game_id  INTEGER NOT NULL REFERENCES games(id),
        seq      INTEGER NOT NULL,
        payload  TEXT NOT NULL,
        at       TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    )""",
)


class StoreError(DamagedFile):
    """The game database cannot be used: locked, full, damaged, or not ours."""


class StoreBusy(StoreError):
    """The game database is locked by another program for now: a later try may pass."""


class StoreReadOnly(StoreError):
    """The game database cannot be written here (a read-only file or folder): it may still
    be read (``GameStore.for_reading``)."""


@dataclass(frozen=True)
class StoredEvent:
    game_id: int
    seq: int
    payload: Mapping[str, Any]
    at: str


@dataclass(frozen=True)
class StoredGame:
    id: int
    header: Mapping[str, Any]
    started: str
    finished: str | None
    events: int


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _explain(err: sqlite3.Error, path: str) -> StoreError:
    text = str(err).lower()
    if _code(err) in _READ_ONLY:
        theirs = [f"{path}{end}" for end in ("-wal", "-shm")
                  if os.path.exists(f"{path}{end}") and not os.access(f"{path}{end}", os.W_OK)]
        if theirs:  # left by another user who read it: the owner may not write them
            one = len(theirs) == 1
            return StoreReadOnly(
                f"game database {path} cannot be written here: {' and '.join(theirs)} beside "
                f"it {'is' if one else 'are'} read-only to this user (another user's); make "
                f"{'it' if one else 'them'} this user's again (chown)")
        return StoreReadOnly(f"game database {path} cannot be written here: the file or its "
                             "folder is read-only")
    if "locked" in text or "busy" in text:
        return StoreBusy(f"game database {path} is locked by another program (is a second "
                         "companion running?)")
    if "full" in text or "disk i/o" in text:
        why = "cannot be written: the disk is full or failing; free some space"
    elif "malformed" in text or "not a database" in text or "corrupt" in text:
        why = "is damaged; move it aside to start a new one (past games are in the file)"
    else:
        why = f"failed: {err}"
    return StoreError(f"game database {path} {why}")


_READ_ONLY = (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_READONLY_DIRECTORY,
              sqlite3.SQLITE_READONLY_CANTINIT, sqlite3.SQLITE_READONLY_CANTLOCK,
              sqlite3.SQLITE_READONLY_RECOVERY, sqlite3.SQLITE_READONLY_ROLLBACK)
"""SQLite's ways of saying the file, its folder or its log's files cannot be written (not
``SQLITE_READONLY_DBMOVED``: the file was moved or deleted while open)."""


def _code(err: sqlite3.Error) -> int:
    return int(getattr(err, "sqlite_errorcode", 0) or 0)


def _read_only_uri(path: str, immutable: bool) -> str:
    """SQLite's URI of ``path`` opened to read only (any name: its bytes escaped)."""
    name = quote(os.fsencode(os.path.abspath(path)))
    return f"file:{name}?mode=ro" + ("&immutable=1" if immutable else "")


def _read_only_here(path: Path) -> bool:
    """``path`` is a file that we may read and not write, or lies in such a folder."""
    return path.is_file() and not (os.access(path, os.W_OK)
                                   and os.access(path.parent, os.W_OK | os.X_OK))


def _log_size(path: str) -> int | None:
    """The size of the database's write-ahead log (``-wal``: events not yet in the file),
    None where there is none."""
    try:
        return os.path.getsize(f"{path}-wal")
    except OSError:
        return None


class GameStore:
    """An SQLite file of games and their events. ``read_only``: opened to read only (SQLite's
    ``mode=ro``), for a database that cannot be written here; nothing is written to it, and
    it holds no games until the companion has written one."""

    def __init__(self, path: str | Path, *, timeout: float = 2.0, read_only: bool = False
                 ) -> None:
        self.path = str(path)
        self._lock = threading.RLock()
        self._tables = True
        if read_only:
            self._db = self._open_read_only(timeout)
            return
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            # The app's threads (screen worker, camera watcher) share one store; the lock
            # below keeps them to one statement or transaction at a time.
            self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None,
                                       check_same_thread=False)
        except sqlite3.Error as err:
            raise _explain(err, self.path) from None
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            # FULL: a commit survives a power cut, not only a crash of the process.
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            if self._schema(self._db) == 0:
                with self._transaction():
                    for statement in _SCHEMA:
                        self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.Error as err:
            self._db.close()
            raise _explain(err, self.path) from None
        except BaseException:
            self._db.close()
            raise

    @classmethod
    def for_reading(cls, path: str | Path, *, timeout: float = 2.0) -> GameStore:
        """The store to read games from: opened as always where it can be written, and read
        only where it cannot (a read-only file or folder: ``read_only``). A database this
        user may not write is never opened as always, even where its folder lets SQLite make
        its log (``-wal``, ``-shm``) beside it: made by this user, they would keep the
        companion that writes the database from writing it."""
        if not _read_only_here(Path(path)):
            try:
                return cls(path, timeout=timeout)
            except StoreReadOnly:  # a -wal or -shm it cannot write, a read-only disk
                pass
        return cls(path, timeout=timeout, read_only=True)

    def _open_read_only(self, timeout: float) -> sqlite3.Connection:
        """A connection that reads the database and makes no file beside it. Where its log
        and the log's index lie beside it (``-wal``, ``-shm``: the companion writing it has
        it open, or was stopped), through them, with SQLite's locks: the companion may write
        while history reads. Where they do not, no program has it open, and the file is read
        as it lies (``immutable``: no lock, no log). Events waiting in a log with no index
        cannot be read without making one: that is said."""
        log = _log_size(self.path)
        waiting = bool(log)
        logged = log is not None and os.path.exists(f"{self.path}-shm")
        if waiting and not logged:
            raise self._events_in_log()
        try:
            return self._connect_read_only(timeout, immutable=not logged)
        except sqlite3.Error as err:
            if not logged or _code(err) not in _READ_ONLY + (sqlite3.SQLITE_CANTOPEN,):
                raise _explain(err, self.path) from None
            if waiting:
                raise self._events_in_log() from None  # an index it may not use
        try:  # an empty log it may not use: every event is in the file
            return self._connect_read_only(timeout, immutable=True)
        except sqlite3.Error as err:
            raise _explain(err, self.path) from None

    def _events_in_log(self) -> StoreError:
        folder = os.path.dirname(os.path.abspath(self.path))
        where = ("its folder is read-only" if not os.access(folder, os.W_OK | os.X_OK)
                 else "it is read-only here")
        return StoreError(
            f"game database {self.path} cannot be read here: {where} and its latest events "
            f"are still in {self.path}-wal; open it once where it can be written to")

    def _connect_read_only(self, timeout: float, immutable: bool) -> sqlite3.Connection:
        db = sqlite3.connect(_read_only_uri(self.path, immutable), uri=True, timeout=timeout,
                             isolation_level=None, check_same_thread=False)
        try:
            self._tables = self._schema(db) == SCHEMA_VERSION
        except BaseException:
            db.close()
            raise
        return db

    def _schema(self, db: sqlite3.Connection) -> int:
        """The database's schema version: ours, or 0 where it holds no tables yet; a
        ``StoreError`` for another version or another program's database."""
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version not in (0, SCHEMA_VERSION):
            raise StoreError(
                f"game database {self.path} has schema version {version}; "
                f"this companion reads version {SCHEMA_VERSION}"
            )
        if version == 0 and db.execute(
            "SELECT COUNT(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        ).fetchone()[0]:
            # another program's database: never add our tables to it
            raise StoreError(f"{self.path} is not a game database of the companion "
                             "(it holds other tables)")
        return version

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        with self._lock:
            yield from self._transaction_locked()

    def _transaction_locked(self) -> Iterator[None]:
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        except sqlite3.Error as err:
            raise _explain(err, self.path) from None

    def new_game(self, header: Mapping[str, Any]) -> int:
        with self._transaction():
            cur = self._db.execute(
                "INSERT INTO games (header, started) VALUES (?, ?)",
                (json.dumps(dict(header)), _now()),
            )
            assert cur.lastrowid is not None
            return cur.lastrowid

    def append(
        self, game_id: int, payload: Mapping[str, Any], *, expect_seq: int | None = None
    ) -> int:
        """Commit one event; returns its sequence number (from 1).

        With ``expect_seq``, the append happens only if it would get that number, so a
        writer that resumes after a crash can never write an event twice.
        """
        with self._transaction():
            row = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()
            seq = int(row[0]) + 1
            if expect_seq is not None and seq != expect_seq:
                raise StoreError(
                    f"game {game_id}: event {expect_seq} expected, the log is at {seq - 1}"
                )
            self._db.execute(
                "INSERT INTO events (game_id, seq, payload, at) VALUES (?, ?, ?, ?)",
                (game_id, seq, json.dumps(dict(payload)), _now()),
            )
            return seq

    def finish(self, game_id: int) -> None:
        with self._transaction():
            self._db.execute(
                "UPDATE games SET finished = ? WHERE id = ? AND finished IS NULL",
                (_now(), game_id),
            )

    def events(self, game_id: int) -> list[StoredEvent]:
        if not self._tables:
            return []
        rows = self._query(
            "SELECT game_id, seq, payload, at FROM events WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [StoredEvent(g, s, self._json(p, f"game {g} event {s}"), a)
                for g, s, p, a in rows]

    def game(self, game_id: int) -> StoredGame:
        for g in self._games("WHERE g.id = ?", (game_id,)):
            return g
        raise StoreError(f"no game {game_id} in {self.path}")

    def games(self) -> list[StoredGame]:
        """Every game, newest first."""
        return self._games("", ())

    def unfinished(self) -> StoredGame | None:
        """The newest game not yet finished: the one to reopen after a restart."""
        found = self._games("WHERE g.finished IS NULL", ())
        return found[0] if found else None

    def integrity(self) -> str:
        """``"ok"`` or SQLite's own account of the damage."""
        return "; ".join(str(r[0]) for r in self._query("PRAGMA integrity_check", ()))

    def _games(self, where: str, params: tuple[Any, ...]) -> list[StoredGame]:
        if not self._tables:  # read only, and never written: no games
            return []
        rows = self._query(
            "SELECT g.id, g.header, g.started, g.finished, "
            "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) "
            f"FROM games g {where} ORDER BY g.id DESC",
            params,
        )
        return [StoredGame(i, self._json(h, f"game {i}'s header"), s, f, n)
                for i, h, s, f, n in rows]

    def _json(self, text: str, what: str) -> dict[str, Any]:
        """A stored header or event: always a JSON object, as the store writes them."""
        try:
            obj = json.loads(text)
        except (TypeError, json.JSONDecodeError):
            why = "not JSON"
        except (ValueError, RecursionError):  # JSON, but past what Python will read
            why = UNREADABLE_JSON
        else:
            if isinstance(obj, dict):
                return obj
            why = "not an object"
        raise StoreError(f"game database {self.path}: {what} is damaged ({why})")

    def _query(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        try:
            with self._lock:
                return list(self._db.execute(sql, params))
        except sqlite3.Error as err:
            raise _explain(err, self.path) from None
