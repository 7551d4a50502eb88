"""The hint (companion.rules.hint) against an exhaustive search written the plain way:
every sequence of shifts, every way to mark each shift paid by one card or by three, the
payment checked card by card, and the grid scored by ``find_combinations`` (N4–N8, P4–P6)."""

import itertools
import random

import pytest

from companion.rules.combination import find_combinations, phase_points
from companion.rules.deck import Cards
from companion.rules.game import RuleError
from companion.rules.grid import EMPTY, GEMS, PEARL, Grid
from companion.rules.hint import best_turns, check_hand, check_tasks, legal_shifts, payment
from companion.rules.shift import ALL_SHIFTS, WILDCARD_COST, Shift, parse_shifts

from ._helpers import dealt


def _pays(grid: Grid, shifts, marks, hand: Cards) -> Cards | None:
    """The cards matching payments take from ``hand`` when ``marks`` (True: three cards)
    are how the shifts are paid, or None when the hand cannot pay them so."""
    left = Cards(hand.counts)
    wild = 0
    for move, three in zip(shifts, marks, strict=True):
        edge = grid.at(*move.edge)
        if edge == EMPTY:
            return None
        if three:
            wild += 1
        elif edge == PEARL or not left.holds(Cards.of(edge)):
            return None
        else:
            left = left - Cards.of(edge)
        grid = move.apply(grid)
    return left if len(left) >= WILDCARD_COST * wild else None


def _score(grid: Grid, bonus: str, tasks: str | None) -> tuple[int, str]:
    combos = find_combinations(grid, tasks is not None)
    if tasks is None:
        return phase_points(combos, bonus), ""
    done = "".join(g for g in GEMS if g in tasks and any(c.gem == g for c in combos))
    return len(done), done


def brute_force(grid: Grid, hand: Cards, bonus="flat", tasks=None, max_shifts=2):
    """(best points, {plain shift sequences}, {sequence: set of payable markings})."""
    best, shortest, found, markings = 0, max_shifts + 1, set(), {}
    for k in range(1, max_shifts + 1):
        for seq in itertools.product(ALL_SHIFTS, repeat=k):
            ok = {m for m in itertools.product((False, True), repeat=k)
                  if _pays(grid, seq, m, hand) is not None}
            if not ok:
                continue
            after = grid
            for move in seq:
                after = move.apply(after)
            points, _ = _score(after, bonus, tasks)
            markings[seq] = ok
            if points > best or (points == best and k < shortest):
                best, shortest, found = points, k, {seq}
            elif points == best and k == shortest:
                found.add(seq)
    return best, (found if best else set()), markings


CASES = [(seed, pearl, kinds, empties)
         for seed in range(8) for pearl in (False, True)
         for kinds, empties in ((4, 0), (6, 2), (8, 0))]


@pytest.mark.parametrize("seed,pearl,kinds,empties", CASES)
def test_N4_N5_N8_P4_P6_hint_matches_brute_force(seed, pearl, kinds, empties):
    rng = random.Random(seed * 97 + kinds)
    grid, hand = dealt(rng, pearl, kinds=kinds, empties=empties)
    tasks = "".join(rng.sample(GEMS, rng.randrange(1, 9))) if pearl else None
    bonus = rng.choice(("flat", "rising"))
    best, found, markings = brute_force(grid, hand, bonus, tasks)
    hint = best_turns(grid, hand, bonus_rule=bonus, tasks=tasks, max_shifts=2)
    assert hint.points == best
    assert {tuple(s.plain() for s in t.shifts) for t in hint.turns} == found
    assert len(hint.turns) == len(found)  # each best turn once
    for turn in hint.turns:
        plain = tuple(s.plain() for s in turn.shifts)
        assert tuple(s.wildcard for s in turn.shifts) in markings[plain]
        _check_cards(grid, turn, hand)
        after = grid
        for move in plain:
            after = move.apply(after)
        assert _score(after, bonus, tasks) == (turn.points, turn.tasks)


