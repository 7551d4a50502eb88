"""The session turns stable readings and taps into a scored game (N3–N13, P5–P9)."""

import random

import pytest

from companion.rules.game import Game, Options
from companion.rules.grid import Grid
from companion.rules.record import parse_record
from companion.rules.replay import replay
from companion.rules.shift import Shift
from companion.rules.simulate import greedy, simulate
from companion.session.nizam import TableSession
from companion.store import GameStore
from tools.showcase import play_out

SETUP = "RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"


def rows(grid):
    return str(grid).split("/")


def new_session(tmp_path, players=2, mode="classic", **options):
    store = GameStore(tmp_path / "games.sqlite")
    game = Game(mode, players, Options(**options))
    return store, TableSession.new(store, game, [f"P{i}" for i in range(players)])


def drive(session, played):
    """Feed the session what the camera and the players would give for a simulated game."""

    def clean(report):
        assert session.message == "", (report, session.message)

    play_out(played, session, lambda grid: session.on_reading(rows(grid)), session.tap,
             after_turn=clean)


@pytest.mark.parametrize(
    "mode, players, seed", [("classic", 2, 1), ("classic", 3, 5), ("pearl", 2, 3),
                            ("pearl", 4, 8), ("classic", 1, 11)]
)
def test_N13_P9_session_follows_a_whole_game_to_its_winner(tmp_path, mode, players, seed):
    game = Game(mode, players)
    played = simulate(game, random.Random(seed), greedy, max_turns=400)
    store, session = new_session(tmp_path, players, mode)
    drive(session, played)
    state = session.state
    assert state.rules.scores == played.state.scores
    assert state.rules.runs_out == played.state.runs_out
    assert session.view().ended == played.state.ended
    # The exported record replays to the same end (the record is the game's truth).
    again = replay(parse_record(session.record()))
    assert again.summary() == played.summary()


def test_session_reopens_after_a_restart_where_it_was(tmp_path):
    game = Game("classic", 3)
    played = simulate(game, random.Random(2), greedy, max_turns=400)
    store, session = new_session(tmp_path, 3)
    drive(session, played)
    reopened = TableSession(GameStore(tmp_path / "games.sqlite"), session.game_id)
    assert reopened.view() == session.view()
    assert reopened.record() == session.record()


def test_N4_shift_the_hand_cannot_pay_is_refused_with_how_to_put_it_back(tmp_path):
    store, session = new_session(tmp_path)
    session.on_reading(rows(Grid(SETUP)))
    grid = Grid(SETUP)
    for text in ("r2<", "r3<", "r4<"):  # 3 cards in hand pay three shifts
        from companion.rules.shift import Shift

        grid = Shift.parse(text).apply(grid)
        session.on_reading(rows(grid))
        assert session.verdict.legal, session.verdict
    fourth = Shift.parse("r5<").apply(grid)
    session.on_reading(rows(fourth))
    verdict = session.verdict
    assert not verdict.legal and "holds 0 cards" in verdict.reason
    assert verdict.undo_hint == "to put it back: r5>"
    assert session.state.grid == grid  # not applied
    session.on_reading(rows(grid))  # put back
    assert session.verdict is None


def test_N3_draw_then_shift_is_refused(tmp_path):
    store, session = new_session(tmp_path)
    session.on_reading(rows(Grid(SETUP)))
    session.tap("draw")
    assert session.state.rules.hands == (6, 3)  # scored at once, next player's turn
    assert session.state.rules.active == 1
    seq = session.seq
    # End turn tapped out of habit after the draw: refused, saying the draw ended the turn
    session.tap("end_turn")
    assert session.message == "N3: the draw ended player 0's turn; it is player 1's turn now, " \
        "to draw or shift"
    assert session.seq == seq
    session.tap("draw")  # player 1 draws too: the next End turn is refused the same way
    session.tap("end_turn")
    assert "the draw ended player 1's turn" in session.message


