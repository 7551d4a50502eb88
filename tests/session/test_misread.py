"""A card the camera reads, sure, as another card on every frame: a combination it hides is
not scored (N6, N9), one it makes up is. When what the players did next (they clear the
cards that truly scored, or leave the ones that did not and play on) fits one other name of
one card only, the rules name it (``events.Settled`` of a card not laid unread): the game is
folded again with the card under that name and what was scored is counted again."""

import pytest

from companion.rules.game import Game, Options
from companion.rules.grid import Grid
from companion.rules.shift import Shift
from companion.session import events as ev
from companion.session.nizam import TableSession
from companion.session.table import CLEAR, PLAY, REFILL, fold
from companion.session.unread_words import card_name
from companion.store import GameStore
from tests.session.test_unread import rows, unsure

TRUTH = "RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"
"""r2< makes RRR in column 1 (3 points)."""
READ = "RGOGY/CRVPB/OGYOC/BVPRO/YGCBV"
"""The ruby of r3c1 (card 10) read, sure, as an amber on every frame: r2< makes no line."""
MADE_UP = "GBROY/YCRGO/RRCVR/BGOYC/VOYCG"
"""The camera's reading of GBROY/YCRGO/RPCVR/BGOYC/VOYCG: the spinel of r3c2 (card 11) read,
sure, as a ruby on every frame. r3> makes RRR in row 3 and in column 3 where there is none
(the spinel lies in r3c3, where both lines cross)."""


def new(tmp_path, game=None):
    return TableSession.new(GameStore(tmp_path / "games.sqlite"), game or Game("classic", 2),
                            ["Ann", "Bob"])


@pytest.fixture
def session(tmp_path):
    return new(tmp_path)


def kinds(session):
    return [e["kind"] for e in session.events()]


def hidden_then_cleared(session):
    """Ann's r2<, read with the ruby of r3c1 as an amber, scores nothing; the players clear
    the three rubies that truly scored: the grid they leave."""
    session.on_reading(rows(READ))
    moved = Shift.parse("r2<").apply(Grid(READ))
    session.on_reading(rows(moved))
    session.tap("end_turn")
    assert session.state.rules.scores == (0, 0) and session.state.phase == PLAY
    return moved.replace({(1, 1): ".", (2, 1): ".", (3, 1): "."})


def test_N6_N9_a_combination_the_camera_hid_is_scored_once_the_players_clear_it(session):
    session.on_reading(rows(hidden_then_cleared(session)))
    assert kinds(session) == ["setup", "shifts", "end_turn", "settled", "cleared"]
    assert session.events()[3] == {"kind": "settled", "v": 6, "card": 10, "letter": "R",
                                   "by": "rules"}
    t = session.state
    assert t.phase == REFILL and t.rules.scores == (3, 0) and t.rules.active == 0
    assert t.rules.discard == 3 + 1  # RRR and r2<'s payment
    assert t.misnamed == ((10, "O"),) and t.provisional == ()
    assert session.verdict is None
    assert session.view().prompt.endswith(
        "The card in row 3, column 1 was a ruby, not an amber: the three rubies scored. The "
        "scores are counted again.")
    assert f'"setup": "{TRUTH}"' in session.record()
    refilled = Grid(str(t.grid)).replace({(1, 1): "B", (2, 1): "C", (3, 1): "P"})
    session.on_reading(rows(refilled))
    assert session.state.phase == PLAY and session.state.rules.active == 1


def test_N6_a_combination_the_camera_made_up_is_dropped_once_the_players_play_on(session):
    session.on_reading(rows(MADE_UP))
    moved = Shift.parse("r3>").apply(Grid(MADE_UP))
    session.on_reading(rows(moved))
    session.tap("end_turn")
    t = session.state
    assert t.phase == CLEAR and t.rules.scores == (3 + 3 + 1, 0)  # RRR twice (N7, N8)
    session.tap("draw")  # Bob draws: the lines were never there
    assert session.message == ""
    assert kinds(session) == ["setup", "shifts", "end_turn", "settled", "draw"]
    settled = session.events()[3]
    assert settled["card"] == 11 and settled["by"] == "likeliest"  # the card; not its name
    t = session.state
    assert t.rules.scores == (0, 0) and t.rules.hands == (2, 6) and t.rules.active == 0
    assert t.provisional == (11,) and t.grid.at(3, 3) != "R"
    assert session.view().prompt.endswith(
        f"The card in row 3, column 3 is not a ruby: it made no line of rubies. The scores are "
        f"counted again. The card in row 3, column 3 is not the ruby the camera reads: it counts "
        f"as {card_name(t.grid.at(3, 3))} until the moves show what it is; tap it if it is "
        f"another card.")
    # the camera still reads it as a ruby where it lies: the session takes it as named
    again = Shift.parse("r5<").apply(moved)
    session.on_reading(rows(again))
    assert session.verdict.legal and session.state.shifts == (Shift.parse("r5<"),)


