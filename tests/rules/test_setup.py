"""Setting up: N1 deal, N2 setup lines, and Pearl's P1 tasks, P2 grid, P3 deck."""

import random

import pytest

from companion.rules.combination import find_combinations
from companion.rules.game import Game, OptionError, Options, RuleError
from companion.rules.grid import GEMS, PEARL, Grid
from companion.rules.nizam import check_table_grid
from companion.rules.simulate import deal
from companion.rules.state import conservation_errors, start

from ._helpers import CALM, turn

KEEP = Options(setup_lines="keep")


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_N1_25_on_the_grid_3_in_each_hand_the_rest_in_the_deck(players):
    game = Game(players=players)
    state = start(game, Grid.parse(CALM))
    assert state.deck == 96 - 25 - 3 * players
    assert state.hands == (3,) * players
    assert (state.discard, state.scores, state.active, state.turn) == (0, (0,) * players, 0, 0)


@pytest.mark.parametrize("players", [0, 6, True, "3"])
def test_N1_one_to_five_players(players):
    with pytest.raises(OptionError, match="players"):
        Game(players=players)


@pytest.mark.parametrize(
    "grid, why",
    [
        ("ROYGC/BVPRO/YGCBV/PROYG/CBVP.", "empty"),
        ("ROYGC/BVPRO/YGCBV/PROYG/CBVP*", "pearl"),
        ("RRRRR/RRRRR/RROBV/POOYG/CBVPR", "13 R"),
    ],
)
def test_N1_a_grid_to_start_from_is_full_and_possible(grid, why):
    with pytest.raises(RuleError, match=why) as err:
        start(Game(options=KEEP), Grid.parse(grid))
    assert err.value.rule == "N1"


@pytest.mark.parametrize("seed", range(6))
def test_N2_replace_leaves_no_line_and_keeps_the_counts(seed):
    game = Game(players=4)
    state = deal(game, random.Random(seed))
    assert find_combinations(state.grid) == ()
    assert state.deck == 96 - 25 - 12
    assert conservation_errors(game, state) == []


def test_N2_replace_is_the_default_and_keep_deals_the_grid_as_it_comes():
    assert Options().setup_lines == "replace"
    found_lines = 0
    for seed in range(30):
        state = deal(Game(options=KEEP), random.Random(seed))
        found_lines += bool(find_combinations(state.grid))
    assert found_lines > 0  # some dealt grids hold lines, and keep leaves them


def test_N2_keep_first_scoring_phase_scores_the_dealt_lines():
    game = Game(players=2, options=KEEP)
    state = start(game, Grid.parse("RRRGC/BVPRO/YGCBV/PROYG/CBVPR"))
    after, report = turn(game, state, "draw", refill="BOP")
    assert [str(c) for c in report.combinations] == ["R×3 r1c1-r1c3"]
    assert after.scores == (3, 0)
    assert after.grid.row(1) == "BOPGC"


def test_P1_each_player_lays_out_one_task_of_each_type():
    game = Game("pearl", 3)
    state = start(game, Grid.parse("*" + CALM[1:]))
    assert state.tasks == (GEMS,) * 3
    assert conservation_errors(game, state) == []


@pytest.mark.parametrize("seed", range(4))
def test_P2_grid_is_24_gems_and_the_pearl_and_the_pearl_is_never_returned(seed):
    for lines in ("replace", "keep"):
        game = Game("pearl", 2, Options(setup_lines=lines))
        state = deal(game, random.Random(seed))
        assert state.grid.count(PEARL) == 1
        assert sum(state.grid.count(g) for g in GEMS) == 24
        if lines == "keep":
            assert all(state.grid.count(g) == 3 for g in GEMS)
        else:
            assert find_combinations(state.grid, pearl=True) == ()


def test_P2_keep_grid_must_be_three_of_each_type_and_one_pearl():
    game = Game("pearl", 2, KEEP)
    with pytest.raises(RuleError, match="pearl") as err:
        start(game, Grid.parse(CALM))
    assert err.value.rule == "P2"
    with pytest.raises(RuleError, match="3 cards of each type"):
        start(game, Grid.parse("*OYGC/BVPRO/YGCBV/PROYG/CBVPP"))


@pytest.mark.parametrize("players, deck", [(1, 61), (2, 50), (3, 39), (4, 28), (5, 17)])
def test_P3_deck_is_96_less_tasks_less_grid_less_hands(players, deck):
    game = Game("pearl", players)
    assert game.setup_deck == deck == 96 - 8 * players - 24 - 3 * players
    state = deal(game, random.Random(players))
    assert state.deck == deck
    assert state.hands == (3,) * players


@pytest.mark.parametrize("grid, pearl, rule", [
    ("RRRRR/RRRRR/RRROO/OOOOO/GGGGG", None, "N15"),  # 13 R: there are 12
    ("*RRRR/RRRRR/RRROO/OOOOO/GGGGG", True, "N15"),  # 12 R: 11 once the tasks are out (P1)
    ("*ROGY/CBVPR/GGYOC/BVPRO/YGCBV", False, "N1"),  # a pearl in classic Nizam
    ("RROGY/CBVPR/GGYOC/BVPRO/YGCBV", True, "P2"),  # Pearl of the East without its pearl
    ("**OGY/CBVPR/GGYOC/BVPRO/YGCBV", None, "P2"),  # two pearls: there is one
])
def test_N15_N1_P2_a_grid_no_table_can_hold_is_refused(grid, pearl, rule):
    with pytest.raises(RuleError) as refused:
        check_table_grid(Grid.parse(grid), pearl)
    assert refused.value.rule == rule


def test_N15_a_grid_a_table_can_hold_passes_in_either_mode():
    grid = Grid.parse("*ROGY/CBVPR/GGYOC/BVPRO/YGCBV")
    assert check_table_grid(grid, True) is grid and check_table_grid(grid) is grid
    assert check_table_grid(Grid.parse("RROGY/CBVPR/GGYOC/BVPRO/YGCBV"), False)
