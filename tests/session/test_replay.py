"""`companion replay`: the whole pipeline (frames → vision → session → rules) over recordings."""

import json
import shutil

import pytest

from companion.cli import main
from companion.demo import RECORDING


def final_line(capsys):
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def truth():
    return json.loads((RECORDING / "truth.json").read_text())


@pytest.mark.parametrize("learning", [[], ["--no-learning"]])
def test_N9_N10_demo_recording_replays_to_its_exact_final_state(capsys, learning):
    # colours learning from confirmed cells (the default) or the calibrated ones alone
    assert main(["replay", str(RECORDING), "--json", *learning]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    result = json.loads(out[-1])
    expected = truth()
    for key in ("scores", "deck", "discard", "deck_runs_out", "ended", "winners"):
        assert result[key] == expected[key], key
    assert result["turns"] == expected["turns"] and result["unresolved"] == []
    kinds = [json.loads(line)["event"]["kind"] for line in out[:-1] if '"event"' in line]
    assert kinds.count("refill") >= 4 and "wildcard" in kinds and "draw" in kinds
    # The cascade: two scoring rounds in one turn, so a refill is followed by another clear.
    assert any(a == "refill" and b == "cleared" for a, b in zip(kinds, kinds[1:], strict=False))


@pytest.fixture()
def damaged(tmp_path):
    rec = tmp_path / "rec"
    shutil.copytree(RECORDING, rec)
    frames = sorted((rec / "frames").iterdir())
    frames[0].write_bytes(b"not a jpeg")  # a corrupt frame while the cards are dealt
    frames[5].unlink()  # and a missing one while a hand is over the grid
    with (rec / "taps.jsonl").open("a") as f:
        f.write('{"frame": 84, "tap": "end_turn"}\n{"frame": 84, "tap": "wildcard"}\n'
                '{"frame": 84, "tap": "wildcard"}\n')
    return rec


def test_N3_N5_bad_frames_and_senseless_taps_are_reported_and_the_game_kept(damaged, capsys):
    assert main(["replay", str(damaged), "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.strip().splitlines()]
    assert any(x.get("problem") == "frame is not a readable image" for x in lines)
    refused = [x["refused"] for x in lines if "refused" in x]
    assert any(r.startswith("N3") for r in refused) and any(r.startswith("N5") for r in refused)
    assert lines[-1]["scores"] == truth()["scores"]


def test_replay_of_a_missing_recording_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("companion: ") and "no such recording folder" in err
    assert "\n" not in err


def test_replay_resumes_from_its_store_without_doubling_events(tmp_path, capsys):
    store = tmp_path / "games.sqlite"
    assert main(["replay", str(RECORDING), "--json", "--store", str(store)]) == 0
    first = final_line(capsys)
    assert main(["replay", str(RECORDING), "--json", "--store", str(store)]) == 0
    again = final_line(capsys)
    assert again["scores"] == first["scores"] and again["turns"] == first["turns"]
    from companion.store import GameStore

    with GameStore(store) as db:
        (game,) = db.games()
        taps = [e.payload["tap"] for e in db.events(game.id) if "tap" in e.payload]
        assert len(taps) == len(set(taps))


def test_replay_killed_twice_resumes_to_the_same_game(tmp_path):
    from tools.crashcheck import check

    result = check(RECORDING, kills=2, seed=3, work=tmp_path)
    assert result["same_final_state"] and result["same_record"], result
    assert result["same_events"] and result["taps_once"], result


def test_P6_pearl_demo_recording_completes_its_tasks(capsys):
    from companion.demo import RECORDINGS

    rec = RECORDINGS["pearl"]
    assert main(["replay", str(rec), "--json"]) == 0
    result = final_line(capsys)
    expected = json.loads((rec / "truth.json").read_text())
    for key in ("scores", "deck", "discard", "tasks_left", "ended"):
        assert result[key] == expected[key], key
    assert result["unresolved"] == []
