"""`rules explain`: shortest shift sequences between two grids and their payment (N4, N5, P4)."""

from __future__ import annotations

import argparse
import io
import json
import random
from contextlib import redirect_stdout
from itertools import permutations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.cli.rules_explain import register_explain
from companion.rules.explain import (
    CardsDifferError,
    Explanation,
    Move,
    Payment,
    _agreeing,
    explain,
    shortest_sequences,
)
from companion.rules.grid import EMPTY, Grid
from companion.rules.shift import ALL_SHIFTS, Shift, parse_shifts
from companion.rules.shift_paths import permutation

G = Grid("RROGY/CBVPR/GGYOC/BVPRO/YGCBV")
PROPERTY = settings(derandomize=True, deadline=None, max_examples=60)


def after(grid: Grid, shifts: str) -> Grid:
    for s in parse_shifts(shifts):
        grid = s.apply(grid)
    return grid


def sequences(e: Explanation) -> list[str]:
    return [str(m) for m in e.moves]


# -- Reference: brute force over every sequence, with permutations read off Shift.apply ------


def _reference_moves() -> list[tuple[int, ...]]:
    """Where each cell's card goes under each shift, learnt by moving a lone card with apply."""
    moves = []
    for shift in ALL_SHIFTS:
        dest = [0] * 25
        for i in range(25):
            lone = Grid("".join("R" if j == i else EMPTY for j in range(25)))
            dest[i] = shift.apply(lone).cells.index("R")
        moves.append(tuple(dest))
    return moves


REF = _reference_moves()


def ref_apply(cells: str, k: int) -> str:
    out = [""] * 25
    for i, d in enumerate(REF[k]):
        out[d] = cells[i]
    return "".join(out)


def brute_force(start: str, target: str, depth: int) -> set[tuple[int, ...]]:
    """All shortest legal sequences of at most ``depth`` shifts, by trying every sequence."""
    found: dict[int, set[tuple[int, ...]]] = {}

    def walk(cells: str, seq: tuple[int, ...]) -> None:
        if cells == target:
            found.setdefault(len(seq), set()).add(seq)
        if len(seq) == depth:
            return
        for k, shift in enumerate(ALL_SHIFTS):
            r, c = shift.edge
            if cells[(r - 1) * 5 + c - 1] != EMPTY:
                walk(ref_apply(cells, k), (*seq, k))

    walk(start, ())
    return found[min(found)] if found else set()


def as_indices(seqs: tuple[tuple[Shift, ...], ...]) -> set[tuple[int, ...]]:
    return {tuple(ALL_SHIFTS.index(s) for s in seq) for seq in seqs}


def replay(start: Grid, move: Move) -> Grid:
    """Make the move with Shift.apply, refusing an empty edge, and check what it paid."""
    grid, edges = start, ""
    for shift in move.shifts:
        assert grid.at(*shift.edge) != EMPTY, f"{move}: {shift} moves an empty edge"
        edges += grid.at(*shift.edge)
        grid = shift.apply(grid)
    assert move.payment == Payment(edges)
    return grid


# -- N4: the shifts ---------------------------------------------------------------------------


def test_N4_each_shift_permutation_agrees_with_shift_apply():
    for k, shift in enumerate(ALL_SHIFTS):
        source = permutation(shift)
        assert all(REF[k][source[i]] == i for i in range(25)), shift


def test_N4_one_shift_explained_with_its_matching_card():
    e = explain(G, after(G, "c2v"))
    assert sequences(e) == ["c2v"]
    assert e.length == 1
    assert e.moves[0].payment == Payment("G")


def test_N4_two_shifts_in_order():
    e = explain(G, after(G, "r2< c3^"))
    assert sequences(e) == ["r2< c3^"]
    assert e.moves[0].payment.cards == ("C", "O")


def test_N4_same_grid_is_the_empty_sequence():
    e = explain(G, G)
    assert e.length == 0 and sequences(e) == [""]
    assert e.to_json() == {
        "sequences": [[]],
        "length": 0,
        "payments": [{"cards": [], "wildcards": 0, "min_hand": 0}],
    }


def test_N4_empty_edge_cannot_be_shifted():
    start = Grid(".ROYG/CBVPR/GGYOC/BVPRO/YGCBV")
    target = Grid("ROYG./CBVPR/GGYOC/BVPRO/YGCBV")  # r1< would move the empty edge
    assert explain(start, target, 3).moves == ()
    e = explain(start, target, 4)
    assert "r1> r1> r1> r1>" in sequences(e)
    assert all("r1<" not in str(m) for m in e.moves)
    assert all(replay(start, m) == target for m in e.moves)


def test_N4_grids_with_different_cards_fail_at_once_with_the_reason():
    with pytest.raises(CardsDifferError, match=r"different cards \(O: 3 then 2, R: 4 then 5\)"):
        explain(G, Grid("RRRGY/CBVPR/GGYOC/BVPRO/YGCBV"), 6)
    with pytest.raises(ValueError, match="max shifts 7"):
        explain(G, G, 7)


