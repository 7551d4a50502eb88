"""Game over: who won (N13, P9, D5, D6), everyone's score, and the export of the game record."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.view import SandsView, TableView

from . import theme
from .widgets import running_app

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class ResultRow(BoxLayout):
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


class GameOverScreen(Screen):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view: TableView | SandsView | None = None

    def show(self, view: TableView | SandsView) -> None:
        self.view = view
        box = self.ids.results
        box.clear_widgets()
        self.ids.status.text = ""
        if isinstance(view, SandsView):
            names = list(view.players)
            self.ids.game.text = theme.GAME_TITLES["sands"]
            rows = [(i, names[i], "", str(view.scores[i])) for i in range(len(names))]
        else:
            names = [p.name for p in view.players]
            self.ids.game.text = f"{theme.GAME_TITLES[view.mode]}, turn {view.turn}"
            rows = []
            for i, p in enumerate(view.players):
                if view.mode == "pearl":
                    left = "".join(p.tasks_left)
                    detail = f"tasks left: {left}" if left else "all tasks done"
                    rows.append((i, p.name, detail, f"{len(theme.GEMS) - len(left)}/8"))
                else:
                    rows.append((i, p.name, "", str(p.score)))
        self.ids.headline.text = headline(names, view.winners, view.ended)
        order = sorted(rows, key=lambda r: (r[0] not in view.winners, r[0]))
        for i, name, detail, score in order:
            box.add_widget(ResultRow(number=i + 1, name=name, detail=detail, score=score,
                                     winner=i in view.winners))
        app = running_app()
        self.ids.export.disabled = not app.can_export or view.game_id is None

    def export(self) -> None:
        if self.view is None or self.view.game_id is None:
            return
        self.ids.status.text = "Exporting…"
        running_app().export_record(self.view.game_id, self._exported)

    def _exported(self, where: str) -> None:
        self.ids.status.text = f"Game record saved: {where}"

    def back_to_table(self) -> None:
        running_app().show_game(result_first=False)
