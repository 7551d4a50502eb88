"""The story of a game as a chart (issue 15), drawn with Kivy's own graphics.

Nizam and Pearl of the East: each player's score (Pearl: tasks done) after every turn, in
the player's colour; the deck's run-outs as dashed lines on the time line; the best turn
of the game ringed. The Desert Sands: both scores call by call above, the stones left in
the bag by colour below. A tap on the chart picks the nearest turn (or call) and the
caption says what happened in it: its combinations, tasks, or the call, the stone and the
best call. ``StoryChart.show(story)`` takes a ``companion.story.GameStory`` (or None).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.rules.grid import GEM_NAMES
from companion.session.kinds import CALLS_SCREEN, KINDS, title_of
from companion.story import GameStory
from companion.view import PastGameEntry

from . import theme
from .textures import SEGMENTS, text_texture
from .widgets import Sheet, running_app, scale

if TYPE_CHECKING:
    from kivy.input.motionevent import MotionEvent

Point = tuple[float, float]
Box = tuple[float, float, float, float]
"""x, y, width, height."""
TASKS = len(theme.GEMS)


def describe_turn(story: GameStory, index: int) -> tuple[str, str]:
    """The caption's two lines for turn number ``index`` (from 0) of a Nizam or Pearl game."""
    turn = story.turns[index]
    name = story.names[turn.player]
    if story.game == "pearl":
        gain = (f"completes {', '.join(GEM_NAMES[t] for t in turn.tasks)}" if turn.tasks
                else "no task")
    else:
        gain = f"+{turn.points}"
    first = f"Turn {turn.number}, {name}: {turn.action}, {gain}"
    combos = ", ".join(str(c).split(" ")[0] for c in turn.combinations) or "no line"
    cascade = f" (cascade {turn.cascade})" if turn.cascade else ""
    out = f" · the deck ran out{' twice' if turn.runs_out > 1 else ''}" if turn.runs_out else ""
    return first, f"Lines: {combos}{cascade}{out}"


def describe_call(story: GameStory, index: int) -> tuple[str, str]:
    call = story.calls[index]
    name = story.names[call.player]
    got = call.points[call.player] if call.success else -call.points[1 - call.player]
    result = f"+{got}" if call.success else ("fails" + (f", the other +{-got}" if got else ""))
    bag = ", ".join(f"{c} {n}" for c, n in call.bag.items())
    best = (f" · best call: {call.best}" + (" (this one)" if call.best == call.call else "")
            if call.best else "")
    return f"Call {call.number}, {name}: {call.call}, drew {call.drawn}: {result}", \
        f"Bag left: {bag}{best}"


def _of_calls(story: GameStory) -> bool:
    """Whether the story is of calls from a bag (The Desert Sands), not of turns."""
    return KINDS[story.game].screen == CALLS_SCREEN


def summary(story: GameStory) -> str:
    """The caption's second line when nothing is picked."""
    if _of_calls(story):
        known = [c for c in story.calls if c.best]
        hits = sum(c.call == c.best for c in known)
        best = f" · the best call {hits} of {len(known)} times" if known else ""
        return f"{len(story.calls)} calls{best} · tap the chart for a call"
    best_turn = story.best_turn
    parts = []
    if best_turn is not None:
        gain = (f"{len(best_turn.tasks)} tasks" if story.game == "pearl"
                else f"+{best_turn.points}")
        parts.append(f"Best turn: {story.names[best_turn.player]} {gain} (turn "
                     f"{best_turn.number})")
    if story.run_outs:
        parts.append(f"deck out at turn {', '.join(map(str, story.run_outs))}")
    parts.append("tap the chart for a turn")
    return " · ".join(parts)