def test_N3_end_turn_with_no_move_after_a_shift_turn_asks_for_a_move(tmp_path):
    store, session = new_session(tmp_path)
    session.on_reading(rows(Grid(SETUP)))
    shifted = Shift.parse("r1>").apply(Grid(SETUP))  # Y R G O G: no line
    session.on_reading(rows(shifted))
    session.tap("end_turn")
    assert session.message == "" and session.state.rules.active == 1
    session.tap("end_turn")
    assert "draw or shift first" in session.message


def test_N5_wildcard_tapped_after_the_shift_pays_it_with_three_cards(tmp_path):
    from companion.rules.shift import Shift

    store, session = new_session(tmp_path)
    session.on_reading(rows(Grid(SETUP)))
    session.on_reading(rows(Shift.parse("r2<").apply(Grid(SETUP))))
    session.tap("wildcard")
    assert session.message == ""
    assert session.state.rules.hands == (0, 3)
    assert session.verdict.shifts == ("r2<!3",)


def test_N5_wildcard_tapped_before_the_shift_pays_the_next_shift(tmp_path):
    # At a real table the button is tapped before the row is moved as often as after.
    from companion.rules.shift import Shift

    store, session = new_session(tmp_path)
    session.on_reading(rows(Grid(SETUP)))
    session.tap("wildcard")
    assert session.message == "" and session.state.wildcard_next
    session.tap("wildcard")
    assert session.message.startswith("N5")  # once is enough
    session.on_reading(rows(Shift.parse("r2<").apply(Grid(SETUP))))
    assert session.state.rules.hands == (0, 3)
    assert [str(s) for s in session.state.shifts] == ["r2<!3"]
    assert not session.state.wildcard_next


def test_N5_wildcard_tapped_then_a_draw_pays_nothing(tmp_path):
    store, session = new_session(tmp_path)
    session.on_reading(rows(Grid(SETUP)))
    hands = session.state.rules.hands
    session.tap("wildcard")
    session.tap("draw")
    assert session.message == ""
    assert session.state.rules.hands[0] == hands[0] + 3  # three drawn, none paid
    assert not session.state.wildcard_next  # nor left waiting for the next player's shift


def test_N2_opening_grid_with_a_combination_is_refused_under_replace(tmp_path):
    store, session = new_session(tmp_path)
    session.on_reading(rows(Grid("RRRGY/CBVPR/GGYOC/BVPRO/YGCBV")))
    assert session.state.phase == "opening"
    assert not session.verdict.legal and session.verdict.cells == ((1, 1), (1, 2), (1, 3))


def test_fix_and_undo_are_new_events_and_correct_the_record(tmp_path):
    store, session = new_session(tmp_path)
    session.on_reading(rows(Grid(SETUP)))
    session.tap("fix", 5, 5, "R")
    assert session.state.grid.at(5, 5) == "R"
    assert '"setup": "RGOGY/CRVPB/RGYOC/BVPRO/YGCBR"' in session.record()
    session.tap("undo")
    assert session.state.grid.at(5, 5) == "V"
    kinds = [e.payload["kind"] for e in store.events(session.game_id)]
    assert kinds == ["setup", "fix", "undo"]


def _turn_to_clear(tmp_path, **options):
    """A session whose first turn, r2<, made RRR in column 1 (3 points), and the grid with
    those three cleared."""
    store, session = new_session(tmp_path, **options)
    setup = Grid("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV")
    session.on_reading(rows(setup))
    grid = Shift.parse("r2<").apply(setup)
    session.on_reading(rows(grid))
    session.tap("end_turn")
    return session, grid.replace({(1, 1): ".", (2, 1): ".", (3, 1): "."})


