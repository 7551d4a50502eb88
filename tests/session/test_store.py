"""The game store: SQLite in WAL mode, append-only, survives a killed process."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing

import pytest

from companion.store import GameStore, StoreError

HEADER = {"game": "nizam", "players": 2, "options": {"bonus": "flat"}}


def test_store_is_wal_and_reopens_where_it_was(tmp_path):
    path = tmp_path / "games.sqlite"
    with GameStore(path) as store:
        game = store.new_game(HEADER)
        for i in range(3):
            store.append(game, {"kind": "tap", "n": i})
    with GameStore(path) as store:
        mode = store._db.execute("PRAGMA journal_mode").fetchone()[0]
        assert mode == "wal"
        unfinished = store.unfinished()
        assert unfinished is not None and unfinished.id == game
        assert unfinished.header == HEADER and unfinished.events == 3
        assert [e.payload["n"] for e in store.events(game)] == [0, 1, 2]
        store.finish(game)
        assert store.unfinished() is None
        assert store.game(game).finished is not None


def test_store_expect_seq_refuses_a_double_write(tmp_path):
    with GameStore(tmp_path / "g.sqlite") as store:
        game = store.new_game(HEADER)
        assert store.append(game, {"kind": "a"}, expect_seq=1) == 1
        with pytest.raises(StoreError, match="event 1 expected, the log is at 1"):
            store.append(game, {"kind": "a"}, expect_seq=1)
        assert len(store.events(game)) == 1


def test_store_past_games_newest_first(tmp_path):
    with GameStore(tmp_path / "g.sqlite") as store:
        first = store.new_game(HEADER)
        second = store.new_game({**HEADER, "players": 3})
        assert [g.id for g in store.games()] == [second, first]


def test_store_damaged_file_is_one_clear_error(tmp_path):
    path = tmp_path / "g.sqlite"
    path.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreError, match="is damaged"):
        GameStore(path)


def test_store_locked_database_is_one_clear_error(tmp_path):
    path = tmp_path / "g.sqlite"
    with GameStore(path) as store:
        game = store.new_game(HEADER)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            blocked = GameStore(path, timeout=0.05)
            with pytest.raises(StoreError, match="locked"):
                blocked.append(game, {"kind": "a"})
            blocked.close()
        finally:
            other.execute("ROLLBACK")
            other.close()


def test_store_newer_schema_is_refused(tmp_path):
    path = tmp_path / "g.sqlite"
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.close()
    with pytest.raises(StoreError, match="schema version 99"):
        GameStore(path)


WRITER = """
import sys
from companion.store import GameStore
store = GameStore(sys.argv[1])
game = store.unfinished().id if store.unfinished() else store.new_game({"game": "nizam"})
n = len(store.events(game))
print("ready", flush=True)
while True:
    n = store.append(game, {"kind": "tick", "n": n}, expect_seq=n + 1)
"""


def committed(path):
    """Events committed so far, read beside a writer (WAL: readers never wait for it)."""
    with closing(sqlite3.connect(path, timeout=30)) as db:
        return db.execute("SELECT count(*) FROM events").fetchone()[0]


def test_store_killed_writer_loses_no_committed_event(tmp_path):
    path = tmp_path / "g.sqlite"
    for _ in range(3):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        # Killed while it writes: once it has committed a few events, however slow the
        # machine (a fixed sleep may see none written on a loaded one).
        start = committed(path)
        deadline = time.monotonic() + 60
        while committed(path) < start + 5:
            assert time.monotonic() < deadline and proc.poll() is None, "the writer stalled"
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    with GameStore(path) as store:
        game = store.unfinished()
        assert game is not None
        ns = [e.payload["n"] for e in store.events(game.id)]
        assert ns == list(range(len(ns))) and len(ns) > 3
        assert store.integrity() == "ok"
