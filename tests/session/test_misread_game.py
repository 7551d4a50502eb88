"""A whole game (N1–N13, P1–P9) in which one card reads, sure, as another card on every
reading the camera gives, from the moment it is laid (the opening layout or a refill) to
the moment it leaves the grid, wherever it moves: a combination its true name made is
hidden, or one its read name made is made up. The rules name it once what the players did
next fits no other card (``session.misread``), and the game ends with the truth's scores,
deck, discard pile and run-outs."""

import random

import pytest

from companion.rules.game import Game
from companion.rules.grid import EMPTY, SIZE
from companion.rules.record import parse_record
from companion.rules.replay import replay
from companion.rules.simulate import greedy, simulate
from companion.session.nizam import TableSession
from companion.store import GameStore
from tests.session.test_unread_game import UnreadCamera, play


class MisreadCamera(UnreadCamera):
    """What the camera gives a session of a simulated game when the cards numbered in
    ``wrong`` (in the order they were laid) read, sure, as the letter given."""

    def __init__(self, session, wrong):
        super().__init__(session, ())
        self.wrong = wrong

    def see(self, grid):
        text = "".join(self.wrong.get(card, x) if x != EMPTY else x
                       for x, card in zip(grid.cells, self.cards, strict=True))
        self.session.on_reading([text[i:i + SIZE] for i in range(0, SIZE * SIZE, SIZE)])


def laid(played):
    """Every card laid in the simulated game, in order: the 25 of the setup, then each
    refill's."""
    cards = played.states[0].grid.cells
    for report in played.reports:
        cards += "".join("".join(scoring.laid or "") for scoring in report.rounds)
    return cards


@pytest.mark.parametrize("mode, players, seed, card, read_as", [
    ("classic", 2, 0, 55, "O"),  # a refilled topaz read as an amber
    ("classic", 3, 1, 36, "O"),  # a refilled ruby read as an amber
    ("classic", 3, 4, 0, "P"),  # the opening's first card, an amethyst, read as a spinel
    ("pearl", 2, 4, 34, "R"),  # a refilled spinel read as a ruby
    ("pearl", 3, 8, 14, "Y"),  # an opening emerald read as a topaz
])
def test_N6_N13_a_game_with_a_card_read_as_another_on_every_frame_ends_as_played(
        tmp_path, mode, players, seed, card, read_as):
    game = Game(mode, players)
    played = simulate(game, random.Random(seed), greedy, max_turns=400)
    true = laid(played)[card]
    assert true != read_as
    session = TableSession.new(GameStore(tmp_path / "games.sqlite"), game,
                               [f"P{i}" for i in range(players)])
    play(played, session, MisreadCamera(session, {card: read_as}))
    rules, truth = session.state.rules, played.state
    assert rules is not None
    end = (rules.scores, rules.deck, rules.discard, rules.runs_out, rules.ended)
    assert end == (truth.scores, truth.deck, truth.discard, truth.runs_out, truth.ended)
    assert [(e["card"], e["letter"], e["by"]) for e in session.events()
            if e["kind"] == "settled"] == [(card, true, "rules")]
    assert "undo" not in [e["kind"] for e in session.events()]
    assert replay(parse_record(session.record())).summary() == played.summary()
