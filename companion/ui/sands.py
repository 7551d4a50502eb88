"""The Desert Sands screen: the stones left in the bag, each call's chance of success, expected
points and chance to win (the best call marked, the call made highlighted; while the odds are
first worked out it says so), both scores against the 16 line, and buttons for the call
and for the stone that came out. It draws ``SandsView`` values and sends taps.

With a camera on the stone spot it also shows the camera's newest read of the spot in one
line, and a Camera button opens the stone camera set-up (``stones.py``); the buttons for the
drawn stone always work, camera or not."""

from __future__ import annotations

import math
import time
from pathlib import Path

from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.widget import Widget

from companion.view import SandsController, SandsView
from companion.words import plain

from . import theme
from .screen import GameScreen
from .textures import text_texture


class StoneButton(Button):
    stone = StringProperty("red")


class BagRow(BoxLayout):
    stone = StringProperty("red")
    count = StringProperty("0")


class CallRow(BoxLayout):
    stone = StringProperty("red")
    success = StringProperty("")
    points = StringProperty("")
    win = StringProperty("")
    best = BooleanProperty(False)
    called = BooleanProperty(False)  # the colour named, while the stone is awaited
    screen = ObjectProperty(None, allownone=True)


class ScoreBars(Widget):
    """Both players' scores as bars, with the winning line (D5: 16) drawn across them."""

    scale = NumericProperty(1.0)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.names: tuple[str, ...] = ()
        self.scores: tuple[int, ...] = ()
        self.active = -1
        self.target = 16
        self._redraw = Clock.create_trigger(self._draw, -1)
        self.bind(pos=self._redraw, size=self._redraw, scale=self._redraw)

    def show(self, names: tuple[str, ...], scores: tuple[int, ...], active: int,
             target: int) -> None:
        state = (tuple(names), tuple(scores), active, target)
        if state != (self.names, self.scores, self.active, self.target):
            self.names, self.scores, self.active, self.target = state
            self._redraw()

    def _draw(self, *_: object) -> None:
        self.canvas.clear()
        n = max(1, len(self.scores))
        lane = self.height / n
        name_w = self.width * 0.22
        number_w = self.width * 0.09
        bar_x = self.x + name_w
        bar_w = self.width - name_w - number_w
        top = max(self.target + 4, *(s + 1 for s in self.scores)) if self.scores else 20
        unit = bar_w / top
        font = int(min(lane * 0.6, 20 * self.scale))
        self.name_widths: dict[int, tuple[float, float]] = {}  # drawn, room: for tests
        with self.canvas:
            for i, (name, score) in enumerate(zip(self.names, self.scores, strict=True)):
                y = self.top - (i + 1) * lane
                ink = theme.ACCENT if i == self.active else theme.TEXT
                size = font
                tex = text_texture(name, size, ink, i == self.active)
                while tex.width > name_w - 6 and size > 8:  # smaller, never squeezed
                    size = min(size - 1, int(size * (name_w - 6) / tex.width))
                    tex = text_texture(name, size, ink, i == self.active)
                self.name_widths[i] = (tex.width, name_w - 6)
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(self.x, y + (lane - tex.height) / 2),
                          size=tex.size)
                Color(*theme.PANEL)
                Rectangle(pos=(bar_x, y + lane * 0.15), size=(bar_w, lane * 0.7))
                Color(*theme.player_colour(i))
                Rectangle(pos=(bar_x, y + lane * 0.15), size=(unit * score, lane * 0.7))
                tex = text_texture(str(score), int(min(lane * 0.95, 34 * self.scale)),
                                   theme.TEXT)
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(self.right - tex.width, y + (lane - tex.height) / 2),
                          size=tex.size)
            line_x = bar_x + unit * self.target
            Color(*theme.BAD)
            Line(points=[line_x, self.y, line_x, self.top], width=max(2.0, 2 * self.scale))
            tex = text_texture(str(self.target), int(font * 0.8), theme.BAD)
            Color(1, 1, 1, 1)
            Rectangle(texture=tex, pos=(line_x + 4, self.top - tex.height), size=tex.size)


Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def working_out(seconds: float) -> str:
    """What the screen says while the odds are first worked out, and how long it takes.

    >>> print(*working_out(3.4).split(". "), sep="\\n")
    Working out the odds: 3 s so far
    Only the first game with this bag waits for them
    About 2 s on a desktop computer, longer on a Raspberry Pi
    You can call already.
    """
    return (f"Working out the odds: {seconds:.0f} s so far. Only the first game with this bag "
            "waits for them. About 2 s on a desktop computer, longer on a Raspberry Pi. "
            "You can call already.")


