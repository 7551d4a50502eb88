"""The solved table on disk: reused when sound, silently solved again when not; small enough
for an SD card (float32), with answers within 1e-6 of the exact solver's (D3-D6)."""

import json
import os
import time

import numpy as np
import pytest

from companion.paths import CACHE_ENV, cache_dir
from companion.rules.sands import COLOURS, Bag
from companion.sands.advice import advise
from companion.sands.odds import SandsTable, cache_path, file_size, load_table
from companion.sands.solver import MOST_OF_A_COLOUR, Layout, solve

FULL = Bag(2, 3, 1, 2)
PROBES = [(Bag(2, 3, 1, 2), 0, 0), (Bag(1, 0, 1, 2), 15, 9), (Bag(0, 1, 0, 1), 17, 14)]


@pytest.fixture(scope="module")
def truth():
    layout = Layout.of(FULL)
    values = solve(FULL)
    return {p: tuple(values[layout.row(p[0]), :, min(p[1], 16), min(p[2], 16)]) for p in PROBES}


def answers(table):
    return {p: table.chances(*p) for p in PROBES}


def same(got, truth):
    """Answers equal to 1e-6 (the cache keeps float32)."""
    assert got.keys() == truth.keys()
    for key, value in got.items():
        assert value == pytest.approx(truth[key], abs=1e-6), key
    return True


def test_solved_table_is_written_then_read_back(tmp_path, truth):
    first = load_table(FULL, tmp_path)
    path = cache_path(FULL, tmp_path)
    assert path.exists() and same(answers(first), truth)
    again = load_table(FULL, tmp_path)
    assert isinstance(again.values, np.memmap)  # read from disk, not solved again
    assert same(answers(again), truth)
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left


def test_damaged_rows_mean_a_silent_re_solve(tmp_path, truth):
    load_table(FULL, tmp_path)
    path = cache_path(FULL, tmp_path)
    data = bytearray(path.read_bytes())
    header = data.index(b"\n") + 1
    for i in range(header, len(data) - 8 * 200, 97):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))
    table = load_table(FULL, tmp_path)
    assert same(answers(table), truth)
    assert load_table(FULL, tmp_path).chances(*PROBES[1]) == pytest.approx(truth[PROBES[1]],
                                                                           abs=1e-6)


@pytest.mark.parametrize("damage", ["truncate", "garbage", "empty", "other_version", "too_deep"])
def test_unreadable_cache_means_a_silent_re_solve(tmp_path, truth, damage):
    load_table(FULL, tmp_path)
    path = cache_path(FULL, tmp_path)
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        path.write_bytes(b"\x00\xff" * 500)
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "too_deep":  # JSON all the same, but past the recursion limit
        path.write_bytes(b"[" * 4000 + b"\n" + data)
    else:
        line, rest = data.split(b"\n", 1)
        header = json.loads(line)
        header["solver"] += 1
        path.write_bytes(json.dumps(header).encode() + b"\n" + rest)
    assert same(answers(load_table(FULL, tmp_path)), truth)
    assert isinstance(load_table(FULL, tmp_path).values, np.memmap)


def test_cache_of_other_bag_counts_is_not_used(tmp_path, truth):
    other = Bag(2, 3, 2, 1)
    load_table(other, tmp_path)
    cache_path(other, tmp_path).rename(cache_path(FULL, tmp_path))
    assert same(answers(load_table(FULL, tmp_path)), truth)


def test_unwritable_cache_folder_solves_in_memory(tmp_path, truth):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    table = load_table(FULL, blocker / "cache")
    assert answers(table) == truth and not isinstance(table.values, np.memmap)


def test_cache_folder_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "here"))
    assert cache_dir() == tmp_path / "here"
    load_table(FULL)
    assert cache_path(FULL, tmp_path / "here").exists()
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "nizam-companion"


def test_D1_bag_cache_fits_an_sd_card():
    # The size is exact for a layout (checked against a written file below), so the game's
    # own 12 of each needs no 66 MB solve here; tests/bench/bench_sands.py writes it.
    assert file_size(Layout.of(Bag(12, 12, 12, 12))) <= 70 * 2**20
    most = MOST_OF_A_COLOUR
    assert file_size(Layout.of(Bag(most, most, most, most))) <= 200 * 2**20


def test_file_size_is_the_size_written(tmp_path):
    load_table(FULL, tmp_path)
    assert cache_path(FULL, tmp_path).stat().st_size == file_size(Layout.of(FULL))


def test_D3_D6_answers_from_the_cache_equal_the_exact_solver_to_1e6(tmp_path):
    full = Bag(3, 3, 3, 3)
    exact = SandsTable(Layout.of(full), solve(full))
    cached = load_table(full, tmp_path)
    assert isinstance(cached.values, np.memmap)
    assert np.abs(np.asarray(cached.values, np.float64) - exact.values).max() <= 1e-6
    for bag in [full, Bag(2, 0, 1, 3), Bag(1, 1, 0, 0), Bag(0, 0, 0, 1)]:
        for scores in [(0, 0), (9, 12), (15, 15), (16, 14)]:
            want, got = advise(exact, bag, scores), advise(cached, bag, scores)
            for call in COLOURS:
                for field in ("p_success", "expected_points", "p_win", "p_lose"):
                    assert getattr(got.calls[call], field) == pytest.approx(
                        getattr(want.calls[call], field), abs=1e-6)
            best = want.calls[want.best].p_win
            assert got.calls[got.best].p_win == pytest.approx(best, abs=1e-6)


def test_writing_a_table_removes_other_bags_tables_but_not_the_games_own(tmp_path):
    own = cache_path(Bag(12, 12, 12, 12), tmp_path)
    own.write_bytes(b"the game's own bag, solved earlier")
    old = Bag(2, 3, 2, 1)
    load_table(old, tmp_path)
    stale = tmp_path / ".sands-r9y9g9l9.table.abc123"  # a solve killed half way
    stale.write_bytes(b"half")
    hour_ago = time.time() - 7200
    os.utime(stale, (hour_ago, hour_ago))
    fresh = tmp_path / ".sands-r8y8g8l8.table.def456"  # another process still writing
    fresh.write_bytes(b"half")
    load_table(FULL, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [own.name, cache_path(FULL, tmp_path).name, fresh.name])
