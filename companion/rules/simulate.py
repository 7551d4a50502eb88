"""Simulated games: a shuffled deck, simple players, a seeded ``random.Random`` passed in.

A simulation knows every card (``State.piles``), so its players pay only with cards they
hold. Its record replays through ``replay.replay`` like one written at a table.

>>> import random
>>> played = simulate(Game(players=2), random.Random(7), greedy, max_turns=300)
>>> played.state.ended, played.summary()["scores"]
(True, [44, 45])
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .combination import cleared_cells, find_combinations, phase_points
from .deck import Cards, Chance, Piles, ShuffledChance
from .game import GRID_GEMS_PEARL, HAND_START, Game
from .grid import GEMS, PEARL, SIZE, Grid
from .hint import payment
from .nizam import Turn, play
from .replay import Replay
from .shift import ALL_SHIFTS, Shift
from .state import NOTHING, State, start

__all__ = ["Policy", "deal", "greedy", "payable_shifts", "simulate", "wanderer"]

Policy = Callable[[Game, State, random.Random], Turn]
"""A player: picks the active player's turn from what they can see and their own hand."""


def payable_shifts(grid: Grid, hand: Cards) -> list[tuple[Shift, Cards]]:
    """Each shift ``hand`` can pay for on ``grid``, with the cards it would pay (N4, N5, P4).

    A matching card when the hand has one, else three cards (``Cards.spare``).
    """
    options = []
    for move in ALL_SHIFTS:
        paid = payment(grid, (move,), hand)
        if paid is not None:
            options.append((paid.shifts[0], paid.cards))
    return options


def _gain(game: Game, state: State, grid: Grid) -> int:
    """What the active player's scoring phase would bring on ``grid``, before any refill."""
    combos = find_combinations(grid, game.pearl)
    if game.pearl:
        return len({c.gem for c in combos} & set(state.tasks[state.active]))
    return phase_points(combos, game.options.bonus)


def _hand(state: State) -> Cards:
    if state.piles is None:
        raise ValueError("a simulated player needs to know its hand: the state has no piles")
    return state.piles.hands[state.active]


def greedy(game: Game, state: State, rng: random.Random) -> Turn:
    """The shift, or pair of shifts, that scores most now (cheapest first); else a draw."""
    hand = _hand(state)
    best: tuple[int, int, tuple[Shift, ...]] = (0, 0, ())
    firsts = payable_shifts(state.grid, hand)
    for move, paid in firsts:
        grid = move.apply(state.grid)
        best = max(best, (_gain(game, state, grid), -len(paid), (move,)), key=_rank)
    if best[0] == 0:
        for move, paid in firsts:
            grid = move.apply(state.grid)
            for second, paid2 in payable_shifts(grid, hand - paid):
                gain = _gain(game, state, second.apply(grid))
                best = max(best, (gain, -len(paid) - len(paid2), (move, second)), key=_rank)
    return Turn(best[2]) if best[0] > 0 else Turn()


def _rank(option: tuple[int, int, tuple[Shift, ...]]) -> tuple[int, int]:
    return option[0], option[1]


def wanderer(game: Game, state: State, rng: random.Random) -> Turn:
    """A random player: a draw, or one to three shifts it can pay for, chosen at random."""
    if rng.random() < 0.3:
        return Turn()
    hand, grid = _hand(state), state.grid
    moves: list[Shift] = []
    for _ in range(rng.randint(1, 3)):
        options = payable_shifts(grid, hand)
        if not options:
            break
        move, paid = rng.choice(options)
        moves.append(move)
        grid, hand = move.apply(grid), hand - paid
    return Turn(tuple(moves))


def deal(game: Game, rng: random.Random) -> State:
    """A simulated set-up that knows every card (N1, N2, P1–P3), shuffled by ``rng``."""
    if game.pearl:  # P1, P2: tasks aside; the grid is 3 of each type and the pearl
        grid_cards = list(GEMS * GRID_GEMS_PEARL + PEARL)
        deck = Cards.each(game.copies - GRID_GEMS_PEARL).letters()
    else:
        deck = Cards.each(game.copies).letters()
        grid_cards = []
    order = list(deck)
    rng.shuffle(order)
    if not game.pearl:
        grid_cards, order = order[:SIZE * SIZE], order[SIZE * SIZE:]
    rng.shuffle(grid_cards)
    hands = tuple(Cards.of("".join(order[HAND_START * p: HAND_START * (p + 1)]))
                  for p in range(game.players))
    rest = Cards.of("".join(order[HAND_START * game.players:]))
    grid = Grid("".join(grid_cards))
    if game.options.setup_lines == "replace":
        grid, rest = _replace_lines(game, grid, rest, ShuffledChance(rng))
    return start(game, grid, Piles(deck=rest, discard=NOTHING, hands=hands))


def _replace_lines(game: Game, grid: Grid, deck: Cards, chance: Chance) -> tuple[Grid, Cards]:
    """N2 ``replace``: return each combination's cards to the deck, shuffle, refill.

    The deck cannot run out here: the cards go back before any is taken.
    """
    while combos := find_combinations(grid, game.pearl):
        cells = [c for c in cleared_cells(combos) if grid.at(*c) != PEARL]
        deck = deck + Cards.of("".join(grid.at(*c) for c in cells))
        changes = {}
        for cell in cells:
            letter = chance.card(deck, to_grid=True)
            assert letter is not None
            changes[cell] = letter
            deck = deck - Cards.of(letter)
        grid = grid.replace(changes)
    return grid, deck


def simulate(game: Game, rng: random.Random, policy: Policy = greedy,
             max_turns: int = 1000) -> Replay:
    """Deal and play a game with ``policy`` for every player, to its end or ``max_turns``."""
    state = deal(game, rng)
    chance = ShuffledChance(rng)
    states, reports = [state], []
    while not state.ended and state.turn < max_turns:
        state, report = play(game, state, policy(game, state, rng), chance)
        states.append(state)
        reports.append(report)
    return Replay(game, tuple(states), tuple(reports))