def test_N10_cascade_scores_for_active_player(tmp_path):
    # r2< makes RRR in column 1; the refill lays O O O, a new line.
    session, cleared = _turn_to_clear(tmp_path)
    assert session.state.phase == "clear"
    assert session.view().turn_points == 3
    session.on_reading(rows(cleared))
    assert session.state.phase == "refill"
    # Y at r1c1 makes nothing; O at r2c1 with... lay "OOO" -> column 1 OOO cascades.
    session.on_reading(rows(cleared.replace({(1, 1): "O", (2, 1): "O", (3, 1): "O"})))
    view = session.view()
    assert session.state.phase == "clear"
    assert view.players[0].score == 3 + 3 + 1  # N8 flat bonus continues in the cascade


def test_N9_a_card_read_unsure_away_from_the_cleared_cells_holds_nothing_up(tmp_path):
    # A sleeve or a glare over a card the combination does not touch, while the players
    # clear and refill: that card is the one the grid holds, and the cascade is seen. A cell
    # being cleared or filled that reads unsure is waited for (at a table that asks the
    # players to name a card the camera cannot read as it is laid).
    session, cleared = _turn_to_clear(tmp_path, unread_cards="ask")

    def unsure(g, *cells):
        flat = list(str(g))
        for r, c in cells:
            flat[(r - 1) * 6 + c - 1] = "?"
        return tuple("".join(flat).split("/"))

    session.on_reading(unsure(cleared, (5, 5)))
    assert session.state.phase == "refill"
    refilled = cleared.replace({(1, 1): "O", (2, 1): "O", (3, 1): "O"})
    session.on_reading(unsure(refilled, (1, 1)))  # a card being laid: wait for it
    assert session.state.phase == "refill"
    session.on_reading(unsure(refilled, (4, 4), (5, 2)))
    assert session.state.phase == "clear"
    assert session.view().players[0].score == 3 + 3 + 1  # the cascade scored (N10)
    assert set(session.state.to_clear) == {(1, 1), (2, 1), (3, 1)}  # the cascade's OOO


def test_N4_a_misread_cell_after_a_shift_is_settled_by_the_rules(tmp_path):
    # Only one grid that shifts make agrees with every other cell: the shift is scored
    # without anyone tapping the unsure cell.
    from companion.rules.shift import Shift

    store, session = new_session(tmp_path)
    session.on_reading(rows(Grid(SETUP)))
    after = str(Shift.parse("r2<").apply(Grid(SETUP)))
    session.on_reading(tuple((after[:7] + "?" + after[8:]).split("/")))
    assert [str(s) for s in session.state.shifts] == ["r2<"]
    assert str(session.state.grid) == after


def test_N4_an_unsure_cell_two_grids_explain_is_left_unsure(tmp_path):
    store, session = new_session(tmp_path)
    session.on_reading(rows(Grid(SETUP)))
    before = session.state
    session.on_reading(tuple(("?????" + SETUP[5:]).split("/")))  # row 1 moved, or not
    assert session.state == before and session.verdict is None


def test_N3_N5_the_buttons_that_apply_follow_the_turn(tmp_path):
    store, session = new_session(tmp_path)
    session.on_reading(rows(Grid.parse(SETUP)))
    assert session.view().actions == ("draw", "wildcard", "undo")  # no End turn yet
    grid = Grid.parse(SETUP)
    moved = next(m for m in (Shift.parse(f"r{i}<") for i in range(1, 6))
                 if m.apply(grid) != grid)
    session.on_reading(rows(moved.apply(grid)))
    assert session.view().verdict.legal
    assert session.view().actions == ("end_turn", "wildcard", "undo")
    session.tap("wildcard")
    assert session.view().actions == ("end_turn", "undo")  # paid with three already


def test_N7_each_player_s_last_turn_points(tmp_path):
    game = Game("classic", 3)
    played = simulate(game, random.Random(5), greedy, max_turns=400)
    store = GameStore(tmp_path / "games.sqlite")
    session = TableSession.new(store, game, ["A", "B", "C"])
    drive(session, played)
    last = {}
    for report in played.reports:
        last[report.player] = sum(r.points for r in report.rounds)
    assert [p.last_turn for p in session.view().players] == [last[0], last[1], last[2]]


