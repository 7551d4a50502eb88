"""What may settle a card laid unread, and what may not (RULES.md N2, N4, N12): a reading
the names leave undecided names no card; a true name that completes an opening line is
refused as N2 asks; a settlement cannot reopen a game that is over."""

import pytest

from companion.rules.game import Game
from companion.session.nizam import TableSession
from companion.store import GameStore

UNREAD = "RGOGY/C?VPB/RGYOC/BVPRO/YGCBV"
"""The ruby of r2c2 read ``?`` on every frame: laid as a spinel."""


@pytest.fixture
def session(tmp_path):
    return TableSession.new(GameStore(tmp_path / "games.sqlite"), Game("classic", 2),
                            ["Ann", "Bob"])


def rows(text):
    return tuple(text.split("/"))


def kinds(session):
    return [e["kind"] for e in session.events()]


def test_N4_a_reading_the_names_leave_undecided_settles_no_card(session):
    # After r4<, r1c1 and r1c2 under a sleeve: under the name the card bears (spinel), two
    # grids agree with the cells read; under five others, one. The reading says nothing of
    # the card: it is not named for the grid it would make one.
    session.on_reading(UNREAD.split("/"))
    session.on_reading(rows("??OGY/C?VPB/RGYOC/VPROB/YGCBV"))
    assert kinds(session) == ["setup"]
    assert session.state.provisional == (6,) and session.state.grid.at(2, 2) == "P"
    # the sleeve lifted: r4< under the name it bears, still provisional
    session.on_reading(rows("RGOGY/C?VPB/RGYOC/VPROB/YGCBV"))
    assert kinds(session) == ["setup", "shifts"]
    assert session.state.provisional == (6,)


TRUE_LINE = "RGOGY/CRVPB/RGYOC/BVPRO/YGVVV"
"""The last card dealt makes VVV: under N2 (``replace``) the layout is dealt anew."""


def test_N2_the_true_name_of_an_opening_card_that_completes_a_line_is_refused(session):
    session.on_reading(rows("RGOGY/CRVPB/RGYOC/BVPRO/YGVV?"))  # a hand over r5c5
    assert session.state.grid.at(5, 5) != "V"
    session.tap("fix", 5, 5, "V")
    assert session.message.startswith("N2:")
    t = session.state
    assert t.provisional == (24,) and t.grid.at(5, 5) != "V" and kinds(session) == ["setup"]
    session.tap("draw")
    assert session.state.to_clear == () and session.state.rules.scores == (0, 0)


def test_N2_the_camera_reading_an_opening_line_says_N2_and_the_layout_is_dealt_anew(session):
    session.on_reading(rows("RGOGY/CRVPB/RGYOC/BVPRO/YGVV?"))
    session.on_reading(TRUE_LINE.split("/"))  # the hand gone
    verdict = session.verdict
    assert verdict is not None and not verdict.legal and verdict.reason.startswith("N2:")
    assert set(verdict.cells) == {(5, 3), (5, 4), (5, 5)}
    assert kinds(session) == ["setup"]
    session.tap("undo")  # the layout taken back; the players deal the line anew
    session.on_reading(rows("RGOGY/CRVPB/RGYOC/BVPRO/YGOCR"))
    t = session.state
    assert t.phase == "play" and str(t.grid) == "RGOGY/CRVPB/RGYOC/BVPRO/YGOCR"
    assert t.provisional == ()


SCORED = "PBORV/GROYG/BBYR?/PBCGR/VCGCO"
"""r3c5 read ``?`` on every frame, laid as a topaz: after c4v, YYY in row 3 under that name."""


def _scored_under_its_name(session):
    from companion.rules.grid import Grid
    from companion.rules.shift import Shift

    session.on_reading(SCORED.split("/"))
    moved = str(Shift.parse("c4v").apply(Grid(SCORED.replace("?", "P"))))
    session.on_reading((moved[:16] + "?" + moved[17:]).split("/"))
    session.tap("end_turn")
    assert session.state.phase == "clear" and session.state.rules.scores == (3, 0)


