"""The story of stored games and every player's history (issue 15), checked against games
computed by hand and played through the real sessions into a real game database."""

import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from companion.cli import main
from companion.history import history, stories
from companion.rules.game import Game
from companion.rules.grid import Grid
from companion.rules.sands import Bag
from companion.rules.shift import Shift
from companion.sands.advice import advise
from companion.sands.odds import load_table
from companion.session.nizam import TableSession
from companion.store import GameStore
from companion.story import game_story, solved_best_calls

from .games import SETUP, SMALL, hand_game, rows, sands_game, whole_game


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "games.sqlite"
    with GameStore(path) as store:
        ids = hand_game(store), sands_game(store)
    return path, ids


def test_N7_N8_N10_the_story_of_a_hand_computed_game(db):
    path, (game_id, _) = db
    with GameStore(path) as store:
        story = game_story(store, game_id)
    assert story.names == ("Ann", "Bob") and not story.ended
    assert [(t.number, t.player, t.action, t.points, t.scores) for t in story.turns] == [
        (1, 0, "r2<", 7, (7, 0)), (2, 1, "draw", 0, (7, 0)), (3, 0, "draw", 0, (7, 0))]
    first = story.turns[0]
    assert [[str(c) for c in r] for r in first.rounds] == [["R×3 r1c1-r3c1"],
                                                            ["B×3 r2c1-r4c1"]]
    assert first.cascade == 1 and story.best_turn is first and story.run_outs == ()


def test_N9_a_turn_being_scored_is_in_the_story_with_its_points_so_far(tmp_path):
    with GameStore(tmp_path / "g.sqlite") as store:
        s = TableSession.new(store, Game("classic", 2), ["Ann", "Bob"])
        s.on_reading(rows(Grid(SETUP)))
        s.on_reading(rows(Shift.parse("r2<").apply(Grid(SETUP))))
        s.tap("end_turn")  # R R R scored; its cards wait to be cleared
        story = game_story(store, s.game_id)
    assert [(t.number, t.player, t.action, t.points, t.scores) for t in story.turns] == [
        (1, 0, "r2<", 3, (3, 0))]


def test_D3_D4_the_story_of_a_hand_computed_sands_game(db, tmp_path):
    path, (_, sands_id) = db
    table = load_table(SMALL, cache_dir=tmp_path / "cache")
    with GameStore(path) as store:
        story = game_story(store, sands_id, solved_best_calls(tmp_path / "cache"))
    assert [(c.player, c.call, c.drawn, c.success, c.points, c.scores) for c in story.calls] == [
        (0, "red", "yellow", True, (1, 0), (1, 0)),
        (0, "green", "lilac", False, (0, 0), (1, 0)),
        (1, "lilac", "lilac", True, (0, 12), (1, 12))]
    assert story.calls[-1].bag == {"red": 2, "yellow": 1, "green": 2, "lilac": 0}
    bags = [SMALL, Bag(2, 1, 2, 2), Bag(2, 1, 2, 1)]
    scores = [(0, 0), (1, 0), (0, 1)]
    assert [c.best for c in story.calls] == [
        advise(table, bag, s).best for bag, s in zip(bags, scores, strict=True)]


def test_N11_N13_the_story_of_a_whole_game_follows_the_rules(tmp_path):
    with GameStore(tmp_path / "g.sqlite") as store:
        session, played = whole_game(store)
        story = game_story(store, session.game_id)
    assert [t.points for t in story.turns] == [r.points for r in played.reports]
    assert [t.player for t in story.turns] == [r.player for r in played.reports]
    assert [t.runs_out for t in story.turns] == [r.runs_out for r in played.reports]
    assert len(story.run_outs) == played.state.runs_out == 2
    assert story.ended and story.winners == tuple(
        p for p, s in enumerate(played.state.scores) if s == max(played.state.scores))
    assert story.turns[-1].scores == played.state.scores


def test_P6_the_story_of_a_pearl_game_counts_tasks(tmp_path):
    with GameStore(tmp_path / "g.sqlite") as store:
        session, played = whole_game(store, "pearl", seed=3)
        story = game_story(store, session.game_id)
        players = history(stories(store))
    assert [t.tasks for t in story.turns] == [r.tasks for r in played.reports]
    done = [8 - len(t) for t in played.state.tasks]
    assert [p.tasks for p in players] == done and [p.pearl_games for p in players] == [1, 1]
    assert [p.wins for p in players] == [int(not t) for t in played.state.tasks]


def test_history_of_hand_computed_games(db, tmp_path):
    path, (game_id, sands_id) = db
    with GameStore(path) as store:
        ann, bob = history(stories(store, solved_best_calls(tmp_path / "cache")))
    assert (ann.name, ann.games, ann.wins, ann.turns, ann.points) == ("Ann", 2, 0, 2, 7)
    assert ann.points_per_turn == 3.5 and ann.longest_cascade == 1
    assert ann.best_turn == {"points": 7, "game": game_id, "turn": 1}
    assert (bob.turns, bob.points, bob.points_per_turn, bob.best_turn) == (1, 0, 0.0, None)
    assert (ann.calls, bob.calls) == (2, 1)
    assert ann.tasks_per_game is None and ann.games == 2


