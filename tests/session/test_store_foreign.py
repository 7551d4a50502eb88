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


def test_an_event_the_game_cannot_take_is_damage_named_not_skipped():
    from companion.session.events import Call, DamagedLog, EventError, Setup, fold_log

    def apply(calls, event):
        if not isinstance(event, Call):
            raise EventError(f"no {event.KIND} here")
        return calls + 1

    log = [Call("red"), Setup("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"), Call("green")]
    with pytest.raises(DamagedLog, match=r"^game 7: event 2 \(setup\) cannot be replayed: "
                                         "no setup here$"):
        fold_log(0, apply, log, "game 7")


def test_a_bug_while_reopening_a_game_is_raised_not_named_as_damage():
    """A plain ValueError is a bug in the code, not a damaged log: calling it damage would
    send players to move their games aside for a fault of ours."""
    from companion.session.events import Call, fold_log

    def apply(total, event):
        return total + int(event.colour)  # "two" is no number: int() raises ValueError

    with pytest.raises(ValueError, match="invalid literal") as raised:
        fold_log(0, apply, [Call("2"), Call("two")])
    assert type(raised.value) is ValueError
