"""The game store meets what it did not write: another program's database, a damaged row."""

import sqlite3
from contextlib import closing

import pytest

from companion.store import GameStore, StoreError

HEADER = {"game": "nizam", "players": 2, "options": {}}


def test_another_programs_database_is_refused_and_left_as_it_was(tmp_path):
    path = tmp_path / "photos.db"
    with closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE albums (id INTEGER PRIMARY KEY, name TEXT)")
        db.commit()
    with pytest.raises(StoreError, match="not a game database of the companion"):
        GameStore(path)
    with closing(sqlite3.connect(path)) as db:
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master")]
    assert names == ["albums"]


def test_an_empty_file_becomes_a_game_database(tmp_path):
    path = tmp_path / "new.db"
    path.write_bytes(b"")
    with GameStore(path) as store:
        assert store.games() == []


@pytest.mark.parametrize("table, column", [("events", "payload"), ("games", "header")])
def test_a_damaged_row_names_the_database_and_the_game(tmp_path, table, column):
    path = tmp_path / "g.sqlite"
    with GameStore(path) as store:
        game = store.new_game(HEADER)
        store.append(game, {"kind": "draw"})
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"UPDATE {table} SET {column} = '{{not json'")
        db.commit()
    with GameStore(path) as store, pytest.raises(StoreError, match=f"{path}: game {game}"):
        store.events(game) if table == "events" else store.games()


def test_an_event_the_game_cannot_take_is_skipped_with_a_warning(caplog):
    from companion.session.events import EventError, fold_log

    def apply(total, event):
        if event["kind"] != "add":
            raise EventError(f"no such event: {event['kind']}")
        return total + event["n"]

    log = [{"kind": "add", "n": 2}, {"kind": "teleport"}, {"kind": "add", "n": 3}]
    with caplog.at_level("WARNING", logger="companion.session.events"):
        assert fold_log(0, apply, log)[-1] == 5
    assert [r.getMessage() for r in caplog.records] == [
        "game log event 2 (teleport) skipped: no such event: teleport"]


def test_a_bug_while_reopening_a_game_is_raised_not_skipped(caplog):
    """A plain ValueError is a bug in the code, not an old event: dropping it would hide it."""
    from companion.session.events import fold_log

    def apply(total, event):
        return total + int(event["n"])  # "two" is no number: int() raises ValueError

    log = [{"kind": "add", "n": 2}, {"kind": "add", "n": "two"}]
    with pytest.raises(ValueError, match="invalid literal"):
        fold_log(0, apply, log)
    assert caplog.records == []