def test_N4_no_sequence_within_the_limit_says_how_far_it_searched():
    far = after(G, "c1v c2v c3v c4v c5v")
    assert explain(G, far).to_json() == {"sequences": [], "searched": 4}
    assert sequences(explain(G, far, 5)) == sorted(
        " ".join(p) for p in permutations(["c1v", "c2v", "c3v", "c4v", "c5v"])
    )


def test_N4_commuting_shifts_keep_every_order_and_group_them():
    e = explain(G, after(G, "r1< r3> c2^"))
    assert sequences(e) == ["r1< r3> c2^", "r3> r1< c2^"]
    (group,) = e.groups()
    assert {m.canonical() for m in group} == {parse_shifts("r1< r3> c2^")}


def test_N4_explanation_values_paste_back():
    e = explain(G, after(G, "r1< r3>"))
    assert eval(repr(e)) == e
    assert eval(repr(e.moves[0].payment)) == e.moves[0].payment


# -- N5, N14: payment by hand size -----------------------------------------------------------


def test_N5_min_hand_is_one_card_per_gem_shift():
    pay = explain(G, after(G, "r1< r2< r4>")).moves[0].payment
    assert (pay.cards, pay.wildcards, pay.min_hand, pay.sure_hand) == (("R", "C", "O"), 0, 3, 9)


def test_N5_payable_by_count_filters_moves_by_hand_size():
    start = Grid("R*OGY/CBVPR/GGYOC/BVPRO/YGCBV")
    e = explain(start, after(start, "r1< r1<"))
    assert e.moves[0].payment.min_hand == 4  # R by one ruby, the pearl by three cards
    assert e.payable(3) == ()
    assert e.payable(4) == e.moves
    with pytest.raises(ValueError, match="hand size -1"):
        e.payable(-1)
    assert e.to_json(hand=3)["payable"] == [False]


def test_N5_wildcard_turns_one_card_into_three():
    pay = Payment("RB")
    assert [pay.cost(n) for n in range(3)] == [2, 4, 6]
    assert not pay.surely_payable(5) and pay.surely_payable(6)
    with pytest.raises(ValueError):
        pay.cost(3)


# -- P4: the pearl ---------------------------------------------------------------------------


def test_P4_moving_the_pearl_off_an_edge_costs_three_cards():
    start = Grid("*ROGY/CBVPR/GGYOC/BVPRO/YGCBV")
    (move,) = explain(start, after(start, "c1^")).moves
    assert move.payment == Payment("*")
    assert (move.payment.cards, move.payment.wildcards, move.payment.min_hand) == ((), 1, 3)
    assert [str(s) for s in move.as_paid()] == ["c1^!3"]


def test_P4_pearl_inside_a_row_slides_for_one_matching_card():
    start = Grid("R*OGY/CBVPR/GGYOC/BVPRO/YGCBV")
    (move,) = explain(start, after(start, "r1<")).moves
    assert move.payment == Payment("R") and move.payment.min_hand == 1


# -- Properties against brute force -----------------------------------------------------------

alphabets = st.sampled_from(["ROYGCBVP", "ROYGCBVP*.", "RB", "RB.", "RRRRB*"])


@st.composite
def scrambles(draw, max_len=4):
    letters = draw(alphabets)
    grid = Grid("".join(draw(st.lists(st.sampled_from(letters), min_size=25, max_size=25))))
    made: list[Shift] = []
    target = grid
    for k in draw(st.lists(st.integers(0, 19), min_size=1, max_size=max_len)):
        if target.at(*ALL_SHIFTS[k].edge) != EMPTY:
            made.append(ALL_SHIFTS[k])
            target = ALL_SHIFTS[k].apply(target)
    assume(made)
    return grid, target, made


@PROPERTY
@given(scrambles())
def test_N4_every_sequence_found_really_turns_the_grid_and_is_no_longer(case):
    grid, target, made = case
    e = explain(grid, target, len(made))
    assert e.moves and e.length is not None and e.length <= len(made)
    assert all(replay(grid, m) == target for m in e.moves)
    idx = [tuple(ALL_SHIFTS.index(s) for s in m.shifts) for m in e.moves]
    assert idx == sorted(set(idx))
    for m in e.moves:
        assert all(b != a.opposite() for a, b in zip(m.shifts, m.shifts[1:], strict=False))
    assert {m.canonical() for m in e.moves} == {m.canonical() for g in e.groups() for m in g}


@PROPERTY
@given(scrambles(max_len=3))
def test_N4_all_shortest_sequences_match_brute_force_with_repeated_letters(case):
    grid, target, made = case
    truth = brute_force(grid.cells, target.cells, len(made))
    found = explain(grid, target, len(made))
    assert {tuple(ALL_SHIFTS.index(s) for s in m.shifts) for m in found.moves} == truth


@PROPERTY
@given(st.permutations("abcdefghijklmnopqrstuvwxy"), st.lists(st.integers(0, 19), max_size=3))
def test_N4_distinct_cards_shortest_length_is_the_bfs_truth(cells, seq):
    start = "".join(cells)
    target = start
    for k in seq:
        target = ref_apply(target, k)
    truth = brute_force(start, target, len(seq))
    found = shortest_sequences(start, target, len(seq))
    assert as_indices(found) == truth
    assert {len(s) for s in found} == {len(next(iter(truth)))}


