"""The Nizam and Pearl of the East screen: the grid as the camera reads it, whose turn, the
scores large beside each name with last turn's points (or the task chips, in Pearl), the
deck line, the last verdict in words (a refused move across the whole screen, its way back
drawn on the grid), prompts, and the turn's buttons, greyed when they do not apply. It
draws ``TableView`` values and sends taps; nothing more."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion.rules.grid import SIZE, Cell
from companion.rules.shift import Shift
from companion.session.table import cell_of, index_of, permuted
from companion.view import TABLE_ACTIONS, TableController, TableView
from companion.words import gems_named, opposites, plain, undo_words, verdict_words

from . import theme
from .gridview import CellMarks, GridView  # noqa: F401 - GridView is used by table.kv
from .hint import HintPanel
from .screen import GameScreen
from .widgets import CellPicker, running_app

if TYPE_CHECKING:
    from kivy.uix.widget import Widget

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

TASKS = len(theme.GEMS)


class _Player(BoxLayout):
    name = StringProperty("")
    score = StringProperty("0")
    hand = StringProperty("")
    last = StringProperty("")
    last_when = StringProperty("")  # what ``last`` is: "last turn", or "this turn" being scored
    number = NumericProperty(1)
    active = NumericProperty(0)
    roomy = BooleanProperty(False)


class PlayerRow(_Player):
    """A player in Nizam: marker, name over their cards in hand, last turn's points and
    the score, large."""


class PearlRow(_Player):
    """A player in Pearl of the East: marker, name and hand over the 8 task chips."""


class VerdictCard(BoxLayout):
    text = StringProperty("")
    scored = StringProperty("")
    squeeze = NumericProperty(1.0)


class IllegalStrip(BoxLayout):
    text = StringProperty("")


def describe_counts(view: TableView) -> str:
    """The deck line, one line: what is left and how near the end is (N11, N12).

    >>> from companion.view import PlayerView
    >>> v = TableView("nizam", (PlayerView("A", 0, 3),), 0, 1, ("....." ,) * 5, deck=40,
    ...               discard=9, deck_runs_out=1, deck_runs_out_limit=3)
    >>> describe_counts(v)
    'Deck [b]40[/b] · Discard 9 · Deck ran out [b]1 of 3[/b] times'
    >>> describe_counts(replace(v, deck_runs_out_limit=None, deck_runs_out=1))
    'Deck [b]40[/b] · Discard 9 · Deck ran out [b]1[/b] time'
    """
    ran = f"Deck ran out [b]{view.deck_runs_out}"
    if view.deck_runs_out_limit is not None:
        ran += f" of {view.deck_runs_out_limit}[/b] times"
    else:
        ran += "[/b] time" + ("" if view.deck_runs_out == 1 else "s")
    return f"Deck [b]{view.deck}[/b] · Discard {view.discard} · {ran}"


def describe_scoring(view: TableView) -> str:
    """The scoring phase under way, or the last one, in words: each combination with its
    points, and the bonus."""
    if not view.combinations:
        return ""
    when = "This turn" if view.scoring else "Last turn"
    if view.mode == "pearl":
        gems = ", ".join(theme.CELL_NAMES.get(c.gem, c.gem) for c in view.combinations)
        return f"{when}'s lines: {gems}"
    bonus = view.turn_points - sum(c.points for c in view.combinations)
    parts = [gems_named(len(c.cells), c.gem) for c in view.combinations]
    if len(parts) > 1 or bonus:  # one combination's points are the turn's: said once
        parts = [f"{part} +{c.points}" for part, c in zip(parts, view.combinations, strict=True)]
    if bonus:
        parts.append(f"bonus +{bonus}")
    return f"{when} [b]+{view.turn_points}[/b]: " + ", ".join(parts)


def opening_title(view: TableView) -> str:
    """The header before the first turn: what the prompt under it asks of the players, in a
    few words, as the session sees the layout (``TableView.opening``): the cards to be named,
    the grid to be uncovered, the cards read to be checked, or the layout.

    >>> from companion.view import OpeningAsk, PlayerView
    >>> v = TableView("nizam", (PlayerView("Ann", 0, 3),), 0, 0, ("....." ,) * 5)
    >>> opening_title(replace(v, opening=OpeningAsk("deal")))
    'Lay out the opening grid'
    >>> opening_title(replace(v, opening=OpeningAsk("name", 1)))
    'Name the card marked ?'
    >>> opening_title(replace(v, opening=OpeningAsk("name", 2)))
    'Name the 2 cards marked ?'
    >>> opening_title(replace(v, opening=OpeningAsk("uncover")))
    'Uncover the grid, or calibrate'
    >>> opening_title(replace(v, opening=OpeningAsk("check")))
    'Check the opening grid'
    """
    ask = view.opening
    if ask is None or ask.case in ("deal", "refused"):  # a refusal's strip says why
        return "Lay out the opening grid"
    if ask.case == "name":
        return ("Name the card marked ?" if ask.cards == 1
                else f"Name the {ask.cards} cards marked ?")
    if ask.case == "uncover":  # a hand or a sleeve over it, or colours to calibrate
        return "Uncover the grid, or calibrate"
    return "Check the opening grid"  # every card read: named, or its start undone


def describe_illegal(view: TableView) -> str:
    """A refused move in plain words: what moved, why not, and how to put it back.

    >>> from companion.view import PlayerView, Verdict
    >>> v = TableView("nizam", (PlayerView("Ann", 0, 0), PlayerView("Bob", 0, 3)), 0, 4,
    ...               ("....." ,) * 5, verdict=Verdict(False, ("c2^",), "",
    ...               "illegal: N4: c2^: player 0 holds 0 cards and the shift costs 1"))
    >>> for sentence in describe_illegal(v).split(". "):
    ...     print(sentence)
    [b]Not allowed: Column 2 moved up.[/b] Ann holds 0 cards and the move costs 1
    Put it back: move column 2 down (drawn on the grid).
    """
    verdict = view.verdict
    if verdict is None or verdict.legal:
        return ""
    names = [p.name for p in view.players]
    what = verdict_words(False, verdict.shifts) if verdict.shifts else "The cards changed"
    text = f"[b]Not allowed: {what}.[/b]"
    reason = plain(verdict.reason, names).rstrip(".")
    if reason:
        text += f" {reason}."
    if verdict.shifts:
        back = undo_words(verdict.shifts)
        text += f" Put it back: {back[0].lower()}{back[1:]} (drawn on the grid)."
    return text
SQUEEZE_STEP = 0.1
LEAST_SQUEEZE = 0.7
"""The verdict and the prompt are drawn down to this share of their size when, with five
players and long words, they would not fit their place otherwise."""


class TableScreen(GameScreen[TableController, TableView]):
    pearl = BooleanProperty(False)
    misread = BooleanProperty(False)  # the last change may be a misread: offer to say so
    squeeze = NumericProperty(1.0)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._frame: np.ndarray | None = None
        self._rows: list[_Player] = []
        self.picker: CellPicker | None = None
        self.picked: tuple[int, int] | None = None  # the cell the picker is open for
        self._source: tuple[int, ...] = ()  # where each card shown lies in the game's grid
        self.ids.grid.on_cell_tap = self.cell_tapped
        self.hint = HintPanel(self)  # issue 15: the Hint button and its arrows on the grid
        self._notes: tuple[str, ...] = ()
        self._measured: tuple[float, float, float] = (0.0, 0.0, 0.0)
        self._fit_notes = Clock.create_trigger(self._fit_notes_now, 0)
        self.ids.notes.bind(size=lambda *_: self._refit())
        # ids.extra is the place for more of the turn's buttons (a hint): each put there
        # is as tall as the others in the row.
        self.ids.extra.bind(children=_full_height)

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
        header = self.ids.header
        if view.ended:
            header.title, header.player = "The game is over", -1
        elif view.turn == 0:  # no turn before the opening grid is set up
            header.title, header.player = opening_title(view), -1
        elif view.players:
            name = view.players[view.active].name
            header.title = f"[size={int(header.ids.title.max_font * 0.6)}]Turn {view.turn}" \
                           f"[/size]  {name}'s turn"
            header.player = view.active
        self.ids.counts.text = describe_counts(view)
        verdict = view.verdict
        card = self.ids.verdict
        card.text = (verdict_words(True, verdict.shifts, verdict.payment)
                     if verdict is not None and verdict.legal else "")
        card.scored = describe_scoring(view)
        illegal = self.ids.illegal.text = describe_illegal(view)
        self.misread = verdict is not None and not verdict.legal and not view.ended
        if view.problem:
            self.ids.prompt.text = f"[color=#ff5252]{plain(view.problem)}[/color]"
        else:  # a refused move's strip says what to do now
            self.ids.prompt.text = "" if illegal else plain(view.prompt)
        shown, self._source = as_seen(view)
        marks = _moved_marks(_marks(view), self._source)
        self.ids.grid.show(shown, view.confidence, replace(marks, picked=self.picked))
        self.hint.show(view)  # issue 15
        for name in TABLE_ACTIONS:
            self.ids[name].disabled = name not in view.actions or (view.ended and name != "undo")
        # at the first turn, before anyone moved, it takes back the deal: not a move
        self.ids.undo.text = "Undo the deal" if view.undo_deal else "Undo"
        notes = (card.text, card.scored, self.ids.prompt.text)
        if notes != self._notes:
            self._notes = notes
            self._refit()

    def _refit(self) -> None:
        self.squeeze = 1.0
        self._fit_notes()

    def _fit_notes_now(self, *_: object) -> None:
        """Draw the notes a little smaller while they do not fit: measured once the layout
        has settled (the same two frames running), a step at a time."""
        notes = self.ids.notes
        parts = [c for c in notes.children if isinstance(c, (VerdictCard, Label))]
        measure = (sum(c.height for c in parts) + notes.spacing * len(parts), notes.height,
                   self.squeeze)
        if measure != self._measured:
            self._measured = measure
            self._fit_notes()
            return
        if measure[0] > measure[1] + 1 and self.squeeze > LEAST_SQUEEZE + 1e-6:
            self.squeeze = round(self.squeeze - SQUEEZE_STEP, 2)
            self._fit_notes()

    def _show_players(self, view: TableView, pearl: bool) -> None:
        box = self.ids.players
        kind = PearlRow if pearl else PlayerRow
        if len(self._rows) != len(view.players) or not all(
            type(row) is kind for row in self._rows
        ):
            box.clear_widgets()
            self._rows = [kind(number=i + 1) for i in range(len(view.players))]
            for row in self._rows:
                row.roomy = len(self._rows) <= 3  # bigger task chips when there is room
                box.add_widget(row)
        for i, (row, player) in enumerate(zip(self._rows, view.players, strict=True)):
            row.name = player.name
            row.score = str(player.score)
            row.hand = f"{player.hand} card{'s' if player.hand != 1 else ''}"
            row.last = "" if pearl or player.last_turn is None else f"+{player.last_turn}"
            # the active player's turn being scored is their last turn already
            scored_now = view.scoring and i == view.active
            row.last_when = "" if not row.last else "this turn" if scored_now else "last turn"
            row.active = int(i == view.active and not view.ended and view.turn > 0)
            if pearl:
                row.ids.tasks.show(player.tasks_left)

    # Taps ------------------------------------------------------------------------------

    def cell_tapped(self, row: int, col: int) -> None:
        if self.view is None:
            return
        # no "empty": the camera sees an empty cell itself, and no fix can make one
        letters = theme.GEMS + (theme.PEARL if self.view.mode == "pearl" else "")
        grid = self.ids.grid
        current = grid._letter(row, col)
        self.picked = (row, col)
        grid.show(grid.cells, grid.confidence, replace(grid.marks, picked=self.picked))

        # the card shown there lies elsewhere in the game's grid when a refused move moved it
        at = cell_of(self._source[index_of((row, col))]) if self._source else (row, col)

        def picked(letter: str) -> None:
            self.send("fix", *at, letter)

        self.picker = CellPicker(row, col, current, letters, picked,
                                 picture=grid.cell_picture(row, col))
        self.picker.bind(parent=self._picker_closed)
        self.picker.open()

    def _picker_closed(self, picker: CellPicker, parent: object) -> None:
        if parent is None:
            self.picked = None
            grid = self.ids.grid
            grid.show(grid.cells, grid.confidence, replace(grid.marks, picked=None))

    def menu_choices(self) -> list[tuple[str, Callable[[], None]]]:
        return [("Calibrate the colours", running_app().open_calibration)]


def as_seen(view: TableView) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The cards as the camera sees them, a letter each, and where each lies in the game's
    grid (cell numbers in reading order): a move the rules refused moved them on the table
    (the picture shows it made), not in the game, whose grid is as before it; a letter
    drawn on each card of the picture must name the card there.

    >>> from companion.view import PlayerView, Verdict
    >>> v = TableView("nizam", (PlayerView("Ann", 0, 0),), 0, 4,
    ...               ("ROYGC", "BVPRO", "YGCBV", "PROYG", "CBVPR"),
    ...               verdict=Verdict(False, ("r1<",), "", "illegal: N4: ..."))
    >>> as_seen(v)[0][0], as_seen(v)[1][:5]
    ('OYGCR', (1, 2, 3, 4, 0))
    """
    cells = len(view.grid) * (len(view.grid[0]) if view.grid else 0)
    verdict = view.verdict
    if verdict is None or verdict.legal or cells != SIZE * SIZE:
        return view.grid, tuple(range(cells))
    source = permuted(tuple(range(cells)), map(Shift.parse, verdict.shifts))
    flat = "".join(view.grid)
    shown = "".join(flat[k] for k in source)
    return tuple(shown[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)), source