class StoryChart(Widget):
    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.story: GameStory | None = None
        self.selected: int | None = None
        self.xs: list[float] = []  # x of each turn or call (from the first), for taps
        self.lines: list[list[Point]] = []  # each score line's points as drawn
        self.labels: list[tuple[str, Box]] = []  # each deck-out label and where it is drawn
        self._redraw = Clock.create_trigger(self._draw, -1)
        self.bind(pos=self._redraw, size=self._redraw)

    def show(self, story: GameStory | None) -> None:
        self.story, self.selected = story, None
        self._redraw()

    def caption(self) -> tuple[str, str]:
        story = self.story
        if story is None:
            return "", ""
        if self.selected is not None:
            pick = describe_call if _of_calls(story) else describe_turn
            return pick(story, self.selected)
        legend = "   ".join(f"{name}: {self._final(i)}" for i, name in enumerate(story.names))
        return legend, summary(story)

    def legend(self) -> list[tuple[str, theme.RGBA]]:
        """Each player's name and final score, in their colour (when nothing is picked)."""
        if self.story is None or self.selected is not None:
            return []
        # a colon between: "Player 1: 6", never "Player 1 6"
        return [(f"{name}: {self._final(i)}", theme.player_colour(i))
                for i, name in enumerate(self.story.names)]

    def _final(self, player: int) -> int:
        story = self.story
        assert story is not None
        if _of_calls(story):
            return story.calls[-1].scores[player] if story.calls else 0
        return story.turns[-1].scores[player] if story.turns else 0

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if not self.collide_point(*touch.pos) or not self.xs:
            return False
        nearest = min(range(len(self.xs)), key=lambda i: abs(self.xs[i] - touch.x))
        self.selected = None if self.selected == nearest else nearest
        self._redraw()
        return True

    # Drawing ------------------------------------------------------------------------------

    def _draw(self, *_: object) -> None:
        self.canvas.clear()
        self.xs, self.lines, self.labels = [], [], []
        story = self.story
        if story is None or self.width < 20 or self.height < 20:
            return
        s = scale()
        top_text = 54 * s
        left, bottom = self.x + 40 * s, self.y + 22 * s
        right, top = self.right - 12 * s, self.top - top_text
        with self.canvas:
            self._caption(s)
            if top - bottom < 20 * s:
                return
            if _of_calls(story):
                right -= 58 * s  # room for each bag line's name at its end
                split = bottom + (top - bottom) * 0.38
                self._sands(story, (left, split + 26 * s, right, top),
                            (left, bottom, right, split), s)
            else:
                self._turns(story, (left, bottom, right, top), s)

    def _caption(self, s: float) -> None:
        legend = self.legend()
        lines = self.caption()
        y = self.top - 22 * s
        if legend:  # a swatch of each player's line before their name
            x = self.x + 4 * s
            for text, colour in legend:
                tex = text_texture(text, int(18 * s), theme.TEXT)
                Color(*theme.DARK_INK)
                Rectangle(pos=(x - 1, y + tex.height / 2 - 3 * s), size=(22 * s, 6 * s))
                Color(*colour)
                Rectangle(pos=(x, y + tex.height / 2 - 2 * s), size=(20 * s, 4 * s))
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(x + 26 * s, y), size=tex.size)
                x += tex.width + 44 * s
            lines = ("", lines[1])
        for k, (text, size) in enumerate(zip(lines, (18, 15), strict=True)):
            if not text:
                continue
            tex = text_texture(text, int(size * s), theme.TEXT if k == 0 else theme.MUTED,
                               bold=k == 0)
            f = min(1.0, (self.width - 8 * s) / max(tex.width, 1))
            w, h = tex.width * f, tex.height * f
            Color(1, 1, 1, 1)
            Rectangle(texture=tex, pos=(self.x + 4 * s, self.top - (k + 1) * 22 * s),
                      size=(w, h))

    def _frame(self, box: tuple[float, float, float, float], y_max: int, n: int, s: float,
               label: str = "") -> Callable[[float, float], Point]:
        """Axes in ``box`` for ``n`` steps; returns the map from (step, value) to the widget."""
        x0, y0, x1, y1 = box
        Color(*theme.PANEL)
        Rectangle(pos=(x0, y0), size=(x1 - x0, y1 - y0))
        Color(*theme.MUTED[:3], 0.5)
        Line(points=[x0, y0, x1, y0], width=1)
        for value in (0, y_max):
            self._text(str(value), (x0 - 6 * s, y0 + (y1 - y0) * value / max(y_max, 1)),
                       int(13 * s), align="right")
        if label:  # above the panel, in the gap left for it
            self._text(label, (x0, y1 + 13 * s), int(13 * s), align="left")
        n = max(n, 1)

        def at(i: float, v: float) -> Point:
            return x0 + (x1 - x0) * i / n, y0 + (y1 - y0) * v / max(y_max, 1)

        return at

    def _series(self, at: Callable[[float, float], Point], values: Sequence[float],
                colour: theme.RGBA, width: float) -> None:
        self.lines.append([at(i, v) for i, v in enumerate(values)])
        points = [c for point in self.lines[-1] for c in point]
        Color(*theme.DARK_INK)
        Line(points=points, width=width + 1.5)
        Color(*colour)
        Line(points=points, width=width)

    def _turns(self, story: GameStory, box: tuple[float, float, float, float],
               s: float) -> None:
        turns = story.turns
        pearl = story.game == "pearl"
        series = [[0] + [t.scores[p] for t in turns] for p in range(len(story.names))]
        y_max = TASKS if pearl else max((max(v) for v in series), default=1) or 1
        at = self._frame(box, y_max, len(turns), s)
        self.xs = [at(i + 1, 0)[0] for i in range(len(turns))]
        self._ticks(at, [t.number for t in turns], s)
        run_outs = []
        for number in story.run_outs:  # dashed, like a cut in the deck
            i = next(k for k, t in enumerate(turns) if t.number == number) + 1
            x = at(i, 0)[0]
            run_outs.append(x)
            Color(*theme.HIGHLIGHT)
            Line(points=[x, box[1], x, box[3]], width=1, dash_length=6, dash_offset=4)
        for p, values in enumerate(series):
            self._series(_nudged(at, p, len(series), s), values, theme.player_colour(p),
                         max(1.5, 2 * s))
        for x in run_outs:  # over the lines: the last run-out is where the scores are highest
            self._run_out_label(x, box, s)
        best = story.best_turn
        if best is not None:
            i = turns.index(best) + 1
            x, y = at(i, best.scores[best.player])
            r = 8 * s
            Color(*theme.ACCENT)
            Line(circle=(x, y, r, 0, 360, SEGMENTS), width=max(1.5, 2 * s))
            above = y + r + 8 * s < box[3] - 6 * s  # else below, clear of the caption
            self._text("best", (x, y + r + 8 * s if above else y - r - 8 * s), int(13 * s))
        if self.selected is not None:
            self._pick(at, self.selected + 1, [v[self.selected + 1] for v in series], box)

    def _run_out_label(self, x: float, box: tuple[float, float, float, float],
                       s: float) -> None:
        """"deck out" beside the dashed line at ``x``, inside the panel ``box`` (x0, y0, x1,
        y1): at its top or its foot, whichever no score line and no other label crosses
        there (else at the top, on the panel's colour, over the lines)."""
        tex = text_texture("deck out", int(12 * s), theme.MUTED, bold=False)
        w, h = tex.size
        left = x + 3 * s if x + 3 * s + w <= box[2] else x - 3 * s - w
        left = max(box[0], left)
        places = [(left, box[3] - 3 * s - h, w, h), (left, box[1] + 3 * s, w, h)]

        def clear(place: Box) -> bool:
            return not any(_crosses(line, place, 3 * s) for line in self.lines) and \
                not any(_overlap(place, other) for _, other in self.labels)

        place = next((p for p in places if clear(p)), places[0])
        self.labels.append(("deck out", place))
        Color(*theme.PANEL)
        Rectangle(pos=(place[0] - s, place[1]), size=(w + 2 * s, h))
        Color(1, 1, 1, 1)
        Rectangle(texture=tex, pos=place[:2], size=(w, h))

    def _sands(self, story: GameStory, upper: tuple[float, float, float, float],
               lower: tuple[float, float, float, float], s: float) -> None:
        calls = story.calls
        series = [[0] + [c.scores[p] for c in calls] for p in (0, 1)]
        y_max = max(16, *(max(v) for v in series))
        at = self._frame(upper, y_max, len(calls), s)
        goal = at(0, 16)[1]
        Color(*theme.ACCENT[:3], 0.6)
        Line(points=[upper[0], goal, upper[2], goal], width=1, dash_length=4, dash_offset=4)
        self.xs = [at(i + 1, 0)[0] for i in range(len(calls))]
        for p, values in enumerate(series):
            self._series(_nudged(at, p, 2, s), values, theme.player_colour(p), max(1.5, 2 * s))
        start = story.start_bag or {}
        bag_max = max(start.values(), default=1) or 1
        bag_at = self._frame(lower, bag_max, len(calls), s, "stones left in the bag")
        self._ticks(bag_at, [c.number for c in calls], s)
        ends: list[float] = []
        for k, colour in enumerate(theme.STONES):
            values = [start.get(colour, 0)] + [c.bag[colour] for c in calls]
            nudged = _nudged(bag_at, k, len(theme.STONES), s)
            self._series(nudged, values, theme.STONE_COLOURS[colour], max(1.2, 1.5 * s))
            # each line named at its end (lines of equal counts get their names stacked)
            x, y = nudged(len(calls), values[-1])
            while any(abs(y - e) < 13 * s for e in ends):
                y += 13 * s
            ends.append(y)
            self._text(f"{colour} {values[-1]}", (x + 6 * s, y), int(13 * s),
                       align="left", colour=theme.STONE_COLOURS[colour])
        if self.selected is not None:
            self._pick(at, self.selected + 1, [v[self.selected + 1] for v in series],
                       (upper[0], lower[1], upper[2], upper[3]))

    def _ticks(self, at: Callable[[float, float], Point], numbers: Sequence[int],
               s: float) -> None:
        if not numbers:
            return
        every = max(1, len(numbers) // 8)
        for i in range(0, len(numbers), every):
            x, y = at(i + 1, 0)
            self._text(str(numbers[i]), (x, y - 11 * s), int(12 * s))

    def _pick(self, at: Callable[[float, float], Point], i: int, values: Sequence[float],
              box: tuple[float, float, float, float]) -> None:
        x = at(i, 0)[0]
        Color(*theme.TEXT[:3], 0.7)
        Line(points=[x, box[1], x, box[3]], width=1.2)
        for p, v in enumerate(values):
            px, py = at(i, v)
            Color(*theme.player_colour(p))
            Ellipse(pos=(px - 5, py - 5), size=(10, 10), segments=SEGMENTS)

    def _text(self, text: str, at: Point, size: int, align: str = "centre",
              colour: theme.RGBA = theme.MUTED) -> None:
        tex = text_texture(text, size, colour, bold=colour != theme.MUTED)
        x = {"left": at[0], "right": at[0] - tex.width}.get(align, at[0] - tex.width / 2)
        Color(1, 1, 1, 1)
        Rectangle(texture=tex, pos=(x, at[1] - tex.height / 2), size=tex.size)


def _overlap(a: Box, b: Box) -> bool:
    """Whether two boxes (x, y, w, h) share any area."""
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _crosses(line: Sequence[Point], box: Box, margin: float) -> bool:
    """Whether the polyline ``line`` passes through ``box`` grown by ``margin``.

    >>> _crosses([(0, 0), (10, 10)], (4, 0, 2, 2), 0), _crosses([(0, 0), (10, 0)], (4, 3, 2, 2), 1)
    (False, False)
    >>> _crosses([(0, 0), (10, 10)], (4, 3, 2, 2), 0)
    True
    """
    x0, y0, x1, y1 = box[0] - margin, box[1] - margin, box[0] + box[2] + margin, \
        box[1] + box[3] + margin
    for (ax, ay), (bx, by) in zip(line, line[1:], strict=False):
        lo, hi = max(min(ax, bx), x0), min(max(ax, bx), x1)
        if lo > hi:
            continue  # the segment is beside the box
        # the segment's height where it is over the box
        ys = [ay, by] if ax == bx else [ay + (by - ay) * (x - ax) / (bx - ax) for x in (lo, hi)]
        if min(ys) <= y1 and max(ys) >= y0:
            return True
    return False


def _nudged(at: Callable[[float, float], Point], k: int, n: int,
            s: float) -> Callable[[float, float], Point]:
    """``at`` moved up or down a little for line ``k`` of ``n``, so equal lines all show."""
    dy = (k - (n - 1) / 2) * 1.6 * s

    def moved(i: float, v: float) -> Point:
        x, y = at(i, v)
        return x, y + dy

    return moved


def load_story(chart: StoryChart, story: Callable[[], GameStory | None],
               told: Callable[[GameStory], None] | None = None) -> None:
    """Fill ``chart`` on the app's worker with what ``story()`` tells: a past game's
    (``companion.story.PastGame.story``) or the game being played's
    (``companion.story.session_story``); ``told`` is given it too, once told."""
    chart.show(None)

    def show(found: GameStory | None) -> None:
        if found is not None and told is not None:
            told(found)
        chart.show(found)

    running_app().worker.submit(story, show)


def open_story(game: PastGameEntry, story: Callable[[], GameStory],
               known: GameStory | None = None,
               told: Callable[[GameStory], None] | None = None) -> Sheet:
    """A past game's story in a pane over the app: ``known``, the story already worked out
    (shown at once, nothing asked of the worker), or what ``story()`` tells (``told`` is
    given it once told)."""
    s = scale()
    box = BoxLayout(orientation="vertical", spacing=6 * s)
    chart = StoryChart()
    box.add_widget(chart)
    close = Factory.BigButton(text="Close")
    box.add_widget(close)
    sheet = Sheet(f"Game #{game.id}: {title_of(game.header)}", box)
    close.bind(on_release=lambda _b: sheet.dismiss())
    if known is not None:
        chart.show(known)
    else:
        load_story(chart, story, told)
    return sheet.open()
