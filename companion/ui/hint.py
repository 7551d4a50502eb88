"""The Hint on the Nizam and Pearl of the East screen (issue 15).

A **Hint** button over the grid. The player to move taps it, then taps each card of their
own hand on a row of gem buttons (kept for the rest of their turn, forgotten when it ends:
no one else's cards are ever asked for or shown). The best turn that hand pays for is drawn
on the camera picture as numbered arrows along the rows and columns to shift, in order,
with what it scores (``companion.hinting``). Nothing moves by itself: the players shift the
cards, and the hint goes away as soon as the grid changes.

``HintPanel(screen)`` adds all of it to a screen that has a ``GridView`` as ``ids.grid``;
the screen calls ``panel.show(view)`` with each ``TableView`` it shows.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle, Triangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.hinting import HintView, hint_for
from companion.rules.shift import Shift
from companion.view import TableView

from . import theme
from .textures import SEGMENTS, text_texture
from .widgets import GemButton, Sheet, running_app, scale

if TYPE_CHECKING:
    from kivy.clock import ClockEvent
    from kivy.graphics.texture import Texture

    from .gridview import GridView
    from .table import TableScreen

Point = tuple[float, float]
SIZE = 5
LANE = 0.3
"""How far, in cells, an arrow runs from the middle of its row or column."""
FOLLOW_SECONDS = 0.25
"""How often drawn arrows check that the camera's grid has not moved under them."""


