"""A whole game (N1–N13, P1–P9) in which one opening card and one refilled card read ``?``
on every reading the camera gives, wherever they move, until they leave the grid: laid under
provisional names, settled by the rules (or never, when no move depended on them), the
game ends with the truth's scores, deck, discard pile and run-outs."""

import random

import pytest

from companion.rules.combination import cleared_cells
from companion.rules.game import Game
from companion.rules.grid import EMPTY, PEARL, SIZE
from companion.rules.record import parse_record
from companion.rules.replay import replay
from companion.rules.shift_paths import permutation
from companion.rules.simulate import greedy, simulate
from companion.session.nizam import TableSession
from companion.store import GameStore


class UnreadCamera:
    """What the camera gives a session of a simulated game when the cards numbered in
    ``unread`` (in the order they were laid: the 25 of the setup, then each refill's) read
    ``?`` on every reading: it follows every card as it moves."""

    def __init__(self, session, unread):
        self.session = session
        self.unread = set(unread)
        self.cards = list(range(SIZE * SIZE))
        self.laid = SIZE * SIZE

    def see(self, grid):
        flat = [("?" if card in self.unread and x != EMPTY else x)
                for x, card in zip(grid.cells, self.cards, strict=True)]
        text = "".join(flat)
        self.session.on_reading([text[i:i + SIZE] for i in range(0, SIZE * SIZE, SIZE)])

    def shift(self, move):
        source = permutation(move)
        self.cards = [self.cards[source[i]] for i in range(SIZE * SIZE)]

    def clear(self, cells):
        for row, col in cells:
            self.cards[(row - 1) * SIZE + col - 1] = -1

    def lay(self, cells):
        for row, col in cells:
            self.cards[(row - 1) * SIZE + col - 1] = self.laid
            self.laid += 1


def tap(session, camera, grid, action):
    """A tap; refused while a card laid unread bears a wrong name (the prompt says which
    card the camera cannot read), the players name each such card and tap again."""
    session.tap(action)
    if not session.message:
        return
    for i, (card, x) in enumerate(zip(camera.cards, grid.cells, strict=True)):
        row, col = i // SIZE + 1, i % SIZE + 1
        if card in camera.unread and x != EMPTY and session.state.grid.at(row, col) != x:
            session.tap("fix", row, col, x)
    session.tap(action)


def play(played, session, camera):
    """The camera's readings and the players' taps of ``played``, as ``tools.showcase``
    gives them, through ``camera``."""
    camera.see(played.states[0].grid)
    for before, report in zip(played.states, played.reports, strict=False):
        grid = before.grid
        if report.turn.is_draw:
            tap(session, camera, grid, "draw")
        else:
            for move in report.turn.shifts:
                grid = move.plain().apply(grid)
                camera.shift(move.plain())
                camera.see(grid)
                if move.wildcard and not session.state.shifts[-1].wildcard:
                    tap(session, camera, grid, "wildcard")
            tap(session, camera, grid, "end_turn")
        for scoring in report.rounds:
            if scoring.cleared and scoring.combinations:
                cells = [c for c in cleared_cells(scoring.combinations) if grid.at(*c) != PEARL]
                grid = grid.replace({cell: EMPTY for cell in cells})
                camera.clear(cells)
                camera.see(grid)
            if scoring.laid:
                cells = grid.empty_cells()[: len(scoring.laid)]
                grid = grid.replace(dict(zip(cells, scoring.laid, strict=False)))
                camera.lay(cells)
                camera.see(grid)


@pytest.mark.parametrize("mode, players, seed, unread", [
    ("classic", 2, 1, (12, 25)), ("classic", 3, 5, (0, 27)), ("classic", 2, 7, (7, 30)),
    ("pearl", 2, 3, (12, 26)), ("classic", 2, 13, (18, 40)), ("classic", 4, 21, (3, 33)),
])
def test_N9_N13_a_game_with_an_opening_and_a_refilled_card_never_read_ends_as_played(
        tmp_path, mode, players, seed, unread):
    game = Game(mode, players)
    played = simulate(game, random.Random(seed), greedy, max_turns=400)
    session = TableSession.new(GameStore(tmp_path / "games.sqlite"), game,
                               [f"P{i}" for i in range(players)])
    play(played, session, UnreadCamera(session, unread))
    rules, truth = session.state.rules, played.state
    assert rules is not None
    end = (rules.scores, rules.deck, rules.discard, rules.runs_out, rules.ended)
    assert end == (truth.scores, truth.deck, truth.discard, truth.runs_out, truth.ended)
    kinds = [e["kind"] for e in session.events()]
    assert [e.get("unread") for e in session.events() if e["kind"] == "setup"] == [
        [[unread[0] // SIZE + 1, unread[0] % SIZE + 1]]]
    assert any(e.get("unread") for e in session.events() if e["kind"] == "refill")
    assert "undo" not in kinds
    # the record, names settled, replays through the rules to the same end
    assert replay(parse_record(session.record())).summary() == played.summary()


def test_P9_a_settlement_cannot_reopen_a_game_that_is_over(tmp_path):
    from dataclasses import replace

    from companion.session import events as ev
    from companion.session.table import apply

    game = Game("pearl", 2)
    played = simulate(game, random.Random(3), greedy, max_turns=400)
    session = TableSession.new(GameStore(tmp_path / "games.sqlite"), game, ["P0", "P1"])
    play(played, session, UnreadCamera(session, (12, 26)))
    t = session.state
    assert t.ended and t.provisional == (12,)
    assert apply(t, ev.Settled(12, "Y")).ended  # a name the game ends under just the same
    # a log whose fold under the name would not end it (its last turn left out): refused,
    # as the store keeps the game finished
    short = replace(t, log=t.log[: -len(t.log) // 4])
    with pytest.raises(Exception, match="P9: the game is over"):
        apply(short, ev.Settled(12, "Y"))
