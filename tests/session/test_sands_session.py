"""The Desert Sands through the session (D1-D6): taps and camera reads become events in the
game store, the state is their fold, and the screen gets the bag, the scores and the odds."""

import dataclasses
import math
import random
import threading

import numpy as np
import pytest

from companion.errors import DamagedFile
from companion.rules.record import parse_record
from companion.rules.sands import CALLS, COLOURS, Bag, Sands, replay
from companion.sands.advice import advise
from companion.sands.odds import load_table
from companion.session.sands import Draw, SandsSession, TableLoader, outcome_text
from companion.store import GameStore
from vision.spot import StoneWatcher, learn_stone_palette, read_stone

SMALL = Bag.parse("r3y3g3l3")


def not_ready():
    return None


@pytest.fixture(scope="module")
def small_table(tmp_path_factory):
    return load_table(SMALL, cache_dir=tmp_path_factory.mktemp("cache"))


def new(tmp_path, full=SMALL, provider=not_ready, names=("Ann", "Bob")):
    store = GameStore(tmp_path / "games.sqlite")
    return store, SandsSession.new(store, full, names, table_provider=provider)


def play(session, *pairs):
    for call, drawn in pairs:
        session.tap("call", call)
        session.tap("drawn", drawn)
        assert session.message == "", session.message


def draw_at_random(rng, bag):
    stones = [c for c in COLOURS for _ in range(bag.count(c))]
    return rng.choice(stones)


def logged(store, session):
    return [e.payload for e in store.events(session.game_id)]


# -- a whole game ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_D2_D3_D4_D5_D6_a_seeded_game_through_taps_is_the_rules_replay(tmp_path, seed):
    rng = random.Random(seed)
    full = Bag(*(rng.randint(1, 6) for _ in COLOURS))
    store, session = new(tmp_path, full)
    state = Sands(full).start()
    while not state.ended:
        call = rng.choice(COLOURS)
        drawn = draw_at_random(rng, state.bag)
        session.tap("call", call)
        assert session.view().called == call
        session.tap("drawn", drawn)
        assert session.message == ""
        state = state.after(call, drawn)
        view = session.view()
        assert (view.scores, view.active, view.bag, view.ended, view.winners) == (
            state.scores, state.turn, state.bag.to_json(), state.ended, state.winners)
    assert replay(parse_record(session.record())).summary() == state.summary()
    assert store.game(session.game_id).finished is not None
    assert all(e["kind"] in ("call", "drawn") for e in logged(store, session))


def test_D4_success_keeps_the_turn_in_the_session(tmp_path):
    _, s = new(tmp_path)
    play(s, ("red", "yellow"))
    assert (s.view().active, s.view().scores) == (0, (1, 0))
    assert s.view().last == "Ann called red and drew yellow: +1"
    play(s, ("green", "red"))
    assert (s.view().active, s.view().scores) == (1, (1, 0))
    assert s.view().last == "Ann called green and drew red: no points; Bob's turn"


def test_D3_a_failed_lilac_call_gives_the_opponent_two_points(tmp_path):
    _, s = new(tmp_path)
    play(s, ("lilac", "green"))
    v = s.view()
    assert (v.scores, v.active) == ((0, 2), 1)
    assert v.last == "Ann called lilac and drew green: Bob +2; Bob's turn"


def test_D5_sixteen_after_a_success_wins_and_finishes_the_game(tmp_path):
    store, s = new(tmp_path)
    play(s, ("lilac", "lilac"), ("green", "green"))
    v = s.view()
    assert (v.scores, v.ended, v.winners, v.calls, v.best) == ((17, 0), True, (0,), {}, "")
    assert v.last == "Ann called green and drew green: +5; Ann wins"
    assert store.game(s.game_id).finished is not None
    seq = s.seq
    s.tap("call", "red")
    assert s.message == "D5: the game has ended: no more calls" and s.seq == seq


def test_D5_points_from_penalties_never_end_the_game(tmp_path):
    _, s = new(tmp_path, Bag.parse("r9y9g9l9"))
    for i in range(8):  # Ann fails lilac: Bob +2; Bob fails lilac: Ann +2
        play(s, ("lilac", "red" if i < 4 else "yellow"), ("lilac", "green" if i < 4 else "yellow"))
    v = s.view()
    assert (v.scores, v.ended, v.active, s.state.rules.pending) == ((16, 16), False, 0, (0, 1))
    assert v.last == "Bob called lilac and drew yellow: Ann +2; Ann's turn"
    play(s, ("red", "red"))
    assert s.view().winners == (0,) and s.view().last.endswith("+1; Ann wins")