def arrow_cells(text: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The cell a shift's arrow starts at and the one it points to: the way cards slide.

    >>> arrow_cells("r2<"), arrow_cells("c4v!3")
    (((2, 5), (2, 1)), ((1, 4), (5, 4)))
    """
    move = Shift.parse(text)
    far = SIZE if move.direction in "<^" else 1
    near = SIZE + 1 - far
    if move.line == "r":
        return (move.index, far), (move.index, near)
    return (far, move.index), (near, move.index)


class HandPicker(Sheet):
    """The player's own hand, one tap a card; **Show the best turn** asks for the hint.
    ``holds``: how many cards the companion counts in that hand (N14): no more can be
    tapped in, and a hint for more would pay with cards the player does not have."""

    def __init__(self, name: str, hand: str, holds: int, on_done: Callable[[str], None],
                 **kwargs: object) -> None:
        s = scale()
        box = BoxLayout(orientation="vertical", spacing=6 * s)
        super().__init__(f"{name}: tap each card in your hand", box, size_hint=(0.96, 0.96),
                         **kwargs)
        self.hand = hand
        self.holds = holds
        self.summary = Factory.Caption(size_hint_y=None, height=34 * s, halign="center")
        box.add_widget(self.summary)
        gems = GridLayout(cols=4, spacing=6 * s)
        self.buttons = {}
        for letter in theme.GEMS:
            button = GemButton(letter)
            button.bind(on_release=lambda _b, x=letter: self.add(x))
            gems.add_widget(button)
            self.buttons[letter] = button
        box.add_widget(gems)
        row = BoxLayout(size_hint_y=None, height=58 * s, spacing=6 * s)
        for text, action in (("Take one off", self.take_one), ("Clear", self.clear)):
            button = Factory.BigButton(text=text, height=58 * s)
            button.bind(on_release=lambda _b, a=action: a())
            row.add_widget(button)
        done = Factory.AccentButton(text="Show the best turn", height=58 * s)

        def show(_button: object) -> None:
            self.dismiss()
            on_done(self.hand)

        done.bind(on_release=show)
        self.done = done
        row.add_widget(done)
        box.add_widget(row)
        self._say()

    def add(self, letter: str) -> None:
        if len(self.hand) < self.holds:
            self.hand += letter
        self._say()

    def take_one(self) -> None:
        self.hand = self.hand[:-1]
        self._say()

    def clear(self) -> None:
        self.hand = ""
        self._say()

    def _say(self) -> None:
        for letter, button in self.buttons.items():
            held = self.hand.count(letter)
            button.text = (f"[b][size={int(30 * scale())}]{letter}[/size][/b]\n"
                           f"{theme.CELL_NAMES[letter]}" + (f" ×{held}" if held else ""))
            button.disabled = len(self.hand) >= self.holds
        n, holds = len(self.hand), self.holds
        cards = " ".join(sorted(self.hand, key=theme.GEMS.index)) or "none yet"
        said = f"In your hand: [b]{cards}[/b] ({n} of {holds} card{'s' * (holds != 1)})"
        if n > holds:  # tapped in before this turn's shifts paid some away
            said = f"You hold {holds} card{'s' * (holds != 1)} now: take {n - holds} off"
        self.summary.text = said
        self.done.disabled = n > holds


class HintOverlay(Widget):
    """Over the whole screen: the best turn's arrows and line drawn over the grid; and the
    Hint button, in the screen's row of buttons where it has one, else at the grid's
    top-left corner."""

    def __init__(self, grid: GridView, on_button: Callable[[], None], **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.grid = grid
        self.hint: HintView | None = None
        self.arrows: list[tuple[Point, Point]] = []  # centres of each shift's end cells
        self.drawn: list[tuple[Point, Point]] = []  # each arrow's line as drawn
        self.caption_box: tuple[float, float, float, float] | None = None  # x, y, w, h
        self.button = Factory.AccentButton(text="Hint", size_hint=(None, None))
        self.button.bind(on_release=lambda _b: on_button())
        self._redraw = Clock.create_trigger(self._draw, -1)
        self._follow: ClockEvent | None = None
        grid.bind(pos=self._redraw, size=self._redraw)
        self.bind(pos=self._redraw, size=self._redraw)

    def show(self, hint: HintView | None) -> None:
        self.hint = hint
        self.button.text = "Hint" if hint is None else "Hide hint"
        if self._follow is not None:
            self._follow.cancel()
            self._follow = None
        if hint is not None and hint.shifts:
            self._follow = Clock.schedule_interval(self._check_moved, FOLLOW_SECONDS)
        self._redraw()

    def _ends(self) -> list[tuple[Point, Point]]:
        if self.hint is None:
            return []
        centre = self.grid.cell_centre
        return [(centre(*a), centre(*b)) for a, b in map(arrow_cells, self.hint.shifts)]

    def _check_moved(self, *_: object) -> None:
        if any(math.dist(p, q) > 1.0 for old, new in zip(self.arrows, self._ends(), strict=False)
               for p, q in zip(old, new, strict=True)):
            self._draw()

    def _draw(self, *_: object) -> None:
        s = scale()
        g = self.grid
        if self.button.parent is self:
            self.button.size = (100 * s, theme.TOUCH_MIN * s)
            self.button.pos = (g.x + 6 * s, g.top - self.button.height - 6 * s)
        self.canvas.before.clear()
        hint = self.hint
        lines = (() if hint is None else ((hint.problem, 16.0),) if hint.problem else
                 ((hint.text, 19.0), (hint.detail, 16.0)))
        caption = self._fitted(lines, s)
        # The picture leaves the caption its own strip at the grid's foot: over the
        # picture, it hid the bottom row's cards, where the arrows point.
        g.foot = sum(h for _, _, h in caption) + 20 * s if caption else 0.0
        self.arrows = self._ends()
        self.drawn = []
        self.caption_box = None
        if hint is None:
            return
        cell = math.dist(g.cell_centre(1, 1), g.cell_centre(1, 2)) or 40.0 * s
        with self.canvas.before:
            seen: dict[tuple[Point, Point], int] = {}
            for step, (start, end) in enumerate(self.arrows, 1):
                again = seen.get((start, end), 0)
                seen[(start, end)] = again + 1
                self._arrow(step, start, end, cell, again)
            self._caption(caption, s)

    def _arrow(self, step: int, start: Point, end: Point, cell: float, again: int) -> None:
        (x0, y0), (x1, y1) = start, end
        length = math.dist(start, end) or 1.0
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        # Off the middle of the line, so the letters stay readable (a row's arrow above
        # them, a column's to their right); the same shift again runs beside the first.
        off = cell * (LANE + again * 0.16)
        dx, dy = (0.0, off) if abs(ux) > abs(uy) else (off, 0.0)
        x0, y0, x1, y1 = x0 + dx, y0 + dy, x1 + dx, y1 + dy
        self.drawn.append(((x0, y0), (x1, y1)))
        head = cell * 0.3
        bx, by = x1 - ux * head, y1 - uy * head
        width = max(2.5, cell * 0.055)
        wing = (-uy * head * 0.6, ux * head * 0.6)
        tip = [bx + wing[0], by + wing[1], x1, y1, bx - wing[0], by - wing[1]]
        for colour, extra in ((theme.DARK_INK, width * 0.7), (theme.ACCENT, 0.0)):
            Color(*colour)
            Line(points=[x0, y0, bx, by], width=width + extra)
            cx, cy = sum(tip[0::2]) / 3, sum(tip[1::2]) / 3
            f = 1 + 1.5 * extra / max(head, 1.0)
            grown = [(v - (cx, cy)[i % 2]) * f + (cx, cy)[i % 2] for i, v in enumerate(tip)]
            Triangle(points=grown)
        r = cell * 0.17
        Color(*theme.DARK_INK)
        Ellipse(pos=(x0 - r - 2, y0 - r - 2), size=(2 * r + 4, 2 * r + 4), segments=SEGMENTS)
        Color(*theme.ACCENT)
        Ellipse(pos=(x0 - r, y0 - r), size=(2 * r, 2 * r), segments=SEGMENTS)
        tex = text_texture(str(step), int(r * 1.5), theme.DARK_INK)
        Color(1, 1, 1, 1)
        Rectangle(texture=tex, pos=(x0 - tex.width / 2, y0 - tex.height / 2), size=tex.size)

    def _fitted(self, lines: tuple[tuple[str, float], ...], s: float
                ) -> list[tuple[Texture, float, float]]:
        """Lines of (text, size at the base screen) as textures with their width and height
        on screen: each shrunk to the grid's width rather than cut."""
        g = self.grid
        fitted = []
        for text, size in lines:
            if not text:
                continue
            tex = text_texture(text, int(size * s), theme.TEXT, bold=size > 16)
            k = min(1.0, (g.width - 24 * s) / max(tex.width, 1))
            fitted.append((tex, tex.width * k, tex.height * k))
        return fitted

    def _caption(self, fitted: list[tuple[Texture, float, float]], s: float) -> None:
        """The fitted lines in a dark box in the grid's foot (``GridView.foot``)."""
        if not fitted:
            return
        g = self.grid
        w = max(f[1] for f in fitted)
        h = sum(f[2] for f in fitted)
        y = g.y + 6 * s
        self.caption_box = (g.center_x - w / 2 - 8 * s, y, w + 16 * s, h + 8 * s)
        Color(0, 0, 0, 0.8)
        RoundedRectangle(pos=self.caption_box[:2], size=self.caption_box[2:], radius=[8 * s])
        top = y + 4 * s + h
        Color(1, 1, 1, 1)
        for tex, tw, th in fitted:
            top -= th
            Rectangle(texture=tex, pos=(g.center_x - tw / 2, top), size=(tw, th))


class HintPanel:
    """The hint's state for one screen: whose turn it is for, their hand, the hint shown."""

    def __init__(self, screen: TableScreen) -> None:
        self.screen = screen
        self.overlay = HintOverlay(screen.ids.grid, self.pressed)
        screen.add_widget(self.overlay)
        # beside the turn's other buttons, not over the cards of the picture
        row = screen.ids.get("extra")
        if row is not None:
            self.overlay.button.size_hint = (1, 1)
        (row if row is not None else self.overlay).add_widget(self.overlay.button)
        self.view: TableView | None = None
        self.turn: tuple[int | None, int, int] | None = None
        self.hand = ""
        self.hint: HintView | None = None
        self.picker: HandPicker | None = None

    def show(self, view: TableView) -> None:
        self.view = view
        turn = (view.game_id, view.turn, view.active)
        if turn != self.turn:  # a new turn: the last player's hand is forgotten
            self.turn, self.hand = turn, ""
            self._set(None)
        elif self.hint is not None and self.hint.grid != view.grid:
            self._set(None)  # the grid changed: the players moved, the hint is spent
        # turn 0: no grid set up yet, nothing to hint
        self.overlay.button.disabled = view.ended or view.turn == 0

    def pressed(self) -> None:
        if self.hint is not None:
            self._set(None)
            return
        if self.view is None or not self.view.players:
            return
        player = self.view.players[self.view.active]
        self.picker = HandPicker(player.name, self.hand, player.hand, self.ask)
        self.picker.open()

    def ask(self, hand: str) -> None:
        self.hand = hand
        view = self.view
        if view is None:
            return
        turn = self.turn
        running_app().worker.submit(lambda: hint_for(view, hand),
                                    lambda hint: self._set(hint) if turn == self.turn else None)

    def _set(self, hint: HintView | None) -> None:
        self.hint = hint
        self.overlay.show(hint)