def _ran_out(players: int, mode: str = "classic", deck: int = 5, discard: int = 4,
             runs: int = 1) -> str:
    from dataclasses import replace

    from companion.rules.state import State
    from companion.session.table import _runs_out_notice
    from companion.words import plain

    grid = Grid("RRRGC/RVPBO/RGCBV/PROYG/CBVPR")
    before = State(grid, 0, discard, (3,) * players, (0,) * players, runs_out=runs - 1)
    after = replace(before, deck=deck, discard=0 if deck else discard, runs_out=runs)
    return plain(_runs_out_notice(Game(mode, players), before, after))


@pytest.mark.parametrize("players", [1, 2, 3])
def test_N12_the_last_run_out_says_the_game_ends_in_words(players):
    said = _ran_out(players, runs=players)
    assert said == (f"The deck ran out for the last time ({players} of {players}): this turn "
                    f"ends the game.")


def test_N11_a_run_out_before_the_last_asks_for_the_discard_pile_shuffled_in():
    assert _ran_out(3, runs=2) == ("The deck ran out (2 of 3): shuffle the discard pile to "
                                   "form the new deck.")


def test_N11_a_run_out_with_the_discard_pile_empty_says_the_deck_stays_empty():
    said = _ran_out(2, deck=0, discard=0)
    assert said.startswith("The deck ran out (1 of 2) and the discard pile is empty: the deck "
                           "stays empty until cards are discarded")
    assert "shuffle the discard pile to form" not in said


def test_P8_a_run_out_in_pearl_counts_no_limit():
    assert _ran_out(3, "pearl") == ("The deck ran out: shuffle the discard pile to form the "
                                    "new deck.")
    assert "discard pile is empty" in _ran_out(3, "pearl", deck=0, discard=0)


def _shift(grid, scores=False):
    """The first shift of ``grid`` that moves cards and lines up a combination (or none)."""
    from companion.rules.combination import find_combinations

    return next(m for m in (Shift.parse(f"{line}{i}{d}") for line, ds in (("r", "<>"), ("c", "^v"))
                            for i in range(1, 6) for d in ds)
                if m.apply(grid) != grid and bool(find_combinations(m.apply(grid))) == scores)


def _quiet_shift(grid):
    return _shift(grid)


def _first_pays_one(session):
    """The opening grid set up, then the first player's quiet shift (three cards less one)
    and End turn; the grid now."""
    grid = Grid.parse(SETUP)
    session.on_reading(rows(grid))
    grid = _quiet_shift(grid).apply(grid)
    session.on_reading(rows(grid))
    session.tap("end_turn")
    return grid


def test_N5_paid_with_three_cards_is_greyed_and_refused_for_a_hand_of_two(tmp_path):
    store, session = new_session(tmp_path)
    grid = _first_pays_one(session)  # P0: two cards left
    session.tap("draw")  # P1's turn
    assert session.state.rules.hands[0] == 2 and session.state.rules.active == 0
    assert "wildcard" not in session.view().actions
    logged = len(session.events())
    session.tap("wildcard")
    assert session.message == "N5: player 0 holds 2 cards and a shift paid with three cards costs 3"
    assert len(session.events()) == logged and not session.state.wildcard_next
    # a shift paid with one card is still theirs to make
    grid = _quiet_shift(grid).apply(grid)
    session.on_reading(rows(grid))
    assert session.state.rules.hands[0] == 1 and "wildcard" not in session.view().actions


def test_N5_paid_with_three_cards_is_greyed_once_the_shifts_made_leave_too_few(tmp_path):
    store, session = new_session(tmp_path)
    grid = Grid.parse(SETUP)
    session.on_reading(rows(grid))
    grid = _quiet_shift(grid).apply(grid)
    session.on_reading(rows(grid))
    assert "wildcard" in session.view().actions  # 3 cards: this shift may cost them all
    grid = _quiet_shift(grid).apply(grid)
    session.on_reading(rows(grid))  # two shifts: 1 + 3 is more than the 3 held
    assert [str(s) for s in session.state.shifts][-1:] and "wildcard" not in session.view().actions


