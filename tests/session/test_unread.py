"""A card the camera cannot read as it is laid (the opening layout, a refill) does not stop
the game (N1, N2, N9): it is laid under a provisional name, and the camera (once it reads
the card, wherever it has moved) or the rules (the one name under which what the players
did next is legal) settle it. A settlement is an event; what was scored is counted again
from the log (``table.Settled``)."""

import pytest

from companion.rules.game import Game
from companion.rules.grid import Grid
from companion.rules.shift import Shift
from companion.session import events as ev
from companion.session.nizam import TableSession
from companion.session.table import CLEAR, OPENING, PLAY, REFILL, fold
from companion.store import GameStore

SETUP = "RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"
"""r2< makes RRR in column 1 (3 points)."""
UNREAD = "RGOGY/C?VPB/RGYOC/BVPRO/YGCBV"
"""The ruby of r2c2 read ``?`` on every frame: laid as a spinel (the card the unseen cards
hold most of, with no combination)."""


def rows(text):
    return tuple(str(text).split("/"))


def unsure(grid, *cells):
    flat = list(str(grid))
    for r, c in cells:
        flat[(r - 1) * 6 + c - 1] = "?"
    return tuple("".join(flat).split("/"))


@pytest.fixture
def session(tmp_path):
    return TableSession.new(GameStore(tmp_path / "games.sqlite"), Game("classic", 2),
                            ["Ann", "Bob"])


def logged(session):
    return [e for e in session.events()]


def test_N1_an_opening_card_read_unsure_on_every_frame_is_laid_provisionally(session):
    session.on_reading(rows(UNREAD))
    t = session.state
    assert t.phase == PLAY and str(t.grid) == "RGOGY/CPVPB/RGYOC/BVPRO/YGCBV"
    assert t.provisional == (6,)  # the 7th card laid: r2c2
    assert logged(session)[-1] == {"kind": "setup", "v": 6, "grid": str(t.grid),
                                   "unread": [[2, 2]]}
    view = session.view()
    assert (2, 2) in view.highlight
    assert view.prompt == ("Ann's turn: draw 3 cards (tap Draw) or shift a row or column. The "
                           "camera cannot read the card in row 2, column 2: it counts as a "
                           "spinel until the camera reads it; tap it if it is another card.")


def test_N2_the_provisional_name_makes_no_opening_combination(session):
    # the unseen cards hold most spinels, but a spinel in r1c3 would make PPP: an amber
    session.on_reading(rows("PP?GY/CRVOB/RGYOC/BVRCR/YGCBV"))
    t = session.state
    assert t.phase == PLAY and str(t.grid) == "PPOGY/CRVOB/RGYOC/BVRCR/YGCBV"


def test_N1_more_than_two_cards_unsure_is_a_hand_over_the_layout_and_waits(session):
    session.on_reading(rows("R??GY/C?VPB/RGYOC/BVPRO/YGCBV"))
    assert session.state.phase == OPENING and logged(session) == []
    assert session.view().prompt.startswith("The camera cannot read 3 cards: if anything lies")


def test_N1_a_card_a_player_named_wins_over_the_provisional_name(session):
    session.on_reading(rows("R??GY/C?VPB/RGYOC/BVPRO/YGCBV"))  # a hand: waits
    session.tap("fix", 1, 2, "B")
    t = session.state
    assert t.phase == PLAY and t.grid.at(1, 2) == "B"
    assert [e["kind"] for e in logged(session)] == ["fix", "setup"]
    assert logged(session)[-1]["unread"] == [[1, 3], [2, 2]]
    assert t.provisional == (2, 6)


def test_N4_a_tap_on_the_provisional_card_names_it_for_good(session):
    session.on_reading(rows(UNREAD))
    session.tap("fix", 2, 2, "R")
    assert session.message == ""
    t = session.state
    assert t.provisional == () and str(t.grid) == SETUP
    assert "cannot read" not in session.view().prompt
    assert '"setup": "RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"' in session.record()


