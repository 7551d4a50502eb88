"""The start screen, driven by touches: the game, the players, the rule options (N2, N8,
N10), The Desert Sands' bag (D1), continuing a saved game and the past games."""

from types import SimpleNamespace

import pytest

from companion.errors import CameraError
from companion.session.kinds import KINDS
from companion.ui.start import describe_game
from companion.words import when_words

from .helpers import TableDouble, button, nizam_views, tap, window_button


def stored(id, game, finished):
    return SimpleNamespace(id=id, header={"game": game, "players": 2, "names": ["Ann", "Bob"]},
                           started="2026-11-30T10:00:00.000+00:00", finished=finished, events=4)


def test_N1_N2_N8_N10_start_a_nizam_game_with_names_count_and_options(start_app):
    headers = []

    def start_game(header):
        headers.append(header)
        return TableDouble(nizam_views())

    driver = start_app(start_game=start_game)
    start = driver.app.start_screen
    tap(driver, button(start, "+"))
    start.name_inputs[0].text = "Ann"
    start.name_inputs[2].text = "Cid"
    for choice in ("keep", "rising", "leave"):
        tap(driver, button(start, choice))
    tap(driver, button(start, "Start the game"))
    assert headers == [{
        "game": "nizam",
        "players": ["Ann", "Player 2", "Cid"],
        "options": {"setup_lines": "keep", "bonus": "rising", "cascades": "leave"},
    }]
    assert driver.app.manager.current == "table"
    assert "Ann's turn" in driver.app.table_screen.ids.header.title


def test_N1_player_count_stays_between_1_and_5(start_app):
    driver = start_app()
    start = driver.app.start_screen
    tap(driver, button(start, "-"))
    assert start.count == 1 and button(start, "-").disabled
    for _ in range(4):
        tap(driver, button(start, "+"))
    assert start.count == 5 and button(start, "+").disabled
    assert len(start.ids.names.children) == 5


def test_P2_P7_pearl_offers_setup_lines_and_cascades_but_no_bonus(start_app):
    headers = []
    driver = start_app(start_game=lambda h: headers.append(h))
    start = driver.app.start_screen
    tap(driver, button(start, "Pearl of the East"))
    texts = {getattr(w, "text", "") for w in start.walk()}
    assert "rising" not in texts and "keep" in texts
    tap(driver, button(start, "Start the game"))
    assert headers[0]["game"] == "pearl"
    # the bonus Pearl does not offer stays at its default
    assert headers[0]["options"] == {"setup_lines": "replace", "bonus": "flat",
                                     "cascades": "score"}


def test_D1_sands_has_two_players_and_a_configurable_bag(start_app):
    headers = []
    driver = start_app(start_game=lambda h: headers.append(h))
    start = driver.app.start_screen
    tap(driver, button(start, "+"))
    tap(driver, button(start, "The Desert Sands"))
    assert start.count == 2
    assert start.ids.fewer.disabled and start.ids.more.disabled
    lilac = start.stone_counts["lilac"]
    minus = next(w for w in lilac.walk() if getattr(w, "text", None) == "-")
    tap(driver, minus)
    # no more red stones than the solver's table can hold (16 of a colour)
    red = start.stone_counts["red"]
    plus = next(w for w in red.walk() if getattr(w, "text", None) == "+")
    for _ in range(6):
        tap(driver, plus)
    tap(driver, button(start, "Start the game"))
    assert headers == [{"game": "sands", "players": ["Player 1", "Player 2"],
                        "bag": {"red": 16, "yellow": 12, "green": 12, "lilac": 11}}]


def test_continue_the_newest_unfinished_game(start_app):
    resumed = []
    games = [stored(3, "sands", "2026-11-30T11:00"), stored(2, "nizam", None)]

    def resume(game_id):
        resumed.append(game_id)
        return TableDouble(nizam_views())

    driver = start_app(games=lambda: games, resume_game=resume)
    driver.settle()
    resume = driver.app.start_screen.ids.resume
    assert resume.text == f"Continue Nizam\n{when_words('2026-11-30T10:00:00.000+00:00')}"
    tap(driver, resume)
    assert resumed == [2]
    assert driver.app.manager.current == "table"