def test_N9_N10_the_view_says_when_its_combinations_are_the_turn_being_scored(tmp_path):

    store, session = new_session(tmp_path)
    grid = Grid.parse(SETUP)
    session.on_reading(rows(grid))
    session.on_reading(rows(_shift(grid, scores=True).apply(grid)))
    session.tap("end_turn")
    view = session.view()
    assert view.combinations and view.scoring  # its cards still lie there, to be cleared
    session.tap("undo")
    assert not session.view().scoring


def test_N5_paid_with_three_cards_is_refused_in_the_turn_a_catch_up_reaches(tmp_path):
    import itertools

    from companion.rules.combination import find_combinations
    from companion.rules.grid import EMPTY, GEMS

    store, session = new_session(tmp_path)
    grid = _first_pays_one(session)  # P0: two cards left
    grid = _shift(grid, scores=True).apply(grid)
    session.on_reading(rows(grid))
    session.tap("end_turn")  # P1 scores
    cleared = grid.replace({c: EMPTY for c in session.state.to_clear})
    session.on_reading(rows(cleared))
    cells = cleared.empty_cells()
    refilled = next(g for g in (cleared.replace(dict(zip(cells, letters, strict=True)))
                                for letters in itertools.product(GEMS, repeat=len(cells)))
                    if not find_combinations(g))
    session.on_brief(rows(refilled))  # the refill held only briefly: the game a step behind
    session.on_brief(rows(refilled))
    session.on_look(rows(refilled))
    assert session.state.phase == "refill"
    session.tap("wildcard")  # P0's turn once the refill is caught up: two cards held
    assert session.message == "N5: player 0 holds 2 cards and a shift paid with three cards costs 3"
    assert session.state.phase == "play" and not session.state.wildcard_next
    assert [e["kind"] for e in session.events()[-2:]] == ["cleared", "refill"]


# -- the record saved while a turn is under way ------------------------------------------------


def saved(store, game_id, tmp_path, monkeypatch) -> tuple[str, str]:
    """The game's record as the app's "Export record" saves it, and what it says."""
    from companion.live.app import Companion

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    said = Companion(store).export_record(game_id)
    out = next((tmp_path / "data").rglob(f"game-{game_id}.jsonl"))
    assert said.startswith(str(out))
    return out.read_text(), said[len(str(out)):]


def test_N3_a_record_saved_mid_turn_leaves_out_its_shifts_and_names_them(tmp_path,
                                                                       monkeypatch):
    # r4> then r5> make no line: the rules could read them as a whole turn, but the turn
    # did not end there, and a record's line is a turn that ended
    store, session = new_session(tmp_path)
    session.on_reading(rows(Grid(SETUP)))
    moved = Shift.parse("r4>").apply(Grid(SETUP))
    session.on_reading(rows(moved))
    session.on_reading(rows(Shift.parse("r5>").apply(moved)))
    assert [e["kind"] for e in session.events()] == ["setup", "shifts", "shifts"]
    text, said = saved(store, session.game_id, tmp_path, monkeypatch)
    assert text.splitlines()[1:] == [f'{{"setup": "{SETUP}"}}']
    assert said == ("\nTurn 1 was not over: its moves (row 4 moved right, then row 5 moved "
                    "right) are not in the record; save it again once the turn is over.")
    again = replay(parse_record(text))  # a record the rules read: the opening layout
    assert again.state.grid == Grid(SETUP) and again.state.turn == 0
    session.tap("end_turn")  # over now: in the record, and nothing more to say
    assert session.record().splitlines()[2:] == ['{"turn": 1, "shifts": ["r4>", "r5>"]}']
    assert session.unrecorded() == ""


