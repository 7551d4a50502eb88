"""The grid as players see it: the live camera picture with the found grid drawn on it and each
cell's read as a badge (colour and letter), or, with no picture, a plain board of tiles.

Marks outline cells: the combinations of the last scoring phase (gold, with their points),
the cells of the last verdict (green when legal, red when not), cells a prompt is about (blue)
and the pearl (a white ring). Arrows along a row or column show the last move (solid when
legal, dashed when refused) and the way to put a refused one back (blue, "put back"): shape
and words, not colour alone. Tapping a cell calls ``on_cell_tap(row, col)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle, RoundedRectangle, Triangle
from kivy.properties import NumericProperty
from kivy.uix.widget import Widget

from . import theme
from .geometry import CornersOnALine, Fit, GridPlacement, crop_around, steady_crop
from .textures import SEGMENTS, FrameTexture, check_frame, text_texture

if TYPE_CHECKING:
    from kivy.graphics.texture import Texture
    from kivy.input.motionevent import MotionEvent

Cell = tuple[int, int]
Point = tuple[float, float]

UNSURE = 0.5
"""Cells read with less confidence than this get an orange ring: check them."""

CORNER_SEGMENTS = 4
"""Segments of a rounded corner: each triangle costs a software GL, and at these sizes four
look round."""

JITTER = 0.004
"""Corners that move less than this share of the frame's width keep the drawn grid where it
is: readings wobble by a pixel or two, and redrawing the grid for that costs frames."""


@dataclass(frozen=True)
class CellMarks:
    combinations: tuple[tuple[tuple[Cell, ...], str], ...] = ()  # cells, label such as "+3"
    verdict: tuple[Cell, ...] = ()
    verdict_legal: bool = True
    highlight: tuple[Cell, ...] = ()
    pearl: Cell | None = None
    arrows: tuple[tuple[str, str], ...] = ()
    """Shifts drawn as arrows along their row or column: (shift such as "r3<", kind), kind
    "moved" (a legal move), "illegal" (a refused one, dashed) or "fix" (the way back)."""
    picked: Cell | None = None  # the cell the picker is open for


class GridView(Widget):
    scale = NumericProperty(1.0)
    foot = NumericProperty(0.0)
    """Pixels at the widget's foot the picture leaves free, for a caption drawn there over
    no card (the hint's)."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.cells: tuple[str, ...] = ()
        self.confidence: tuple[tuple[float, ...], ...] = ()
        self.marks = CellMarks()
        self.on_cell_tap: Callable[[int, int], None] | None = None
        self.note = ""  # drawn over the picture, e.g. "no grid found"
        self._frame = FrameTexture()
        self._has_frame = False
        self._placement: GridPlacement | None = None
        self._crop: tuple[float, float, float, float] | None = None
        self._crop_px = (0, 0, 0, 0)  # the crop in whole pixels: what the texture holds
        self._drawn_crop = self._crop_px
        self._frame_size = (0, 0)
        self._picture: Rectangle | None = None
        self._array: np.ndarray | None = None  # the newest frame, to draw again at another size
        self._corners_key: tuple[float, ...] | None = None
        self._corners: np.ndarray | None = None
        self._redraw = Clock.create_trigger(self._draw, -1)
        self.bind(pos=self._redraw, size=self._redraw, scale=self._redraw, foot=self._redraw)

    # What to show ---------------------------------------------------------------------

    @property
    def rows(self) -> int:
        return len(self.cells) or 5

    @property
    def cols(self) -> int:
        return len(self.cells[0]) if self.cells else 5

    def show(
        self,
        cells: Sequence[str],
        confidence: Sequence[Sequence[float]] = (),
        marks: CellMarks | None = None,
    ) -> None:
        cells = tuple(cells)
        sure = tuple(tuple(r) for r in confidence)
        marks = marks or CellMarks()
        if (cells, sure, marks) != (self.cells, self.confidence, self.marks):
            new_lattice = len(cells) != self.rows or (cells and len(cells[0]) != self.cols)
            self.cells, self.confidence, self.marks = cells, sure, marks
            if new_lattice and self._corners is not None:
                self._placement = self._place(self._corners)
            self._redraw()

    def show_frame(self, frame: np.ndarray | None, corners: np.ndarray | None) -> None:
        """The newest camera picture and the grid's corners in it (either may be None)."""
        if frame is None:
            if self._has_frame:
                self._has_frame = False
                self._placement = None
                self._corners = self._corners_key = None
                self._redraw()
            return
        array = self._array = check_frame(frame)
        size = (array.shape[1], array.shape[0])
        key = None if corners is None else _flat(corners)
        moved = (not self._has_frame or size != self._frame_size
                 or not _near(key, self._corners_key, JITTER * size[0]))
        if moved:
            self._corners_key, self._corners, self._frame_size = key, corners, size
            self._placement = self._place(corners)
            self._has_frame = True
        fit = self._fit()
        assert fit is not None
        texture = self._frame.update(array, self._crop_px, fit.size)
        if moved or self._picture is None or self._drawn_crop != self._crop_px:
            self._redraw()
        else:
            # Only the picture changed: swap the texture, keep the overlay.
            self._picture.texture = texture

    def cell_picture(self, row: int, col: int, size: float = 200.0) -> Texture | None:
        """The camera's picture of one cell (with a little of its neighbours), as a texture
        about ``size`` px across; None without a picture of the grid."""
        if self._array is None or self._placement is None or not self._has_frame:
            return None
        xs, ys = zip(*self._placement.cell_quad(row, col), strict=True)
        margin = 0.15 * max(max(xs) - min(xs), max(ys) - min(ys))
        h, w = self._array.shape[:2]
        x0, y0 = max(0, int(min(xs) - margin)), max(0, int(min(ys) - margin))
        x1, y1 = min(w, int(max(xs) + margin) + 1), min(h, int(max(ys) + margin) + 1)
        if x1 - x0 < 2 or y1 - y0 < 2:
            return None
        k = min(1.0, size / max(x1 - x0, y1 - y0))
        return FrameTexture().update(self._array, (x0, y0, x1, y1), ((x1 - x0) * k, (y1 - y0) * k))

    def _place(self, corners: np.ndarray | None) -> GridPlacement | None:
        if corners is None:
            return None
        try:
            return GridPlacement.from_corners(corners, self.rows, self.cols)
        except CornersOnALine:
            return None  # corners on a line: show the picture without a grid

    # Where things are -----------------------------------------------------------------

    def cell_centre(self, row: int, col: int) -> Point:
        """Widget coordinates of a cell's centre (what a finger taps)."""
        fit = self._fit()
        if fit is not None and self._placement is not None:
            return fit.to_widget(*self._placement.cell_centre(row, col))
        x, y, size = self._board()
        return x + (col - 0.5) * size, y + (self.rows - row + 0.5) * size

    def cell_at(self, x: float, y: float) -> Cell | None:
        fit = self._fit()
        if fit is not None and self._placement is not None:
            return self._placement.cell_at(*fit.to_image(x, y))
        if fit is not None:
            return None  # a picture without a grid: nothing to tap
        bx, by, size = self._board()
        col = math.floor((x - bx) / size) + 1
        row = self.rows - math.floor((y - by) / size)
        if 1 <= row <= self.rows and 1 <= col <= self.cols:
            return row, col
        return None

    def _room(self) -> tuple[float, float, float, float]:
        """Where the picture or the board is drawn: the widget above its ``foot``."""
        foot = min(self.foot, self.height)
        return self.x, self.y + foot, self.width, self.height - foot

    def _board(self) -> tuple[float, float, float]:
        x, y, width, height = self._room()
        size = min(width / self.cols, height / self.rows)
        return x + (width - size * self.cols) / 2, y + (height - size * self.rows) / 2, size

    def _fit(self) -> Fit | None:
        """How the picture sits in the widget; None when there is no picture."""
        if not self._has_frame:
            return None
        w, h = self._frame_size
        if self._placement is not None:
            wanted = crop_around(self._placement.bounds(), (w, h))
            self._crop = steady_crop(self._crop, wanted, tolerance=0.02 * w)
        else:
            self._crop = (0.0, 0.0, float(w), float(h))
        x0, y0, x1, y1 = self._crop
        self._crop_px = (int(x0), int(y0), int(math.ceil(x1)), int(math.ceil(y1)))
        # Vision puts a pixel's centre at whole coordinates: the texture's pixels start
        # half a pixel before the crop's first column and row.
        a, b, c, d = (v - 0.5 for v in self._crop_px)
        return Fit.of((a, b, c, d), self._room())

    # Touch ----------------------------------------------------------------------------

    def on_touch_down(self, touch: MotionEvent) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        cell = self.cell_at(*touch.pos)
        if cell is None:
            return False
        touch.ud["grid_cell"] = cell
        touch.grab(self)
        return True

    def on_touch_up(self, touch: MotionEvent) -> bool:
        if touch.grab_current is not self:
            return False
        touch.ungrab(self)
        cell = touch.ud.get("grid_cell")
        if cell is not None and self.cell_at(*touch.pos) == cell and self.on_cell_tap:
            self.on_cell_tap(*cell)
        return True

    # Drawing --------------------------------------------------------------------------

    def _letter(self, row: int, col: int) -> str:
        try:
            return self.cells[row - 1][col - 1]
        except IndexError:
            return "?"

    def _unsure(self, row: int, col: int) -> bool:
        try:
            return self.confidence[row - 1][col - 1] < UNSURE
        except IndexError:
            return False

    def _draw(self, *_: object) -> None:
        self.canvas.clear()
        fit = self._fit()
        self._picture = None
        if fit is None:
            bx, by, size = self._board()
            region = (bx, by, size * self.cols, size * self.rows)
        else:
            # Uploaded again at this size: the last upload may have been thinned for a size
            # the widget had before it was laid out.
            assert self._array is not None  # a fit is made for a frame
            self._frame.update(self._array, self._crop_px, fit.size)
            with self.canvas:
                Color(1, 1, 1, 1)
                self._picture = Rectangle(texture=self._frame.texture, pos=fit.origin,
                                          size=fit.size)
            self._drawn_crop = self._crop_px
            region = (*fit.origin, *fit.size)
        # Drawn straight onto the canvas, not into an off-screen buffer: the badges and
        # lines cover a fraction of the picture, a buffer over it would blend all of it.
        with self.canvas:
            if fit is None:
                quads, centres, cell_size = self._draw_board()
            elif self._placement is None:
                self._draw_note(self.note or "No grid in view", region)
                return
            else:
                quads, centres, cell_size = self._draw_overlay(fit, self._placement)
            self._draw_marks(quads, centres, cell_size)
            if self.note:
                self._draw_note(self.note, region)

    def _draw_board(self) -> tuple[dict[Cell, list[Point]], dict[Cell, Point], float]:
        bx, by, size = self._board()
        gap = max(2.0, size * 0.06)
        quads: dict[Cell, list[Point]] = {}
        centres: dict[Cell, Point] = {}
        for row in range(1, self.rows + 1):
            for col in range(1, self.cols + 1):
                x = bx + (col - 1) * size
                y = by + (self.rows - row) * size
                quads[row, col] = [(x, y + size), (x + size, y + size), (x + size, y), (x, y)]
                centres[row, col] = (x + size / 2, y + size / 2)
                letter = self._letter(row, col)
                Color(*theme.gem_colour(letter))
                RoundedRectangle(
                    pos=(x + gap, y + gap), size=(size - 2 * gap, size - 2 * gap),
                    radius=[gap * 1.5], segments=CORNER_SEGMENTS,
                )
                if letter != ".":
                    self._put_text(letter, centres[row, col], int(size * 0.5),
                                   theme.gem_ink(letter))
                if self._unsure(row, col):
                    Color(*theme.ACCENT)
                    Line(circle=(*centres[row, col], size * 0.38, 0, 360, SEGMENTS),
                         width=max(1.5, size / 30))
        return quads, centres, size

    def _draw_overlay(
        self, fit: Fit, placement: GridPlacement
    ) -> tuple[dict[Cell, list[Point]], dict[Cell, Point], float]:
        rows, cols = self.rows, self.cols
        to_w = fit.to_widget
        line_w = max(1.0, 1.2 * self.scale)
        quads: dict[Cell, list[Point]] = {}
        centres: dict[Cell, Point] = {}
        for shade, width in ((theme.DARK_INK, line_w * 2.5), ((1, 1, 1, 0.85), line_w)):
            Color(*shade)
            for r in range(rows + 1):
                pts = [to_w(*placement.to_image(u, r)) for u in (0, cols)]
                Line(points=[c for p in pts for c in p], width=width)
            for c in range(cols + 1):
                pts = [to_w(*placement.to_image(c, v)) for v in (0, rows)]
                Line(points=[q for p in pts for q in p], width=width)
        for row in range(1, rows + 1):
            for col in range(1, cols + 1):
                quads[row, col] = [to_w(*p) for p in placement.cell_quad(row, col)]
                centres[row, col] = to_w(*placement.cell_centre(row, col))
        x0, y0 = quads[1, 1][0]
        x1, y1 = quads[rows, cols][2]
        cell_size = min(abs(x1 - x0) / cols, abs(y1 - y0) / rows)
        badge = max(22.0 * self.scale, min(cell_size * 0.6, 80.0 * self.scale))
        for (row, col), (cx, cy) in centres.items():
            letter = self._letter(row, col)
            if letter == ".":
                continue
            Color(*theme.gem_colour(letter))
            RoundedRectangle(pos=(cx - badge / 2, cy - badge / 2), size=(badge, badge),
                             radius=[badge * 0.2], segments=CORNER_SEGMENTS)
            Color(*theme.DARK_INK)
            Line(rounded_rectangle=(cx - badge / 2, cy - badge / 2, badge, badge, badge * 0.2,
                                    CORNER_SEGMENTS), width=max(1.2, self.scale))
            self._put_text(letter, (cx, cy), int(badge * 0.72), theme.gem_ink(letter))
            if self._unsure(row, col):
                Color(*theme.ACCENT)
                Line(circle=(cx, cy, badge * 0.75, 0, 360, SEGMENTS),
                     width=max(1.5, 2 * self.scale))
        return quads, centres, cell_size

    def _draw_marks(
        self, quads: dict[Cell, list[Point]], centres: dict[Cell, Point], cell_size: float
    ) -> None:
        marks = self.marks
        width = max(2.0, cell_size * 0.045)
        verdict_colour = theme.GOOD if marks.verdict_legal else theme.BAD
        layers = (
            (theme.HIGHLIGHT, marks.highlight, 0.04),
            (theme.COMBINATION, tuple(c for cells, _ in marks.combinations for c in cells), 0.1),
            (verdict_colour, marks.verdict, 0.16),
        )
        for colour, cells, inset in layers:
            Color(*colour)
            for cell in cells:
                if cell in quads:
                    quad = _shrink(quads[cell], centres[cell], inset)
                    Line(points=[c for p in quad for c in p], close=True, width=width)
        if marks.picked in quads:
            Color(*theme.TEXT)
            quad = _shrink(quads[marks.picked], centres[marks.picked], -0.04)
            Line(points=[c for p in quad for c in p], close=True, width=width * 1.6)
        for shift, kind in marks.arrows:
            self._draw_arrow(shift, kind, centres, cell_size)
        if marks.pearl in centres:
            cx, cy = centres[marks.pearl]
            Color(*theme.DARK_INK)
            Line(circle=(cx, cy, cell_size * 0.42, 0, 360, SEGMENTS), width=width * 1.8)
            Color(1, 1, 1, 1)
            Line(circle=(cx, cy, cell_size * 0.42, 0, 360, SEGMENTS), width=width)
        for cells, label in marks.combinations:
            pts = [centres[c] for c in cells if c in centres]
            if not pts or not label:
                continue
            # On the line between the run's middle cell and its neighbour, so the pill
            # covers no letter: a row's points sit on its top edge, a column's on its side.
            cx = sum(p[0] for p in pts) / len(pts)
            cy = sum(p[1] for p in pts) / len(pts)
            across = len({r for r, _ in cells}) == 1
            if across:
                cy += cell_size * 0.5
            else:
                cx += cell_size * 0.5
            self._put_pill(label, (cx, cy), int(max(18 * self.scale, cell_size * 0.3)))

    def _draw_arrow(self, shift: str, kind: str, centres: dict[Cell, Point],
                    cell_size: float) -> None:
        """An arrow along the shifted row or column, beside the badges (not over them):
        the move on one side of the line of cells, the way back on the other."""
        line, index, direction = shift[0], int(shift[1]), shift[2]
        if cell_size <= 1:
            return  # not laid out yet
        ends = ((index, 1), (index, self.cols)) if line == "r" else ((1, index), (self.rows, index))
        if not all(end in centres for end in ends):
            return
        (ax, ay), (bx, by) = centres[ends[0]], centres[ends[1]]
        if direction in "<^":
            (ax, ay), (bx, by) = (bx, by), (ax, ay)
        length = math.hypot(bx - ax, by - ay) or 1.0
        ux, uy = (bx - ax) / length, (by - ay) / length
        nx, ny = (uy, -ux) if line == "r" else (-uy, ux)  # below a row, right of a column
        side = -1.0 if kind == "fix" else 1.0
        if line == "r" and direction == "<" or line == "c" and direction == "^":
            side = -side  # the normal turned with the direction: keep each on its side
        off = 0.36 * cell_size * side
        ext = 0.3 * cell_size
        x0, y0 = ax - ux * ext + nx * off, ay - uy * ext + ny * off
        x1, y1 = bx + ux * ext + nx * off, by + uy * ext + ny * off
        width = max(2.5, cell_size * 0.06)
        colour = {"moved": theme.GOOD, "illegal": theme.BAD, "fix": theme.FIX}[kind]
        head = width * 3.4
        hx, hy = x1 - ux * head, y1 - uy * head
        if kind == "illegal":  # dashed: refused, told apart by its shape
            dash = cell_size * 0.22
            pieces = max(1, int(math.hypot(hx - x0, hy - y0) / dash))
            segments = [(i, i + 0.6) for i in range(0, pieces, 1)]
            lines = [[x0 + (hx - x0) * a / pieces, y0 + (hy - y0) * a / pieces,
                      x0 + (hx - x0) * b / pieces, y0 + (hy - y0) * b / pieces]
                     for a, b in segments]
        else:
            lines = [[x0, y0, hx, hy]]
        tri = [x1, y1, hx + nx * head * 0.6, hy + ny * head * 0.6,
               hx - nx * head * 0.6, hy - ny * head * 0.6]
        Color(*theme.DARK_INK)
        for pts in lines:
            Line(points=pts, width=width * 1.7, cap="none")
        Line(points=tri, close=True, width=width * 0.7)
        Color(*colour)
        for pts in lines:
            Line(points=pts, width=width, cap="none")
        Triangle(points=tri)
        if kind == "fix":
            self._put_pill("put back", ((x0 + x1) / 2, (y0 + y1) / 2),
                           int(max(16 * self.scale, cell_size * 0.22)), theme.FIX)

    def _put_text(self, text: str, centre: Point, size: int, colour: theme.RGBA) -> None:
        texture = text_texture(text, size, colour)
        w, h = texture.size
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, pos=(centre[0] - w / 2, centre[1] - h / 2), size=(w, h))

    def _put_pill(self, text: str, centre: Point, size: int,
                  colour: theme.RGBA = theme.COMBINATION) -> None:
        texture = text_texture(text, size, theme.DARK_INK)
        w, h = texture.size
        pad = size * 0.25
        Color(*colour)
        RoundedRectangle(pos=(centre[0] - w / 2 - pad, centre[1] - h / 2),
                         size=(w + 2 * pad, h), radius=[h / 2], segments=CORNER_SEGMENTS)
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, pos=(centre[0] - w / 2, centre[1] - h / 2), size=(w, h))

    def _draw_note(self, text: str, region: tuple[float, float, float, float]) -> None:
        size = int(20 * self.scale)
        texture = text_texture(text, size, theme.TEXT)
        w, h = texture.size
        x = region[0] + (region[2] - w) / 2
        y = region[1] + region[3] - h - 12 * self.scale
        Color(0, 0, 0, 0.7)
        Rectangle(pos=(x - 10, y - 6), size=(w + 20, h + 12))
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, pos=(x, y), size=(w, h))


def _flat(corners: Iterable[Iterable[float]]) -> tuple[float, ...]:
    return tuple(float(v) for point in corners for v in point)


def _near(a: tuple[float, ...] | None, b: tuple[float, ...] | None, tolerance: float) -> bool:
    """Whether two sets of corners are the same within ``tolerance`` pixels (None only
    matches None)."""
    if a is None or b is None:
        return a is b
    return len(a) == len(b) and all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def _shrink(quad: list[Point], centre: Point, inset: float) -> list[Point]:
    cx, cy = centre
    return [(cx + (x - cx) * (1 - inset), cy + (y - cy) * (1 - inset)) for x, y in quad]
