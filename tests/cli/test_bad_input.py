"""Bad input to any `companion` command: one line on stderr saying what is wrong, a non-zero
exit, no traceback, nothing half written, no work done before a doomed write.

Each test here pins a gap the audit of every command found; bad input other test files
already cover (tests/*/test_cli.py, tests/vision/test_detect_cli.py) is not repeated.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import common, main

GRID = "RROGY/CBVPR/GGYOC/BVPRO/YGCBV"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err
    return err


@pytest.fixture
def home(tmp_path, monkeypatch):
    """The user's folders in tmp_path, so a stray write to a default path shows."""
    for var, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"),
                     ("XDG_CACHE_HOME", "cache")):
        monkeypatch.setenv(var, str(tmp_path / sub))
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def image(tmp_path):
    """A small real PNG (its content does not matter where the error comes first)."""
    path = tmp_path / "small.png"
    cv2.imwrite(str(path), np.full((60, 80, 3), 90, np.uint8))
    return path


# -- the dispatcher ---------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["detect", "x.png", "--rows", "abc"],
    ["rules", "check", "--grid", GRID, "--mode", "chess"],
    ["sands", "advise", "--bag", "r12y12g12l12", "--scores", "-1,0"],
    ["demo", "--players", "x"],
    ["demo", "--players", "9"],
    ["doctor", "--seconds", "abc"],
    ["calibrate", "colors", "--image", "x.png", "--labels", "RG/GR", "--rows", "two"],
    ["rules", "frobnicate"],
])
def test_a_bad_option_is_one_line_not_usage(capsys, argv):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("companion")
    # argparse's own wording, not the name of a private type function
    assert "(see companion" in one_line(err) and "invalid _" not in err


def test_a_missing_file_is_named_without_python_errno_tuples(capsys, tmp_path):
    missing = tmp_path / "none.jsonl"
    code, out, err = run(capsys, "rules", "replay", str(missing))
    assert code == 2 and out == ""
    assert one_line(err) == f"companion: {missing}: No such file or directory\n"


