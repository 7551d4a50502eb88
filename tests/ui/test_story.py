"""The story of a game on screen (issue 15), from games stored through the real sessions:
the game-over chart of a whole Nizam game, and a past Desert Sands game's story opened
from the past-games list, both read by real touches."""

import pytest

from companion.store import GameStore
from companion.story import game_story
from tests.story.games import hand_game, sands_game, whole_game

from .helpers import button, start_game_on_screen, tap, tap_at, window_button
from .test_end_to_end import Camera


def tap_chart(driver, chart, index):
    driver.frames(2)
    tap_at(driver, *chart.to_window(chart.xs[index], chart.center_y))


def wait_for_story(driver, chart):
    for _ in range(50):
        driver.settle()
        if chart.story is not None:
            return chart.story
    raise AssertionError("the story never came")


def test_N11_N13_the_game_over_screen_tells_the_story_of_the_game(start_app, tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    session, played = whole_game(store)
    controller = Camera(session)
    # a game already over opens on its result
    driver, _ = start_game_on_screen(start_app, controller, shows="gameover")
    driver.app.game_over(controller.view())
    driver.settle()
    assert driver.app.manager.current == "gameover"
    chart = driver.app.gameover_screen.ids.story
    story = wait_for_story(driver, chart)
    assert story == game_story(store, session.game_id)
    assert len(chart.xs) == len(played.reports) and len(story.run_outs) == 2
    best = story.best_turn
    assert chart.caption()[1].startswith(f"Best turn: {story.names[best.player]} "
                                         f"+{best.points} (turn {best.number})")
    assert chart.caption()[0].startswith(f"{story.names[0]}: ")
    i = story.turns.index(best)
    tap_chart(driver, chart, i)
    assert chart.selected == i
    assert chart.caption()[0].startswith(f"Turn {best.number}, {story.names[best.player]}: ")
    assert chart.caption()[0].endswith(f"+{best.points}")


def test_D2_D3_a_past_desert_sands_game_shows_the_bag_and_scores_call_by_call(
        start_app, tmp_path, monkeypatch):
    from companion.live.app import Companion

    monkeypatch.setenv("COMPANION_CACHE_DIR", str(tmp_path / "cache"))
    store = GameStore(tmp_path / "games.sqlite")
    hand_game(store)
    sands_id = sands_game(store)
    companion = Companion(store)
    driver = start_app(games=companion.games)
    driver.settle()
    tap(driver, button(driver.app.start_screen, "Past games"))
    sheet = driver.app.root.children[1]
    stories = [w for w in sheet.walk() if getattr(w, "text", "") == "Story"]
    assert len(stories) == 2
    tap(driver, stories[0])  # newest first: the Sands game
    from companion.ui.story import StoryChart

    chart = next(w for c in driver.window.children for w in c.walk()
                 if isinstance(w, StoryChart))
    story = wait_for_story(driver, chart)
    assert story.game_id == sands_id and [c.scores for c in story.calls] == [
        (1, 0), (1, 0), (1, 12)]
    assert all(c.best for c in story.calls)  # the solved table marked each call
    tap_chart(driver, chart, 2)
    best = story.calls[2].best
    assert chart.caption() == ("Call 3, Bob: lilac, drew lilac: +12",
                               "Bag left: red 2, yellow 1, green 2, lilac 0 · best call: "
                               + best + (" (this one)" if best == "lilac" else ""))
    tap(driver, window_button(driver, "Close"))


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_N11_N12_every_deck_out_label_is_inside_the_chart_and_under_no_score_line(
        start_app, tmp_path, size):
    from companion.session.nizam import TableSession
    from tools.showcase import StagedTable, finished_game

    store = GameStore(tmp_path / "games.sqlite")
    game_id = finished_game(store, ("Ann", "Bob", "Cid"), seed=1)  # the deck ran out at the end
    driver = start_app(size=size, resume_game=lambda i: StagedTable(TableSession(store, i)))
    driver.app.resume_game(game_id)
    chart = driver.app.gameover_screen.ids.story
    story = wait_for_story(driver, chart)
    driver.frames(2)
    assert story.run_outs[-1] == story.turns[-1].number
    assert [text for text, _ in chart.labels] == ["deck out"] * 3
    left = min(x for line in chart.lines for x, _ in line)
    right = max(x for line in chart.lines for x, _ in line)
    for _, (x, y, w, h) in chart.labels:
        assert left <= x and x + w <= right  # inside the chart, the last one too
        for line in chart.lines:  # no score line drawn through the words
            for (ax, ay), (bx, by) in zip(line, line[1:], strict=False):
                for k in range(21):
                    px, py = ax + (bx - ax) * k / 20, ay + (by - ay) * k / 20
                    assert not (x <= px <= x + w and y <= py <= y + h), (x, y, px, py)