def test_D6_the_empty_bag_ends_the_game_on_points(tmp_path):
    _, s = new(tmp_path, Bag.parse("r1l1"))
    play(s, ("red", "red"), ("red", "lilac"))
    v = s.view()
    assert (v.ended, v.winners, v.scores) == (True, (0,), (1, 0))
    assert v.last == "Ann called red and drew lilac: no points; the bag is empty: Ann wins"
    s.tap("call", "red")
    assert s.message.startswith("D6:")


def test_D6_equal_scores_at_the_empty_bag_are_a_draw(tmp_path):
    _, s = new(tmp_path, Bag.parse("l1"))
    play(s, ("red", "lilac"))
    assert (s.view().ended, s.view().winners) == (True, ())
    assert s.view().last.endswith("the bag is empty: a draw")


# -- undo, bad taps, resume ---------------------------------------------------------------


def test_D2_undo_takes_back_the_stone_then_the_call(tmp_path):
    store, s = new(tmp_path)
    play(s, ("green", "green"))
    s.tap("call", "lilac")
    s.tap("drawn", "red")
    assert s.view().scores == (5, 2)
    s.tap("undo")
    v = s.view()
    assert (v.scores, v.called, v.bag["red"], v.active) == ((5, 0), "lilac", 3, 0)
    s.tap("undo")
    assert s.view().called == "" and s.view().last == "Ann called green and drew green: +5"
    s.tap("undo")
    s.tap("undo")
    assert s.view().bag == SMALL.to_json() and s.view().last == ""
    s.tap("undo")
    assert s.message == "nothing to undo"
    assert [e["kind"] for e in logged(store, s)].count("undo") == 4


def test_D5_undo_after_the_winning_stone_reopens_the_game(tmp_path):
    _, s = new(tmp_path)
    play(s, ("lilac", "lilac"), ("green", "green"))
    s.tap("undo")
    assert not s.view().ended and s.view().called == "green"
    s.tap("drawn", "red")
    assert s.view().scores == (12, 0) and s.view().active == 1


@pytest.mark.parametrize("taps, message", [
    ([("drawn", "red")], "D2: name a colour before the stone is drawn"),
    ([("call", "red"), ("call", "green")], "D2: red is already called"),
    ([("call", "blue")], "D1: call 'blue' is not one of red, yellow, green, lilac"),
    ([("call", "red"), ("drawn", "sand")], "D1: drawn stone 'sand'"),
    ([("call", "red"), ("drawn", "red"), ("call", "red"), ("drawn", "red"), ("call", "red"),
      ("drawn", "red"), ("call", "red"), ("drawn", "red")], "D2: no red stone is left"),
    ([("shuffle",)], "unknown tap ('shuffle',)"),
    ([("call",)], "unknown tap ('call',)"),
    ([("undo", "red")], "unknown tap ('undo', 'red')"),
])
def test_D1_D2_a_bad_tap_says_why_and_changes_nothing(tmp_path, taps, message):
    store, s = new(tmp_path)
    for tap in taps[:-1]:
        s.tap(*tap)
    before, events = s.view(), logged(store, s)
    s.tap(*taps[-1])
    assert s.message.startswith(message) and "\n" not in s.message
    assert s.view().message == s.message
    assert dataclasses.replace(s.view(), message="") == before and logged(store, s) == events


def test_resume_after_reopening_the_store_folds_the_same_game(tmp_path):
    store, s = new(tmp_path)
    play(s, ("green", "green"), ("red", "lilac"), ("yellow", "yellow"))
    s.tap("undo")
    s.tap("undo")
    s.tap("call", "lilac")  # Bob's call waiting for its stone when the power goes
    before, game_id = s.view(), s.game_id
    store.close()
    with GameStore(tmp_path / "games.sqlite") as again:
        assert again.unfinished().id == game_id
        resumed = SandsSession(again, game_id, table_provider=not_ready)
        assert resumed.view() == before
        resumed.tap("drawn", "lilac")
        assert resumed.view().scores == (5, 12) and resumed.message == ""
        assert resumed.record() == SandsSession(again, game_id, not_ready).record()


@pytest.mark.parametrize("bad, why", [
    ({"kind": "drawn", "colour": "lilac"},  # no call before it
     r"event 3 \(drawn\) cannot be replayed: D2: name a colour before the stone is drawn"),
    ({"kind": "teleport"}, "event 3 cannot be read: unknown event kind 'teleport'"),
])
def test_resume_refuses_a_log_with_an_event_the_game_cannot_take_naming_it(tmp_path, bad, why):
    # Every event was applied before it was logged: one that cannot be now is damage (or an
    # older version's event without its upgrade), never a game silently played another way.
    store, s = new(tmp_path)
    play(s, ("red", "red"))
    store.append(s.game_id, bad)
    with pytest.raises(DamagedFile, match=f"game {s.game_id} in .*games.sqlite: {why}"):
        SandsSession(store, s.game_id, not_ready)
    assert len(store.events(s.game_id)) == 3  # nothing dropped from the file