def test_N4_the_camera_settles_the_card_when_it_reads_it_after_a_shift(session):
    session.on_reading(rows(UNREAD))
    moved = Shift.parse("r2<").apply(Grid(SETUP))  # the ruby now in r2c1, read sure
    session.on_reading(rows(moved))
    assert [e["kind"] for e in logged(session)] == ["setup", "settled", "shifts"]
    assert logged(session)[1] == {"kind": "settled", "v": 6, "card": 6, "letter": "R",
                                  "by": "camera"}
    t = session.state
    assert t.provisional == () and t.grid == moved and session.verdict.legal
    assert "The card in row 2, column 1 was a ruby: the camera read it." in session.view().prompt
    session.tap("end_turn")
    assert session.state.rules.scores == (3, 0)  # RRR in column 1 (N6)
    assert session.state.phase == CLEAR


def test_N9_the_rules_settle_the_card_when_the_players_clear_a_combination_it_made(session):
    # The camera never reads the ruby: the turn ends with no combination under its
    # provisional name; the players clear RRR, the only name that scores it is a ruby.
    session.on_reading(rows(UNREAD))
    moved = Shift.parse("r2<").apply(Grid(SETUP))
    session.on_reading(unsure(moved, (2, 1)))
    session.tap("end_turn")
    assert session.state.rules.scores == (0, 0) and session.state.rules.active == 1
    cleared = moved.replace({(1, 1): ".", (2, 1): ".", (3, 1): "."})
    session.on_reading(rows(cleared))
    kinds = [e["kind"] for e in logged(session)]
    assert kinds == ["setup", "shifts", "end_turn", "settled", "cleared"]
    assert logged(session)[3]["by"] == "rules" and logged(session)[3]["letter"] == "R"
    t = session.state
    assert t.rules.scores == (3, 0) and t.rules.active == 0 and t.phase == REFILL
    assert t.rules.discard == 3 + 1 and t.provisional == ()  # RRR and r2<'s payment
    assert session.verdict is None
    assert session.view().prompt.endswith(
        "The card the camera could not read was a ruby: no other card fits the moves since. "
        "The scores "
        "are counted again.")
    assert '"setup": "RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"' in session.record()


def rrr_cleared(session, setup=SETUP):
    """Ann's r2< (the opening read whole) makes RRR in column 1, and the players clear it:
    the grid left."""
    session.on_reading(rows(setup))
    moved = Shift.parse("r2<").apply(Grid(setup))
    session.on_reading(rows(moved))
    session.tap("end_turn")
    cleared = moved.replace({(1, 1): ".", (2, 1): ".", (3, 1): "."})
    session.on_reading(rows(cleared))
    assert session.state.phase == REFILL
    return cleared


def test_N9_a_refilled_card_read_unsure_is_laid_provisionally_not_waited_for(session):
    cleared = rrr_cleared(session)
    refilled = cleared.replace({(1, 1): "O", (2, 1): "O", (3, 1): "O"})
    session.on_reading(unsure(refilled, (1, 1)))  # read ? on every frame
    t = session.state
    assert t.phase == PLAY and t.rules.active == 1  # not stalled
    assert logged(session)[-1]["kind"] == "refill" and logged(session)[-1]["unread"] == [[1, 1]]
    assert t.grid.at(1, 1) != "O"  # laid under a name that makes no combination
    assert t.provisional == (25,)
    # the camera reads it at last: an amber, the cascade OOO it made is scored (N10)
    session.on_reading(rows(refilled))
    t = session.state
    assert logged(session)[-1] == {"kind": "settled", "v": 6, "card": 25, "letter": "O",
                                   "by": "camera"}
    assert t.phase == CLEAR and set(t.to_clear) == {(1, 1), (2, 1), (3, 1)}
    assert t.rules.scores == (3 + 3 + 1, 0) and t.rules.active == 0