def test_N9_a_card_scored_under_its_provisional_name_is_named_on_its_cell(session):
    _scored_under_its_name(session)
    session.tap("fix", 3, 5, "P")  # its cell is emptied in the grid the session expects
    t = session.state
    assert session.message == "" and t.phase == "play" and t.rules.scores == (0, 0)
    assert t.provisional == () and t.rules.active == 1 and t.grid.at(3, 5) == "P"


def test_N3_one_undo_takes_back_a_tap_and_the_card_it_settled(session):
    from companion.session import events as ev

    _scored_under_its_name(session)
    session.commit(ev.Settled(14, "P", "tap"))  # as ``_tapped`` logs them: one thing done
    session.commit(ev.Draw())
    session.tap("undo")
    t = session.state
    assert kinds(session)[-1] == "undo" and t.phase == "clear" and t.rules.scores == (3, 0)
    assert t.provisional == (14,)


def test_N9_a_card_cleared_in_an_earlier_turn_is_searched_no_more(session):
    from companion.session.unread import in_play

    _scored_under_its_name(session)
    assert in_play(session.state) == (14,)  # being cleared: its name still counts
    session.on_reading(rows("PBOCV/GRORG/BB.../PBCRR/VCGGO"))  # the YYY cleared
    session.on_reading(rows("PBOCV/GRORG/BBCPB/PBCRR/VCGGO"))  # the refill, read
    t = session.state
    assert t.phase == "play" and t.rules.active == 1
    assert t.provisional == (14,) and in_play(t) == ()


def test_N9_the_camera_reading_a_card_laid_unread_beats_a_name_that_clears_more(session):
    # Two opening cards read "?": r2c1 laid as a topaz, r3c1 as a sapphire. Ann's r4>
    # makes VVV in column 3. While it waits to be cleared, the camera reads r3c1 at last:
    # an emerald. Another naming also takes that reading, as cleared and refilled at once:
    # r2c1 a sapphire, making CCC in column 1 (8 points more), r3c1's emerald a new card.
    # It would leave no card waiting, but the camera shows r3c1 as it is: it wins.
    session.on_reading(rows("RGOGY/?RCPB/?GVOO/BVPRC/YGVBV"))
    assert str(session.state.grid) == "RGOGY/YRCPB/CGVOO/BVPRC/YGVBV"
    session.on_reading(rows("RGOGY/?RCPB/?GVOO/CBVPR/YGVBV"))
    session.tap("end_turn")
    assert session.state.rules.scores == (3, 0)
    session.on_reading(rows("RGOGY/?RCPB/GGVOO/CBVPR/YGVBV"))
    assert list(session.events())[-1] == {"kind": "settled", "v": 6, "card": 10,
                                          "letter": "G", "by": "camera"}
    assert session.state.rules.scores == (3, 0) and session.verdict is None
    session.on_reading(rows("RGOGY/?RCPB/GG.OO/CB.PR/YG.BV"))
    assert kinds(session)[-1] == "cleared" and session.state.rules.scores == (3, 0)


def test_N9_the_camera_shows_a_card_where_the_named_state_has_it_not_where_it_lay():
    from companion.session.unread import Fit, settled_by

    raw = "RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"
    origin = tuple(range(25))
    # on the grid at r2c2 (its 7th cell): the camera reads the ruby there
    assert settled_by(6, "R", Fit(origin), raw) == "camera"
    assert settled_by(6, "O", Fit(origin), raw) == "rules"
    # waiting to be cleared from r2c2: still there to be seen
    gone = origin[:6] + (-1,) + origin[7:]
    assert settled_by(6, "R", Fit(gone, 1, (6,), ((2, 2),)), raw) == "camera"
    # cleared under this naming, its cell refilled: the ruby there now is another card
    assert settled_by(6, "R", Fit(gone[:6] + (30,) + gone[7:]), raw) == "rules"