def test_out_of_memory_is_one_line(capsys, monkeypatch):
    def too_big(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr("companion.sands.odds.load_table", too_big)
    code, out, err = run(capsys, "sands", "advise", "--bag", "r12y12g12l12", "--scores", "0,0")
    assert code == 2 and out == "" and "memory" in one_line(err)


def test_a_bugs_value_error_is_exit_1_with_a_crash_log(capsys, monkeypatch, tmp_path):
    """A ValueError the code raised by mistake is a bug to report, not the user's bad input."""
    def broken(*args, **kwargs):
        return int("twelve")  # a slip in our code, not in what the user typed

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr("companion.sands.odds.load_table", broken)
    code, out, err = run(capsys, "sands", "advise", "--bag", "r12y12g12l12", "--scores", "0,0")
    assert code == 1 and out == ""
    assert "unexpected error, please report it: ValueError: invalid literal" in one_line(err)
    assert "int(\"twelve\")" in (tmp_path / "nizam-companion" / "crash.log").read_text()


@pytest.mark.parametrize("error", ["BadInput", "BrokenRule", "DamagedFile", "CameraError"])
def test_an_expected_error_is_exit_2_without_a_crash_log(capsys, monkeypatch, tmp_path, error):
    from companion import errors

    def refused(*args, **kwargs):
        raise getattr(errors, error)("the bag holds no such stone")

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr("companion.sands.odds.load_table", refused)
    code, out, err = run(capsys, "sands", "advise", "--bag", "r12y12g12l12", "--scores", "0,0")
    assert code == 2 and out == ""
    assert one_line(err) == "companion: the bag holds no such stone\n"
    assert not (tmp_path / "nizam-companion" / "crash.log").exists()


def test_a_full_crash_log_is_kept_as_dot_1_and_started_afresh(capsys, monkeypatch, tmp_path):
    from companion.cli import CRASH_LOG_BYTES

    def broken(*args, **kwargs):
        raise RuntimeError("solver went away")

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr("companion.sands.odds.load_table", broken)
    log = tmp_path / "nizam-companion" / "crash.log"
    log.parent.mkdir(parents=True)
    log.write_text("--- an old crash\n" + "x" * CRASH_LOG_BYTES + "\n")
    argv = ("sands", "advise", "--bag", "r12y12g12l12", "--scores", "0,0")
    assert run(capsys, *argv)[0] == 1
    assert (tmp_path / "nizam-companion" / "crash.log.1").read_text().startswith("--- an old")
    first = log.read_text()
    assert first.startswith("--- ") and "RuntimeError: solver went away" in first
    assert run(capsys, *argv)[0] == 1  # a small log grows: both crashes are in it
    assert log.read_text().count("RuntimeError: solver went away") == 2
    assert sorted(p.name for p in log.parent.iterdir()) == ["crash.log", "crash.log.1"]


def test_a_crash_log_that_cannot_be_written_is_not_promised(capsys, monkeypatch, tmp_path):
    def broken(*args, **kwargs):
        raise RuntimeError("solver went away")

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr("companion.sands.odds.load_table", broken)
    (tmp_path / "nizam-companion" / "crash.log").mkdir(parents=True)  # a folder in its place
    code, out, err = run(capsys, "sands", "advise", "--bag", "r12y12g12l12", "--scores", "0,0")
    assert code == 1 and "RuntimeError: solver went away" in one_line(err)
    assert "details are in" not in err


def test_an_unexpected_error_is_one_line_and_exit_1(capsys, monkeypatch, tmp_path):
    def broken(*args, **kwargs):
        raise RuntimeError("solver went away\nsecond line")

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr("companion.sands.odds.load_table", broken)
    argv = ("sands", "advise", "--bag", "r12y12g12l12", "--scores", "0,0")
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == ""
    assert "RuntimeError: solver went away second line" in one_line(err)
    # the traceback is kept where a person fixing the box can read it
    log = tmp_path / "nizam-companion" / "crash.log"
    assert f"(the details are in {log})" in one_line(err)
    kept = log.read_text()
    assert "Traceback (most recent call last)" in kept and "in broken" in kept
    assert "RuntimeError: solver went away" in kept and "sands advise" in kept
    monkeypatch.setenv("COMPANION_TRACEBACK", "1")
    with pytest.raises(RuntimeError):
        main(list(argv))


# -- rules ------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv, says", [
    (["check", "--grid", "RRRRR/RRRRR/RRRRR/RRRRR/RRRRR"], "N15: the grid holds 25 R"),
    (["check", "--grid", "*RRRR/RRRRR/RRROO/OOOOO/OOOOO", "--mode", "pearl"],
     "12 R; there are only 11"),
    (["check", "--grid", GRID, "--mode", "pearl"], "P2: the grid holds 0 pearl"),
    (["explain", "--from", "**OGY/CBVPR/GGYOC/BVPRO/YGCBV",
      "--to", "**OGY/CBVPR/GGYOC/BVPRO/YGCBV"], "2 pearl"),
    (["explain", "--from", "OOOOO/OOOOO/OOOOO/RRRRR/RRRRR",
      "--to", "OOOOO/OOOOO/OOOOO/RRRRR/RRRRR"], "15 O"),
])
def test_N15_P2_a_grid_no_table_can_hold_is_refused(capsys, argv, says):
    for json_flag in ([], ["--json"]):
        code, out, err = run(capsys, "rules", *argv, *json_flag)
        assert code == 2 and out == "" and says in one_line(err)


def test_rules_replay_of_a_binary_file_names_it(capsys, tmp_path):
    record = tmp_path / "game.jsonl"
    record.write_bytes(b"\xff\xfe\x00 not a record")
    code, out, err = run(capsys, "rules", "replay", str(record), "--json")
    assert code == 2 and out == ""
    assert f"{record}: not a game record" in one_line(err)


# -- output paths: checked before any work, never created, never the default by accident ------