def test_history_command_json_and_csv(db, tmp_path, capsys, monkeypatch):
    path, (game_id, _) = db
    monkeypatch.setenv("COMPANION_CACHE_DIR", str(tmp_path / "cache"))
    out_csv = tmp_path / "history.csv"
    assert main(["history", "--store", str(path), "--json", "--csv", str(out_csv)]) == 0
    got = json.loads(capsys.readouterr().out)
    ann = got["players"][0]
    assert (ann["name"], ann["points"], ann["points_per_turn"], ann["calls"]) == (
        "Ann", 7, 3.5, 2)
    table = list(csv.DictReader(out_csv.open()))
    assert [r["name"] for r in table] == ["Ann", "Bob"]
    assert table[0]["best_turn"] == "7" and table[0]["best_turn_game"] == str(game_id)
    assert main(["history", "--store", str(path)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Ann: 2 games, 0 won; 3.5 points a turn; best turn +7")


def test_history_of_an_empty_or_missing_database_is_one_line(tmp_path, capsys):
    missing = tmp_path / "none.sqlite"
    assert main(["history", "--store", str(missing), "--csv", str(tmp_path / "h.csv")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no games played yet" in err
    assert not missing.exists() and not (tmp_path / "h.csv").exists()
    GameStore(tmp_path / "empty.sqlite").close()
    assert main(["history", "--store", str(tmp_path / "empty.sqlite"), "--json"]) == 2
    assert "holds no games yet" in capsys.readouterr().err


# -- a game database the user may only read (a copy on a read-only share, another user's) ---

PROJECT = Path(__file__).resolve().parents[2]
NOBODY = 65534


AS_READER = {"user": NOBODY, "group": NOBODY, "extra_groups": []} if os.geteuid() == 0 else {}
"""How a command runs as a user who may not write what we made read-only: ourselves, or, for
root (who writes anywhere), nobody."""


def _reader_runs_the_project() -> bool:
    if not AS_READER:
        return True
    try:
        done = subprocess.run([sys.executable, "-c", "import companion.store"], cwd=PROJECT,
                              capture_output=True, timeout=120, **AS_READER)
    except OSError:  # the project's folder, or the venv's, closed to others
        return False
    return done.returncode == 0


@pytest.fixture
def readable(tmp_path):
    """A folder others may enter (root's pytest folders are closed to them), emptied after;
    for root, only where nobody can run the project (a clone inside a folder closed to
    others, root's home say, cannot be run by another user)."""
    if not _reader_runs_the_project():
        pytest.skip(f"user {NOBODY} cannot run the project where it lies: run the tests as a "
                    "user who is not root, or from a folder others may read")
    folder = Path(tempfile.mkdtemp(prefix="history-"))
    folder.chmod(0o755)
    yield folder
    for path in (folder, *folder.iterdir()):
        path.chmod(0o700)
    shutil.rmtree(folder)


def history_as_reader(db: Path) -> subprocess.CompletedProcess[str]:
    """`companion history --store DB` run by a user who may not write what we made read-only
    (``AS_READER``)."""
    env = {**os.environ, "XDG_DATA_HOME": str(db.parent / "no-data"),
           "COMPANION_CACHE_DIR": str(db.parent / "no-cache")}
    return subprocess.run([sys.executable, "-m", "companion", "history", "--store", str(db)],
                          cwd=PROJECT, env=env, capture_output=True, text=True, timeout=120,
                          **AS_READER)


def _read_only(db: Path, folder_too: bool) -> None:
    db.chmod(0o444)
    # the folder stays writable to the reader (as root: to nobody) unless it is read-only
    db.parent.chmod(0o555 if folder_too else 0o777 if os.geteuid() == 0 else 0o755)


@pytest.mark.parametrize("folder_too", [True, False], ids=["read_only_folder", "read_only_file"])
def test_history_lists_the_games_of_a_database_it_may_only_read(readable, capsys, folder_too):
    db = readable / "games.sqlite"
    with GameStore(db) as store:
        hand_game(store)
    assert main(["history", "--store", str(db)]) == 0
    listed = capsys.readouterr().out
    before = db.read_bytes()
    _read_only(db, folder_too)
    done = history_as_reader(db)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == listed and listed.startswith("Ann: 1 game, 0 won; 3.5 points a turn")
    assert db.read_bytes() == before
    # nothing made beside it: a -wal or -shm of the reader's would keep its owner from
    # writing the games ("cannot be written here")
    assert sorted(p.name for p in readable.iterdir()) == ["games.sqlite"]


def test_history_of_an_empty_database_it_may_only_read_says_no_games(readable):
    db = readable / "games.sqlite"
    db.touch()  # a database no companion wrote yet: read only, no tables are made in it
    _read_only(db, folder_too=True)
    done = history_as_reader(db)
    assert done.returncode == 2 and done.stdout == "" and db.stat().st_size == 0
    assert done.stderr == f"companion: the game database {db} holds no games yet\n"


@pytest.mark.parametrize("folder_too", [True, False], ids=["read_only_folder", "read_only_file"])
def test_history_says_why_it_cannot_read_events_left_in_the_log_without_its_index(readable,
                                                                                  folder_too):
    # the companion was stopped before its log was folded into the file (a power cut), and
    # the file (or its folder) was made read-only: the log's events cannot be read without
    # making its index (-shm) beside it, which would be the reader's, not the owner's
    kept = readable / "kept"
    kept.mkdir()
    with GameStore(kept / "games.sqlite") as store:
        hand_game(store)
        for name in ("games.sqlite", "games.sqlite-wal"):  # copied as a power cut leaves them
            shutil.copy(kept / name, readable / name)
    shutil.rmtree(kept)
    db = readable / "games.sqlite"
    assert Path(f"{db}-wal").stat().st_size > 0
    Path(f"{db}-wal").chmod(0o444)
    _read_only(db, folder_too)
    done = history_as_reader(db)
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1
    where = "its folder is read-only" if folder_too else "it is read-only here"
    assert done.stderr == (f"companion: game database {db} cannot be read here: {where} and "
                           f"its latest events are still in {db}-wal; open it once where it "
                           "can be written to\n")
    assert sorted(p.name for p in readable.iterdir()) == ["games.sqlite", "games.sqlite-wal"]


def test_history_reads_the_events_in_the_log_of_a_database_its_owner_has_open(readable):
    # the owner's companion is running: its events wait in the -wal, its index (-shm) lies
    # beside it; the reader reads them through that index, and makes no file of its own
    db = readable / "games.sqlite"
    with GameStore(db) as owner:
        hand_game(owner)
        assert Path(f"{db}-wal").stat().st_size > 0 and Path(f"{db}-shm").exists()
        beside = {p.name: p.stat().st_uid for p in readable.iterdir()}
        _read_only(db, folder_too=False)
        done = history_as_reader(db)
        assert (done.returncode, done.stderr) == (0, "")
        assert done.stdout.startswith("Ann: 1 game, 0 won; 3.5 points a turn")
        assert {p.name: p.stat().st_uid for p in readable.iterdir()} == beside
        db.chmod(0o644)
        owner.finish(1)  # the owner writes on
    with GameStore(db) as again:
        assert again.game(1).finished is not None


def test_a_reader_of_a_database_its_owner_has_open_sees_what_the_owner_writes_on(readable):
    # the owner's companion has it open, every event folded into the file (its -wal empty,
    # its -shm beside it): read as an unchanging file, what the owner writes next would be
    # missed (or half read, should the owner fold it in while history reads)
    db = readable / "games.sqlite"
    reader = ("import sys; from companion.store import GameStore\n"
              "store = GameStore.for_reading(sys.argv[1])\n"
              "print(len(store.events(1)), flush=True); sys.stdin.readline()\n"
              "print(len(store.events(1)), flush=True)\n")
    with GameStore(db) as owner:
        hand_game(owner)
        owner._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert Path(f"{db}-wal").stat().st_size == 0 and Path(f"{db}-shm").exists()
        _read_only(db, folder_too=False)
        with subprocess.Popen([sys.executable, "-c", reader, str(db)], cwd=PROJECT, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, **AS_READER) as run:
            assert run.stdout is not None and run.stdin is not None
            before = int(run.stdout.readline())
            db.chmod(0o644)
            owner.append(1, owner.events(1)[-1].payload)  # the owner writes on
            run.stdin.write("\n")
            run.stdin.flush()
            assert int(run.stdout.readline()) == before + 1
        assert run.returncode == 0


def test_a_log_index_another_user_left_beside_the_database_is_named_to_its_owner(readable):
    # a -shm left by another user who read the games (as `history` did before it opened
    # such a database read only): SQLite's own words are only "readonly database"
    db = readable / "games.sqlite"
    with GameStore(db) as store:
        hand_game(store)
    readable.chmod(0o777 if os.geteuid() == 0 else 0o755)
    if os.geteuid() == 0:  # the owner is nobody; the -shm is root's
        os.chown(db, NOBODY, NOBODY)
    shm = Path(f"{db}-shm")
    shm.touch()
    shm.chmod(0o444)
    write = ("import sys\nfrom companion.store import GameStore, StoreError\ntry:\n"
             "    GameStore(sys.argv[1]).finish(1)\nexcept StoreError as err:\n    print(err)")
    done = subprocess.run([sys.executable, "-c", write, str(db)], cwd=PROJECT,
                          capture_output=True, text=True, timeout=120, **AS_READER)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == (f"game database {db} cannot be written here: {shm} beside it is "
                           "read-only to this user (another user's); make it this user's "
                           "again (chown)\n")
