"""Cards in the air: a card outline over the grid that lies in no cell.

A player moving a card holds it above the grid, between cells; the camera sees a whole,
card-shaped outline there. Read cell by cell, its colour would pass for the card below each
cell it covers (an empty cell read as the lifted gem, a neighbour read as it too). A card
lying on the grid sits in its cell, give or take a sloppy placement; one whose centre is
well off every cell's centre is in the air, and every cell it covers is read ``?``.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .candidates import FIRST_CUTS, Candidates
from .lattice import GridGeometry, GridSearch, cutter
from .plane import apply, inverse

CARD_LIKE = (0.75, 1.6)  # a lifted card's width and height to the lattice's cards' (nearer: bigger)
OFF_CELL = 0.2  # a card's centre this far (share of a cell) from its cell's centre lies in none
COVERS = 0.1  # a cell a lifted card's outline reaches this far into is covered by it
EDGE_REACH = 0.5  # a card whose centre is this far past the grid's edge still lies over it


def cards_in_the_air(search: GridSearch, look_further: bool = False,
                     frame: np.ndarray | None = None) -> np.ndarray:
    """(rows, cols) bool: the cells covered by a card-shaped outline that lies in no cell.
    ``look_further``: look with the search's first stages of cuts at least, even if the
    lattice was clear before them (a lifted card's outline often shows only in a cut of
    colour; the lattice stops at the first cut that shows it); a grid followed in video
    (vision.tracker) kept no cuts of its ``frame``, only the outlines it followed by: the
    cuts are made for the look.

    All False when the search found no grid, or kept no outlines and is not to look further.
    """
    g = search.geometry
    if g is None:
        return np.zeros((0, 0), bool)
    covered = _covered(search.candidates, search, g)
    if look_further and search.finder is None and frame is not None:
        finder, to_frame = cutter(frame, g.rows * g.cols)
        search = replace(search, finder=finder, to_frame=to_frame)
    if look_further and search.finder is not None:
        # as well as, not instead: merged with more cuts' regions, an outline may be
        # represented by a bigger or smaller one
        covered |= _covered(search.finder.add(FIRST_CUTS), search, g)
    return covered


def _covered(c: Candidates | None, search: GridSearch, g: GridGeometry) -> np.ndarray:
    """:func:`cards_in_the_air` by these regions."""
    covered = np.zeros((g.rows, g.cols), bool)
    if c is None or not len(c):
        return covered
    quads = _in_grid_units(c.boxes, search.to_frame, g.homography)
    centres = quads.mean(axis=1)
    width = (_side(quads, 0, 1) + _side(quads, 3, 2)) / 2 / g.card_size[0]
    height = (_side(quads, 0, 3) + _side(quads, 1, 2)) / 2 / g.card_size[1]
    lo, hi = CARD_LIKE
    card_like = (width > lo) & (width < hi) & (height > lo) & (height < hi)
    # held over the grid, or over its edge on the way to or from a cell there
    over = (
        (centres[:, 0] > -EDGE_REACH) & (centres[:, 0] < g.cols + EDGE_REACH)
        & (centres[:, 1] > -EDGE_REACH) & (centres[:, 1] < g.rows + EDGE_REACH)
    )
    off = np.abs(centres - (np.floor(centres) + 0.5)).max(axis=1) > OFF_CELL
    for quad in quads[card_like & over & off]:
        x0, y0 = quad.min(axis=0) + COVERS
        x1, y1 = quad.max(axis=0) - COVERS
        cols = slice(max(int(np.floor(x0)), 0), min(int(np.floor(x1)) + 1, g.cols))
        rows = slice(max(int(np.floor(y0)), 0), min(int(np.floor(y1)) + 1, g.rows))
        covered[rows, cols] = True
    return covered


def _in_grid_units(boxes: np.ndarray, to_frame: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """(N, 4, 2) working-image quads -> grid units."""
    return apply(inverse(homography) @ to_frame, boxes)


def _side(quads: np.ndarray, a: int, b: int) -> np.ndarray:
    return np.linalg.norm(quads[:, b] - quads[:, a], axis=1)