def test_N4_distinct_cards_four_apart_meet_in_the_middle():
    start = "abcdefghijklmnopqrstuvwxy"
    target = start
    for k in (0, 10, 3, 15):  # r1< c1^ r2> c3v
        target = ref_apply(target, k)
    assert shortest_sequences(start, target, 3) == ()
    assert as_indices(shortest_sequences(start, target, 6)) == {(0, 10, 3, 15)}


# -- The command ----------------------------------------------------------------------------


def run(*argv: str) -> tuple[int, str]:
    """`companion rules explain ...` through a harness that handles errors as the dispatcher."""
    parser = argparse.ArgumentParser(prog="companion")
    rules = parser.add_subparsers(dest="command").add_parser("rules")
    register_explain(rules.add_subparsers(dest="rules_command"))
    out = io.StringIO()
    with redirect_stdout(out):
        args = parser.parse_args(["rules", "explain", *argv])
        try:
            code = int(args.handler(args))
        except ValueError as err:
            return 2, str(err)
    return code, out.getvalue()


def test_N4_cli_json_per_design():
    code, out = run("--from", str(G), "--to", str(after(G, "r2< c3^")), "--json")
    assert code == 0
    assert json.loads(out) == {
        "sequences": [["r2<", "c3^"]],
        "length": 2,
        "payments": [{"cards": ["C", "O"], "wildcards": 0, "min_hand": 2}],
    }
    code, out = run("--from", str(G), "--to", str(after(G, "r1<")), "--max-shifts", "0", "--json")
    assert (code, json.loads(out)) == (0, {"sequences": [], "searched": 0})


def test_P4_cli_hand_marks_what_it_may_pay():
    start = Grid("*ROGY/CBVPR/GGYOC/BVPRO/YGCBV")
    code, out = run("--from", str(start), "--to", str(after(start, "r1< r2<")), "--hand", "3")
    assert code == 0
    assert "r1< r2<  pays pearl (3 cards), C, hand >= 4  (not payable) (set 1)" in out
    assert "hand of 3: 0 payable" in out
    code, out = run("--from", str(start), "--to", str(after(start, "r1<")), "--json", "--hand", "3")
    assert json.loads(out)["payable"] == [True]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--from", "RROGY/CBVPR", "--to", str(G)], "2 rows"),
        (["--from", str(G), "--to", "RRRGY/CBVPR/GGYOC/BVPRO/YGCBV"], "different cards"),
        (["--from", str(G), "--to", str(G), "--max-shifts", "9"], "must be 0 to 6"),
        (["--from", str(G), "--to", str(G), "--hand", "-2"], "--hand -2"),
    ],
)
def test_N4_cli_bad_input_is_one_line_exit_2(argv, message):
    code, err = run(*argv)
    assert code == 2 and message in err and "\n" not in err


def _agreeing_every_path(start: Grid, reading: str, max_shifts: int) -> set[bytes]:
    """``explain._agreeing`` as it reads: every grid up to ``max_shifts`` shifts away,
    layer by layer, none left out."""
    cells = reading.replace("/", "")
    known = [(i, ord(ch)) for i, ch in enumerate(cells) if ch != "?"]
    layer = {start.cells.encode()}
    seen, found = set(layer), set()
    for depth in range(max_shifts + 1):
        found |= {g for g in layer if all(g[i] == ch for i, ch in known)}
        if len(found) > 1 or depth == max_shifts:
            break
        layer = {bytes(g[i] for i in permutation(s)) for g in layer
                 for s in ALL_SHIFTS if not s.wildcard} - seen
        seen |= layer
    return found


@pytest.mark.parametrize("seed", range(24))
def test_N4_settling_unsure_cells_finds_the_grids_every_path_finds(seed):
    """The search for the grids a reading with ``?`` cells agrees with leaves grids that
    no shifts left can bring into agreement unshifted: it finds what the search of every
    path finds (readings some shifts away, some cells unsure, some one card off)."""
    rng = random.Random(seed)
    start = Grid("".join(rng.choice("RROOYGCBVP") for _ in range(25)))
    seen = start
    for _ in range(rng.randint(0, 3)):
        seen = rng.choice([s for s in ALL_SHIFTS if not s.wildcard]).apply(seen)
    cells = list(seen.cells)
    for at in rng.sample(range(25), rng.randint(1, 8)):
        cells[at] = "?"
    if rng.random() < 0.3:  # a card no shift brings there
        at = rng.choice([i for i, ch in enumerate(cells) if ch != "?"])
        cells[at] = "G" if cells[at] != "G" else "B"
    reading = "/".join("".join(cells[row : row + 5]) for row in range(0, 25, 5))
    for depth in (1, 2, 3):
        assert _agreeing(start, reading, depth) == _agreeing_every_path(start, reading, depth)