def test_a_session_is_only_for_a_desert_sands_game(tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    nizam = store.new_game({"game": "nizam", "players": 2})
    with pytest.raises(ValueError, match="not The Desert Sands"):
        SandsSession(store, nizam, not_ready)
    with pytest.raises(ValueError, match="D1: The Desert Sands has 2 players, not 3"):
        SandsSession.new(store, SMALL, ["A", "B", "C"], not_ready)
    with pytest.raises(ValueError, match="at least one stone"):
        SandsSession.new(store, Bag(), (), not_ready)


def test_D1_a_game_from_the_start_screen_header(tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    header = {"game": "sands", "players": ["Ann", ""],
              "bag": {"red": 2, "yellow": 0, "green": 1, "lilac": 4}}
    s = SandsSession.from_header(store, header, not_ready)
    v = s.view()
    assert v.players == ("Ann", "Player 2") and v.bag == header["bag"] and v.game_id == s.game_id
    assert store.game(s.game_id).header["bag"] == header["bag"]


# -- the record ---------------------------------------------------------------------------


def test_record_round_trips_through_the_rules_and_a_new_session(tmp_path):
    rng = random.Random(9)
    store, s = new(tmp_path, Bag.parse("r4y4g4l4"))
    state = s.state.rules
    for _ in range(9):
        call, drawn = rng.choice(COLOURS), draw_at_random(rng, state.bag)
        play(s, (call, drawn))
        state = state.after(call, drawn)
        if state.ended:
            break
    s.tap("call", "red")  # a call without its stone is not in the record yet
    text = s.record()
    record = parse_record(text)
    assert record.header == {"game": "sands", "players": ["Ann", "Bob"],
                             "bag": Bag.parse("r4y4g4l4").to_json()}
    assert all(set(e) == {"call", "drawn"} for _, e in record.entries)
    assert replay(record).summary() == state.summary()
    again = SandsSession.from_header(store, record.header, not_ready)
    play(again, *[(e["call"], e["drawn"]) for _, e in record.entries])
    assert again.record() == text


# -- the camera's stone ---------------------------------------------------------------------


def test_D2_a_stone_read_by_the_camera_is_the_drawn_stone(tmp_path):
    store, s = new(tmp_path)
    s.tap("call", "green")
    s.on_stone("g")
    assert s.view().scores == (5, 0) and s.message == ""
    assert logged(store, s)[-1] == {"kind": "drawn", "v": 6, "colour": "green", "by": "camera"}
    s.on_stone("g")  # the same stone still there, or read again: nothing new
    s.on_stone(".")
    s.on_stone("?")
    assert s.message == "" and len(logged(store, s)) == 2
    s.tap("call", "red")
    s.tap("drawn", "red")
    s.on_stone("r")  # tapped in before the camera was sure: the same stone, ignored
    assert s.message == "" and s.view().bag["red"] == 2
    s.on_stone("l")
    assert s.message == ("the camera read lilac but red was entered: if the stone is lilac, "
                         "tap Undo and then lilac")
    s.tap("call", "yellow")
    s.on_stone("lilac")
    assert s.view().scores == (6, 0) and s.view().active == 1
    s.on_stone("x")
    assert s.message.startswith("D1:")


def test_D2_a_stone_on_the_spot_before_any_call_is_refused(tmp_path):
    store, s = new(tmp_path)
    s.on_stone("r")
    assert s.message == "D2: a red stone is on the spot but no colour is called"
    assert logged(store, s) == []


def test_D2_a_stone_the_bag_does_not_hold_is_refused(tmp_path):
    _, s = new(tmp_path, Bag.parse("r2l1"))
    s.tap("call", "red")
    s.on_stone("g")
    assert s.message.startswith("D2: no green stone is left") and s.view().called == "red"


def test_D2_frames_from_the_camera_play_a_turn(tmp_path):
    from tests.vision.test_spot import SPOT, calibration_frames, stone_frame

    rng = np.random.default_rng(21)
    palette = learn_stone_palette(calibration_frames(rng), SPOT)
    _, s = new(tmp_path)
    watcher = StoneWatcher(3)
    frames = {"green": [stone_frame(rng, None)] * 3 + [stone_frame(rng, "g", 5600, 0.9)] * 3,
              "red": [stone_frame(rng, None, 4500)] * 3 + [stone_frame(rng, "l", 4500)] * 3}
    for call, shots in frames.items():
        s.tap("call", call)
        for frame in shots:
            stone = watcher.push(read_stone(frame, SPOT, palette))
            if stone:
                s.on_stone(stone)
    v = s.view()
    assert (v.scores, v.active, v.bag["green"], v.bag["lilac"], s.message) == ((5, 0), 1, 2, 2, "")
    assert v.last == "Ann called red and drew lilac: no points; Bob's turn"


# -- the odds ------------------------------------------------------------------------------


def test_D3_until_the_table_is_ready_the_chance_to_win_is_unknown(tmp_path, small_table):
    ready = threading.Event()
    _, s = new(tmp_path, provider=lambda: small_table if ready.is_set() else None)
    v = s.view()
    assert v.best == "" and all(math.isnan(c.p_win) for c in v.calls.values())
    assert [v.calls[c].p_success for c in COLOURS] == [0.75, 0.5, 0.25, 0.25]
    assert [v.calls[c].expected_points for c in COLOURS] == [0.75, 1.0, 1.25, 3.0]
    assert not s.odds_ready and s.view() is v  # polled again: the same view, no work
    ready.set()
    v = s.view()
    assert s.odds_ready and v.best in COLOURS
    expected = advise(small_table, SMALL, (0, 0))
    assert {c: o.p_win for c, o in v.calls.items()} == {
        c: a.p_win for c, a in expected.calls.items()}
    assert v.best == expected.best


def test_D4_the_odds_are_the_player_to_move_s(tmp_path, small_table):
    _, s = new(tmp_path, provider=lambda: small_table)
    play(s, ("green", "green"), ("yellow", "red"))
    v = s.view()
    assert v.active == 1
    expected = advise(small_table, Bag.parse("r2y3g2l3"), (0, 5))
    assert all(v.calls[c].p_win == expected.calls[c].p_win for c in COLOURS)
    assert all(v.calls[c].expected_points == pytest.approx(
        expected.calls[c].expected_points) for c in COLOURS)


def test_a_table_that_fails_to_load_leaves_the_game_playable(tmp_path, small_table):
    def broken():
        raise OSError("disk full")

    _, s = new(tmp_path, provider=broken)
    play(s, ("red", "red"))
    assert math.isnan(s.view().calls["red"].p_win) and s.view().best == ""
    assert s.problem == "no chances to win: disk full" and not s.odds_ready
    other = load_table(Bag.parse("r1y1g1l1"), cache_dir=tmp_path)
    _, s = new(tmp_path / "b", provider=lambda: other)
    assert math.isnan(s.view().calls["red"].p_win) and not s.odds_ready
    assert s.problem.startswith("no chances to win: the table is for the bag r1y1g1l1")


def test_the_table_loader_loads_off_the_caller_s_thread(small_table):
    go = threading.Event()

    def slow_load(full, cache_dir):
        assert threading.current_thread().name == "sands-table"
        go.wait(60)
        return small_table

    # Waits are generous for a loaded machine: each ends as soon as the loader is done.
    loader = TableLoader(SMALL, load=slow_load)
    assert loader() is None
    go.set()
    assert loader.wait(60) is small_table

    def failing(full, cache_dir):
        raise ValueError("bad bag")

    loader = TableLoader(SMALL, load=failing)
    with pytest.raises(ValueError, match="bad bag"):
        loader.wait(60)


def test_D3_outcome_texts_name_points_and_turns():
    state = Sands(Bag.parse("r1y1g1l1")).start()
    names = ("Ann", "Bob")
    for call in COLOURS:
        for drawn in COLOURS:
            after = state.after(call, drawn)
            text = outcome_text(Draw(0, call, drawn, state, after), names)
            assert text.startswith(f"Ann called {call} and drew {drawn}: ")
            if drawn in CALLS[call].succeeds_on:
                assert text.endswith(f"+{CALLS[call].points}")
            else:
                assert text.endswith("Bob's turn")


def test_D2_a_record_saved_after_a_call_before_its_stone_says_the_call_is_not_in_it(tmp_path):
    _, s = new(tmp_path)
    play(s, ("red", "yellow"), ("green", "lilac"))  # Ann's second call fails: Bob's to call
    assert s.unrecorded() == ""
    s.tap("call", "green")  # the stone not drawn yet
    assert [e for _, e in parse_record(s.record()).entries] == [
        {"call": "red", "drawn": "yellow"}, {"call": "green", "drawn": "lilac"}]
    assert s.unrecorded() == ("Bob called green and no stone was drawn yet: the record ends "
                              "before that call.")
