"""Shared set-ups for the rules tests: grids and mid-game states whose counts add up (N15)."""

import random
from dataclasses import replace

from companion.rules.deck import Cards, RefillChance
from companion.rules.game import Game
from companion.rules.grid import EMPTY, GEMS, PEARL, Grid
from companion.rules.nizam import Turn, play
from companion.rules.state import State, conservation_errors, start

CALM = "ROYGC/BVPRO/YGCBV/PROYG/CBVPR"
"""A full grid without a combination: every row and column holds five types."""


def mid_game(game: Game, grid: str, deck: int, discard: int, hands=None, **fields) -> State:
    """A state with the given piles; unless given, the hands hold the rest, player 0 most."""
    g = Grid.parse(grid)
    base = start(game, Grid.parse(CALM if not game.pearl else "*" + CALM[1:]))
    gems = sum(1 for letter in g.cells if letter in "ROYGCBVP")
    if hands is None:
        rest = game.in_play - gems - deck - discard
        share, extra = divmod(rest, game.players)
        hands = (share + extra,) + (share,) * (game.players - 1)
    state = replace(base, grid=g, deck=deck, discard=discard, hands=tuple(hands), **fields)
    assert conservation_errors(game, state) == [], conservation_errors(game, state)
    return state


def turn(game: Game, state: State, text: str, refill: str = ""):
    """Play one turn from its notation; the refill letters must all be laid."""
    chance = RefillChance(refill)
    after, report = play(game, state, Turn.parse(text), chance)
    assert chance.left == "", f"refill {chance.left!r} not laid"
    return after, report


def dealt(rng: random.Random, pearl: bool, hand: int | None = None, kinds: int = 8,
          empties: int = 0) -> tuple[Grid, Cards]:
    """A grid and a hand dealt from a shuffled deck of the first ``kinds`` gem types (11 of
    each with the pearl on a random cell in Pearl, 12 in Nizam), ``empties`` cells emptied
    (never the pearl's); the hand ``hand`` cards, or 0 to 8 when not given."""
    copies = 11 if pearl else 12
    deck = [g for g in GEMS[:kinds] for _ in range(copies)]
    rng.shuffle(deck)
    cells = deck[:25]
    if pearl:
        cells[rng.randrange(25)] = PEARL
    for i in rng.sample(range(25), empties):
        if cells[i] != PEARL:
            cells[i] = EMPTY
    size = rng.randrange(0, 9) if hand is None else hand
    return Grid("".join(cells)), Cards.of("".join(deck[25 : 25 + size]))