def test_N6_a_change_two_names_would_explain_settles_nothing(session):
    # A made-up RRR of three cards in a row: any of the three may be the card misread, and
    # it may be any of several other cards.
    session.on_reading(rows("GBYOY/YCVGO/RRCVR/BGOYC/VOBCG"))
    session.on_reading(rows(Shift.parse("r3>").apply(Grid("GBYOY/YCVGO/RRCVR/BGOYC/VOBCG"))))
    session.tap("end_turn")
    assert session.state.phase == CLEAR and session.state.rules.scores == (3, 0)
    session.tap("draw")
    assert session.message == "the turn is being scored: no draw now"
    assert "settled" not in kinds(session)


def test_N9_a_hand_over_the_cleared_cells_settles_nothing(session):
    cleared = hidden_then_cleared(session)
    session.on_reading(unsure(cleared, (1, 2), (2, 2)))
    assert kinds(session) == ["setup", "shifts", "end_turn"]
    assert session.state.rules.scores == (0, 0)
    session.on_reading(rows(cleared))  # the hand gone: settled
    assert "settled" in kinds(session)


def test_N4_a_card_the_camera_now_reads_otherwise_is_not_settled_by_the_rules(session):
    # A glare, a changed light: the camera reads one card otherwise. The rules need no other
    # name for what the players did: the players are asked, as before.
    session.on_reading(rows(READ))
    session.on_reading(rows(TRUTH))
    assert kinds(session) == ["setup"] and not session.verdict.legal


def test_N4_a_card_a_player_named_is_never_named_otherwise_by_the_rules(session):
    session.on_reading(rows(READ))
    session.tap("fix", 3, 1, "Y")  # the player says: a topaz (wrongly)
    moved = Shift.parse("r2<").apply(Grid(READ).replace({(3, 1): "Y"}))
    session.on_reading(rows(moved))
    session.tap("end_turn")
    session.on_reading(rows(moved.replace({(1, 1): ".", (2, 1): ".", (3, 1): "."})))
    assert "settled" not in kinds(session) and not session.verdict.legal


def test_N4_ask_leaves_a_misread_to_the_players(tmp_path):
    session = new(tmp_path, Game("classic", 2, Options(unread_cards="ask")))
    session.on_reading(rows(hidden_then_cleared(session)))
    assert "settled" not in kinds(session) and not session.verdict.legal


def test_N9_the_log_reopens_to_the_same_state_and_undo_takes_the_settlement_back(tmp_path):
    session = new(tmp_path)
    session.on_reading(rows(hidden_then_cleared(session)))
    reopened = TableSession(GameStore(tmp_path / "games.sqlite"), session.game_id)
    assert reopened.state == session.state and reopened.record() == session.record()
    parsed = [ev.parse(e) for e in session.events()]
    assert fold(Game("classic", 2), parsed)[-1] == session.state
    session.tap("undo")  # the clearing
    session.tap("undo")  # the settlement: read as the camera read it, nothing scored
    t = session.state
    assert t.misnamed == () and t.rules.scores == (0, 0) and t.grid.at(3, 1) == "O"
    assert TableSession(GameStore(tmp_path / "games.sqlite"), session.game_id).state == t


def test_N9_a_settled_event_for_a_card_a_player_named_cannot_be_replayed(tmp_path):
    session = new(tmp_path)
    session.on_reading(rows(READ))
    session.tap("fix", 3, 1, "R")
    with pytest.raises(ev.EventError, match="named by a player"):
        session.apply(session.state, ev.Settled(10, "O"))


def test_N9_only_the_first_reading_the_game_cannot_take_may_name_a_card(session):
    # The players clear the rubies and swap two cards (nothing explains it): the rules no
    # longer know all they did, and name nothing, even once the swap is undone, until the
    # grid shows as the game holds it again.
    cleared = hidden_then_cleared(session)
    grid = session.state.grid
    swap = {(5, 4): grid.at(5, 5), (5, 5): grid.at(5, 4)}
    session.on_reading(rows(cleared.replace(swap)))
    assert not session.verdict.legal and "settled" not in kinds(session)
    session.on_reading(rows(cleared))  # alone, it would name the card (above)
    assert "settled" not in kinds(session) and not session.verdict.legal
    session.on_reading(rows(grid))  # put back as the screen shows
    session.on_reading(rows(cleared))
    assert "settled" in kinds(session) and session.state.rules.scores == (3, 0)