def percents(chances: dict[str, float]) -> dict[str, str]:
    """Each chance as players read it ("…" while it is not known yet: NaN), with as many
    decimals as it takes for two chances that differ to read differently (the best call
    marked beside another that reads the same would look a tie).

    >>> percents({"red": 0.536, "lilac": 0.541, "green": 0.2})
    {'red': '53.6%', 'lilac': '54.1%', 'green': '20.0%'}
    >>> percents({"red": 0.5, "lilac": 0.5, "green": float("nan")})
    {'red': '50%', 'lilac': '50%', 'green': '…'}
    """
    known = {k: p for k, p in chances.items() if not math.isnan(p)}
    for places in range(3):
        said = {k: f"{p * 100:.{places}f}%" for k, p in known.items()}
        if all(said[a] != said[b] for a in known for b in known
               if a < b and abs(known[a] - known[b]) > 1e-9):
            break
    return {k: said.get(k, "…") for k in chances}


class SandsScreen(GameScreen[SandsController, SandsView]):
    bag_total = StringProperty("")
    camera_line = StringProperty("")
    """The camera's newest read of the stone spot, or why it reads none (tap entry then)."""
    has_camera = BooleanProperty(False)
    """Whether the game's controller has a camera to set up (the Camera button): none where
    there is no camera at all, the players tapping every stone in."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._working_since: float | None = None  # when the odds were first missing
        self.bag_rows: dict[str, BagRow] = {}
        self.call_rows: dict[str, CallRow] = {}
        self.drawn_buttons: dict[str, StoneButton] = {}
        for stone in theme.STONES:
            row = BagRow(stone=stone)
            self.ids.bag.add_widget(row)
            self.bag_rows[stone] = row
            call = CallRow(stone=stone, screen=self)
            self.ids.calls.add_widget(call)
            self.call_rows[stone] = call
            button = StoneButton(stone=stone, text=stone)
            button.bind(on_release=lambda _b, s=stone: self.send("drawn", s))
            self.ids.drawn.add_widget(button)
            self.drawn_buttons[stone] = button

    def attached(self) -> None:
        self._working_since = None
        self.has_camera = self._has_feed()
        self.camera_line = ""

    def _has_feed(self) -> bool:
        camera = self.controller.stone_camera() if self.controller is not None else None
        return camera is not None and camera.spot().camera

    def refresh(self) -> None:
        super().refresh()
        camera = self.controller.stone_camera() if self.controller is not None else None
        if camera is not None:
            self.camera_line = camera.spot().line
        if self._working_since is not None and not self._status_taken():
            self.ids.status.text = working_out(time.monotonic() - self._working_since)

    def _status_taken(self) -> bool:
        view = self.view
        return view is None or bool(view.problem) or view.ended or bool(view.called)

    def show(self, view: SandsView) -> None:
        name = view.players[view.active]
        called = view.called
        header = self.ids.header
        if view.ended:
            header.title, header.player = "The game is over", -1
        else:
            header.title = f"{name} to call" if not called else f"{name} called {called}"
            header.player = view.active
        success = percents({k: o.p_success for k, o in view.calls.items()})
        win = percents({k: o.p_win for k, o in view.calls.items()})
        for stone in theme.STONES:
            self.bag_rows[stone].count = str(view.bag.get(stone, 0))
            odds = view.calls.get(stone)
            row = self.call_rows[stone]
            row.success = success[stone] if odds else "-"
            row.points = f"{odds.expected_points:.2f}" if odds else "-"
            row.win = win[stone] if odds else "-"
            row.best = stone == view.best and not called
            row.called = stone == called
            # A colour whose stones are all out can still be called (D3: red succeeds on
            # yellow or green too); only the stone that came out must be one still there.
            row.ids.call.disabled = bool(called) or view.ended or not any(view.bag.values())
            self.drawn_buttons[stone].disabled = (
                not called or view.ended or view.bag.get(stone, 0) == 0
            )
        self.bag_total = str(sum(view.bag.values()))
        self.ids.undo.disabled = not view.can_undo
        self.ids.scores.show(view.players, view.scores, view.active, view.target)
        working = any(math.isnan(o.p_win) for o in view.calls.values())
        if not working:
            self._working_since = None
        if view.problem:
            self.ids.status.text = f"[color=#ff5252]{plain(view.problem)}[/color]"
        elif view.ended:
            self.ids.status.text = ""
        elif called:
            self.ids.status.text = f"{name} called {called}: which stone came out of the bag?"
        elif working:
            if self._working_since is None:
                self._working_since = time.monotonic()
            self.ids.status.text = working_out(time.monotonic() - self._working_since)
        else:
            best = f" (best: {view.best})" if view.best else ""
            self.ids.status.text = f"{name}: name a colour{best}"
        self.ids.last.text = view.last
