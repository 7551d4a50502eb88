"""The solved table on disk: reused when sound, silently solved again when not."""

import json

import numpy as np
import pytest

from companion.rules.sands import Bag
from companion.sands.solver import Layout, solve
from companion.sands.table import CACHE_ENV, cache_path, default_cache_dir, load_table

FULL = Bag(2, 3, 1, 2)
PROBES = [(Bag(2, 3, 1, 2), 0, 0), (Bag(1, 0, 1, 2), 15, 9), (Bag(0, 1, 0, 1), 17, 14)]


@pytest.fixture(scope="module")
def truth():
    layout = Layout.of(FULL)
    values = solve(FULL)
    return {p: tuple(values[layout.row(p[0]), :, min(p[1], 16), min(p[2], 16)]) for p in PROBES}


def answers(table):
    return {p: table.chances(*p) for p in PROBES}


def test_solved_table_is_written_then_read_back(tmp_path, truth):
    first = load_table(FULL, tmp_path)
    path = cache_path(FULL, tmp_path)
    assert path.exists() and answers(first) == truth
    again = load_table(FULL, tmp_path)
    assert isinstance(again.values, np.memmap)  # read from disk, not solved again
    assert answers(again) == truth
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
    assert answers(table) == truth
    assert load_table(FULL, tmp_path).chances(*PROBES[1]) == truth[PROBES[1]]


@pytest.mark.parametrize("damage", ["truncate", "garbage", "empty", "other_version"])
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
    else:
        line, rest = data.split(b"\n", 1)
        header = json.loads(line)
        header["solver"] += 1
        path.write_bytes(json.dumps(header).encode() + b"\n" + rest)
    assert answers(load_table(FULL, tmp_path)) == truth
    assert isinstance(load_table(FULL, tmp_path).values, np.memmap)


def test_cache_of_other_bag_counts_is_not_used(tmp_path, truth):
    other = Bag(2, 3, 2, 1)
    load_table(other, tmp_path)
    cache_path(other, tmp_path).rename(cache_path(FULL, tmp_path))
    assert answers(load_table(FULL, tmp_path)) == truth


def test_unwritable_cache_folder_solves_in_memory(tmp_path, truth):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    table = load_table(FULL, blocker / "cache")
    assert answers(table) == truth and not isinstance(table.values, np.memmap)


def test_cache_folder_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "here"))
    assert default_cache_dir() == tmp_path / "here"
    load_table(FULL)
    assert cache_path(FULL, tmp_path / "here").exists()
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "nizam-companion"
