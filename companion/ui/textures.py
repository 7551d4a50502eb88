"""Textures the canvases draw: the camera picture and small cached text labels."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from kivy.core.text import Label as CoreLabel
from kivy.graphics import ClearBuffers, ClearColor, Color, Fbo, Rectangle, Translate
from kivy.graphics.texture import Texture

from .theme import RGBA

if TYPE_CHECKING:
    from kivy.uix.widget import Widget

SEGMENTS = 32
"""Segments of a drawn circle. Kivy's default (180) costs a software GL a millisecond or
more per circle; 32 looks as round at these sizes."""


@lru_cache(maxsize=512)
def text_texture(text: str, size: int, colour: RGBA, bold: bool = True) -> Texture:
    """A texture of ``text`` at ``size`` px; cached, since the grid redraws the same letters."""
    label = CoreLabel(text=text, font_size=max(1, size), color=colour, bold=bold)
    label.refresh()
    return label.texture


def check_frame(frame: np.ndarray) -> np.ndarray:
    """The camera frame as an array, or a ValueError saying what is wrong with it."""
    array = np.asarray(frame)
    if array.dtype != np.uint8:
        raise ValueError(f"camera frame: expected uint8 pixels, got {array.dtype}")
    if not (array.ndim == 2 or (array.ndim == 3 and array.shape[2] in (3, 4))):
        raise ValueError(f"camera frame: expected H×W×3 BGR pixels, got shape {array.shape}")
    if array.shape[0] == 0 or array.shape[1] == 0:
        raise ValueError("camera frame: it is empty")
    return array


_FORMATS = {1: ("luminance", "luminance"), 3: ("bgr", "rgb"), 4: ("bgra", "rgba")}


class FrameTexture:
    """The part of the newest camera frame that is on screen, as a texture.

    Only the crop shown is uploaded, thinned to about the pixels it gets on screen, and two
    textures take turns, so an upload never waits for the frame still being drawn from the
    other one (a software GL such as Mesa's would stall there).
    """

    def __init__(self) -> None:
        self._textures: list[Texture | None] = [None, None]
        self._turn = 0
        self.texture: Texture | None = None

    def update(self, array: np.ndarray, crop: tuple[int, int, int, int],
               on_screen: tuple[float, float]) -> Texture:
        x0, y0, x1, y1 = crop
        # Nearest-neighbour thinning to the pixels the crop gets on screen: the upload and
        # the drawing then cost what the screen shows, not what the camera took.
        out_w = max(1, min(x1 - x0, int(math.ceil(on_screen[0]))))
        out_h = max(1, min(y1 - y0, int(math.ceil(on_screen[1]))))
        region = np.ascontiguousarray(array[_thin(y0, y1, out_h)][:, _thin(x0, x1, out_w)])
        h, w = region.shape[:2]
        fmt, texfmt = _FORMATS[1 if region.ndim == 2 else region.shape[2]]
        self._turn ^= 1
        texture = self._textures[self._turn]
        if texture is None or texture.size != (w, h) or texture.colorfmt != texfmt:
            texture = Texture.create(size=(w, h), colorfmt=texfmt)
            # The frame's rows come top first, a texture's bottom first. Flipped here, in
            # the texture's own coordinates, it stays upright in every Rectangle that shows
            # it: setting a Rectangle's texture resets the Rectangle's coordinates to these.
            texture.flip_vertical()
            self._textures[self._turn] = texture
        texture.blit_buffer(region.data.cast("B"), colorfmt=fmt, bufferfmt="ubyte")
        self.texture = texture
        return texture


def _thin(start: int, stop: int, count: int) -> slice | np.ndarray:
    """``count`` indices spread over ``start..stop``, each the middle of its share, so the
    thinned picture is not shifted towards the top left.

    >>> _thin(0, 10, 5).tolist(), _thin(4, 7, 3)
    ([1, 3, 5, 7, 9], slice(4, 7, None))
    """
    if count >= stop - start:
        return slice(start, stop)
    return start + ((2 * np.arange(count) + 1) * (stop - start)) // (2 * count)


class Snapshot:
    """A widget's slow-changing drawing rendered once into an off-screen buffer, so each
    frame costs one textured rectangle instead of hundreds of instructions (a software GL
    such as Mesa's pays for every draw call).

    ``with snapshot.drawing(widget):`` then Kivy instructions in the widget's coordinates;
    the buffer is redrawn only when the drawing is made again.
    """

    def __init__(self) -> None:
        self.fbo: Fbo | None = None

    @contextmanager
    def drawing(self, widget: Widget, region: tuple[float, float, float, float] | None = None
                ) -> Iterator[None]:
        """Draw into the buffer; ``region`` (x, y, w, h, widget coordinates) limits the
        buffer to the part that has something in it, since every pixel costs a blend."""
        x, y, w, h = region if region is not None else (*widget.pos, *widget.size)
        size = (max(1, int(math.ceil(w))), max(1, int(math.ceil(h))))
        fbo = self.fbo
        if fbo is None or tuple(fbo.size) != size:
            fbo = self.fbo = Fbo(size=size, with_stencilbuffer=False)
        else:
            fbo.clear()  # same buffer, new drawing: making a buffer costs more than clearing
        with fbo:
            ClearColor(0, 0, 0, 0)
            ClearBuffers()
            Translate(-x, -y)
            yield
        # Rendered once here, not from the canvas tree: only the finished texture is drawn
        # each frame (kept in the tree, the Fbo was at times re-rendered every frame).
        fbo.draw()
        widget.canvas.add(Color(1, 1, 1, 1))
        widget.canvas.add(Rectangle(texture=fbo.texture, pos=(x, y), size=size))
