"""Expected errors are caught by name (the CompanionError and CameraError families); a plain
ValueError is a bug and surfaces as one, its type named, wherever it is raised."""

import numpy as np
import pytest

import calibration.learning
import companion.sands.odds as table_module
from calibration.palette import PaletteError, learn_palette
from companion.rules.game import Game
from companion.rules.sands import Bag
from companion.sands.odds import cache_path, load_table
from companion.session.nizam import TableSession
from companion.session.sands import SandsSession
from companion.store import GameStore

from .calibration.synth import scene

LAYOUT = "RROGYCBVPRGGYOCBVPROYGCB*"
SMALL = Bag(1, 1, 1, 1)


def test_learning_a_palette_raises_a_bug_as_a_bug(monkeypatch):
    cells, _ = scene(np.random.default_rng(3), LAYOUT)
    with pytest.raises(PaletteError, match="labels"):  # the players' mistake: one line
        learn_palette([(cells, LAYOUT[:-1])])

    def broken(models, samples):
        raise ValueError("shapes do not broadcast")

    monkeypatch.setattr(calibration.learning, "with_shading", broken)
    with pytest.raises(ValueError, match="broadcast") as err:
        learn_palette([(cells, LAYOUT)])
    assert not isinstance(err.value, PaletteError)


def test_a_damaged_odds_cache_is_solved_again_but_a_bug_reading_it_is_raised(tmp_path,
                                                                              monkeypatch):
    load_table(SMALL, tmp_path)
    path = cache_path(SMALL, tmp_path)
    path.write_bytes(b"not json\n" + b"\0" * 64)
    assert load_table(SMALL, tmp_path).full == SMALL  # damaged: solved again

    def broken(*args, **kwargs):
        raise ValueError("a bug in the reader")

    monkeypatch.setattr(table_module.np, "fromfile", broken)
    with pytest.raises(ValueError, match="a bug in the reader"):
        load_table(SMALL, tmp_path)


def test_D1_odds_that_fail_by_a_bug_are_named_as_one_and_the_game_goes_on(tmp_path):
    def buggy():
        raise ValueError("math domain error")

    def gone():
        raise OSError("disk full")

    store = GameStore(tmp_path / "games.sqlite")
    s = SandsSession.new(store, SMALL, ("Ann", "Bob"), table_provider=buggy)
    assert not s.odds_ready and s.problem == "no chances to win: ValueError: math domain error"
    s.tap("call", "red")
    assert s.message == ""  # the game goes on without its odds
    s = SandsSession.new(store, SMALL, ("Ann", "Bob"), table_provider=gone)
    assert not s.odds_ready and s.problem == "no chances to win: disk full"


def test_N3_a_tap_the_rules_refuse_is_a_message_but_a_bug_in_a_tap_is_raised(tmp_path,
                                                                             monkeypatch):
    store = GameStore(tmp_path / "games.sqlite")
    session = TableSession.new(store, Game(players=2), ["Ann", "Bob"])
    session.tap("end_turn")  # before the opening grid: refused in one line
    assert session.message and "Error" not in session.message
    session.tap("juggle")
    assert session.message == "unknown tap 'juggle'"

    def broken(t, event):
        raise ValueError("a bug in the fold")

    monkeypatch.setattr("companion.session.nizam.apply_event", broken)
    with pytest.raises(ValueError, match="a bug in the fold"):
        session.tap("draw")
