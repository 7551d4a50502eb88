"""One session core for every game: commit, undo and the record written once, and a view
kept only while nothing the screen shows has changed."""

import pytest

from companion.rules.game import Game
from companion.rules.grid import Grid
from companion.rules.sands import Bag
from companion.session.events import Call
from companion.session.nizam import TableSession
from companion.session.sands import SandsSession
from companion.store import GameStore

SETUP = "RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"


def test_a_kept_view_is_the_same_until_something_shown_changes(tmp_path):
    session = TableSession.new(GameStore(tmp_path / "g.sqlite"), Game("classic", 2), ["A", "B"])
    first = session.view()
    assert session.view() is first
    session.on_reading(SETUP.split("/"))  # an event: the grid is laid out
    laid = session.view()
    assert laid is not first and laid.grid == tuple(SETUP.split("/"))
    session.tap("end_turn")  # refused: only the message changes
    refused = session.view()
    assert refused is not laid and refused.message.startswith("N3")
    session.tap("undo")  # back to the opening: still the reading on view, no turn yet
    undone = session.view()
    assert undone is not refused and (undone.turn, undone.actions, undone.message) == (0, (), "")


def test_D1_the_odds_failing_shows_at_once(tmp_path):
    def broken():
        raise OSError("the cache folder is read-only")

    session = SandsSession.new(GameStore(tmp_path / "g.sqlite"), Bag.parse("r1l1"),
                               table_provider=broken)
    assert session.view().problem == "no chances to win: the cache folder is read-only"


@pytest.mark.parametrize("make", [
    lambda store: TableSession.new(store, Game("pearl", 1), ["Ann"]),
    lambda store: SandsSession.new(store, Bag.parse("r1l1"), table_provider=lambda: None),
])
def test_nothing_to_undo_is_said_the_same_for_every_game(tmp_path, make):
    session = make(GameStore(tmp_path / "g.sqlite"))
    session.tap("undo")
    assert session.message == "nothing to undo" and session.seq == 0 and not session.can_undo


def test_a_refused_event_is_not_logged_and_the_game_is_finished_once_over(tmp_path):
    store = GameStore(tmp_path / "g.sqlite")
    session = SandsSession.new(store, Bag.parse("g1"), table_provider=lambda: None)
    with pytest.raises(ValueError, match="D1: call 'blue'"):
        session.commit(Call("blue"))
    assert session.seq == 0 and store.events(session.game_id) == []
    session.tap("call", "green")
    session.tap("drawn", "green")  # the bag is empty: the game is over (D6)
    assert store.game(session.game_id).finished is not None
    table = TableSession.new(store, Game("classic", 1))
    table.on_reading(str(Grid(SETUP)).split("/"))  # a game under way is not finished
    assert store.unfinished().id == table.game_id
