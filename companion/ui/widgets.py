"""Small widgets the screens share: the error banner, pop-up menus, the cell picker, player
markers and Pearl of the East's task cards."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.lang import Builder
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from . import theme
from .textures import SEGMENTS, Snapshot, text_texture

if TYPE_CHECKING:
    from kivy.graphics.texture import Texture
    from kivy.input.motionevent import MotionEvent

    from .app import CompanionApp

Builder.load_file(str(Path(__file__).with_name("common.kv")))


def running_app() -> CompanionApp:
    """The app these widgets belong to."""
    app: CompanionApp = App.get_running_app()
    return app


def scale() -> float:
    return float(getattr(running_app(), "scale", 1.0))


BANNER_SECONDS = 5.0
"""How long an error stays: long enough to read twice, short enough not to be in the way."""
KEPT_HINT = "Tap to close"
"""Under a message that stays until tapped (``Banner.say``'s ``keep``): how it goes."""


class Banner(Label):
    """What went wrong, or what was done, low on the screen (above the bottom buttons, never
    over whose turn it is); a tap or a few seconds clear it, or a tap only (``say``)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._clear = Clock.create_trigger(lambda _dt: self.dismiss(), BANNER_SECONDS)
        self._kept: tuple[str, str] | None = None  # a message kept until tapped, and its tone
        self._showing_kept = False

    tone = StringProperty("error")

    def say(self, text: str, tone: str = "error", *, keep: bool = False) -> None:
        """Show ``text``, cleared after ``BANNER_SECONDS``; ``keep``: a message the players
        must act on (a game record saved without the turn under way, to save again later)
        stays until tapped, and says so. No time is right for it: the one who tapped may
        look away to the cards or the others before reading two hundred characters, and a
        warning gone unread is one never given; tapped, it goes at once. A message shown
        over it (an error, a tap refused) goes as always, and the kept one comes back."""
        if keep:
            self._kept = (text, tone)
        self._show(text, tone, keep)

    def _show(self, text: str, tone: str, keep: bool) -> None:
        self.tone = tone
        self.text = f"{text}\n{KEPT_HINT}" if keep else text
        self._showing_kept = keep
        self._clear.cancel()
        if not keep:
            self._clear()

    def dismiss(self) -> None:
        if self._kept is not None and not self._showing_kept:
            self._show(*self._kept, keep=True)
            return
        self._kept = None
        self._showing_kept = False
        self.text = ""

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if self.text and self.collide_point(*touch.pos):
            self.dismiss()
            return True
        return False


class Sheet(FloatLayout):
    """A modal pane over the app (inside its root widget, not the window, so the app is
    self-contained at any size). A tap outside the pane closes it."""

    title = StringProperty("")
    box_hint = ListProperty([0.94, 0.94])
    shade = NumericProperty(0.65)  # how much the sheet darkens what it covers

    def __init__(self, title: str, content: Widget, size_hint: Sequence[float] = (0.94, 0.94),
                 **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.title = title
        self.box_hint = list(size_hint)
        self.content = content
        self.ids.box.add_widget(content)

    def open(self) -> Sheet:
        root = running_app().root
        root.add_widget(self, index=1 if root.children else 0)  # under the error banner
        return self

    def dismiss(self) -> None:
        if self.parent is not None:
            self.parent.remove_widget(self)

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        if self.ids.box.collide_point(*touch.pos):
            super().on_touch_down(touch)
        else:
            self.dismiss()
        return True

    def on_touch_move(self, touch: MotionEvent) -> bool:
        super().on_touch_move(touch)
        return True

    def on_touch_up(self, touch: MotionEvent) -> bool:
        super().on_touch_up(touch)
        return True


class ChoicePopup(Sheet):
    """A pane of big buttons; choosing one closes it and calls back."""

    def __init__(self, title: str, choices: Sequence[tuple[str, Callable[[], None]]],
                 cols: int = 1, **kwargs: Any) -> None:
        box = GridLayout(cols=cols, spacing=6 * scale())
        super().__init__(title, box, **kwargs)
        for text, action in choices:
            button = Factory.BigButton(text=text)
            button.bind(on_release=lambda _b, a=action: self._choose(a))
            box.add_widget(button)

    def _choose(self, action: Callable[[], None]) -> None:
        self.dismiss()
        action()


class FitLabel(Label):
    """One line of text at ``max_font`` px, shrunk (down to ``min_font``) until it fits
    its width: a long name is drawn smaller, never cut."""

    max_font = NumericProperty(20)
    min_font = NumericProperty(10)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._fit = Clock.create_trigger(self._fit_now, -1)
        self.bind(text=self._fit, size=self._fit, max_font=self._fit, bold=self._fit)

    def _fit_now(self, *_: object) -> None:
        self.text_size = (None, None)  # measured on one line, then aligned in the box
        self.font_size = self.max_font
        if not self.text or self.width <= 1:
            return
        for _attempt in range(3):  # a text's width is nearly proportional to its size
            self.texture_update()
            wide = self.texture_size[0]
            if wide <= self.width or self.font_size <= self.min_font:
                break
            self.font_size = max(self.min_font, int(self.font_size * self.width / wide))
        self.text_size = (self.width + 1, None)


class Symbol(Widget):
    """A tick or a cross in a disc, drawn (not a font's glyph): it reads the same on every
    screen and tells good from bad by shape, not by colour alone."""

    kind = StringProperty("good")  # "good": a tick, "bad": a cross

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._redraw = Clock.create_trigger(self._draw, -1)
        self.bind(pos=self._redraw, size=self._redraw, kind=self._redraw)

    def _draw(self, *_: object) -> None:
        self.canvas.clear()
        d = min(self.width, self.height)
        if d <= 0 or not self.kind:
            return
        cx, cy = self.center
        r = d / 2
        good = self.kind == "good"
        width = max(1.5, d * 0.09)
        with self.canvas:
            Color(*(theme.GOOD if good else theme.LIGHT_INK))
            Ellipse(pos=(cx - r, cy - r), size=(d, d), segments=SEGMENTS)
            Color(*(theme.DARK_INK if good else theme.BAD))
            if good:
                Line(points=[cx - r * 0.5, cy, cx - r * 0.12, cy - r * 0.4,
                             cx + r * 0.55, cy + r * 0.42], width=width, joint="round",
                     cap="round")
            else:
                k = r * 0.42
                Line(points=[cx - k, cy - k, cx + k, cy + k], width=width, cap="round")
                Line(points=[cx - k, cy + k, cx + k, cy - k], width=width, cap="round")


class GemButton(Button):
    """A button the colour of a gem with its letter and name on it (never colour alone)."""

    def __init__(self, letter: str, now: bool = False, **kwargs: object) -> None:
        colour = theme.gem_colour(letter)
        name = theme.CELL_NAMES.get(letter, letter)
        super().__init__(
            text=f"[b][size={int(30 * scale())}]{letter}[/size][/b]\n{name}"
                 + ("\n(read)" if now else ""),
            markup=True,
            halign="center",
            font_size=15 * scale(),
            background_normal="",
            background_down="",
            background_color=colour,
            color=theme.ink_for(colour),
            **kwargs,
        )
        self.letter = letter


class CellPicker(Sheet):
    """One tap on a cell opens this; one tap on a letter fixes the cell. With the camera's
    picture of that card (``picture``, a texture), it is shown beside the choices, and the
    pane leaves the grid on the left in view."""

    def __init__(self, row: int, col: int, current: str, letters: Iterable[str],
                 on_pick: Callable[[str], None], picture: Texture | None = None,
                 **kwargs: Any) -> None:
        letters = list(letters)
        s = scale()
        body = BoxLayout(spacing=8 * s)
        grid = GridLayout(cols=4 if picture is not None else min(6, len(letters) + 1),
                          spacing=6 * s)
        if picture is not None:
            side = BoxLayout(orientation="vertical", size_hint_x=0.34, spacing=4 * s)
            self.picture = Image(texture=picture, fit_mode="contain", size_hint_y=None)
            side.bind(width=lambda _w, width: setattr(self.picture, "height", width))
            side.add_widget(self.picture)
            side.add_widget(Factory.UiLabel(text="What the camera sees", halign="center",
                                            font_size=15 * s, color=theme.MUTED))
            side.add_widget(Widget())
            body.add_widget(side)
        body.add_widget(grid)
        name = theme.CELL_NAMES.get(current, current)
        kwargs.setdefault("size_hint", (0.57, 0.96) if picture is not None else (0.94, 0.94))
        said = (f"The camera cannot read row {row}, column {col}" if current == "?"
                else f"Row {row}, column {col} reads {name}")
        super().__init__(f"{said}. What card is there?", body, **kwargs)
        if picture is not None:
            self.ids.box.pos_hint = {"right": 0.99, "center_y": 0.5}
            self.shade = 0.3  # the grid stays readable beside it, the cell outlined
        self.buttons: dict[str, Button] = {}
        for letter in letters:
            button = GemButton(letter, now=letter == current)
            button.bind(on_release=lambda _b, x=letter: self._pick(x, on_pick))
            grid.add_widget(button)
            self.buttons[letter] = button
        cancel = Factory.BigButton(text="Cancel")
        cancel.size_hint_y = 1
        cancel.bind(on_release=lambda _b: self.dismiss())
        grid.add_widget(cancel)

    def _pick(self, letter: str, on_pick: Callable[[str], None]) -> None:
        self.dismiss()
        on_pick(letter)


class TurnHeader(BoxLayout):
    """The top of a game screen: ``title`` (whose turn) in the colour of ``player`` (from
    0; -1: no one's), tools such as Undo in ``ids.tools``, and the Menu, which calls the
    screen's ``open_menu``."""

    title = StringProperty("")
    player = NumericProperty(-1)
    colour = ListProperty(list(theme.TEXT))

    def on_kv_post(self, _base: object) -> None:
        """What a screen's rule puts in the header goes among the tools, before the Menu."""
        own = {self.ids.marker, self.ids.title, self.ids.tools, self.ids.menu}
        for child in reversed(list(self.children)):
            if child not in own:
                self.remove_widget(child)
                self.ids.tools.add_widget(child)

    def on_player(self, _w: object, player: int) -> None:
        self.colour = list(theme.player_colour(int(player)) if player >= 0 else theme.TEXT)

    def open_menu(self) -> None:
        from .screen import GameScreen  # the screens are built of these widgets

        screen = self.parent
        while screen is not None and not isinstance(screen, GameScreen):
            screen = screen.parent
        if screen is not None:
            screen.open_menu()


class PlayerMarker(Widget):
    """The player's marker as on the track: their colour and their number."""

    number = NumericProperty(1)
    active = NumericProperty(0)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        # Drawn once the layout has settled (a trigger), not on each of its steps.
        self._redraw = Clock.create_trigger(self._draw, -1)
        self.bind(pos=self._redraw, size=self._redraw, number=self._redraw, active=self._redraw)

    def _draw(self, *_: object) -> None:
        self.canvas.clear()
        d = min(self.width, self.height) * 0.9
        cx, cy = self.center
        colour = theme.player_colour(int(self.number) - 1)
        with self.canvas:
            Color(*(theme.ACCENT if self.active else theme.DARK_INK))
            Ellipse(pos=(cx - d / 2 - 2, cy - d / 2 - 2), size=(d + 4, d + 4), segments=SEGMENTS)
            Color(*colour)
            Ellipse(pos=(cx - d / 2, cy - d / 2), size=(d, d), segments=SEGMENTS)
            tex = text_texture(str(int(self.number)), int(d * 0.7), theme.ink_for(colour))
            Color(1, 1, 1, 1)
            Rectangle(texture=tex, pos=(cx - tex.width / 2, cy - tex.height / 2), size=tex.size)


class TaskStrip(Widget):
    """A player's 8 task cards (P1): a done task is dimmed and struck through."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.left: tuple[str, ...] = tuple(theme.GEMS)
        self._snapshot = Snapshot()
        self._redraw = Clock.create_trigger(self._draw, -1)
        self.bind(pos=self._redraw, size=self._redraw)

    def show(self, tasks_left: Iterable[str]) -> None:
        left = tuple(tasks_left)
        if left != self.left:
            self.left = left
            self._redraw()

    def _draw(self, *_: object) -> None:
        self.canvas.clear()
        n = len(theme.GEMS)
        w = min(self.width / n, self.height * 1.5)  # wider than tall: more room for its letter
        gap = max(1.0, w * 0.08)
        with self._snapshot.drawing(self):
            for i, letter in enumerate(theme.GEMS):
                x = self.x + i * w
                done = letter not in self.left
                colour = theme.gem_colour(letter)
                Color(*(colour[:3] + ((0.25,) if done else (1.0,))))
                RoundedRectangle(pos=(x + gap, self.y + gap),
                                 size=(w - 2 * gap, self.height - 2 * gap), radius=[gap * 2])
                ink = theme.MUTED if done else theme.ink_for(colour)
                tex = text_texture(letter, int(min(w, self.height) * 0.6), ink)
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(x + (w - tex.width) / 2,
                                            self.y + (self.height - tex.height) / 2),
                          size=tex.size)
                if done:
                    Color(*theme.TEXT)
                    Line(points=[x + gap, self.y + gap, x + w - gap, self.top - gap],
                         width=max(1.5, w * 0.06))