def test_past_games_list_and_export(start_app):
    exported = []
    games = [stored(3, "sands", "2026-11-30T11:00"), stored(2, "nizam", None)]
    driver = start_app(games=lambda: games, resume_game=lambda i: None,
                       export_record=lambda i: exported.append(i) or f"/tmp/game-{i}.jsonl")
    driver.settle()
    tap(driver, button(driver.app.start_screen, "Past games"))
    sheet = driver.app.root.children[1]
    text = " ".join(getattr(w, "text", "") for w in sheet.walk())
    assert "The Desert Sands: Ann, Bob" in text and "not finished" in text and "#" not in text
    exports = [w for w in sheet.walk() if getattr(w, "text", "") == "Export record"]
    tap(driver, exports[0])
    assert exported == [3]
    assert driver.app.banner.text == "Game record saved: /tmp/game-3.jsonl"
    tap(driver, window_button(driver, "Close"))
    assert sheet.parent is None


def test_N3_a_record_saved_without_the_turn_under_way_stays_in_the_banner_until_tapped(
        start_app, monkeypatch):
    # the banner's few seconds made two (its own clock, no travel in time; long enough
    # that a slow machine's settling does not outlast it): a message that goes by itself
    # has gone while the notice stays
    import time

    from companion.ui import widgets

    monkeypatch.setattr(widgets, "BANNER_SECONDS", 2.0)
    left_out = ("Turn 14 was not over: its moves (row 2 moved left, then column 4 moved up) "
                "and the 3 cards laid since are not in the record; save it again once the "
                "turn is over.")
    said = {3: "/tmp/game-3.jsonl", 2: f"/tmp/game-2.jsonl\n{left_out}"}
    games = [stored(3, "nizam", "2026-11-30T11:00"), stored(2, "nizam", None)]
    driver = start_app(games=lambda: games, resume_game=lambda i: None,
                       export_record=lambda i: said[i])
    driver.settle()
    tap(driver, button(driver.app.start_screen, "Past games"))
    exports = [w for w in driver.app.root.children[1].walk()
               if getattr(w, "text", "") == "Export record"]
    banner = driver.app.banner

    def after(seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            driver.frames(1)
            time.sleep(0.01)

    tap(driver, exports[0])  # game 3, whole: said for a moment, as before
    assert banner.text == "Game record saved: /tmp/game-3.jsonl"
    after(2.5)
    assert banner.text == ""
    tap(driver, exports[1])  # game 2, a turn left out: read at leisure, gone when tapped
    assert banner.text == f"Game record saved: /tmp/game-2.jsonl\n{left_out}\nTap to close"
    after(2.5)
    kept = f"Game record saved: /tmp/game-2.jsonl\n{left_out}\nTap to close"
    assert banner.text == kept and banner.opacity == 1
    # a message over it goes as always, and the notice comes back, tapped or not
    banner.say("The camera was lost: reconnecting")
    assert banner.text == "The camera was lost: reconnecting"
    after(2.5)
    assert banner.text == kept
    banner.say("That tap was refused")
    tap(driver, banner)
    assert banner.text == kept
    tap(driver, banner)
    assert banner.text == "" and banner.height == 0
    after(2.5)
    assert banner.text == ""


def test_a_winner_the_database_was_too_busy_to_tell_is_told_when_the_list_next_opens():
    # a lock is another program's for a moment: the game's line is told again later; a
    # log that cannot be read is told as such once (its Story says why)
    from companion.session.events import DamagedLog
    from companion.store import StoreBusy
    from companion.ui.start import stories_of

    def game(n, tell):
        return SimpleNamespace(told_as=(n, 10), story_without_best_calls=tell)

    def busy():
        raise StoreBusy("game database games.sqlite is locked by another program")

    def damaged():
        raise DamagedLog("event 3 of game 2 is not JSON")

    told = stories_of([game(1, busy), game(2, damaged), game(3, lambda: "story 3")], 10.0)
    assert told == {(2, 10): None, (3, 10): "story 3"}


def test_N1_D1_past_games_are_described_from_their_set_up_in_every_stored_form():
    def entry(id, header):
        return SimpleNamespace(id=id, header=header, started="2026-11-30T10:00:00.000+00:00",
                               finished=None)

    nizam = entry(1, {"game": "nizam", "players": 3, "names": ["Ann"], "options": {}})
    sands = entry(2, {"game": "sands", "players": ["Ann", "Bob"], "bag": "r3y3g3l3"})
    damaged = entry(3, {"game": "chess", "players": 2})
    when = when_words("2026-11-30T10:00:00.000+00:00")  # in the machine's time zone
    assert describe_game(nizam) == f"Nizam: Ann, Player 2, Player 3\n{when} · not finished"
    assert describe_game(sands).startswith("The Desert Sands: Ann, Bob\n")
    assert describe_game(damaged).startswith("A game whose set-up cannot be read\n")


def test_every_game_kind_has_its_title_to_choose_and_its_screen(start_app):
    driver = start_app()
    for kind in KINDS.values():
        assert button(driver.app.start_screen, kind.title) is not None
        assert driver.app.manager.has_screen(kind.screen)


def test_no_saved_game_means_no_continue(start_app):
    driver = start_app(games=lambda: [], resume_game=lambda i: None)
    driver.settle()
    assert button(driver.app.start_screen, "Continue (no saved game)").disabled


def test_a_game_that_cannot_start_says_why_and_stays(start_app):
    def start_game(header):
        raise CameraError("no camera found: plug one in or play the demo")

    driver = start_app(start_game=start_game)
    tap(driver, button(driver.app.start_screen, "Start the game"))
    assert driver.app.manager.current == "start"
    assert driver.app.banner.text == "No camera found: plug one in or play the demo"


def test_a_name_stops_at_20_characters_the_screens_have_room_for(start_app):
    driver = start_app()
    name = driver.app.start_screen.name_inputs[0]
    name.focus = True
    for letter in "Oleksandra Kovalenko-Shevchenko":
        name.insert_text(letter)
    assert name.text == "Oleksandra Kovalenko"


def test_N13_past_games_say_who_won_a_finished_game_as_the_game_over_screen_does(
        start_app, tmp_path):
    from companion.live.app import Companion
    from companion.store import GameStore
    from tools.showcase import finished_game, staged_game

    store = GameStore(tmp_path / "games.sqlite")
    won = finished_game(store, ("Ann", "Bob", "Cid"), seed=1)
    staged_game(store, ("Dan", "Eve"), seed=0, turns=2)  # not finished
    driver = start_app(games=Companion(store).games)
    driver.settle()
    tap(driver, button(driver.app.start_screen, "Past games"))
    driver.settle()
    sheet = driver.app.root.children[1]
    lines = [w.text for w in sheet.walk() if getattr(w, "text", "").startswith("Nizam: ")]
    finished = when_words(store.game(won).started) + " · finished · Bob wins!"
    assert lines[1] == f"Nizam: Ann, Bob, Cid\n{finished}"  # newest first
    assert lines[0].startswith("Nizam: Dan, Eve\n") and lines[0].endswith(" · not finished")
    # a shared victory and a draw in the game-over screen's words
    story = SimpleNamespace(names=("Ann", "Bob", "Cid"), winners=(0, 2), ended=True)
    entry = stored(5, "nizam", "2026-11-30T11:00")
    assert describe_game(entry, story).endswith(" · finished · Ann and Cid share the victory!")
    draw = SimpleNamespace(names=("Ann", "Bob"), winners=(0, 1), ended=True)
    assert describe_game(entry, draw).endswith(" · finished · A draw: Ann and Bob share the "
                                               "victory!")


def test_N13_past_games_work_out_each_winner_once_however_often_the_list_opens(
        start_app, tmp_path, monkeypatch):
    # The list opened, closed and opened again while the worker is still on its first
    # game, then again once every winner is known: each game is folded once, one job at a
    # time, and its Story (the same story: Nizam marks no best call) folds it no more.
    import threading
    from collections import Counter
    from dataclasses import replace

    import companion.ui.start as start_module
    from companion.live.app import Companion
    from companion.store import GameStore
    from companion.story import game_story
    from companion.ui.story import StoryChart
    from tests.waiting import wait_for
    from tools.showcase import finished_game, staged_game

    from .helpers import tap_at

    store = GameStore(tmp_path / "games.sqlite")
    first = finished_game(store, ("Ann", "Bob", "Cid"), seed=1)
    second = finished_game(store, ("Dan", "Eve", "Fay"), seed=1)
    staged_game(store, ("Gus", "Hal"), seed=0, turns=2)  # not finished: nothing to fold
    folds: Counter = Counter()
    gate = threading.Event()

    def counted(what, game_id, tell):
        def told():
            gate.wait(60)  # the worker held on its first game until the list is reopened
            folds[what, game_id] += 1
            return tell()
        return told

    companion = Companion(store)
    games = lambda: [replace(g, story=counted("story", g.id, g.story),  # noqa: E731
                             story_without_best_calls=counted(
                                 "winner", g.id, g.story_without_best_calls))
                     for g in companion.games()]
    jobs = []
    real = start_module.stories_of
    monkeypatch.setattr(start_module, "stories_of",
                        lambda g, seconds, busy: jobs.append([x.id for x in g])
                        or real(g, seconds, busy))
    driver = start_app(games=games)
    driver.settle()
    start = driver.app.start_screen

    def press(widget):  # no waiting for the worker: it is held
        tap_at(driver, *widget.to_window(*widget.center))
        driver.frames(2)

    def lines():
        sheet = driver.app.root.children[1]
        return [w.text.split(" · ", 1)[1] for w in sheet.walk()
                if getattr(w, "text", "").startswith("Nizam: ")]

    press(button(start, "Past games"))
    # the job starts on the worker's thread: on a loaded machine, some frames later
    assert wait_for(lambda: jobs, step=lambda: driver.frames(1)), "no job for the winners"
    press(window_button(driver, "Close"))
    press(button(start, "Past games"))
    assert jobs == [[second, first]]  # one job for both, newest first, not asked again
    gate.set()
    driver.settle()
    assert folds == {("winner", first): 1, ("winner", second): 1}
    assert lines() == ["not finished", "finished · Eve wins!", "finished · Bob wins!"]
    tap(driver, window_button(driver, "Close"))
    tap(driver, button(start, "Past games"))
    assert lines() == ["not finished", "finished · Eve wins!", "finished · Bob wins!"]
    count = len(jobs)
    tap(driver, [w for w in driver.app.root.children[1].walk()
                 if getattr(w, "text", "") == "Story"][2])  # the first game's
    chart = next(w for c in driver.window.children for w in c.walk()
                 if isinstance(w, StoryChart))
    assert chart.story == game_story(store, first) and chart.story.winners == (1,)
    assert len(jobs) == count and sum(folds.values()) == 2  # nothing folded again


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_N2_N8_N10_each_rule_option_says_in_plain_words_what_its_choice_does(start_app, size):
    from companion.rules.game import OPTION_CHOICES
    from companion.ui.theme import OPTION_MEANINGS, option_meaning
    from companion.words import has_notation

    from .layout import problems_of

    assert {k: set(v) for k, v in OPTION_MEANINGS.items()} == {
        k: set(v) for k, v in OPTION_CHOICES.items()}  # every choice explained
    driver = start_app(size=size)
    start = driver.app.start_screen
    for game, name in (("nizam", "Nizam"), ("pearl", "Pearl of the East")):
        tap(driver, button(start, name))
        for key, row in start.option_rows.items():
            said = set()
            for choice in OPTION_CHOICES[key]:
                tap(driver, row.buttons[choice])
                meaning = row.meaning
                assert meaning == option_meaning(game, key, choice)
                shown = [w for w in row.walk() if getattr(w, "text", None) == meaning]
                assert len(shown) == 1 and shown[0].font_size >= 16 * size[0] / 800
                assert not has_notation(meaning)
                said.add(meaning)
                assert problems_of(driver.app.root, size, f"{name}: {choice}") == []
            assert len(said) == len(OPTION_CHOICES[key])  # the choices are told apart


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_P2_P5_P6_P7_in_pearl_of_the_east_the_options_speak_of_tasks_never_of_points(
        start_app, size):
    # Pearl of the East has no points: a line completes the active player's task of its gem
    # (P5, P6), cascades too (P7), and the pearl is never swapped for a new card (P2).
    import re

    from companion.rules.game import OPTION_CHOICES

    from .layout import problems_of

    driver = start_app(size=size)
    start = driver.app.start_screen
    tap(driver, button(start, "Pearl of the East"))
    said = {}
    for key, row in start.option_rows.items():
        for choice in OPTION_CHOICES[key]:
            tap(driver, row.buttons[choice])
            said[key, choice] = row.meaning
            shown = [w for w in row.walk() if getattr(w, "text", None) == row.meaning]
            assert len(shown) == 1
            assert problems_of(driver.app.root, size, f"Pearl: {choice}") == []
    assert "bonus" not in {key for key, _ in said}  # no points, no bonus (P5-P7)
    for meaning in said.values():
        assert not re.search(r"scor|point|\+\d", meaning, re.IGNORECASE), meaning
    for key, choice in (("setup_lines", "keep"), ("cascades", "score"), ("cascades", "leave")):
        assert "complete tasks" in said[key, choice]
    assert "the pearl stays" in said["setup_lines", "replace"]
    tap(driver, button(start, "Nizam"))  # the choice kept, in Nizam's words: it scores
    assert start.option_rows["cascades"].meaning == "They stay; the next player's turn scores them"
