"""Game over: who won (N13, P9, D5, D6), everyone ranked with their points, and the export
of the game record. ``ids.story`` is the place left for a chart of how the game went."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.rules.setup import SANDS
from companion.session.kinds import KINDS
from companion.story import session_story
from companion.view import SandsView, TableView

from . import theme
from .story import StoryChart, load_story  # noqa: F401 - StoryChart is used by gameover.kv
from .widgets import running_app

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class ResultRow(BoxLayout):
    rank = StringProperty("")
    number = NumericProperty(1)
    name = StringProperty("")
    detail = StringProperty("")
    score = StringProperty("")
    winner = BooleanProperty(False)


def headline(names: list[str], winners: tuple[int, ...], ended: bool) -> str:
    """What the game-over screen says first (N13: equal top scores share the victory).

    >>> headline(["Ann", "Bob"], (1,), True), headline(["A", "B", "C"], (0, 2), True)
    ('Bob wins!', 'A and C share the victory!')
    >>> headline(["Ann", "Bob"], (0, 1), True), headline(["Ann"], (), False)
    ('A draw: Ann and Bob share the victory!', 'Scores so far')
    """
    if not ended:
        return "Scores so far"
    if not winners:
        return "The game is over"
    who = " and ".join(names[i] for i in winners)
    if len(winners) == 1:
        return f"{who} wins!"
    prefix = "A draw: " if len(winners) == len(names) else ""
    return f"{prefix}{who} share the victory!"


ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th")


def ranking(points: list[int], winners: tuple[int, ...]) -> list[tuple[str, int]]:
    """Everyone in order, with their place: the winners first (the rules say who wins),
    then by points; equal points share a place. Players are seats from 0.

    >>> ranking([36, 50, 43], (1,))
    [('1st', 1), ('2nd', 2), ('3rd', 0)]
    >>> ranking([20, 20, 7], (0, 1))
    [('1st', 0), ('1st', 1), ('3rd', 2)]
    """
    order = sorted(range(len(points)), key=lambda i: (i not in winners, -points[i], i))
    places = []
    for i in order:
        ahead = sum(1 for j in order if (j in winners, points[j]) > (i in winners, points[i]))
        places.append((ORDINALS[min(ahead, len(ORDINALS) - 1)], i))
    return places


class GameOverScreen(Screen):
    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.view: TableView | SandsView | None = None

    def show(self, view: TableView | SandsView) -> None:
        self.view = view
        box = self.ids.results
        box.clear_widgets()
        self.ids.status.text = ""
        rows: list[tuple[str, str, str]] = []  # name, detail, score; by seat
        if isinstance(view, SandsView):
            names = list(view.players)
            self.ids.game.text = KINDS[SANDS].title
            points = list(view.scores)
            rows = [(names[i], "", f"{points[i]} points") for i in range(len(names))]
        else:
            names = [p.name for p in view.players]
            played = view.turn - 1 if view.ended else view.turn  # the turn after the last
            self.ids.game.text = f"{KINDS[view.mode].title}, {played} turns"
            points = []
            for p in view.players:
                if view.mode == "pearl":
                    done = len(theme.GEMS) - len(p.tasks_left)
                    points.append(done)
                    left = ", ".join(theme.CELL_NAMES[g] for g in p.tasks_left)
                    rows.append((p.name, f"left: {left}" if left else "all done",
                                 f"{done} of 8 tasks"))
                else:
                    points.append(p.score)
                    rows.append((p.name, "", f"{p.score} points"))
        self.ids.headline.text = headline(names, view.winners, view.ended)
        for place, i in ranking(points, view.winners if view.ended else ()):
            name, detail, score = rows[i]
            box.add_widget(ResultRow(rank=place, number=i + 1, name=name, detail=detail,
                                     score=score, winner=i in view.winners))
        app = running_app()
        self.ids.export.disabled = not app.can_export or view.game_id is None
        controller = app.controller
        load_story(self.ids.story, lambda: session_story(controller))  # issue 15

    def export(self) -> None:
        if self.view is None or self.view.game_id is None:
            return
        self.ids.status.text = "Exporting…"
        running_app().export_record(self.view.game_id, self._exported)

    def _exported(self, where: str) -> None:
        self.ids.status.text = f"Game record saved: {where}"

    def back_to_table(self) -> None:
        running_app().show_game(result_first=False)
