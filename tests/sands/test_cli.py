"""`companion sands advise` through companion.cli.main (DESIGN.md's JSON, one-line errors)."""

import json

import pytest

from companion.cli import main
from companion.paths import CACHE_ENV
from companion.rules.sands import COLOURS, Bag
from companion.sands.advice import advise
from companion.sands.odds import load_table


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    return tmp_path


def run(capsys, *argv):
    code = main(["sands", "advise", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_D3_advise_json_is_designs(capsys):
    code, out, err = run(capsys, "--bag", "r2y2g1l2", "--scores", "10,14", "--full",
                         "r3y3g3l3", "--json")
    assert code == 0 and err == ""
    got = json.loads(out)
    assert list(got) == ["calls", "best"]
    assert list(got["calls"]) == list(COLOURS)
    for odds in got["calls"].values():
        assert list(odds) == ["p_success", "expected_points", "p_win"]
    assert got["calls"]["red"]["p_success"] == pytest.approx(5 / 7)
    assert got["calls"]["lilac"]["expected_points"] == pytest.approx(12 * 2 / 7)
    expected = advise(load_table(Bag(3, 3, 3, 3)), Bag(2, 2, 1, 2), (10, 14))
    assert got == expected.to_json()
    assert got["best"] == max(COLOURS, key=lambda c: got["calls"][c]["p_win"])


def test_D4_policy_json_and_text(capsys):
    code, out, _ = run(capsys, "--bag", "r2y2g2l2", "--scores", "0,0", "--full", "r2y2g2l2",
                       "--json", "--policy", "--depth", "2")
    policy = json.loads(out)["policy"]
    assert code == 0 and policy["call"] == json.loads(out)["best"]
    assert set(policy["after"]) <= set(COLOURS)
    code, out, _ = run(capsys, "--bag", "r2y2g2l2", "--scores", "0,0", "--full", "r2y2g2l2",
                       "--policy")
    assert code == 0 and "<- best" in out and "policy for this turn" in out


def test_advise_text_lists_every_call(capsys):
    code, out, _ = run(capsys, "--bag", "r1y0g0l1", "--scores", "3,2", "--full", "r2y2g2l2")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()[2:6]] == list(COLOURS)


def test_advise_caches_the_table(capsys, cache):
    run(capsys, "--bag", "r1y1g1l1", "--scores", "0,0", "--full", "r1y1g1l1")
    assert [p.name for p in cache.iterdir()] == ["sands-r1y1g1l1.table"]


@pytest.mark.parametrize(("argv", "message"), [
    (["--bag", "r2x1", "--scores", "0,0"], "character 3 'x' is not a colour letter"),
    (["--bag", "r-1y2", "--scores", "0,0"], "counts cannot be negative"),
    (["--bag", "r13y12g12l12", "--scores", "0,0"], "more stones than the full bag"),
    (["--bag", "r3y3g3l3", "--scores", "0,0", "--full", "r2y3g3l3"], "red 3 > 2"),
    (["--bag", "r0y0g0l0", "--scores", "4,4"], "the bag is empty"),
    (["--bag", "r12y12g12l12", "--scores=-1,0"], "two whole numbers >= 0"),
    (["--bag", "r12y12g12l12", "--scores", "1,2,3"], "two whole numbers >= 0"),
    (["--bag", "r12y12g12l12", "--scores", "3,0"], "at most 0 points"),
    (["--bag", "r12y12g12l10", "--scores", "16,0"], "no sequence of calls"),
    (["--bag", "r1y1g1l1", "--scores", "0,0", "--full", "r1y1g1l1", "--policy", "--depth", "0"],
     "--depth 0"),
    # a table of 2.8 million bags would fill the memory card (once: 48 GiB asked of memory)
    (["--bag", "r40y40g40l40", "--scores", "0,0", "--full", "r40y40g40l40"],
     "the bag r40y40g40l40 has 2825761 positions of stones left; at most 83521"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and err.startswith("companion: ")
