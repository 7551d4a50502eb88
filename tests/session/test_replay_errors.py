"""`companion replay` of a recording whose own files are wrong: one line naming the file."""

import json

import cv2
import numpy as np
import pytest

from companion.cli import main


def recording(tmp_path, game, calib_grid="RRRGC/RVPBO/RGCBV/PROYG/CBVPR"):
    rec = tmp_path / "rec"
    (rec / "frames").mkdir(parents=True)
    frame = np.full((120, 160, 3), 90, np.uint8)
    cv2.imwrite(str(rec / "frames" / "000000.jpg"), frame)
    cv2.imwrite(str(rec / "calib.jpg"), frame)
    (rec / "game.json").write_text(json.dumps(game))
    (rec / "calib.json").write_text(json.dumps({"grid": calib_grid}))
    return rec


@pytest.mark.parametrize("game, calib, where, message", [
    ({"game": "nizam", "players": 9}, None, "game.json", "players"),
    ({"game": "nizam", "players": 2, "options": {"bonus": "huge"}}, None, "game.json", "bonus"),
    ({"game": "sands", "players": 2}, None, "game.json", "Desert Sands"),
    ({"game": "nizam", "players": 2}, "RRR", "calib.json", "1x3"),
])
def test_a_wrong_recording_file_is_named_in_one_line(tmp_path, capsys, game, calib, where,
                                                     message):
    rec = recording(tmp_path, game, *([calib] if calib else []))
    assert main(["replay", str(rec)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"companion: {rec / where}: ")
    assert message in err


@pytest.mark.parametrize("taps, message", [
    ('{"frame": 0, "tap": "draw"}\n\n[0, "draw"]\n', "line 3: a line must be a JSON object"),
    ('{"frame": 0, "tap": "draw"}\n{"frame": 1,\n', "line 2: not JSON"),
])
def test_a_taps_line_that_holds_no_tap_is_named_in_one_line(tmp_path, capsys, taps, message):
    rec = recording(tmp_path, {"game": "nizam", "players": 2})
    (rec / "taps.jsonl").write_text(taps)
    assert main(["replay", str(rec)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"companion: {rec / 'taps.jsonl'} {message}")


@pytest.mark.parametrize("spoil", ["no_folder", "game", "taps", "no_frames", "calib"])
def test_a_recording_that_cannot_be_played_leaves_no_game_database(tmp_path, capsys, spoil):
    rec = recording(tmp_path, {"game": "chess"} if spoil == "game" else
                    {"game": "nizam", "players": 2})
    if spoil == "no_folder":
        rec = tmp_path / "elsewhere"
    elif spoil == "taps":
        (rec / "taps.jsonl").write_text('{"frame": 0,\n')
    elif spoil == "no_frames":
        (rec / "frames" / "000000.jpg").unlink()
    # "calib": calib.jpg shows no grid of cards to learn the colours from
    db = tmp_path / "games.sqlite"
    assert main(["replay", "--store", str(db), str(rec)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("companion: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rec"]  # no database, no -wal