def test_N3_a_tap_the_game_cannot_take_settles_no_card(session):
    # r3c5 is laid unread as a topaz, and is one: after c4v, YYY in row 3, Ann scores 3.
    # Bob taps Draw before the YYY is cleared: too soon. The same tap would follow a wrong
    # provisional name; it shows no card, so it is refused and names no card.
    session.on_reading(rows("PBORV/GROYG/BBYR?/PBCGR/VCGCO"))
    assert session.state.grid.at(3, 5) == "Y"
    moved = Shift.parse("c4v").apply(Grid("PBORV/GROYG/BBYRY/PBCGR/VCGCO"))
    session.on_reading(unsure(moved, (3, 5)))
    session.tap("end_turn")
    assert session.state.phase == CLEAR and session.state.rules.scores == (3, 0)
    session.tap("draw")
    assert session.message != ""
    assert [e["kind"] for e in logged(session)] == ["setup", "shifts", "end_turn"]
    t = session.state
    assert t.phase == CLEAR and t.rules.scores == (3, 0) and t.provisional == (14,)
    # the camera, still reading it ``?`` with the YYY left, says nothing of the card either
    session.on_reading(unsure(moved, (3, 5)))
    assert [e["kind"] for e in logged(session)] == ["setup", "shifts", "end_turn"]


def test_N3_a_combination_that_never_was_is_undone_when_the_players_name_the_card(session):
    # The spinel of r3c5 is laid as a topaz: after c4v, YYY in row 3 under that name. The
    # players leave the cards (BBYYP): Bob's Draw is refused. They take back the End turn,
    # tap the card and name it: the turn ends with nothing scored.
    session.on_reading(rows("PBORV/GROYG/BBYR?/PBCGR/VCGCO"))
    moved = Shift.parse("c4v").apply(Grid("PBORV/GROYG/BBYRP/PBCGR/VCGCO"))
    session.on_reading(unsure(moved, (3, 5)))
    session.tap("end_turn")
    session.tap("draw")
    assert session.state.rules.scores == (3, 0)
    session.tap("undo")
    session.tap("fix", 3, 5, "P")
    session.tap("end_turn")
    t = session.state
    assert session.message == "" and t.phase == PLAY and t.rules.scores == (0, 0)
    assert t.provisional == () and t.rules.active == 1
    session.tap("draw")
    t = session.state
    assert session.message == "" and t.rules.hands == (2, 6) and t.rules.active == 0


def test_N4_a_reading_no_name_explains_is_refused_and_settles_nothing(session):
    session.on_reading(rows(UNREAD))
    session.on_reading(rows("RGOGY/CPVPB/RGYOC/BVPRO/YGCVB"))  # r5c4/r5c5 swapped: no shift
    assert session.verdict is not None and not session.verdict.legal
    assert session.state.provisional == (6,) and [e["kind"] for e in logged(session)] == ["setup"]