def test_detect_debug_into_a_missing_folder_is_refused_before_reading(capsys, image, tmp_path):
    out_png = tmp_path / "no" / "such" / "seen.png"
    code, out, err = run(capsys, "detect", str(image), "--json", "--debug", str(out_png))
    assert code == 2 and out == "" and "no folder" in one_line(err)
    assert not (tmp_path / "no").exists()


def test_calibrate_out_empty_never_overwrites_the_saved_palette(capsys, home, image):
    code, out, err = run(capsys, "calibrate", "colors", "--image", str(image),
                         "--labels", "RG/GR", "--out", "", "--json")
    assert code == 2 and out == "" and "--out ''" in one_line(err)
    assert not (home / "config").exists()


@pytest.mark.parametrize("what", ["colors", "camera"])
def test_calibrate_out_into_a_missing_folder_is_refused_first(capsys, image, tmp_path, what):
    target = tmp_path / "gone" / "file.json"
    options = (["--labels", "RG/GR", "--image"] if what == "colors" else []) + [str(image)]
    code, out, err = run(capsys, "calibrate", what, *options, "--out", str(target), "--json")
    assert code == 2 and out == "" and f"no folder {target.parent}" in one_line(err)
    assert not target.parent.exists()


def test_demo_record_path_is_checked_before_the_game_is_played(capsys, tmp_path):
    for record, says in ((tmp_path / "gone" / "r.jsonl", "no folder"), (tmp_path, "is a folder"),
                         ("", "--record ''")):
        code, out, err = run(capsys, "demo", "--seed", "1", "--record", str(record))
        assert code == 2 and out == "" and says in one_line(err)


def test_replay_store_path_is_checked_and_its_folder_not_made(capsys, tmp_path):
    recording = tmp_path / "recording"
    for store, says in ((tmp_path / "gone" / "g.db", "--store"), ("", "--store ''")):
        code, out, err = run(capsys, "replay", str(recording), "--store", str(store))
        assert code == 2 and out == "" and says in one_line(err)
    assert not (tmp_path / "gone").exists()


