"""Before the opening grid is set up (N1, N2): a card the camera reads `?` on every frame
does not keep the game from starting. The screen shows the reading, a player taps the
unsure card and names it (a ``Fix``, kept in the state, a fold over the log), and the
reading with its named cards is the opening grid."""

import pytest

from companion.errors import CompanionError
from companion.rules.game import Game, Options
from companion.session import events as ev
from companion.session.nizam import TableSession
from companion.session.table import (
    OPENING,
    PLAY,
    TableState,
    apply,
    contested,
    fold,
    named_reading,
    outlived,
)
from companion.store import GameStore
from companion.view import OpeningAsk

ASK = Options(unread_cards="ask")
"""The tables here ask the players to name a card the camera cannot read before the game
starts (with ``unread_cards`` left as it is, it is laid under a provisional name:
tests/session/test_unread.py)."""
SETUP = "RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"
UNSURE_OPENING = "RG?GY/CRVPB/RGYOC/BVPRO/YGCBV"  # the amber of r1c3 unread on every frame


def rows(text):
    return text.split("/")


@pytest.fixture
def session(tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    return TableSession.new(store, Game("classic", 2, ASK), ["Ann", "Bob"])


def kinds(session):
    return [e["kind"] for e in session.events()]


def test_N1_an_unsure_card_nobody_named_keeps_the_game_waiting_and_is_shown(session):
    session.on_reading(rows(UNSURE_OPENING))
    assert session.state.phase == OPENING and kinds(session) == []
    assert session.reading == UNSURE_OPENING  # the screen shows it, to be tapped
    view = session.view()
    assert view.grid == tuple(rows(UNSURE_OPENING))
    assert view.highlight == ((1, 3),)
    assert view.prompt == ("The camera cannot read one card: tap the card marked ? and choose "
                           "what it is.")


def test_N1_a_named_unsure_card_completes_the_opening_grid_at_once(session):
    session.on_reading(rows(UNSURE_OPENING))
    session.tap("fix", 1, 3, "O")
    assert session.message == ""
    assert session.state.phase == PLAY and str(session.state.grid) == SETUP
    assert kinds(session) == ["fix", "setup"]
    assert session.events()[-1]["grid"] == SETUP
    assert '"setup": "RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"' in session.record()


def test_N1_a_name_given_before_the_reading_completes_it_when_it_comes(session):
    session.tap("fix", 1, 3, "O")
    assert session.state.phase == OPENING and session.state.named == (((1, 3), "O"),)
    assert session.view().grid[0] == "..O.."  # the name shows before any card is read
    session.on_reading(rows(UNSURE_OPENING))
    assert str(session.state.grid) == SETUP


def test_N1_a_second_unsure_card_nobody_named_still_keeps_the_game_waiting(session):
    session.on_reading(rows("RG?GY/CRVPB/RGYOC/BVP?O/YGCBV"))
    session.tap("fix", 1, 3, "O")
    assert session.state.phase == OPENING and kinds(session) == ["fix"]
    view = session.view()
    assert view.grid[0] == "RGOGY" and view.highlight == ((4, 4),)
    session.tap("fix", 4, 4, "R")
    assert str(session.state.grid) == SETUP


def test_N1_a_named_card_is_renamed_by_the_newer_fix(session):
    session.tap("fix", 1, 3, "Y")
    session.tap("fix", 1, 3, "O")
    assert session.state.named == (((1, 3), "O"),)
    session.on_reading(rows(UNSURE_OPENING))
    assert str(session.state.grid) == SETUP


def test_N1_undo_takes_the_name_back_and_the_card_is_unsure_again(session):
    session.on_reading(rows("RG?GY/CRVPB/RGYOC/BVP?O/YGCBV"))
    session.tap("fix", 1, 3, "O")
    session.tap("undo")
    assert session.state.named == () and kinds(session) == ["fix", "undo"]
    assert session.view().highlight == ((1, 3), (4, 4))
    session.tap("fix", 4, 4, "R")
    assert session.state.phase == OPENING  # r1c3 is unsure again: no grid to set up


def test_N1_undo_of_the_set_up_keeps_the_name_then_undo_takes_it_back(session):
    session.on_reading(rows(UNSURE_OPENING))
    session.tap("fix", 1, 3, "O")
    session.tap("undo")
    assert session.state.phase == OPENING and session.state.named == (((1, 3), "O"),)
    view = session.view()
    assert view.grid[0] == "RGOGY" and view.highlight == ()
    assert view.prompt == ("Every card is read: tap any card read wrong and choose what it "
                           "is; choosing a card starts the game.")
    session.tap("undo")
    assert session.state.named == ()
    assert session.view().prompt.startswith("The camera cannot read one card")
    assert kinds(session) == ["fix", "setup", "undo", "undo"]


@pytest.mark.parametrize("letter, why", [
    ("X", "'X' is not a card letter"),
    ("*", "'\\*' is not a card letter"),  # no pearl in Nizam
    (".", "an empty cell needs no fixing: the camera sees it empty"),
])
def test_N1_a_name_that_is_no_gem_is_refused_and_nothing_is_logged(session, letter, why):
    session.on_reading(rows(UNSURE_OPENING))
    session.tap("fix", 1, 3, letter)
    assert session.message.startswith(why.replace("\\", ""))
    assert kinds(session) == [] and session.state.named == ()
    with pytest.raises(CompanionError, match=why):
        apply(TableState(Game("classic", 2, ASK)), ev.Fix((1, 3), letter))


def test_N1_a_name_for_a_cell_off_the_grid_is_refused(session):
    session.tap("fix", 6, 1, "R")
    assert session.message == "there is no cell r6c1" and kinds(session) == []


def test_P1_the_pearl_may_be_named_in_pearl_of_the_east(tmp_path):
    session = TableSession.new(GameStore(tmp_path / "g.sqlite"), Game("pearl", 2, ASK), ["A", "B"])
    session.on_reading(rows("ROYGC/BVP?R/OYGCB/VPROY/GCBVP"))
    session.tap("fix", 2, 4, "*")
    assert session.message == "" and session.state.grid.at(2, 4) == "*"


def test_N2_a_name_that_makes_a_combination_is_refused_with_its_cells(session):
    session.on_reading(rows("RR?GY/CBVPR/GGYOC/BVPRO/YGCBV"))
    session.tap("fix", 1, 3, "R")
    assert session.state.phase == OPENING and kinds(session) == ["fix"]
    assert not session.verdict.legal and "N2" in session.verdict.reason
    assert session.verdict.cells == ((1, 1), (1, 2), (1, 3))
    session.tap("fix", 1, 3, "O")  # named again: no combination, the game starts
    assert str(session.state.grid) == "RROGY/CBVPR/GGYOC/BVPRO/YGCBV"


def test_N2_the_name_beats_a_misread_that_made_a_combination(session):
    # The camera reads the amber of r1c3 as a ruby: RRR, refused; a tap names it amber.
    session.on_reading(rows("RRRGY/CBVPR/GGYOC/BVPRO/YGCBV"))
    assert not session.verdict.legal
    assert session.view().prompt == ("Every card is read: tap any card read wrong and "
                                     "choose what it is.")
    session.tap("fix", 1, 3, "O")
    assert str(session.state.grid) == "RROGY/CBVPR/GGYOC/BVPRO/YGCBV"


def test_N1_empty_cells_keep_waiting_whatever_is_named(session):
    session.tap("fix", 1, 3, "O")
    session.on_reading(rows("RG?GY/CRVPB/RGYOC/BVPRO/YGCB."))
    assert session.state.phase == OPENING


def test_N1_the_state_is_a_fold_and_a_reopened_game_holds_its_names(session):
    session.on_reading(rows("RG?GY/CRVPB/RGYOC/BVP?O/YGCBV"))
    session.tap("fix", 1, 3, "Y")
    session.tap("fix", 1, 3, "O")
    again = TableSession(session.store, session.game_id)
    assert again.state == session.state
    logged = [ev.parse(e) for e in session.events()]
    assert fold(Game("classic", 2, ASK), logged)[-1].named == (((1, 3), "O"),)
    # a reading after the restart needs no tap for the card named before it
    again.on_reading(rows("RG?GY/CRVPB/RGYOC/BVPRO/YGCBV"))
    assert str(again.state.grid) == SETUP


def test_named_reading_puts_each_name_in_its_cell():
    t = TableState(Game("classic", 2, ASK), named=(((1, 1), "B"), ((5, 5), "O")))
    assert named_reading(t, "?????/...../...../...../....?") == "B????/...../...../...../....O"


def test_a_name_does_not_outlive_the_set_up():
    t = apply(TableState(Game("classic", 2, ASK)), ev.Fix((1, 3), "O"))
    t = apply(t, ev.Setup(SETUP))
    assert t.named == ()
    t = apply(t, ev.Fix((1, 3), "R"))  # in play a fix corrects the grid, as before
    assert t.named == () and str(t.grid).startswith("RGRGY") and t.cards.startswith("RGR")


def test_N2_keep_a_named_card_may_make_the_opening_combination(tmp_path):
    # N2 "keep": a combination in the opening grid stays, a named card in it too
    game = Game("classic", 2, Options(setup_lines="keep", unread_cards="ask"))
    session = TableSession.new(GameStore(tmp_path / "g.sqlite"), game, ["A", "B"])
    session.on_reading(rows("RR?GY/CBVPR/GGYOC/BVPRO/YGCBV"))
    session.tap("fix", 1, 3, "R")
    assert str(session.state.grid) == "RRRGY/CBVPR/GGYOC/BVPRO/YGCBV"


def follower_of(session):
    from calibration.learning import deck_profile
    from companion.live.watcher import GridFollower

    return GridFollower(session, deck_profile(), learn=False)


def still(follower, text, frames=3, guesses=None):
    """``frames`` frames of the camera reading ``text`` (its best ``guesses`` at the cards
    it is unsure of: none given, none), as a reading would give them."""
    import numpy as np

    from vision.reader import GridReading

    reading = GridReading(5, 5, np.zeros((4, 2)), tuple(rows(text)), np.ones((5, 5)),
                          guesses=guesses and tuple(rows(guesses)))
    for _ in range(frames):
        follower.follow(reading)


THREE_UNSURE = "RG?GY/C?VPB/RGYOC/BVPRO/YGCB?"  # ambers and violets unread on every frame


def test_N1_an_opening_layout_with_three_unsure_cards_reaches_the_screen_to_be_named(session):
    follower = follower_of(session)
    still(follower, THREE_UNSURE)
    assert session.reading == THREE_UNSURE and kinds(session) == []
    view = session.view()
    assert view.highlight == ((1, 3), (2, 2), (5, 5))
    assert view.prompt.startswith("The camera cannot read 3 cards: if anything lies over the "
                                  "grid, clear it; if nothing does, calibrate the colours "
                                  "again (menu) or tap each card still marked ?")
    session.tap("fix", 1, 3, "O")
    session.tap("fix", 2, 2, "R")
    assert session.state.phase == OPENING
    session.tap("fix", 5, 5, "V")
    assert str(session.state.grid) == SETUP and kinds(session) == ["fix"] * 3 + ["setup"]


def test_N1_a_hand_over_the_layout_is_shown_makes_no_event_and_loses_no_name(session):
    follower = follower_of(session)
    session.tap("fix", 1, 3, "O")  # named while the cards are still being laid
    hand = "?????/???PB/RGYOC/BVPRO/YGCBV"  # then a hand rests over the top left
    still(follower, hand)
    assert session.reading == hand and kinds(session) == ["fix"]
    assert session.state.named == (((1, 3), "O"),)
    view = session.view()
    assert view.grid[0] == "??O??"  # the name stays in view under the hand
    assert len(view.highlight) == 7
    still(follower, UNSURE_OPENING)  # the hand gone: the name completes the layout
    assert str(session.state.grid) == SETUP and kinds(session) == ["fix", "setup"]


def test_N1_in_play_three_unsure_cells_are_a_hand_not_a_misread(session):
    follower = follower_of(session)
    still(follower, SETUP)
    assert session.state.phase == PLAY and session.unsure_taken == 2
    still(follower, "???GY/CRVPB/RGYOC/BVPRO/YGCBV")
    assert session.reading == SETUP and follower.last == tuple(rows(SETUP))
    assert kinds(session) == ["setup"]


def test_N4_in_play_cards_the_camera_sees_but_cannot_name_are_no_hand(session):
    # a camera whose colours moved since calibration: the cards' outlines show, their
    # colours are in doubt (guessed wrong, even); the cards it reads tell the shift, and
    # the rules settle the rest
    follower = follower_of(session)
    still(follower, SETUP)
    moved = "GOGY?/CR?PB/?GYOC/BVPRO/YGCBV"  # r1< with three cards unnamed
    still(follower, moved, guesses="GOGYP/CRPPB/PGYOC/BVPRO/YGCBV")
    assert kinds(session) == ["setup", "shifts"]
    assert [str(s) for s in session.state.shifts] == ["r1<"]
    assert str(session.state.grid) == "GOGYR/CRVPB/RGYOC/BVPRO/YGCBV"


def test_N4_in_play_three_cells_that_show_no_card_are_a_hand_whatever_else_is_seen(session):
    follower = follower_of(session)
    still(follower, SETUP)
    moved = "GOGY?/CR?PB/?GYOC/BVPRO/YGCBV"
    still(follower, moved, guesses=moved)
    session.on_reading(rows(moved), rows(moved))  # given it all the same
    assert kinds(session) == ["setup"] and session.reading == SETUP


TWO_UNSURE = "RG?GY/CRVPB/RGYOC/BVP?O/YGCBV"
REDEALT = "BC?RV/YOGCR/PBVGY/ORCPB/GVYRO"  # gathered and dealt again: r1c3 unread again


def test_N1_a_layout_dealt_again_starts_clean_whatever_the_named_cell_reads(session):
    session.on_reading(rows(TWO_UNSURE))
    session.tap("fix", 1, 3, "O")  # r4c4 still unread: the game waits
    assert session.state.named == (((1, 3), "O"),)
    session.on_reading(rows(REDEALT))
    assert session.state.phase == OPENING and session.state.named == ()
    assert kinds(session) == ["fix", "relaid"]
    view = session.view()
    assert view.grid[0] == "BC?RV" and view.highlight == ((1, 3),)
    assert view.prompt.startswith("The camera cannot read one card")
    assert view.prompt.endswith("New cards were laid where you had chosen cards: those "
                                "choices are dropped.")
    session.tap("fix", 1, 3, "Y")
    assert str(session.state.grid) == "BCYRV/YOGCR/PBVGY/ORCPB/GVYRO"


ALL_READ_BUT_A_TOPAZ = "RGYGY/CRVPB/RGYOC/BVPRO/YGCBV"  # r1c3 read, sure, as a topaz


@pytest.mark.parametrize("chosen, grid", [
    ("O", SETUP),  # the camera misread the amber: chosen again, the amber holds
    ("Y", ALL_READ_BUT_A_TOPAZ),  # N2 at the table: the card swapped for a topaz
])
def test_N1_a_named_card_the_camera_now_reads_otherwise_is_asked_about_not_set_up(
        session, chosen, grid):
    session.on_reading(rows(TWO_UNSURE))
    session.tap("fix", 1, 3, "O")
    session.on_reading(rows(ALL_READ_BUT_A_TOPAZ))  # the light changed; r4c4 read too
    assert session.state.phase == OPENING and kinds(session) == ["fix"]
    assert session.state.named == (((1, 3), "O"),)  # the name is kept, not the camera's
    view = session.view()
    assert view.grid[0] == "RG?GY" and view.highlight == ((1, 3),)
    assert view.prompt == ("The camera now reads a topaz where you chose an amber (row 1, "
                           "column 3): tap it and choose again.")
    session.tap("fix", 1, 3, chosen)  # named again: the name holds for what is read now
    assert str(session.state.grid) == grid
    assert session.events()[1]["layout"] == ALL_READ_BUT_A_TOPAZ


def test_N1_named_cards_read_otherwise_beside_unread_ones_are_all_asked_about(session):
    session.on_reading(rows("RG?GY/C?VPB/RGYOC/BVP?O/YGCBV"))
    session.tap("fix", 1, 3, "O")
    session.tap("fix", 2, 2, "R")
    session.on_reading(rows("RGYGY/CBVPB/RGYOC/BVP?O/YGCBV"))
    view = session.view()
    assert view.highlight == ((1, 3), (2, 2), (4, 4)) and kinds(session) == ["fix", "fix"]
    assert view.prompt == ("The camera now reads 2 cards otherwise than you chose: tap each "
                           "card marked ? and choose again. The camera cannot read one card: "
                           "tap the card marked ? and choose what it is.")


DEALING = "RG?GY/CR.../...../...../....."  # the deal under way: r1c3 unread


def test_N1_while_the_deal_is_under_way_the_card_under_the_hand_waits_to_be_asked_about(session):
    session.on_reading(rows(DEALING))
    view = session.view()
    assert view.opening == OpeningAsk("deal") and view.highlight == ((1, 3),)  # outlined
    assert view.prompt == "Deal 25 cards face up into the 5×5 grid."
    session.on_reading(rows(UNSURE_OPENING))  # every card laid: r1c3 still unread
    view = session.view()
    assert view.opening == OpeningAsk("name", 1)
    assert view.prompt.startswith("The camera cannot read one card: tap the card marked ?")


def test_N1_a_laid_card_the_camera_takes_for_the_table_does_not_hide_the_card_it_cannot_read(
        session):
    # every card laid; r5c5 reads as the table, r1c3 cannot be read: the layout would wait
    # for a deal that is over, and say nothing of either card
    session.on_reading(rows("RG?GY/CRVPB/RGYOC/BVPRO/YGCB."))
    view = session.view()
    assert view.opening == OpeningAsk("name", 1) and view.highlight == ((1, 3),)
    assert view.prompt.startswith("The camera cannot read one card: tap the card marked ?")
    assert view.prompt.endswith("If every card is laid, tap the cell shown empty and choose "
                                "its card.")
    session.on_reading(rows("RGOGY/CRVPB/RGYOC/BVPRO/YGC.."))  # read, two cells empty
    view = session.view()
    assert view.opening == OpeningAsk("deal")
    assert view.prompt == ("Deal 25 cards face up into the 5×5 grid. If every card is laid, "
                           "tap each cell shown empty and choose its card.")


@pytest.mark.parametrize("seen", [
    "...../...../...../...../.....",  # all gathered
    "R..../...../...../...../.....",  # most gathered
    "BC?RV/YOGCR/PBVGY/ORCPB/GVYRO",  # gathered unseen, and dealt again
])
def test_N1_a_name_given_while_dealing_goes_when_the_cards_are_gathered(session, seen):
    session.on_reading(rows(DEALING))
    session.tap("fix", 1, 3, "O")
    session.on_reading(rows("RG.GY/CR.../...../...../....."))  # the named card lifted
    session.on_reading(rows("RG?GY/CRVPB/RGYOC/BVPRO/YGC.."))  # and the deal goes on
    assert session.state.named == (((1, 3), "O"),) and kinds(session) == ["fix"]
    session.on_reading(rows(seen))
    assert session.state.named == () and kinds(session) == ["fix", "relaid"]
    session.on_reading(rows(REDEALT))  # dealt again: a card r1c3 the camera cannot read
    assert session.state.phase == OPENING and session.view().highlight == ((1, 3),)


def test_N1_a_layout_dealt_again_with_13_cards_unread_is_still_a_new_one(session):
    session.on_reading(rows(TWO_UNSURE))
    session.tap("fix", 1, 3, "O")
    session.on_reading(rows("?C?R?/Y?G?R/P?V??/O?C??/G?Y?O"))  # the 12 read all changed
    assert session.state.named == () and kinds(session) == ["fix", "relaid"]


def test_N1_a_hand_over_more_than_half_the_layout_keeps_the_name(session):
    session.on_reading(rows(TWO_UNSURE))
    session.tap("fix", 1, 3, "O")
    session.on_reading(rows("?????/?????/????C/BVP?O/YGCBV"))  # the 10 read all the same
    assert session.state.named == (((1, 3), "O"),) and kinds(session) == ["fix"]


def test_N1_a_lifted_card_a_hand_or_three_cards_replaced_keep_the_name(session):
    session.on_reading(rows(TWO_UNSURE))
    session.tap("fix", 1, 3, "O")
    for seen in ("RG.GY/CRVPB/RGYOC/BVP?O/YGCBV",  # the named card lifted to look at
                 "?????/?????/RGYOC/BVP?O/YGCBV",  # a hand over it
                 "RG?GY/CRVPB/RGYOC/BVP?O/GOYBV"):  # three other cards laid anew (N2)
        session.on_reading(rows(seen))
        assert session.state.named == (((1, 3), "O"),), seen
    assert kinds(session) == ["fix"]
    session.tap("fix", 4, 4, "R")
    assert str(session.state.grid) == "RGOGY/CRVPB/RGYOC/BVPRO/GOYBV"


def test_N1_a_name_given_over_a_misread_holds_while_the_camera_reads_the_same(session):
    session.on_reading(rows("RRRGY/CBVPR/GGYOC/BVPRO/YGCB?"))  # the amber read as a ruby
    session.tap("fix", 1, 3, "O")
    session.on_reading(rows("RRRGY/CBVPR/GGYOC/BVPRO/YGCB?"))
    assert session.state.named == (((1, 3), "O"),)
    session.tap("fix", 5, 5, "V")
    assert str(session.state.grid) == "RROGY/CBVPR/GGYOC/BVPRO/YGCBV"


def test_N1_names_dropped_by_a_new_layout_come_back_with_undo_and_in_the_fold(session):
    session.on_reading(rows(TWO_UNSURE))
    session.tap("fix", 1, 3, "O")
    session.on_reading(rows(REDEALT))
    logged = [ev.parse(e) for e in session.events()]
    assert logged == [ev.Fix((1, 3), "O", TWO_UNSURE), ev.Relaid(((1, 3),))]
    again = TableSession(session.store, session.game_id)
    assert again.state == session.state and again.state.named == ()
    assert fold(Game("classic", 2, ASK), logged)[-1] == session.state
    session.tap("undo")  # the players say it was the same layout after all
    # the name holds for the card there now, and completes the layout as a name given does
    assert kinds(session) == ["fix", "relaid", "undo", "kept", "setup"]
    assert str(session.state.grid) == "BCORV/YOGCR/PBVGY/ORCPB/GVYRO"
    again = TableSession(session.store, session.game_id)
    assert again.state == session.state


def test_N1_names_back_by_undo_stay_for_the_readings_after_it(session):
    session.on_reading(rows(TWO_UNSURE))
    session.tap("fix", 1, 3, "O")
    redealt_and_one_unread = "BC?RV/YOGCR/PBVGY/ORCPB/GVYR?"
    session.on_reading(rows(redealt_and_one_unread))
    session.tap("undo")
    assert session.state.named == (((1, 3), "O"),)
    assert session.events()[-1] == {"kind": "kept", "v": ev.VERSION, "cells": [[1, 3]],
                                    "layout": redealt_and_one_unread}
    view = session.view()
    assert view.grid[0] == "BCORV" and view.highlight == ((5, 5),)
    assert view.prompt == ("The camera cannot read one card: tap the card marked ? and choose "
                           "what it is.")
    session.on_reading(rows("BC?RV/YOGCR/PBVGY/ORCPB/GV???"))  # a hand at the corner
    assert session.state.named == (((1, 3), "O"),)
    assert kinds(session) == ["fix", "relaid", "undo", "kept"]
    session.on_reading(rows(redealt_and_one_unread))  # the hand gone
    session.tap("fix", 5, 5, "O")
    assert str(session.state.grid) == "BCORV/YOGCR/PBVGY/ORCPB/GVYRO"


def test_kept_names_only_named_cells_and_only_before_the_set_up():
    t = apply(TableState(Game("classic", 2, ASK)), ev.Fix((1, 3), "O", TWO_UNSURE))
    with pytest.raises(CompanionError, match="no card was chosen for r2c2: nothing to keep"):
        apply(t, ev.Kept(((2, 2),), REDEALT))
    assert apply(t, ev.Kept(((1, 3),), REDEALT)).named_on == (((1, 3), REDEALT),)
    with pytest.raises(CompanionError, match="already started"):
        apply(apply(t, ev.Setup(SETUP)), ev.Kept(((1, 3),), REDEALT))


def test_N1_a_name_from_a_version_that_kept_no_layout_is_kept_until_named_again_or_undone(
        session):
    # Stored before version 3: the layout it was named on is not known. The name beats the
    # camera, as it did then: a misread it was given over, a new layout.
    session.store.append(session.game_id, {"kind": "fix", "v": 2, "cell": [1, 3],
                                           "letter": "O"}, expect_seq=1)
    again = TableSession(session.store, session.game_id)
    t = again.state
    assert t.named_on == () and outlived(t, REDEALT) == ()
    assert outlived(t, ALL_READ_BUT_A_TOPAZ) == () and contested(t, ALL_READ_BUT_A_TOPAZ) == ()
    again.on_reading(rows("RRRGY/CBVPR/GGYOC/BVPRO/YGCB?"))  # the misread it was given over
    assert again.state.named == (((1, 3), "O"),) and kinds(again) == ["fix"]
    again.tap("fix", 5, 5, "V")
    assert str(again.state.grid) == "RROGY/CBVPR/GGYOC/BVPRO/YGCBV"


def test_relaid_is_refused_once_the_game_has_started():
    t = apply(TableState(Game("classic", 2, ASK)), ev.Setup(SETUP))
    with pytest.raises(CompanionError, match="already started"):
        apply(t, ev.Relaid(((1, 3),)))


def test_N2_a_refused_layout_laid_again_is_no_longer_shown_refused(session):
    session.on_reading(rows("RRRGY/CBVPR/GGYOC/BVPRO/YGCBV"))
    assert not session.verdict.legal and "N2" in session.verdict.reason
    # the three rubies back in the deck, three new cards dealt: one the camera cannot read
    session.on_reading(rows("OC?GY/CBVPR/GGYOC/BVPRO/YGCBV"))
    assert session.verdict is None and session.view().highlight == ((1, 3),)
    session.on_reading(rows("RRRGY/CBVPR/GGYOC/BVPRO/YGCBV"))  # or put back as they were
    assert not session.verdict.legal


def test_N1_the_watcher_passes_the_cameras_best_guess_at_an_unread_card(tmp_path):
    session = TableSession.new(GameStore(tmp_path / "g.sqlite"), Game("classic", 2), ["A", "B"])
    follower = follower_of(session)
    still(follower, "RGOGY/C?VPB/RGYOC/BVPRO/YGCBV", guesses=SETUP)
    assert str(session.state.grid) == SETUP and session.state.provisional == (6,)
