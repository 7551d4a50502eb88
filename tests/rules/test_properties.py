"""Properties over many grids, shifts and seeded games (hypothesis; few examples, fast)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.combination import find_combinations
from companion.rules.deck import ShuffledChance
from companion.rules.game import Game, Options
from companion.rules.grid import GEMS, Grid
from companion.rules.nizam import Turn, draw, end_turn, play, refill, score, shift
from companion.rules.shift import ALL_SHIFTS, Shift, format_shifts, parse_shifts
from companion.rules.simulate import deal, greedy, payable_shifts, simulate, wanderer
from companion.rules.state import conservation_errors

grids = st.text(alphabet=GEMS + "*.", min_size=25, max_size=25).map(Grid)
shifts = st.builds(lambda s, w: s.with_wildcard(w), st.sampled_from(ALL_SHIFTS), st.booleans())
options = st.builds(Options, st.sampled_from(["replace", "keep"]),
                    st.sampled_from(["flat", "rising"]), st.sampled_from(["score", "leave"]))
FAST = settings(max_examples=25, deadline=None)


@FAST
@given(grids)
def test_notation_grid_round_trips(grid):
    assert Grid.parse(str(grid)) == grid
    assert eval(repr(grid)) == grid


@FAST
@given(st.lists(shifts, max_size=6))
def test_notation_shifts_round_trip(moves):
    assert list(parse_shifts(format_shifts(moves))) == moves
    assert all(eval(repr(m)) == m for m in moves)
    assert Turn.parse(str(Turn(tuple(moves)))) == Turn(tuple(moves))


@FAST
@given(grids, shifts)
def test_N4_a_shift_then_its_opposite_gives_the_grid_back(grid, move):
    before = str(grid)
    assert move.opposite().apply(move.apply(grid)) == grid
    assert str(grid) == before  # applying a shift never changes its input


@FAST
@given(grids, st.lists(shifts, min_size=1, max_size=4))
def test_N4_shifts_keep_the_cards_on_the_grid(grid, moves):
    after = grid
    for move in moves:
        after = move.apply(after)
    assert sorted(after.cells) == sorted(grid.cells)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["classic", "pearl"]), st.integers(1, 5), options)
def test_N15_every_step_of_a_random_turn_conserves_the_cards(seed, mode, players, opts):
    game = Game(mode, players, opts)
    rng = random.Random(seed)
    state = deal(game, rng)
    chance = ShuffledChance(rng)
    for _ in range(12):
        options_now = payable_shifts(state.grid, state.piles.hands[state.active])
        if options_now and rng.random() < 0.7:
            move, _ = rng.choice(options_now)
            state = shift(game, state, move)
        else:
            state = draw(game, state, chance)
        assert conservation_errors(game, state) == []
        while True:
            state, found = score(game, state)
            assert conservation_errors(game, state) == []
            if state.ended:
                break
            state, laid = refill(game, state, chance)
            assert conservation_errors(game, state) == []
            if not laid or opts.cascades == "leave":
                break
        state = end_turn(game, state)
        assert conservation_errors(game, state) == []
        if state.ended:
            break


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["classic", "pearl"]), st.integers(1, 5))
def test_N15_playing_a_turn_never_changes_its_input_state(seed, mode, players):
    game = Game(mode, players)
    rng = random.Random(seed)
    state = deal(game, rng)
    for _ in range(5):
        snapshot = repr(state)
        turn = wanderer(game, state, rng)
        after, _ = play(game, state, turn, ShuffledChance(rng))
        assert repr(state) == snapshot
        state = after


@pytest.mark.parametrize("mode", ["classic", "pearl"])
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_N12_P9_seeded_games_reach_their_end_with_every_invariant(mode, players):
    for seed in range(2):
        policy = wanderer if mode == "classic" or seed else greedy
        played = simulate(Game(mode, players), random.Random(seed), policy, max_turns=1500)
        assert played.state.ended, f"{mode} {players} players, seed {seed}: no end"
        for state in played.states:
            assert conservation_errors(played.game, state) == []
        if mode == "classic":
            assert played.state.runs_out == players
        else:
            assert min(len(t) for t in played.state.tasks) == 0


@settings(max_examples=20, deadline=None)
@given(grids, st.lists(shifts, max_size=3))
def test_P5_classic_combinations_are_pearl_combinations_without_the_pearl(grid, moves):
    for move in moves:
        grid = move.apply(grid)
    if "*" not in grid.cells:
        assert find_combinations(grid) == find_combinations(grid, pearl=True)
    for c in find_combinations(grid, pearl=True):
        letters = {grid.at(*cell) for cell in c.cells}
        assert c.gem in letters and letters <= {c.gem, "*"} and 3 <= len(c.cells) <= 5


def test_notation_shift_parse_of_every_shift():
    for move in ALL_SHIFTS:
        for wild in (False, True):
            m = move.with_wildcard(wild)
            assert Shift.parse(str(m)) == m
