"""`companion rules replay`, `companion rules check` and `companion demo` (DESIGN.md keys)."""

import dataclasses
import json
import random

import pytest

from companion.cli import main
from companion.rules.game import Game
from companion.rules.replay import record_text
from companion.rules.simulate import simulate, wanderer

L_SHAPE = "RRRGC/RVPBO/RGCBV/PROYG/CBVPR"
SUMMARY_KEYS = ["scores", "deck", "discard", "deck_runs_out", "ended", "winners"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err):
    assert err.count("\n") == 1 and err.startswith("companion: "), err
    assert "Traceback" not in err
    return err


@pytest.fixture
def played_file(tmp_path):
    played = simulate(Game(players=2), random.Random(11), wanderer, max_turns=400)
    path = tmp_path / "game.jsonl"
    path.write_text(record_text(played))
    return path, played


def test_N13_rules_replay_json_has_the_design_keys(capsys, played_file):
    path, played = played_file
    code, out, _ = run(capsys, "rules", "replay", str(path), "--json")
    assert code == 0
    summary = json.loads(out)
    assert list(summary) == SUMMARY_KEYS
    assert summary == played.summary() and summary["ended"] is True


def test_N13_rules_replay_text_names_scores_and_winners(capsys, played_file):
    path, played = played_file
    code, out, _ = run(capsys, "rules", "replay", str(path))
    assert code == 0
    assert "Nizam, 2 players" in out and "game over" in out
    assert f"P1 {played.state.scores[0]}" in out


def test_P9_rules_replay_pearl_lists_tasks_left(capsys, tmp_path):
    played = simulate(Game("pearl", 3), random.Random(2), wanderer, max_turns=40)
    path = tmp_path / "pearl.jsonl"
    path.write_text(record_text(played))
    code, out, _ = run(capsys, "rules", "replay", str(path), "--json")
    summary = json.loads(out)
    assert code == 0 and list(summary) == [*SUMMARY_KEYS, "tasks_left"]
    assert summary["tasks_left"] == [list(t) for t in played.state.tasks]


def test_N4_rules_replay_refusal_is_one_line_with_line_and_rule(capsys, tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"game": "nizam", "players": 2}\n'
                    '{"setup": "ROYGC/BVPRO/YGCBV/PROYG/CBVPR"}\n'
                    '{"turn": 1, "shifts": ["r1<", "r1<", "r1<", "r1<"]}\n')
    code, out, err = run(capsys, "rules", "replay", str(path))
    assert code == 2 and out == ""
    assert "line 3 (N4):" in one_line_error(err)


def test_rules_replay_missing_file_is_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "rules", "replay", str(tmp_path / "none.jsonl"))
    assert code == 2
    one_line_error(err)


def test_rules_replay_dispatches_sands_records(capsys, tmp_path, monkeypatch):
    class FakeState:
        def summary(self):
            return {"scores": [3, 1], "bag": {"red": 2, "yellow": 0, "green": 0, "lilac": 1},
                    "ended": False, "winners": []}

    from companion.session.kinds import KINDS

    seen = []
    fake = dataclasses.replace(
        KINDS["sands"], replay=lambda record: seen.append(record.game) or FakeState().summary())
    monkeypatch.setitem(KINDS, "sands", fake)
    path = tmp_path / "sands.jsonl"
    path.write_text('{"game": "sands", "bag": {"red": 3, "lilac": 1}}\n')
    code, out, _ = run(capsys, "rules", "replay", str(path), "--json")
    assert code == 0 and seen == ["sands"]
    assert json.loads(out)["scores"] == [3, 1]
    code, out, _ = run(capsys, "rules", "replay", str(path))
    assert "The Desert Sands" in out and "red 2" in out


def test_N8_rules_check_json(capsys):
    code, out, _ = run(capsys, "rules", "check", "--grid", L_SHAPE, "--json")
    assert code == 0
    result = json.loads(out)
    assert list(result) == ["grid", "combinations", "points"]
    assert result["combinations"][0] == {"gem": "R", "cells": [[1, 1], [1, 2], [1, 3]],
                                         "points": 3}
    assert result["points"] == 7
    _, out, _ = run(capsys, "rules", "check", "--grid", L_SHAPE, "--bonus", "rising", "--json")
    assert json.loads(out)["points"] == 7


def test_N4_rules_check_applies_shifts_in_order(capsys):
    code, out, _ = run(capsys, "rules", "check", "--grid", "ROYGC/BVPRO/RGCBV/PROYG/RBVPC",
                       "--shifts", "r4<", "--json")
    result = json.loads(out)
    assert code == 0 and result["grid"] == "ROYGC/BVPRO/RGCBV/ROYGP/RBVPC"
    assert [c["cells"] for c in result["combinations"]] == [[[3, 1], [4, 1], [5, 1]]]
    code, out, _ = run(capsys, "rules", "check", "--grid", "ROYGC/BVPRO/RGCBV/PROYG/RBVPC",
                       "--shifts", "r4<")
    assert "R×3 r3c1-r5c1  3 points" in out and "points: 3" in out


def test_P5_rules_check_pearl_lists_tasks_instead_of_points(capsys):
    code, out, _ = run(capsys, "rules", "check", "--grid", "RR*GG/BVPRO/YGCBV/PROYR/CBVPO",
                       "--mode", "pearl", "--json")
    result = json.loads(out)
    assert code == 0 and list(result) == ["grid", "combinations", "tasks"]
    assert result["tasks"] == ["R", "G"]
    assert all("points" not in c for c in result["combinations"])


@pytest.mark.parametrize(
    "argv, says",
    [
        (["--grid", "RRRGC/RVPBO/RGCBV/PROYG/CBVPX"], "'X'"),
        (["--grid", L_SHAPE, "--shifts", "r2^"], "direction"),
        (["--grid", "*RRGC/RVPBO/RGCBV/PROYG/CBVPR", "--mode", "pearl", "--shifts", "r1<"],
         "P4"),
        (["--grid", "*RRGC/RVPBO/RGCBV/PROYG/CBVPR"], "classic Nizam has none"),
    ],
)
def test_N4_rules_check_bad_input_is_one_line(capsys, argv, says):
    code, out, err = run(capsys, "rules", "check", *argv)
    assert code == 2 and out == ""
    assert says in one_line_error(err)


def test_N12_demo_plays_a_seeded_game_to_its_end(capsys, tmp_path):
    record = tmp_path / "demo.jsonl"
    code, out, _ = run(capsys, "demo", "--seed", "3", "--players", "2", "--record",
                       str(record))
    assert code == 0
    assert out.startswith("Nizam: 2 players, seed 3")
    assert "turn   1  P1" in out and "game over after" in out
    assert "the deck ran out (2 of 2)" in out
    code, replayed, _ = run(capsys, "rules", "replay", str(record), "--json")
    assert code == 0 and json.loads(replayed)["ended"] is True
    _, again, _ = run(capsys, "demo", "--seed", "3", "--players", "2")
    assert again.splitlines()[:40] == out.splitlines()[:40]  # seeded: the same game


def test_P9_demo_pearl_reports_tasks(capsys):
    code, out, _ = run(capsys, "demo", "--seed", "5", "--mode", "pearl", "--players", "3")
    assert code == 0 and "tasks left" in out and "wins" in out


def test_no_arguments_starts_the_app_and_demo_is_its_own_command():
    from companion.cli import app_cmd, build_parser, demo_cmd

    assert build_parser().parse_args([]).handler is app_cmd.run
    assert build_parser().parse_args(["demo"]).handler is demo_cmd.run