def _marks(view: TableView) -> CellMarks:
    # The cards a combination scored lie where the outline is drawn while their turn is
    # scored (and at the end: a last task phase's stay, P9); after, other cards lie there.
    combos = tuple(
        (c.cells, f"+{c.points}" if view.mode != "pearl" else "") for c in view.combinations
    ) if view.scoring or view.ended else ()
    verdict = view.verdict
    arrows: tuple[tuple[str, str], ...] = ()
    if verdict is not None and verdict.legal:
        arrows = tuple((s, "moved") for s in verdict.shifts)
    elif verdict is not None:
        arrows = tuple((s, "illegal") for s in verdict.shifts) + tuple(
            (back, "fix") for back in opposites(verdict.shifts))
    # A move drawn as arrows needs no outline of the cells it moved as well: one mark a
    # thing, or the grid is too busy to read at arm's length.
    outlined = () if verdict is None or arrows else verdict.cells
    moved = verdict.cells if verdict is not None and arrows else ()
    return CellMarks(
        combinations=combos,
        verdict=outlined,
        verdict_legal=verdict.legal if verdict else True,
        highlight=tuple(c for c in view.highlight if c not in moved),
        pearl=view.pearl,
        arrows=arrows,
    )


def _moved_marks(marks: CellMarks, source: tuple[int, ...]) -> CellMarks:
    """``marks`` (the game's cells) put where ``as_seen`` drew their cards: the pearl's ring
    and a card's outline follow the card a refused move moved."""
    if source == tuple(range(len(source))):
        return marks
    shown_at = {k: cell_of(i) for i, k in enumerate(source)}

    def moved(cell: Cell) -> Cell:
        return shown_at[index_of(cell)]

    return replace(marks, highlight=tuple(map(moved, marks.highlight)),
                   verdict=tuple(map(moved, marks.verdict)),
                   pearl=None if marks.pearl is None else moved(marks.pearl))


def _full_height(_box: object, children: Iterable[Widget]) -> None:
    """Every button in the row as tall as the row."""
    for child in children:
        child.size_hint_y = 1