def _check_cards(grid: Grid, turn, hand: Cards) -> None:
    """The cards a turn spends come from the hand and pay each shift as marked (N4, N5)."""
    assert hand.holds(turn.cards)
    assert len(turn.cards) == sum(s.cost for s in turn.shifts)
    matched = ""
    for move in turn.shifts:
        if not move.wildcard:
            matched += grid.at(*move.edge)
        grid = move.apply(grid)
    assert turn.cards.holds(Cards.of(matched))


@pytest.mark.parametrize("seed,pearl", [(1, False), (2, True), (3, False)])
def test_N4_N5_P4_hint_matches_brute_force_three_shifts(seed, pearl):
    rng = random.Random(1000 + seed)
    grid, hand = dealt(rng, pearl, kinds=5)
    tasks = GEMS if pearl else None
    best, found, _ = brute_force(grid, hand, tasks=tasks, max_shifts=3)
    hint = best_turns(grid, hand, tasks=tasks, max_shifts=3)
    assert hint.points == best
    assert {tuple(s.plain() for s in t.shifts) for t in hint.turns} == found


def test_N7_N8_hint_counts_the_bonus_and_prefers_fewer_shifts():
    grid = Grid("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV")
    hint = best_turns(grid, Cards.of("C"), max_shifts=3)
    assert hint.points == 3
    assert [str(t) for t in hint.turns] == ["r2< (3 points, pays C)"]
    # two lines at once (R R R in row 1, G G G in row 2): 3 + 3 + the N8 bonus of 1
    two = Grid("RRGYB/GGCVO/YBPOV/CVYPO/BPRCY")
    for rule in ("flat", "rising"):
        h = best_turns(two, Cards.of("R"), bonus_rule=rule, max_shifts=1)
        assert [str(t) for t in h.turns] == ["c3v (7 points, pays R)"]
        assert [str(c) for c in h.turns[0].combinations] == ["R×3 r1c1-r1c3", "G×3 r2c1-r2c3"]


def test_N4_nothing_scores_without_cards_to_pay():
    grid = Grid("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV")
    hint = best_turns(grid, Cards(), max_shifts=3)
    assert (hint.points, hint.turns) == (0, ())
    assert hint.to_json() == {"points": 0, "turns": []}


def test_N5_three_cards_pay_any_shift():
    grid = Grid("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV")
    hint = best_turns(grid, Cards.of("YYO"), max_shifts=1)
    assert [str(s) for t in hint.turns for s in t.shifts] == ["r2<!3"]
    assert hint.turns[0].cards == Cards.of("YYO")


def test_P4_the_pearl_always_costs_three():
    grid = Grid("*ROGY/CBVPR/GGYOC/BVPRO/YGCBV")
    assert payment(grid, parse_shifts("r1<"), Cards.of("RG")) is None
    paid = payment(grid, parse_shifts("r1<"), Cards.of("RGB"))
    assert paid is not None and paid.shifts == parse_shifts("r1<!3")
    assert Shift.parse("r1<") not in legal_shifts(grid, Cards.of("RGB" * 2))
    assert Shift.parse("r1<!3") in legal_shifts(grid, Cards.of("RGB"))


def test_N4_an_empty_edge_cannot_move():
    grid = Grid(".ROGY/CBVPR/GGYOC/BVPRO/YGCBV")
    assert payment(grid, parse_shifts("r1<"), Cards.of("RRRRRR")) is None
    assert all(s.edge != (1, 1) for s in legal_shifts(grid, Cards.of("RRRRRR")))


def test_N15_a_hand_beside_the_grid_cannot_hold_more_than_the_box():
    grid = Grid("RRRRR/RRRRR/OOOOO/YYYYY/GGGGG")
    assert check_hand(grid, Cards.of("RR")) == Cards.of("RR")
    with pytest.raises(RuleError, match="N15: the hand holds 3 R and the grid 10"):
        check_hand(grid, Cards.of("RRR"))
    with pytest.raises(RuleError, match="P1"):  # in Pearl, one R is a task card
        check_hand(grid, Cards.of("RR"), pearl=True)


def test_P1_tasks_are_each_gem_once():
    assert check_tasks("GR") == "RG"
    for bad in ("", "RR", "RX"):
        with pytest.raises(ValueError):
            check_tasks(bad)
