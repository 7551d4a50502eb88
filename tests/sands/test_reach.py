"""Which positions can happen (the check behind `sands advise`), against a walk of the rules."""

import itertools

import pytest

from companion.rules.sands import COLOURS, Bag, SandsState
from companion.sands.reach import max_points, reachable_scores, why_impossible

FULL = Bag(2, 1, 1, 2)


@pytest.fixture(scope="module")
def positions():
    """Every (bag, caller's score, other's score) the rules reach from 0-0, either first."""
    seen, todo = set(), [SandsState(FULL, (0, 0), 0), SandsState(FULL, (0, 0), 1)]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        if not state.ended:
            todo.extend(o.state for call in COLOURS for o in state.outcomes(call))
    return {(s.bag, s.scores[s.turn], s.scores[1 - s.turn]) for s in seen if not s.ended}


def test_D2_D6_reachable_positions_match_a_walk_of_the_rules(positions):
    top = 24
    for counts in itertools.product(*(range(n + 1) for n in FULL.counts())):
        bag = Bag(*counts)
        if bag.total == 0:
            continue
        can = reachable_scores(FULL, bag, top, top)
        walked = {(me, other) for b, me, other in positions if b == bag}
        assert {(int(a), int(b)) for a, b in zip(*can.nonzero(), strict=True)} == walked
    assert max(max(me, other) for _, me, other in positions) < top
    for bag, me, other in sorted(positions, key=str)[::97]:
        assert why_impossible(FULL, bag, (me, other)) is None


def test_D3_most_points_one_stone_brings():
    assert [max_points(c) for c in COLOURS] == [2, 2, 5, 12]


def test_D5_impossible_positions_say_why():
    full = Bag(12, 12, 12, 12)
    assert "at most 0 points" in why_impossible(full, full, (1, 0))
    # Two lilac stones out: 16 could only come from a success, which would have won (D5).
    assert "no sequence" in why_impossible(full, Bag(12, 12, 12, 10), (16, 0))
    assert why_impossible(full, Bag(12, 12, 12, 11), (12, 0)) is None
    # 12 for the other player from a lilac success: they would still be calling (D4).
    assert "no sequence" in why_impossible(full, Bag(12, 12, 12, 11), (0, 12))
