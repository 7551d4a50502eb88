"""The score track: numbered squares like the box's scoring board, a marker per player.

The track is a loop of ``length`` squares laid out as a snake (left to right, then right to
left below it); a score past the end goes round again, as a marker does on the board. Each
marker is the player's colour with the player's number on it, so colour is never the only
clue. Pearl of the East uses the same widget as a track of tasks done (0 to 8).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Rectangle
from kivy.properties import NumericProperty
from kivy.uix.widget import Widget

from . import theme
from .textures import SEGMENTS, Snapshot, text_texture


def square_of(score: int, length: int) -> int:
    """Where a score's marker stands on a loop of ``length`` squares.

    >>> square_of(7, 50), square_of(53, 50)
    (7, 3)
    """
    return score % length


class ScoreTrack(Widget):
    scale = NumericProperty(1.0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.length = 50
        self.scores: tuple[int, ...] = ()
        self.active = -1
        self._snapshot = Snapshot()
        self._redraw = Clock.create_trigger(self._draw, -1)
        self.bind(pos=self._redraw, size=self._redraw, scale=self._redraw)

    def show(self, scores: Sequence[int], active: int = -1, length: int = 50) -> None:
        scores = tuple(scores)
        if (scores, active, length) != (self.scores, self.active, self.length):
            self.scores, self.active, self.length = scores, active, length
            self._redraw()

    def lanes(self) -> int:
        return 1 if self.length <= 16 else 2

    def square_rect(self, index: int) -> tuple[float, float, float, float]:
        """x, y, w, h of square ``index`` in widget coordinates."""
        lanes = self.lanes()
        per_lane = math.ceil(self.length / lanes)
        w = self.width / per_lane
        h = self.height / lanes
        lane, pos = divmod(index, per_lane)
        if lane % 2 == 1:
            pos = per_lane - 1 - pos  # the snake turns back
        return self.x + pos * w, self.top - (lane + 1) * h, w, h

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        if self.width <= 0 or self.height <= 0:
            return
        by_square: dict[int, list[int]] = {}
        for player, score in enumerate(self.scores):
            by_square.setdefault(square_of(score, self.length), []).append(player)
        with self._snapshot.drawing(self):
            for i in range(self.length):
                x, y, w, h = self.square_rect(i)
                shade = theme.PANEL if i % 10 else (0.32, 0.34, 0.39, 1)
                Color(*shade)
                Rectangle(pos=(x + 1, y + 1), size=(w - 2, h - 2))
                if i % 5 == 0:
                    colour = theme.TEXT
                    size = int(min(h * 0.42, w * 0.55))
                else:
                    colour = theme.MUTED
                    size = int(min(h * 0.32, w * 0.45))
                tex = text_texture(str(i), size, colour, i % 5 == 0)
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, pos=(x + 3, y + h - tex.height - 1), size=tex.size)
            for square, players in by_square.items():
                self._draw_markers(square, players)

    def _draw_markers(self, square: int, players: list[int]) -> None:
        x, y, w, h = self.square_rect(square)
        d = min(w, h) * 0.92
        # Markers sharing a square overlap like stacked counters, the active one on top,
        # far enough apart that the number on each stays readable.
        step = d * 0.8
        order = sorted(players, key=lambda p: p == self.active)
        spread = step * (len(players) - 1)
        first = x + w / 2 - spread / 2
        first = max(self.x + d / 2 + 2, min(first, self.right - d / 2 - 2 - spread))
        cy = y + h / 2 - h * 0.06
        for player in order:
            cx = first + step * players.index(player)
            colour = theme.player_colour(player)
            Color(*(theme.ACCENT if player == self.active else theme.DARK_INK))
            Ellipse(pos=(cx - d / 2 - 2, cy - d / 2 - 2), size=(d + 4, d + 4), segments=SEGMENTS)
            Color(*colour)
            Ellipse(pos=(cx - d / 2, cy - d / 2), size=(d, d), segments=SEGMENTS)
            tex = text_texture(str(player + 1), int(d * 0.72), theme.ink_for(colour))
            Color(1, 1, 1, 1)
            Rectangle(texture=tex, pos=(cx - tex.width / 2, cy - tex.height / 2), size=tex.size)