def test_N4_the_log_reopens_to_the_same_state_and_undo_takes_the_settlement_back(tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    session = TableSession.new(store, Game("classic", 2), ["Ann", "Bob"])
    session.on_reading(rows(UNREAD))
    moved = Shift.parse("r2<").apply(Grid(SETUP))
    session.on_reading(unsure(moved, (2, 1)))
    session.tap("end_turn")
    session.on_reading(rows(moved.replace({(1, 1): ".", (2, 1): ".", (3, 1): "."})))
    reopened = TableSession(GameStore(tmp_path / "games.sqlite"), session.game_id)
    assert reopened.state == session.state
    assert reopened.record() == session.record()
    parsed = [ev.parse(e) for e in session.events()]
    assert fold(Game("classic", 2), parsed)[-1] == session.state
    session.tap("undo")  # the clearing
    session.tap("undo")  # the settlement: the card is provisional again, nothing scored
    t = session.state
    assert t.provisional == (6,) and t.rules.scores == (0, 0) and t.rules.active == 1
    assert TableSession(GameStore(tmp_path / "games.sqlite"), session.game_id).state == t


def test_N1_ask_keeps_a_card_read_unsure_waiting_for_a_name(tmp_path):
    from companion.rules.game import Options

    game = Game("classic", 2, Options(unread_cards="ask"))
    session = TableSession.new(GameStore(tmp_path / "g.sqlite"), game, ["Ann", "Bob"])
    session.on_reading(rows(UNREAD))
    assert session.state.phase == OPENING
    assert session.setup.record_header()["options"]["unread_cards"] == "ask"
    default = TableSession.new(GameStore(tmp_path / "h.sqlite"), Game("classic", 2), ["A", "B"])
    assert "unread_cards" not in default.setup.record_header()["options"]


def test_N1_an_opening_card_read_unsure_is_laid_under_the_cameras_best_guess(session):
    # the camera is unsure of r2c2 but likeliest a ruby: laid as one, still provisional
    session.on_reading(rows(UNREAD), rows(SETUP))
    t = session.state
    assert str(t.grid) == SETUP and t.provisional == (6,)
    assert "it counts as a ruby until the camera reads it" in session.view().prompt


def test_N2_a_best_guess_that_would_make_an_opening_combination_is_not_the_name(session):
    # the guess, a spinel, would make PPP in row 1: the likeliest card that makes none
    session.on_reading(rows("PP?GY/CRVOB/RGYOC/BVRCR/YGCBV"), rows("PPPGY/CRVOB/RGYOC/BVRCR/YGCBV"))
    assert str(session.state.grid) == "PPOGY/CRVOB/RGYOC/BVRCR/YGCBV"


def test_N9_a_refilled_card_read_unsure_is_laid_under_the_cameras_best_guess(session):
    cleared = rrr_cleared(session)
    refilled = cleared.replace({(1, 1): "B", (2, 1): "O", (3, 1): "G"})
    session.on_reading(unsure(refilled, (1, 1)), rows(refilled))
    t = session.state
    assert t.phase == PLAY and t.grid == refilled and t.provisional == (25,)


def test_N15_a_best_guess_no_unseen_card_can_be_is_not_the_name(tmp_path):
    # Pearl of the East, 5 players: 7 of each gem (N15). After RRR is cleared every ruby is
    # on the grid or in the discard pile: a refilled card guessed a ruby cannot be one.
    s = TableSession.new(GameStore(tmp_path / "g.sqlite"), Game("pearl", 5),
                         ["A", "B", "C", "D", "E"])
    cleared = rrr_cleared(s, "RGRGY/CRVPB/RGROC/BVPRO/YRCB*")
    refilled = cleared.replace({(1, 1): "G", (2, 1): "O", (3, 1): "Y"})
    s.on_reading(unsure(refilled, (1, 1)), rows(refilled.replace({(1, 1): "R"})))
    t = s.state
    assert t.phase == PLAY and t.grid.at(1, 1) != "R" and t.provisional == (25,)


def test_N1_a_tap_that_completes_the_opening_lays_the_rest_under_the_cameras_guesses(session):
    # three cards unread: the players name one; the two left take the camera's guesses
    session.on_reading(rows("?GOGY/C?VPB/RGYOC/BVPR?/YGCBV"), rows(SETUP))
    assert session.state.phase == OPENING
    session.tap("fix", 1, 1, "R")
    assert str(session.state.grid) == SETUP and session.state.provisional == (6, 19)


def test_P2_the_card_the_camera_guesses_is_the_pearl_takes_it():
    # no pearl read: the grid holds it; of two cards unread, the one guessed the pearl
    from companion.session.unread import provisional_names

    named = provisional_names(Game("pearl", 2), "?GOGY/CRVPB/RGYOC/BVPRO/YGCB?", "",
                              guesses="RGOGY/CRVPB/RGYOC/BVPRO/YGCB*")
    assert named == "RGOGY/CRVPB/RGYOC/BVPRO/YGCB*"


def test_N9_a_fan_of_cards_held_over_the_cells_to_refill_is_no_refill(session):
    # cards held over the grid show outlines too: where cards are being laid, a card seen
    # but not named may be one in a hand, not one laid (three such cells are a hand)
    from tests.session.test_opening import follower_of, still

    cleared = rrr_cleared(session)
    follower = follower_of(session)
    still(follower, str(cleared), frames=4)
    still(follower, "???GY/???BC/???OC/BVPRO/YGCBV", frames=8,
          guesses="BBBGY/BBBBC/BBBOC/BVPRO/YGCBV")
    assert session.state.phase == REFILL and str(session.state.grid) == str(cleared)
    assert [e["kind"] for e in session.events()][-1] == "cleared"
    still(follower, "BGOGY/OVPBC/GGYOC/BVPRO/YGCBV", frames=4)  # the true refill
    assert [e["kind"] for e in session.events()][-2:] == ["cleared", "refill"]
    assert session.state.rules.scores == (3, 0)