def test_a_write_that_fails_names_the_file_not_its_temporary(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(OSError) as caught:
        common.write_atomic(blocker / "deeper" / "r.jsonl", "data")
    assert caught.value.filename == str(blocker / "deeper" / "r.jsonl")


# -- option values the parser let through --------------------------------------------------


def _never(*args, **kwargs):
    raise AssertionError("the app was started")


@pytest.mark.parametrize("argv, says", [
    (["calibrate", "colors", "--image", "x.png", "--counts", "R2G2", "--rows", "0"], "--rows 0"),
    (["calibrate", "colors", "--image", "x.png", "--counts", "R2G2", "--cols", "0"], "--cols 0"),
    (["demo", "--seed", "1", "--max-turns", "-1"], "--max-turns -1"),
    (["app", "--size", "0x0"], "--size '0x0'"),
    (["app", "--size", "800x-480"], "--size '800x-480'"),
])
def test_impossible_sizes_and_counts_are_refused(capsys, monkeypatch, argv, says):
    monkeypatch.setattr("companion.live.app.open_companion", _never)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and says in one_line(err)


@pytest.mark.parametrize("argv", [
    ["calibrate", "camera", "x.jpg", "--square-mm", "nan"],
    ["calibrate", "camera", "x.jpg", "--square-mm", "inf"],
    ["app", "--seconds", "nan"],
    ["app", "--seconds", "-2"],
])
def test_a_number_that_is_not_finite_and_positive_is_refused(capsys, monkeypatch, argv):
    monkeypatch.setattr("companion.live.app.open_companion", _never)
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert "give a number above 0" in one_line(capsys.readouterr().err)


def test_screenshots_into_a_file_are_refused_before_the_app_starts(capsys, monkeypatch, image):
    from tools.screenshots import main as screenshots

    monkeypatch.setattr("companion.live.app.Companion", _never)
    code = screenshots([str(image)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "is a file, not a folder" in one_line(err)


# -- images and palettes ---------------------------------------------------------------------


@pytest.mark.parametrize("command", ["detect", "calibrate"])
def test_a_truncated_png_is_our_one_line_not_libpngs_too(capfd, tmp_path, command):
    # noise, so the cut falls inside the pixel data (where libpng complains), not the header
    noise = np.random.default_rng(5).integers(0, 256, (128, 128, 3), dtype=np.uint8)
    ok, data = cv2.imencode(".png", noise)
    assert ok
    cut = tmp_path / "cut.png"
    cut.write_bytes(data.tobytes()[: data.size // 2])
    argv = (["detect", str(cut)] if command == "detect" else
            ["calibrate", "colors", "--image", str(cut), "--labels", "RG/GR",
             "--out", str(tmp_path / "p.json")])
    assert main([*argv, "--json"]) == 2
    out, err = capfd.readouterr()
    assert out == "" and "libpng" not in err and str(cut) in one_line(err)


@pytest.fixture(scope="module")
def nan_palette_scene(tmp_path_factory):
    from tests.vision.scenes import CALM, GEMS, gem_palette
    from tools.synthetic import render_scene

    folder = tmp_path_factory.mktemp("nan")
    scene = render_scene(np.random.default_rng(31), GEMS, 2, 3, CALM, size=(480, 270))
    image = folder / "layout.png"
    cv2.imwrite(str(image), scene.image)
    palette = folder / "palette.json"
    gem_palette().save(palette)
    damaged = json.loads(palette.read_text())
    damaged["max_distance"] = float("nan")
    palette.write_text(json.dumps(damaged))  # Python writes NaN; the palette loader once took it
    return image, palette


def test_detect_json_never_prints_nan(capsys, nan_palette_scene):
    image, palette = nan_palette_scene
    code, out, err = run(capsys, "detect", str(image), "--rows", "2", "--cols", "3",
                         "--palette", str(palette), "--json")
    assert code == 2 and out == "" and "max_distance must be above 0" in one_line(err)
    # and should a NaN come from anywhere else, it is never printed as JSON
    with pytest.raises(ValueError, match="not a finite number"):
        common.print_json({"confidence": [float("nan")]})
    assert capsys.readouterr().out == ""


def test_N4_a_refused_line_counts_players_from_1(capsys, tmp_path):
    record = tmp_path / "game.jsonl"
    record.write_text(
        '{"game": "nizam", "players": 2, "options": {"setup_lines": "keep"}}\n'
        f'{{"setup": "{GRID}"}}\n'
        '{"turn": 1, "shifts": ["r1<!3", "r2<"]}\n')
    code, out, err = run(capsys, "rules", "replay", str(record))
    assert code == 2
    assert one_line(err) == ("companion: line 3 (N4): r2<: player 1 holds 0 cards and the "
                             "shift costs 1\n")


# -- file names that are not UTF-8 (run apart: OpenCV once crashed the whole process) ---------


NOT_UTF8 = b"bad\xffname"


def companion_apart(*argv: str | bytes, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "companion", *argv], capture_output=True,
                          env={**os.environ, "KIVY_NO_ARGS": "1", **env}, timeout=120)


@pytest.mark.parametrize("stdout_errors", ["surrogateescape", "strict"])
def test_detect_a_file_name_not_utf8_is_read_or_refused_in_one_line(tmp_path, stdout_errors):
    from companion.demo import RECORDING

    image = os.path.join(os.fsencode(tmp_path), NOT_UTF8 + b".jpg")
    shutil.copy(RECORDING / "calib.jpg", image)
    # strict: stdout as in any UTF-8 locale but C, where printing the name once failed
    done = companion_apart("detect", image, "--json",
                           PYTHONIOENCODING=f"utf-8:{stdout_errors}")
    assert done.returncode == 0 and done.stderr == b""
    found = json.loads(done.stdout)  # still JSON, its name escaped
    assert os.fsencode(found["image"]) == image and found["cells"] is not None
    plain = companion_apart("detect", image, PYTHONIOENCODING=f"utf-8:{stdout_errors}")
    assert plain.returncode == 0 and plain.stdout.startswith(image + b": ")


def test_replay_a_recording_folder_not_utf8_is_played(tmp_path):
    from companion.demo import RECORDING

    folder = os.path.join(os.fsencode(tmp_path), NOT_UTF8)
    shutil.copytree(RECORDING, os.fsdecode(folder), ignore=shutil.ignore_patterns("0000[1-9]*"))
    Path(os.fsdecode(folder), "taps.jsonl").write_text("")
    done = companion_apart("replay", folder, "--json", "--store", str(tmp_path / "g.db"))
    assert done.returncode == 0 and done.stderr == b""
    assert json.loads(done.stdout.splitlines()[-1])["frames"] == 10


def test_detect_a_folder_named_like_an_image_is_called_a_folder(capsys, tmp_path):
    folder = tmp_path / "layout.jpg"
    folder.mkdir()
    code, out, err = run(capsys, "detect", str(folder))
    assert code == 2 and out == ""
    assert one_line(err) == f"companion: {folder}: is a folder, not an image\n"


# -- JSON that parses as JSON yet past what Python reads: a damaged file, not a bug ------------


TOO_LONG = "9" * 5000  # an integer past Python's 4300 digits: ValueError
TOO_DEEP = "[" * 100_000 + "]" * 100_000  # past the recursion limit: RecursionError


def copied_recording(tmp_path, frames=1):
    """The demo recording with its first ``frames`` frames, in tmp_path."""
    from companion.demo import RECORDING

    folder = tmp_path / "recording"
    keep = {f"{n:06d}.jpg" for n in range(frames)}
    shutil.copytree(RECORDING, folder, ignore=lambda where, names: [
        n for n in names if where.endswith("frames") and n not in keep])
    return folder


@pytest.mark.parametrize("value", [TOO_LONG, TOO_DEEP], ids=["too_long", "too_deep"])
@pytest.mark.parametrize("reader", ["record", "game.json", "taps.jsonl", "palette", "store"])
def test_json_too_long_or_too_deep_is_a_damaged_file_in_one_line(capsys, tmp_path, monkeypatch,
                                                                  reader, value):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # a crash log would show
    header = f'{{"game": "nizam", "players": 2, "x": {value}}}'
    if reader == "record":
        path = tmp_path / "game.jsonl"
        path.write_text(f'{{"game": "nizam", "players": 2}}\n{{"setup": {value}}}\n')
        argv, says = ["rules", "replay", str(path)], "line 2: damaged"
    elif reader in ("game.json", "taps.jsonl"):
        folder = copied_recording(tmp_path)
        path = folder / reader
        path.write_text(header if reader == "game.json" else f'{{"frame": {value}}}\n')
        line = " line 1" if reader == "taps.jsonl" else ""
        argv, says = ["replay", str(folder)], f"{path}{line}: damaged"
    elif reader == "palette":
        path = tmp_path / "palette.json"
        path.write_text(header)
        argv, says = ["detect", str(Path(__file__)), "--palette", str(path)], \
            f"{path} is damaged"
    else:
        from companion.store import GameStore
        from tests.story.games import hand_game

        path = tmp_path / "games.sqlite"
        with GameStore(path) as store:
            hand_game(store)
        with closing(sqlite3.connect(path)) as db, db:
            db.execute("UPDATE events SET payload = ? WHERE game_id = 1 AND seq = 2", (value,))
        argv, says = ["history", "--store", str(path)], f"{path}: game 1 event 2 is damaged"
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and says in one_line(err)
    assert "too long or" in err
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("side", ["1e308", "1e-308", "0.5", "501"])
def test_calibrate_camera_square_mm_outside_a_printed_square_is_refused_first(capsys, image,
                                                                              side):
    with pytest.raises(SystemExit) as stop:
        main(["calibrate", "camera", str(image), "--square-mm", side])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"--square-mm: '{side}': a printed board square is 1 to 500 mm" in one_line(err)


@pytest.mark.parametrize("column, damage", [
    ("payload", "[1]"), ("payload", '"draw"'), ("payload", "null"), ("header", "[1]"),
])
def test_history_a_stored_event_or_header_not_an_object_is_damaged(capsys, home, tmp_path,
                                                                    column, damage):
    from companion.store import GameStore
    from tests.story.games import hand_game

    path = tmp_path / "games.sqlite"
    with GameStore(path) as store:
        hand_game(store)
    table, where = ("events", "game_id = 1 AND seq = 2") if column == "payload" else \
        ("games", "id = 1")
    with closing(sqlite3.connect(path)) as db, db:
        db.execute(f"UPDATE {table} SET {column} = ? WHERE {where}", (damage,))
    what = "game 1 event 2" if column == "payload" else "game 1's header"
    code, out, err = run(capsys, "history", "--store", str(path))
    assert code == 2 and out == ""
    assert one_line(err) == f"companion: game database {path}: {what} is damaged (not an object)\n"


@pytest.mark.parametrize("damage, says", [
    (lambda p: p["classes"][0].update(mean=[1e308] * len(p["classes"][0]["mean"])),
     "the mean of class 'R' holds 1e+308; a palette's numbers lie within ±1000"),
    (lambda p: p["classes"][0].update(scale=[0.5] * 12 + [5e3]),
     "the scale of class 'R' holds 5000"),
    (lambda p: p.update(white=[1e308] * 3), "its white holds 1e+308"),
    (lambda p: p.update(weights=[-2e3] * len(p["weights"])), "its weights holds -2000"),
    (lambda p: p.update(max_distance=1e308), "its max_distance holds 1e+308"),
    (lambda p: p["classes"][0].update(letter=5), "a class letter is text, not 5"),
], ids=["mean", "scale", "white", "weights", "max_distance", "letter"])
def test_detect_a_palette_with_numbers_no_palette_holds_is_damaged(capsys, tmp_path, image,
                                                                   damage, says):
    from calibration.palette import default_palette

    palette = tmp_path / "palette.json"
    held = default_palette().to_json()
    damage(held)
    palette.write_text(json.dumps(held))
    code, out, err = run(capsys, "detect", str(image), "--palette", str(palette))
    assert code == 2 and out == ""
    assert f"palette is damaged: {says}" in one_line(err)


def test_history_store_a_folder_is_called_a_folder(capsys, tmp_path):
    code, out, err = run(capsys, "history", "--store", str(tmp_path))
    assert code == 2 and out == ""
    assert one_line(err) == f"companion: {tmp_path}: is a folder, not a game database\n"


def test_history_a_stored_header_no_game_reads_names_the_database_and_game(capsys, tmp_path):
    from companion.store import GameStore
    from tests.story.games import hand_game

    path = tmp_path / "games.sqlite"
    with GameStore(path) as store:
        hand_game(store)
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE games SET header = json_set(header, '$.players', 9) WHERE id = 1")
    code, out, err = run(capsys, "history", "--store", str(path))
    assert code == 2 and out == ""
    assert one_line(err) == (f"companion: game 1 in {path}: its header cannot be read: "
                             "players: 9; the game is for 1 to 5\n")


# -- recordings ---------------------------------------------------------------------------


@pytest.mark.parametrize("tap, says", [
    ('{"frame": 99999, "tap": "draw"}', "frame 99999 is not in the recording (frames/ holds "
                                        "0 to 2)"),
    ('{"frame": 1, "tap": "draw"}', "frame 1 is not in the recording (a gap)"),
    ('{"frame": true, "tap": "draw"}', "'frame' must be a frame number"),
], ids=["past_the_last", "in_a_gap", "boolean"])
def test_replay_a_tap_at_no_frame_of_the_recording_is_refused_naming_its_line(capsys, tmp_path,
                                                                              tap, says):
    folder = copied_recording(tmp_path, frames=3)
    (folder / "frames" / "000001.jpg").unlink()
    (folder / "taps.jsonl").write_text('{"frame": 0, "tap": "draw"}\n' + tap + "\n")
    code, out, err = run(capsys, "replay", str(folder))
    assert code == 2 and out == ""
    assert one_line(err) == f"companion: {folder / 'taps.jsonl'} line 2: {says}\n"


def test_replay_a_frame_file_named_in_other_digits_is_skipped_as_a_stray_file(capsys, home,
                                                                              tmp_path):
    folder = copied_recording(tmp_path, frames=2)
    shutil.copy(folder / "frames" / "000000.jpg", folder / "frames" / "²³.jpg")
    (folder / "taps.jsonl").write_text("")
    code, out, err = run(capsys, "replay", str(folder), "--json")
    assert code == 0 and err == ""
    assert json.loads(out.splitlines()[-1])["frames"] == 2


# -- files written: as readable as open() makes them, into folders checked first ----------


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_write_atomic_makes_a_new_file_as_open_does_and_keeps_a_replaced_files_mode(
        tmp_path, umask_022):
    new = tmp_path / "palette.json"
    common.write_atomic(new, "{}")
    assert stat.S_IMODE(new.stat().st_mode) == 0o644  # 0666 less the umask, not mkstemp's 0600
    kept = tmp_path / "game.jsonl"
    kept.write_text("old")
    kept.chmod(0o640)
    common.write_atomic(kept, "new")
    assert kept.read_text() == "new" and stat.S_IMODE(kept.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl", "palette.json"]


def test_demo_record_into_a_folder_not_writable_is_refused_before_the_game(capsys, home,
                                                                           tmp_path, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    if os.access(locked, os.W_OK):  # root writes anywhere: the folder is locked as it sees it
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != locked and real(p, mode))
    monkeypatch.setattr("companion.cli.demo_cmd.simulate", _never)
    try:
        code, out, err = run(capsys, "demo", "--seed", "1", "--record", str(locked / "g.jsonl"))
    finally:
        locked.chmod(0o700)
    assert code == 2 and out == ""
    assert one_line(err) == (f"companion: --record {locked / 'g.jsonl'}: the folder {locked} "
                             "cannot be written to\n")


@pytest.mark.parametrize("argv", [["demo", "--seed", "1"], ["rules", "replay", "--help"]])
def test_output_into_a_closed_pipe_stops_quietly_as_sigpipe(tmp_path, argv):
    """`companion demo | head -1`: the reader going away is no error of the user's."""
    read, write = os.pipe()
    os.close(read)  # the reader has gone before a line is written: no race with the pipe
    try:
        done = subprocess.run([sys.executable, "-m", "companion", *argv], stdout=write,
                              stderr=subprocess.PIPE, timeout=120,
                              env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
    finally:
        os.close(write)
    assert done.returncode == 141 and done.stderr == b""
    assert not any(tmp_path.iterdir())  # no crash log either


def test_replay_a_game_json_not_utf8_is_said_so(capsys, tmp_path):
    folder = copied_recording(tmp_path, frames=1)
    (folder / "game.json").write_bytes(b'{"game": "nizam", "players": ["Zo\xeb", "Bob"]}\n')
    code, out, err = run(capsys, "replay", str(folder))
    assert code == 2 and one_line(err) == f"companion: {folder / 'game.json'}: not UTF-8 text\n"


def test_a_command_started_with_stdout_closed_or_a_lenient_encoding_runs_as_before(tmp_path):
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    closed = subprocess.run([sys.executable, "-m", "companion", "demo", "--seed", "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120,
                            env=env, preexec_fn=lambda: os.close(1))
    assert (closed.returncode, closed.stderr) == (0, b"")
    ascii_ = subprocess.run([sys.executable, "-m", "companion", "demo", "--seed", "1"],
                            capture_output=True, timeout=120,
                            env={**env, "PYTHONIOENCODING": "ascii:replace"})
    assert ascii_.returncode == 0 and ascii_.stderr == b"" and b"?" in ascii_.stdout
    assert not any(tmp_path.iterdir())  # no crash log