def test_P9_a_record_saved_after_a_shift_completing_the_last_task_is_no_ended_game(tmp_path):
    # the shift that completes a player's last task needs no refill (P9): the rules could
    # read it as a whole turn, ending the game with a winner; the game is not over yet
    game = Game("pearl", 2)
    played = simulate(game, random.Random(3), greedy, max_turns=400)
    last = played.reports[-1]
    assert played.state.ended and [str(m) for m in last.turn.shifts] == ["c2^"]
    store, session = new_session(tmp_path, 2, "pearl")
    play_out(played, session, lambda grid: session.on_reading(rows(grid)), session.tap,
             turns=len(played.reports) - 1)
    session.on_reading(rows(last.turn.shifts[0].apply(session.state.grid)))
    assert session.state.phase == "play" and not session.view().ended
    again = replay(parse_record(session.record()))
    assert not again.state.ended and again.state.turn == len(played.reports) - 1
    assert session.unrecorded() == (
        f"Turn {len(played.reports)} was not over: its move (column 2 moved up) is not in the "
        "record; save it again once the turn is over.")
    session.tap("end_turn")
    assert replay(parse_record(session.record())).summary() == played.summary()
    assert session.unrecorded() == ""


def test_N9_a_record_saved_while_a_turn_is_scored_ends_before_it_and_says_so(tmp_path,
                                                                           monkeypatch):
    # r2< made R R R: scored, cleared, refilled, the turn is not over until the refill
    store, session = new_session(tmp_path)
    session.on_reading(rows(Grid(SETUP)))
    shifted = Shift.parse("r2<").apply(Grid(SETUP))
    cleared = shifted.replace({(1, 1): ".", (2, 1): ".", (3, 1): "."})
    left_out = ("Turn 1 was not over: its move (row 2 moved left) is not in the record; save "
                "it again once the turn is over.")
    for step in (lambda: session.on_reading(rows(shifted)), lambda: session.tap("end_turn"),
                 lambda: session.on_reading(rows(cleared))):
        step()
        text, said = saved(store, session.game_id, tmp_path, monkeypatch)
        assert text.splitlines()[1:] == [f'{{"setup": "{SETUP}"}}'] and said == "\n" + left_out
        replay(parse_record(text))  # still a record the rules read
    assert session.state.phase == "refill"
    session.on_reading(rows(cleared.replace({(1, 1): "B", (2, 1): "Y", (3, 1): "P"})))
    text, said = saved(store, session.game_id, tmp_path, monkeypatch)
    assert text.splitlines()[-1] == '{"turn": 1, "shifts": ["r2<"], "refill": "BYP"}'
    assert said == ""


def test_N10_a_record_saved_mid_cascade_says_the_cards_laid_in_the_turn_are_left_out(tmp_path):
    # r2< made R R R in column 1; the refill lays R R R there again: a cascade to clear
    store, session = new_session(tmp_path)
    session.on_reading(rows(Grid(SETUP)))
    shifted = Shift.parse("r2<").apply(Grid(SETUP))
    cleared = shifted.replace({(1, 1): ".", (2, 1): ".", (3, 1): "."})
    session.on_reading(rows(shifted))
    session.tap("end_turn")
    session.on_reading(rows(cleared))
    session.on_reading(rows(cleared.replace({(1, 1): "R", (2, 1): "R", (3, 1): "R"})))
    assert session.message == "" and session.state.phase == "clear"
    assert session.record().splitlines()[1:] == [f'{{"setup": "{SETUP}"}}']
    assert session.unrecorded() == (
        "Turn 1 was not over: its move (row 2 moved left) and the 3 cards laid since are not "
        "in the record; save it again once the turn is over.")


def test_N5_three_cards_tapped_before_any_shift_are_said_not_to_be_in_the_record(tmp_path):
    store, session = new_session(tmp_path)
    session.on_reading(rows(Grid(SETUP)))
    session.tap("wildcard")
    assert session.message == "" and session.record().splitlines()[1:] == [
        f'{{"setup": "{SETUP}"}}']
    assert session.unrecorded() == ('Turn 1 was not over: "paid with 3 cards" was tapped for a '
                                    "shift not made yet, which the record cannot hold.")
