"""Real games staged for the screenshots: the rules' simulator plays a seeded game, and its
moves reach a real ``TableSession`` the way the camera and the players would bring them
(stable readings of the grid and taps), with a synthetic camera picture of the table.

So every screen shot shows what a table meets: scores from real scoring, a game over with
a real winner, a move refused by the real rules (a player with no card to pay).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np

from companion.rules.combination import cleared_cells
from companion.rules.game import Game, Options
from companion.rules.grid import EMPTY, PEARL, Grid
from companion.rules.replay import Replay
from companion.rules.shift import Shift
from companion.rules.simulate import greedy, simulate
from companion.session.kinds import TABLE_SCREEN
from companion.session.nizam import TableSession
from companion.store import GameStore
from companion.view import TableView

LONG_NAMES = ("Oleksandra Kovalenko", "Maximilian Oberhaus", "Bartholomew Ashcroft",
              "Anastasia Wojcikowska", "Christopher Fairweat")
"""Five names of 20 characters or about: the longest the start screen takes."""


class StagedTable:
    """A table controller (``companion.view.TableController``) over a real session, fed by
    hand: ``see(grid)`` is a stable camera reading; ``camera()`` a synthetic picture of it."""

    kind: Literal["table"] = TABLE_SCREEN

    def __init__(self, session: TableSession, seed: int = 3) -> None:
        self.session = session
        self.seed = seed
        self.layout: str | None = None
        """The cards as they lie, for the picture, when the reading has cells unsure."""
        self._picture: tuple[str, Any] | None = None

    def view(self) -> TableView:
        return self.session.view()

    def tap(self, action: str, *args: Any) -> None:
        self.session.tap(action, *args)

    def close(self) -> None:
        """Nothing to let go of: no camera, no thread."""

    def see(self, grid: Grid) -> None:
        self.session.on_reading(str(grid).split("/"))

    def camera(self) -> tuple[Any, Any]:
        rows = self.session.reading or "/".join(self.view().grid)
        if "?" in rows and self.layout is not None:
            rows = self.layout
        if self._picture is None or self._picture[0] != rows:
            self._picture = (rows, _shoot(rows.split("/"), self.seed))
        return self._picture[1]


def _shoot(rows: Sequence[str], seed: int) -> tuple[np.ndarray, np.ndarray]:
    from tools.recorder import card_colours
    from tools.synthetic import Conditions, render_scene

    conditions = Conditions(tilt=12.0, tilt_dir=30.0, roll=4.0, jitter_mm=1.0,
                            jitter_deg=1.5, cloth="felt", kelvin=4800.0, fill=0.85)
    scene = render_scene(np.random.default_rng(seed), card_colours(), conditions=conditions,
                         labels=tuple(rows))
    return scene.image, scene.corners


def play_turns(table: StagedTable, played: Replay, turns: int | None = None) -> None:
    """The first ``turns`` turns of ``played`` (all: None) brought to the session."""

    def went_astray(_report: Any) -> None:
        if table.session.message:
            raise ValueError(f"the staged game went astray: {table.session.message}")

    play_out(played, table.session, table.see, table.tap, turns, went_astray)


def play_out(
    played: Replay, session: TableSession, see: Callable[[Grid], None],
    tap: Callable[[str], None], turns: int | None = None,
    after_turn: Callable[[Any], None] | None = None,
) -> None:
    """What the camera and the players would give ``session`` for the first ``turns`` turns
    of a simulated game (all: None): each grid seen through ``see``, each button through
    ``tap``; ``after_turn`` is told each turn's report once it is played."""
    if session.state.grid is None:
        see(played.states[0].grid)
    for before, report in list(zip(played.states, played.reports, strict=False))[:turns]:
        grid = before.grid
        if report.turn.is_draw:
            tap("draw")
        else:
            for move in report.turn.shifts:
                grid = move.plain().apply(grid)
                see(grid)
                if move.wildcard and not session.state.shifts[-1].wildcard:
                    tap("wildcard")
            tap("end_turn")
        for scoring in report.rounds:
            if scoring.cleared and scoring.combinations:
                cells = [c for c in cleared_cells(scoring.combinations) if grid.at(*c) != PEARL]
                grid = grid.replace({cell: EMPTY for cell in cells})
                see(grid)
            if scoring.laid:
                grid = grid.replace(dict(zip(grid.empty_cells(), scoring.laid, strict=False)))
                see(grid)
        if after_turn is not None:
            after_turn(report)


