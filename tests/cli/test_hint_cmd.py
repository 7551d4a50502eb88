"""`companion rules hint` (DESIGN.md's JSON keys) and its bad input: one line, exit 2."""

import json

import pytest

from companion.cli import main

GRID = "RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_N4_rules_hint_json_has_the_design_keys(capsys):
    code, out, err = run(capsys, "rules", "hint", "--grid", GRID, "--hand", "CYRR", "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == {"points": 3, "turns": [{"shifts": ["r2<"], "points": 3,
                                                       "cards": "C"}]}


def test_N4_rules_hint_says_when_nothing_scores(capsys):
    code, out, _ = run(capsys, "rules", "hint", "--grid", GRID, "--hand", "Y")
    assert code == 0 and out.startswith("nothing scores")
    code, out, _ = run(capsys, "rules", "hint", "--grid", GRID, "--hand", "", "--json")
    assert json.loads(out) == {"points": 0, "turns": []}


def test_P4_P6_rules_hint_in_pearl_names_the_tasks(capsys):
    code, out, _ = run(capsys, "rules", "hint", "--grid", "*GOGY/CRVPB/RGYOC/BVPRO/YGCBV",
                       "--hand", "RRGY", "--mode", "pearl", "--tasks", "GR", "--json")
    assert code == 0
    assert json.loads(out) == {"points": 1, "turns": [
        {"shifts": ["r2<!3"], "points": 1, "cards": "RRY", "tasks": ["R"]}]}


@pytest.mark.parametrize("argv,says", [
    (["--grid", GRID, "--hand", "RRRRRRRRR"], "N15: the hand holds 9 R and the grid 4"),
    (["--grid", GRID, "--hand", "RX"], "'X' is not a gem letter"),
    (["--grid", "RRRRR/RRRRR/RRRRR/OOOOO/OOOOO", "--hand", "R"], "N15: the grid holds 15 R"),
    (["--grid", "*GOGY/CRVPB/RGYOC/BVPRO/YGCBV", "--hand", "R"], "N1:"),
    (["--grid", GRID, "--hand", "R", "--tasks", "R"], "only Pearl of the East has tasks"),
    (["--grid", "*GOGY/CRVPB/RGYOC/BVPRO/YGCBV", "--mode", "pearl", "--hand", "R",
      "--tasks", "RR"], "R twice"),
    (["--grid", GRID, "--hand", "R", "--max-shifts", "5"], "--max-shifts 5: must be 1 to 4"),
])
def test_N15_P1_rules_hint_bad_input_is_one_line(capsys, argv, says):
    code, out, err = run(capsys, "rules", "hint", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("companion: ") and says in err, err
