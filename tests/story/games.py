"""Games played through the real sessions into a real game database, for the story tests
and their screenshots: one by hand (its points worked out in the docstrings), a whole
simulated Nizam game to its end, and a short game of The Desert Sands."""

import random

from companion.rules.game import Game
from companion.rules.grid import Grid
from companion.rules.sands import Bag
from companion.rules.shift import Shift
from companion.rules.simulate import greedy, simulate
from companion.session.nizam import TableSession
from companion.session.sands import SandsSession
from tests.session.test_table_session import drive

SETUP = "RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"
SMALL = Bag.parse("r2y2g2l2")


def rows(grid):
    return str(grid).split("/")


def hand_game(store):
    """Ann: r2< makes R R R down column 1 (3); the refill O B B makes B B B under it, a
    cascade (3 + the flat bonus 1): 7 in all. Bob draws, Ann draws."""
    s = TableSession.new(store, Game("classic", 2), ["Ann", "Bob"])
    s.on_reading(rows(Grid(SETUP)))
    grid = Shift.parse("r2<").apply(Grid(SETUP))
    s.on_reading(rows(grid))
    s.tap("end_turn")
    grid = grid.replace({(1, 1): ".", (2, 1): ".", (3, 1): "."})
    s.on_reading(rows(grid))
    grid = grid.replace({(1, 1): "O", (2, 1): "B", (3, 1): "B"})
    s.on_reading(rows(grid))
    grid = grid.replace({(2, 1): ".", (3, 1): ".", (4, 1): "."})
    s.on_reading(rows(grid))
    s.on_reading(rows(grid.replace({(2, 1): "G", (3, 1): "C", (4, 1): "R"})))
    s.tap("draw")
    s.tap("draw")
    assert s.message == "" and s.state.rules.scores == (7, 0)
    return s.game_id


def sands_game(store):
    """Ann: red, drew yellow (+1); green, drew lilac (fails). Bob: lilac, drew lilac (+12)."""
    s = SandsSession.new(store, SMALL, ["Ann", "Bob"], table_provider=lambda: None)
    for call, drawn in (("red", "yellow"), ("green", "lilac"), ("lilac", "lilac")):
        s.tap("call", call)
        s.tap("drawn", drawn)
        assert s.message == ""
    return s.game_id


def whole_game(store, mode="classic", seed=4, names=("Ann", "Bob")):
    """A simulated game to its end, fed to the session as the camera and taps would."""
    game = Game(mode, len(names))
    played = simulate(game, random.Random(seed), greedy, max_turns=400)
    session = TableSession.new(store, game, list(names))
    drive(session, played)
    return session, played
