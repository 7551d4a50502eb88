"""The Nizam and Pearl of the East screen: the grid as the camera reads it, whose turn, the
scores on the track (or the tasks, in Pearl), the deck, the last verdict, prompts, and the
four buttons a turn needs. It draws ``TableView`` values and sends taps; nothing more."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.view import TableView

from . import theme
from .gridview import CellMarks, GridView  # noqa: F401 - GridView is used by table.kv
from .hint import HintPanel
from .screen import GameScreen
from .track import ScoreTrack  # noqa: F401 - used by table.kv
from .widgets import CellPicker, running_app

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

TASKS = len(theme.GEMS)
SCORE_TRACK_LENGTH = 50


class _Player(BoxLayout):
    name = StringProperty("")
    score = StringProperty("0")
    hand = StringProperty("")
    number = NumericProperty(1)
    active = NumericProperty(0)


class PlayerRow(_Player):
    """A player in Nizam: marker, name, score, cards in hand."""


class PearlRow(_Player):
    """A player in Pearl of the East: marker, name, hand, and the 8 task cards."""


def describe_counts(view: TableView) -> str:
    """The deck line.

    >>> from companion.view import PlayerView
    >>> v = TableView("nizam", (PlayerView("A", 0, 3),), 0, 1, ("....." ,) * 5, deck=40,
    ...               discard=9, deck_runs_out=1, deck_runs_out_limit=3)
    >>> describe_counts(v)
    'Deck 40 · Discard 9 · Deck ran out 1 of 3 times'
    """
    ran = f"Deck ran out {view.deck_runs_out}"
    if view.deck_runs_out_limit is not None:
        ran += f" of {view.deck_runs_out_limit}"
    ran += " time" if view.deck_runs_out_limit is None and view.deck_runs_out == 1 else " times"
    return f"Deck {view.deck} · Discard {view.discard} · {ran}"


def describe_scoring(view: TableView) -> str:
    """The last scoring phase in words: each combination with its points, and the bonus."""
    if not view.combinations:
        return ""
    if view.mode == "pearl":
        gems = ", ".join(theme.CELL_NAMES.get(c.gem, c.gem) for c in view.combinations)
        return f"Last turn's lines: {gems}"
    parts = [
        f"{len(c.cells)} {theme.CELL_NAMES.get(c.gem, c.gem)} +{c.points}"
        for c in view.combinations
    ]
    bonus = view.turn_points - sum(c.points for c in view.combinations)
    if bonus:
        parts.append(f"bonus +{bonus}")
    return f"Last turn [b]+{view.turn_points}[/b]: " + ", ".join(parts)


def describe_verdict(view: TableView) -> str:
    verdict = view.verdict
    if verdict is None:
        return ""
    moves = " ".join(verdict.shifts)
    if verdict.legal:
        text = f"[color=#43c463][b]OK[/b][/color] {moves}"
        if verdict.payment:
            text += f", paid with {verdict.payment}"
        return text
    text = f"[color=#ff5252][b]Not allowed:[/b][/color] {verdict.reason or moves}"
    if verdict.undo_hint:
        text += f"\nPut it back: {verdict.undo_hint}"
    return text


class TableScreen(GameScreen):
    pearl = BooleanProperty(False)
    misread = BooleanProperty(False)  # the last change may be a misread: offer to say so

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._frame: Any = None
        self._rows: list[_Player] = []
        self.picker: CellPicker | None = None
        self.ids.grid.on_cell_tap = self.cell_tapped
        self.hint = HintPanel(self)  # issue 15: the Hint button and its arrows on the grid

    def attached(self) -> None:
        self._frame = None
        self.ids.grid.show_frame(None, None)

    def refresh(self) -> None:
        super().refresh()
        if self.controller is None:
            return
        frame, corners = self.controller.camera()
        if frame is not self._frame:
            self._frame = frame
            self.ids.grid.show_frame(frame, corners)

    def show(self, view: TableView) -> None:
        pearl = self.pearl = view.mode == "pearl"
        self._show_players(view, pearl)
        active = view.players[view.active].name if view.players else ""
        self.ids.turn.text = f"Turn {view.turn}: {active} to play"
        self.ids.counts.text = describe_counts(view)
        self.ids.scored.text = describe_scoring(view)
        self.ids.verdict.text = describe_verdict(view)
        unsure = view.verdict is not None and not view.verdict.legal
        self.misread = unsure and not view.ended
        if view.problem:
            self.ids.prompt.text = f"[color=#ff5252]{view.problem}[/color]"
        else:
            self.ids.prompt.text = view.prompt
        self.ids.grid.show(view.grid, view.confidence, _marks(view))
        self.hint.show(view)  # issue 15
        if pearl:
            done = [TASKS - len(p.tasks_left) for p in view.players]
            self.ids.track.show(done, view.active, length=TASKS + 1)
        else:
            self.ids.track.show([p.score for p in view.players], view.active,
                                length=SCORE_TRACK_LENGTH)
        for name in ("draw", "wildcard", "end_turn", "undo"):
            self.ids[name].disabled = view.ended and name != "undo"

    def _show_players(self, view: TableView, pearl: bool) -> None:
        box = self.ids.players
        kind = PearlRow if pearl else PlayerRow
        if len(self._rows) != len(view.players) or not all(
            type(row) is kind for row in self._rows
        ):
            box.clear_widgets()
            self._rows = [kind(number=i + 1) for i in range(len(view.players))]
            for row in self._rows:
                box.add_widget(row)
        for i, (row, player) in enumerate(zip(self._rows, view.players, strict=True)):
            row.name = player.name
            row.score = str(player.score)
            row.hand = f"hand {player.hand}"
            row.active = int(i == view.active)
            if pearl:
                row.ids.tasks.show(player.tasks_left)

    # Taps ------------------------------------------------------------------------------

    def cell_tapped(self, row: int, col: int) -> None:
        if self.view is None:
            return
        letters = theme.GEMS + (theme.PEARL if self.view.mode == "pearl" else "") + theme.EMPTY
        current = self.ids.grid._letter(row, col)
        self.picker = CellPicker(row, col, current, letters,
                                 lambda letter: self.send("fix", row, col, letter))
        self.picker.open()

    def menu_choices(self) -> list[tuple[str, Callable[[], None]]]:
        return [("Calibrate the colours", running_app().open_calibration)]


def _marks(view: TableView) -> CellMarks:
    combos = tuple(
        (c.cells, f"+{c.points}" if view.mode != "pearl" else "") for c in view.combinations
    )
    verdict = view.verdict
    return CellMarks(
        combinations=combos,
        verdict=verdict.cells if verdict else (),
        verdict_legal=verdict.legal if verdict else True,
        highlight=view.highlight,
        pearl=view.pearl,
    )