def staged_game(store: GameStore, names: Sequence[str], *, mode: str = "classic",
                seed: int = 0, turns: int | None = 6) -> StagedTable:
    """A new game in ``store`` with ``names``, ``turns`` turns played (to the end: None)."""
    game = Game(mode, len(names))
    played = simulate(game, random.Random(seed), greedy, max_turns=400)
    table = StagedTable(TableSession.new(store, game, names), seed)
    play_turns(table, played, turns)
    return table


def before_refusal(store: GameStore, names: Sequence[str],
                   seed: int = 0) -> tuple[StagedTable, Grid]:
    """A game played up to the first turn whose player holds no card, and the grid a shift
    of a row by that player would make (the rules refuse it: N4)."""
    game = Game("classic", len(names))
    played = simulate(game, random.Random(seed), greedy, max_turns=400)
    broke = next((i for i, s in enumerate(played.states[:-1]) if s.hands[s.active] == 0
                  and i > 0), None)
    if broke is None:
        raise ValueError(f"seed {seed}: no player ran out of cards; try another seed")
    table = StagedTable(TableSession.new(store, game, names), seed)
    play_turns(table, played, broke)
    grid = table.session.state.grid
    assert grid is not None
    move = next(m for m in (Shift("r", i, "<") for i in range(2, 6)) if m.apply(grid) != grid)
    return table, move.apply(grid)


def refused_move(store: GameStore, names: Sequence[str], seed: int = 0) -> StagedTable:
    """``before_refusal``'s game, the refused shift seen: the screen shows it refused and
    how to put it back."""
    table, wrong = before_refusal(store, names, seed)
    table.see(wrong)
    return table


def opening_unsure(store: GameStore, names: Sequence[str], seed: int = 0,
                   unsure: tuple[tuple[int, int], ...] = ((3, 1),),
                   unread_cards: str = "ask") -> StagedTable:
    """A new game whose opening layout the camera reads with the cards of ``unsure`` as
    ``?`` on every frame (colours the calibration did not cover): the screen waits for a
    player to tap each and name it (``unread_cards="ask"``), or, a card or two, the game
    starts with them under a provisional name (``"provisional"``)."""
    game = Game("classic", len(names), Options(unread_cards=unread_cards))
    layout = simulate(game, random.Random(seed), greedy, max_turns=1).states[0].grid
    table = StagedTable(TableSession.new(store, game, names), seed)
    table.layout = str(layout)
    read = [list(row) for row in table.layout.split("/")]
    for row, col in unsure:
        read[row - 1][col - 1] = "?"
    table.session.on_reading(["".join(row) for row in read])
    return table


def misread_named(store: GameStore, names: Sequence[str]) -> StagedTable:
    """A game whose opening layout the camera reads with a ruby (r3c1) as an amber, sure,
    on every frame: the first player's shift lines up three rubies, nothing scores; the
    players clear them, and the rules name the card (``session.misread``): the screen says
    so and the scores are counted again."""
    game = Game("classic", len(names))
    table = StagedTable(TableSession.new(store, game, names))
    read = Grid("RGOGY/CRVPB/OGYOC/BVPRO/YGCBV")  # the truth: r3c1 a ruby
    table.see(read)
    moved = Shift("r", 2, "<").apply(read)
    table.see(moved)
    table.tap("end_turn")
    table.see(moved.replace({(1, 1): EMPTY, (2, 1): EMPTY, (3, 1): EMPTY}))
    return table


def finished_game(store: GameStore, names: Sequence[str], seed: int = 1) -> int:
    """A whole game played to its end in ``store`` (a real winner); its id."""
    table = staged_game(store, names, seed=seed, turns=None)
    if not table.view().ended:
        raise ValueError(f"seed {seed}: the game did not end")
    return table.session.game_id

