"""A game's set-up is read once from every header form it has taken, written back in the
forms other tools read (DESIGN.md), and each game kind is found in one registry."""

import json

import pytest

from companion.errors import CompanionError
from companion.rules.game import Game, Options
from companion.rules.sands import Bag, Sands
from companion.rules.setup import GameSetup
from companion.session.kinds import KINDS, kind_of
from companion.session.nizam import TableSession
from companion.session.sands import SandsSession

from .fixtures.make_stored import HERE

ANN_BOB = ("Ann", "Bob")


@pytest.mark.parametrize("header, setup", [
    # a game record's header (DESIGN.md): players as a count
    ({"game": "nizam", "players": 2, "options": {"bonus": "rising"}},
     GameSetup("nizam", ("Player 1", "Player 2"), Options(bonus="rising"))),
    # a recording's game.json and the start screen: players as names
    ({"game": "pearl", "players": ["Ann", "Bob"], "options": {}},
     GameSetup("pearl", ANN_BOB)),
    # a stored game: the count, the names beside it, the recording it plays
    ({"game": "nizam", "players": 2, "options": {}, "names": ["Ann", "Bob"],
      "recording": "/r"}, GameSetup("nizam", ANN_BOB)),
    ({"game": "nizam", "players": 3, "names": ["Ann", ""]},
     GameSetup("nizam", ("Ann", "Player 2", "Player 3"))),
    # The Desert Sands: names, a count or nothing; the bag as an object, a text or nothing
    ({"game": "sands", "players": ["Ann", "Bob"], "bag": {"red": 3, "lilac": 1}},
     GameSetup("sands", ANN_BOB, bag=Bag(red=3, lilac=1))),
    ({"game": "sands", "bag": "r2y2"}, GameSetup("sands", ("Player 1", "Player 2"),
                                                  bag=Bag(red=2, yellow=2))),
    ({"game": "sands", "players": 2}, GameSetup("sands", ("Player 1", "Player 2"),
                                                 bag=Sands().full)),
])
def test_every_header_form_gives_one_setup(header, setup):
    assert GameSetup.from_header(header) == setup
    assert eval(repr(setup), {"GameSetup": GameSetup, "Options": Options, "Bag": Bag}) == setup


@pytest.mark.parametrize("header, why", [
    ({"game": "chess", "players": 2}, "game 'chess' is not one of nizam, pearl, sands"),
    ({"game": "nizam", "players": "2"}, "players must be a number 1-5 or a list of names"),
    ({"game": "nizam", "players": 6}, "players: 6; the game is for 1 to 5"),
    ({"game": "pearl", "players": []}, "players: 0; the game is for 1 to 5"),
    ({"game": "sands", "players": ["A", "B", "C"]}, "D1: The Desert Sands has 2 players, not 3"),
    ({"game": "sands", "bag": 12}, "'bag' must be an object of counts per colour"),
    ({"game": "nizam", "players": 2, "options": "keep"}, "options must be an object"),
    ({"game": "nizam", "players": 2, "options": {"bonus": "steep"}}, "option bonus: 'steep'"),
])
def test_a_header_of_no_form_is_refused_saying_what(header, why):
    with pytest.raises(CompanionError, match=why):
        GameSetup.from_header(header)


def test_the_writers_keep_the_forms_other_tools_read():
    nizam = GameSetup("nizam", ANN_BOB, Options(cascades="leave"))
    options = {"setup_lines": "replace", "bonus": "flat", "cascades": "leave"}
    assert nizam.record_header() == {"game": "nizam", "players": 2, "options": options}
    assert nizam.header() == {"game": "nizam", "players": 2, "options": options,
                              "names": ["Ann", "Bob"]}
    sands = GameSetup("sands", ANN_BOB, bag=Bag(red=1))
    bag = {"red": 1, "yellow": 0, "green": 0, "lilac": 0}
    assert sands.header() == sands.record_header() == {"game": "sands",
                                                       "players": ["Ann", "Bob"], "bag": bag}
    for setup in (nizam, sands):
        assert GameSetup.from_header(setup.header()) == setup
        assert GameSetup.from_header(json.loads(json.dumps(setup.record_header()))).kind \
            == setup.kind


@pytest.mark.parametrize("name", ["nizam", "pearl", "sands"])
def test_the_stored_headers_of_an_older_version_read_as_their_setup(name):
    import sqlite3

    with sqlite3.connect(HERE / f"{name}.sqlite") as db:
        (text,) = db.execute("SELECT header FROM games").fetchone()
    setup = GameSetup.from_header(json.loads(text))
    assert setup.kind == name and setup.names == ANN_BOB


def test_each_kind_starts_and_reopens_its_own_session(tmp_path):
    from companion.store import GameStore

    store = GameStore(tmp_path / "games.sqlite")
    setups = [GameSetup("nizam", ANN_BOB), GameSetup("pearl", ("Ann",)),
              GameSetup("sands", ANN_BOB, bag=Bag(red=1, lilac=1))]
    for setup in setups:
        kind = kind_of(setup)
        session = kind.start(store, setup, lambda: None)
        again = kind.open(store, session.game_id, lambda: None)
        assert type(again) is {"table": TableSession, "sands": SandsSession}[kind.screen]
        assert again.setup == setup and again.record() == session.record()
        assert kind_of(store.game(session.game_id).header) is kind
    assert [k.name for k in KINDS.values()] == ["nizam", "pearl", "sands"]


def test_a_game_on_the_grid_keeps_its_setup_through_the_rules():
    setup = GameSetup.of_game(Game("pearl", 3), ["Ann"])
    assert setup == GameSetup("pearl", ("Ann", "Player 2", "Player 3"))
    assert setup.game() == Game("pearl", 3)
    with pytest.raises(CompanionError, match="sands is not played on the grid"):
        GameSetup("sands", ANN_BOB).game()
