"""Follow one grid through the frames of a live video.

A watcher's camera stays put, so the grid of one frame is almost where it was in the last.
``GridTracker`` keeps the last geometry. When the grid and the ring of cells around it look
as they did when the lattice was last measured (a small copy of the frame compared pixel by
pixel, sensor noise allowed; a fingertip on a card is a change), the lattice is kept as it
is. Otherwise it looks only at the grid and that ring, warped top-down through the old
lattice at a small fixed resolution, finds each card's outline near its old place (tests
of size, place and squareness like those the search puts its candidates to) and refits the
lattice to them: a few milliseconds instead of a search of the whole frame. A camera that
shakes on its stand moves every edge by a pixel or two, which the pixel-by-pixel test
counts as a change; so when the refitted lattice shows every cell as it was when the cells
were last read (both pictures warped top-down, each through its own lattice: the shake
taken out), the reading is kept too, and the pixel-by-pixel test stays held to the picture
read. Whenever following leaves a doubt (too few cards, a row or column with none while the
ring could hide the one that slipped out, more cards turning up in the ring than before, a
lattice that no longer fits, a frame of another size) it searches the whole frame as for a
first frame (``search_grid``). Not where the one doubt is a line left bare (a line cleared,
or a sleeve over it), each such line at the edge having shown a card in every cell before: a
search could find the grid only where the lattice followed lies, or whole cells off it (the
bare line tells it nothing), or not at all, and the lattice followed stands. A search that
finds no grid (a hand over it), or one whole cells off a lattice held with a card in every
cell of each edge line while most of its cards lie as they did, does not replace the lattice
held: the frame has no grid, and the next is followed from it. Where a hand hid too much of
the grid to follow, such a lattice is set aside, and a search after the hand has gone is held
against it the same way.

A hand over the grid only hides cards: their cells are not seen, and the reader looks at
them closely (``vision.visible``) and reads ``?`` where no card shows, as after a search.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from calibration import median

from .candidates import CandidateFinder, Candidates, outlines, quad_areas
from .halves import halved_to
from .lattice import (
    CARD_SIZE,
    EDGE_LINES,
    MIN_SUPPORT,
    RING_PATTERN,
    SNAP,
    TIED,
    GridGeometry,
    GridSearch,
    cell_centres,
    empty_edge_lines,
    ring_points,
    search_grid,
    shape_in_grid,
)
from .plane import apply, convex, fit_model, inverse, jacobian_area

if TYPE_CHECKING:
    from calibration import LensModel, Palette

    from .reader import GridReading

PITCH = 32  # pixels per cell pitch in the top-down view (a card border 2-4 px)
# view pixel (u, v) -> grid units: its centre lies at (u + 0.5) / PITCH - 1.
VIEW_TO_GRID = np.array(
    [[1 / PITCH, 0, 0.5 / PITCH - 1], [0, 1 / PITCH, 0.5 / PITCH - 1], [0, 0, 1]]
)
GRID_TO_VIEW = inverse(VIEW_TO_GRID)
# Cuts of the top-down view, tried in turn (the one that served last goes first) until the
# cards seen before are seen again, or a cut adds none.
TRACK_CUTS = ("local_white", "white", "colour", "outline_white", "local_bright", "outline")
UPRIGHT_FILL = 0.88  # a region filling its upright box this well is a card turned < 4 deg
MIN_FILL = 0.8  # else: region area / its best enclosing rectangle
MAX_RESIDUAL = 0.12  # median distance (cell pitches) of the cards from the refitted lattice
SETTLED = 0.05  # the refit moved no cell centre by more (pitches): no need to snap again
STILL = 8  # a frame is compared with the last one measured, both shrunk this many times:
STILL_STEP = 16  # a pixel changed where some channel moved by more than this (noise: ~4),
STILL_PIXELS = 3  # and with this many changed in the grid or its ring, something moved
# A cell of the top-down view changed where more than this share of it moved by more than
# STILL_STEP beyond what the cell read showed within a pixel (a refit lattice is good to a
# fraction of one), in patches at least SOLID pixels across: a fingertip covers some 1/10
# of a cell, sensor noise and a gem's glint are specks.
CHANGED_SHARE = 1 / 64
SOLID = 3
_NEAR = np.ones((3, 3), np.uint8)  # within a pixel
_SOLID = np.ones((SOLID, SOLID), np.uint8)


class GridTracker:
    """Remembers the last frame's grid; ``locate`` / ``read`` a frame of the same video.

    ``still``, ``tracked`` and ``searched`` count the frames where nothing had moved since
    the lattice was last measured (it is kept, and so are the reader's close looks at
    cells, ``looks``), where it was followed, and where the whole frame was searched;
    ``shaken``, the frames followed that showed the cells as they were last read (the
    reading and the close looks are kept); ``doubt`` says why the last search was needed."""

    def __init__(self) -> None:
        self.geometry: GridGeometry | None = None
        self.still = 0
        self.tracked = 0
        self.shaken = 0
        self.searched = 0
        self.doubt = ""
        self._shape: tuple[int, ...] = ()
        self._best_seen = 0  # most cards seen at once since the last search
        self._ring = -1  # cards on ring points in the first frame followed (-1: none yet)
        self._cuts = list(TRACK_CUTS)
        # The frame the lattice was last measured in, shrunk, and where the grid is in it
        # (after a shake that kept the reading, the one before it: the picture read).
        self._measured: tuple[np.ndarray, np.ndarray] | None = None
        # The reader's close looks at that picture: still good while nothing moves.
        self.looks: dict[tuple[str, int, int], bool] = {}
        # The lattice followed to cards that left a row or column bare: used if a search
        # finds no grid at all, or one whole cells off it (``locate``).
        self._fallback: GridGeometry | None = None
        # The reading of that picture, and the palette it was read with: still good while
        # nothing moves (the cells are the ones read then, bar sensor noise), or while a
        # shaken camera shows them as they were read (``_was_still``: the last frame did).
        self._was_still = False
        self._reading: tuple[GridReading, Palette] | None = None
        # The cells of the picture located last, and of the one read, top-down through
        # their lattices (``_cells_view``).
        self._view: np.ndarray | None = None
        self._read_view: np.ndarray | None = None
        # Every line at the lattice's edge has shown a card in a reading since it was
        # searched for (or first found there): a line empty now was cleared, not reached
        # over past the cards.
        self._anchored = False
        # Which lines at the lattice's edge (``EDGE_LINES``) showed a card in every cell
        # since a search found it where it lies.
        self._full = np.zeros(len(EDGE_LINES), bool)
        # The cells' view when the lattice last showed a card in every edge line (one
        # followed a line off, with a line bare, does not): ``_stands_against``.
        self._sure_view: np.ndarray | None = None
        self._seen_now: np.ndarray | None = None  # set by ``_follow``
        # An anchored lattice and its ``_sure_view``, set aside when a hand hid most of the
        # grid: a search whole cells off it must show its cards elsewhere to be taken.
        self._aside: tuple[GridGeometry, np.ndarray] | None = None

    def reset(self) -> None:
        """Forget the grid: the next frame is searched in full."""
        self.geometry = None
        self._measured = None
        self._view = None
        self._forget_reading()
        self._anchored = False
        self._full[:] = False
        self._sure_view = None
        self._aside = None

    def locate(self, frame: np.ndarray, rows: int = 5, cols: int = 5) -> GridSearch:
        """Where the rows x cols grid is in ``frame``: followed from the last frame when that
        leaves no doubt, else searched for."""
        g = self.geometry
        self._was_still = False
        small = _shrink(frame)
        seen: np.ndarray | None = None
        if g is None:
            self.doubt = "first frame"
        elif (g.rows, g.cols) != (rows, cols) or frame.shape != self._shape:
            self.doubt = "another grid size or frame size"
        elif self._measured is not None and _unchanged(small, *self._measured):
            # The same picture as when the lattice was measured, but for sensor noise: the
            # same lattice, the same card outlines.
            self.still += 1
            self._was_still = True
            return GridSearch(g, anchored=self._anchored)
        else:
            seen = _top_down(frame, g)
            result = self._follow(frame, g, seen)  # sets ``doubt`` when it returns None
            if result is not None:
                followed, self._view, outlined = result
                self.tracked += 1
                self.geometry = followed
                self._full |= _full_lines(followed.seen)
                self._refresh_sure_view(followed.seen)
                if self._read_view is not None and _same_cells(self._view, self._read_view):
                    # The camera shook, the cards lie as they did: what was read of them
                    # and seen close up still holds. The still test stays held to the
                    # picture read: measured against this one, the light could drift twice
                    # as far before the cells are read again.
                    self.shaken += 1
                    self._was_still = True
                else:
                    self._measured = (small, _grid_area(followed, small.shape))
                    self._forget_reading()
                # the card outlines the follow saw, in the frame: a card held over the grid
                # among them (vision.air) as among a search's
                return GridSearch(followed, candidates=_as_regions(g.to_image(outlined)),
                                  anchored=self._anchored)
        kept, self._fallback = self._fallback, None
        view = None  # a fallback is kept only by ``_follow``, from ``seen`` through ``g``
        if kept is not None and seen is not None and g is not None:
            view = _cells_view(_moved_view(seen, g, kept))
        stays = (
            kept is not None and view is not None and g is not None
            and not _moved_a_cell(view, self._view, kept.seen, g.seen)
        )
        # a line left bare at the edge that never showed a card in every cell
        never_full = kept is not None and bool((_full_lines(~kept.seen) & ~self._full).any())
        if stays and not never_full:
            # Every line at the edge left bare showed a card in every cell since the
            # lattice was found (a bare line within it has cards on both sides to hold it):
            # it is no line off, and a search could find the grid only where it lies, or
            # whole cells off (the bare line tells it nothing), or not at all (a hand over
            # that line): the lattice followed stands, and the frame is not searched.
            search = GridSearch(None, BARE_LINE)
        else:
            self.searched += 1
            search = search_grid(frame, rows, cols)
        if (
            stays and kept is not None
            and (search.geometry is None or _whole_cells_off(search.geometry, kept))
        ):
            # A whole row or column taken away (a combination cleared at the edge) leaves a
            # search nothing to tell on which side of the cards left the bare line lies, so
            # it finds no grid (vision.lattice), or, with cards lying in line past the other
            # side (a pile), a grid a line over that takes them in. The lattice followed to
            # the cards left knows where they lay: one that slipped by a cell would have
            # left new cards in the ring around it, or shown each card where its neighbour
            # was. It is kept only where the lattice held a card in every edge line.
            self.geometry = kept
            self._forget_reading()
            self._view = view
            if search.geometry is not None and never_full:
                # The line left bare never showed a card in every cell: the lattice may
                # have been anchored a line off from the start (a sparse line at one edge,
                # piles in line past the other, took the wrong five), and the search be
                # right. Neither is told from the other: no grid, the lattice kept to
                # follow (the frames are searched again until one side settles it).
                self._measured = None
                self.doubt = TIED
                return GridSearch(None, TIED)
            self.tracked += 1
            self._full |= _full_lines(kept.seen)
            self._refresh_sure_view(kept.seen)
            self._measured = (small, _grid_area(kept, small.shape))
            return GridSearch(kept, anchored=self._anchored)
        found = search.geometry
        if seen is not None and g is not None and self._saw_a_line(g) and (
            found is None or self._stands_against(found, seen, g)
        ):
            # Following failed (a hand over the grid) but saw a line's worth of cards,
            # and the search found no grid, or one whole cells off the lattice held while
            # most of the cards seen lie as they did: the lattice held stays, to follow in
            # the frames after, anchored as it was. A search is all a hand's frame has,
            # and it cannot tell a sparse line at one edge from piles in line past the
            # other. (A table left bare, the grid lifted to be laid elsewhere, keeps
            # nothing.)
            self._measured = None
            self._forget_reading()
            if found is None:
                return search
            self.doubt = MOVED_WHOLE
            return GridSearch(None, MOVED_WHOLE)
        if seen is not None and g is not None and not self._saw_a_line(g):
            # A hand over most of the grid (or the grid lifted away): too few cards seen to
            # follow by. A lattice anchored with a card in every edge line is set aside:
            # a search after the hand has gone, with a line thinned at one edge and piles
            # in line past the other, may find the grid a line over.
            firm = self._firm_view()
            self._aside = None if firm is None else (g, firm)
        aside = self._aside if frame.shape == self._shape else None
        self._aside = aside if found is None else None
        if aside is not None and found is not None and _whole_cells_off(found, aside[0]) \
                and _still_in_place(frame, found, *aside):
            # The cards the search found lie as they did through the lattice set aside:
            # it stands, to follow in the frames after (a grid relaid a line over, or a
            # camera bumped, shows each card where its neighbour was).
            self.geometry, self._sure_view = aside
            self._view = self._sure_view
            self._anchored, self._full[:] = True, True
            self._best_seen = int(aside[0].seen.sum())
            self._measured = None
            self._forget_reading()
            self.doubt = MOVED_WHOLE
            return GridSearch(None, MOVED_WHOLE)
        if g is None and aside is not None and found is not None and _same_place(found, aside[0]) \
                and _looks_as_it_did(frame, found, *aside):
            # found where it was set aside, its cards as they lay: the frames before anchored
            # it (another grid laid there, or this one laid a line over onto piles, was not)
            g, self._anchored, self._full[:] = aside[0], True, True
        # found where the grid was held: the frames before anchored this very lattice
        same = found is not None and g is not None and _same_place(found, g)
        self._anchored = self._anchored and same
        if not same:
            self._full[:] = False
        if found is not None:
            self._full |= _full_lines(found.seen)
        g = self.geometry = found
        self._shape = frame.shape
        self._best_seen = 0 if g is None else int(g.seen.sum())
        self._ring = -1
        self._forget_reading()
        self._view = None if g is None else _cells_view(_top_down(frame, g))
        self._sure_view = self._view  # a search's grid has a card in every edge line
        self._measured = None if g is None else (small, _grid_area(g, small.shape))
        return replace(search, anchored=True) if self._anchored else search

    def _refresh_sure_view(self, cards: np.ndarray) -> None:
        """After a follow (no bump): the cells' view is sure where the lattice shows a card
        in every edge line; else, once the lattice was anchored with every edge line full,
        its cells showing a card (``cards``) are, one by one: play changes the cards, and a
        view of them as they lay before a line was cleared goes stale."""
        assert self._view is not None
        if not _full_lines(~cards).any():
            self._sure_view = self._view
        elif (firm := self._firm_view()) is not None:
            self._sure_view = _with_cells(firm, self._view, cards)

    def _firm_view(self) -> np.ndarray | None:
        """``_sure_view`` where the lattice held is anchored and every edge line of it was
        once full (what the in-place tests trust), else None."""
        return self._sure_view if self._anchored and self._full.all() else None

    def _saw_a_line(self, g: GridGeometry) -> bool:
        """Did the last follow see a line's worth of cards near their cells?"""
        return self._seen_now is not None and int(self._seen_now.sum()) >= min(g.rows, g.cols)

    def _stands_against(self, found: GridGeometry, seen: np.ndarray, g: GridGeometry) -> bool:
        """Does the lattice held, ``g``, stand against a search's ``found`` whole cells off
        it? Where ``g`` showed a card in every cell of each edge line, and most of the
        cards the follow saw show in ``seen`` (the frame top-down through ``g``) as they
        did when it last showed a card in every edge line, light matched: no bump, no grid
        relaid. (Cells a hand hides are not asked.)"""
        view = self._firm_view()
        assert self._seen_now is not None  # ``_saw_a_line`` asked first
        return bool(
            view is not None and _whole_cells_off(found, g)
            and _in_place_rather_than(_light_matched(_cells_view(seen), view), view,
                                      g.seen & self._seen_now, _cells_off(found, g))
        )

    def _forget_reading(self) -> None:
        """Another picture: what was read and seen close up of the last one is gone."""
        self._reading = None
        self._read_view = None
        self.looks = {}

    def kept_reading(self, palette: Palette) -> GridReading | None:
        """The reading of the cells as they were last read, when the last frame located
        showed them so still (the camera may have shaken: the reading takes the lattice
        located now) and the palette is the same."""
        if not self._was_still or self._reading is None or self._reading[1] is not palette:
            return None
        kept = _copy(self._reading[0])
        g = self.geometry
        if g is None or kept.geometry is g:
            return kept
        return replace(kept, corners=g.corners.copy(), geometry=g)

    def keep_reading(self, reading: GridReading, palette: Palette) -> None:
        """Remember the reading of the frame just located (see ``kept_reading``), and
        which lines at the grid's edge it showed a card in, in every cell or in one."""
        self._reading = (_copy(reading), palette)
        self._read_view = self._view
        if reading.cells is not None:
            no_card = np.array([[ch in ".?" for ch in row] for row in reading.cells])
            self._full |= _full_lines(~no_card)
            if not self._anchored:
                self._anchored = not empty_edge_lines(no_card).any()

    def read(
        self,
        frame: np.ndarray,
        palette: Palette,
        rows: int = 5,
        cols: int = 5,
        lens: LensModel | None = None,
    ) -> GridReading:
        """``read_grid`` for the next frame of a video."""
        from .reader import read_grid  # the reader takes a tracker: import it late

        return read_grid(frame, palette, rows, cols, lens, tracker=self)

    def _follow(self, frame: np.ndarray, g: GridGeometry, seen: np.ndarray
                ) -> tuple[GridGeometry, np.ndarray, np.ndarray] | None:
        """The lattice refitted to the cards near their cells in ``seen``, ``frame``
        top-down through ``g`` (:func:`_top_down`), its cells' view through it
        (:func:`_cells_view`) and every card-like outline seen ((N, 4, 2), ``g``'s grid
        units); or None (``doubt`` says why)."""
        finder = CandidateFinder(seen, 1)
        in_view = _ring_in_view(g, frame.shape)
        found: list[np.ndarray] = []
        cells: dict[tuple[int, int], int] = {}
        ring: set[tuple[int, int]] = set()
        for used, name in enumerate(list(self._cuts)):
            boxes = _card_boxes(finder.cut(name)[0], g.card_size)
            if len(boxes):
                found.append(apply(VIEW_TO_GRID, boxes))
            before = len(cells)
            if found:
                cells, ring = _assign(np.concatenate(found), g)
            # All cards seen before, bar one (a card taken away, a glare spot: the reader
            # takes a close look at a cell not seen here).
            if len(cells) >= self._best_seen - 1:
                if used:  # this cut finished the job: try it first next time
                    self._cuts.remove(name)
                    self._cuts.insert(0, name)
                break
            # Nothing new, and enough to go on: the cards left are hidden.
            if used and len(cells) == before and not _doubt(cells, ring, g, in_view):
                break
        # The cards seen now, near their cells: a search after a failed follow asks them.
        self._seen_now = np.zeros((g.rows, g.cols), bool)
        self._seen_now[tuple(np.array(list(cells), int).reshape(-1, 2).T)] = True
        # The ring's cards are known from the first frame followed (as few as a search
        # allows); more than a pile set down means the lattice slipped by a cell.
        spots = 2 * (g.rows + g.cols + 2)
        most = max(2, math.ceil(RING_PATTERN * spots) - 1) if self._ring < 0 else self._ring + 1
        why = _doubt(cells, ring, g, in_view)
        if not why and len(ring) > most and len(ring - self._known_ring(seen, cells, g)) > most:
            # The first follow may have seen fewer of the piles than lay there (it stops at
            # the first cut that shows the grid's cards); a pile that looks as it did in the
            # picture before is none of the grid's cards pushed out by a slip.
            why = f"{len(ring)} cards just around the grid"
        # A row or column bare, nothing new in the ring: a line cleared, if the lattice held
        # a card in every edge line in the frames before (else it may have been followed
        # from a search that found a line's worth of cards less, and be a line off itself).
        # Cards in the ring that lay there before (a pile in line with the grid) are no
        # sign of a slip, bar beside a bare line: there they would be the grid's own.
        known = self._known_ring(seen, cells, g) if self._anchored and why == BARE_LINE else None
        bare = known is not None and _only_bare(why, ring, known)
        followed = why if why and not bare else _refit(np.concatenate(found), cells, g,
                                                       frame.shape, in_view,
                                                       known if bare else None)
        if bare and not isinstance(followed, str):
            self._fallback, followed = followed, why
        if isinstance(followed, str):
            self.doubt = followed
            return None
        view = _cells_view(_moved_view(seen, g, followed))
        if (
            self._view is not None
            # most cards in place (cheaply told: each cell's mean colour) is no bump
            and not _mostly_in_place(view, self._view, followed.seen & g.seen)
            and _moved_a_cell(view, self._view, followed.seen, g.seen)
        ):
            # The camera was bumped a whole cell: the line it left bare took in cards
            # lying in line beside the grid (piles) or stayed bare, the line it pushed out
            # lies in the ring (where a card cut by the view's edge shows no outline) or
            # out of the frame; through the lattice followed, each card shows what its
            # neighbour did.
            self.doubt = "each card shows what its neighbour showed: the camera moved a cell"
            return None
        if self._ring < 0:
            self._ring = len(ring)
        self._best_seen = max(self._best_seen, int(followed.seen.sum()))
        return followed, view, np.concatenate(found)

    def _known_ring(self, seen: np.ndarray, cells: dict[tuple[int, int], int],
                    g: GridGeometry) -> set[tuple[int, int]]:
        """The ring cells (just around the grid) that look in ``seen`` as they did in the
        picture located last, except those beside a row or column of ``g`` with no card in
        ``cells``."""
        if self._view is None:
            return set()
        view = _light_matched(_cells_view(seen), self._view)
        same = ~_changed_all(view, self._view)  # (rows + 2, cols + 2): the ring around
        rows, cols = g.rows, g.cols
        beside = np.zeros_like(same)
        if not any(r == 0 for r, _ in cells):
            beside[0] = True
        if not any(r == rows - 1 for r, _ in cells):
            beside[-1] = True
        if not any(c == 0 for _, c in cells):
            beside[:, 0] = True
        if not any(c == cols - 1 for _, c in cells):
            beside[:, -1] = True
        same[1:-1, 1:-1] = False
        return {(r - 1, c - 1) for r, c in np.argwhere(same & ~beside).tolist()}


def _full_lines(seen: np.ndarray) -> np.ndarray:
    """(4,) bool per ``EDGE_LINES``: the line is True in every cell of ``seen`` (a card
    in each; of ``~seen``, none)."""
    return np.array([seen[line].all() for line in EDGE_LINES])


MOVED_WHOLE = ("the cards seen fit the grid a row or column away from where it lay:"
               " waiting for a clearer view")

SLIP = 0.25  # cell pitches: two lattices this near lie in one place


def _same_place(found: GridGeometry, held: GridGeometry) -> bool:
    """Does the lattice ``found`` lie where ``held`` does (within ``SLIP`` at ``held``'s
    cell centres, in ``found``'s grid units)?"""
    return bool(np.abs(_held_in(found, held)).max() < SLIP)


def _whole_cells_off(found: GridGeometry, held: GridGeometry) -> bool:
    """Does the lattice ``found`` lie where ``held`` does moved by whole cells, at least
    one (within ``SLIP`` at ``held``'s cell centres, in ``found``'s grid units)?"""
    moved = _held_in(found, held)
    step = np.round(np.median(moved, axis=0))
    return bool(step.any() and np.abs(moved - step).max() < SLIP)


def _cells_off(found: GridGeometry, held: GridGeometry) -> tuple[int, int]:
    """(rows, cols): the cell of ``held`` that ``found``'s cell (0, 0) lies on, for a
    lattice ``found`` whole cells off ``held`` (:func:`_whole_cells_off`)."""
    dc, dr = np.round(np.median(_held_in(found, held), axis=0))
    return -int(dr), -int(dc)


def _held_in(found: GridGeometry, held: GridGeometry) -> np.ndarray:
    """(rows * cols, 2) how far each of ``held``'s cell centres lies from the same cell's
    centre of ``found``, in ``found``'s grid units."""
    centres = cell_centres(held.rows, held.cols)
    return apply(inverse(found.homography), held.to_image(centres)) - centres


def _light_matched(view: np.ndarray, before: np.ndarray) -> np.ndarray:
    """``view`` with each channel scaled by the median of ``before`` over ``view``, pixel
    by pixel (both :func:`_cells_view`): a light turned down or up, or its colour changed,
    leaves a card that lay still looking as it did, where a card moved or taken does not
    (it moves the median little, a few cells of many)."""
    now = view.astype(np.float32)
    then = before.reshape(-1, 3).astype(np.float32) + 1.0
    gain = np.median(then / (now.reshape(-1, 3) + 1.0), axis=0)
    return cv2.convertScaleAbs(now * gain.astype(np.float32))


def _mostly_in_place(view: np.ndarray, before: np.ndarray, cells: np.ndarray) -> bool:
    """Does each of most ``cells`` (rows, cols bool, a line's worth at least) of ``view``
    show about the mean colour it showed ``before`` (both :func:`_cells_view`)? A hand or a
    card taken changes a few cells; a bump a cell over changes all but those whose
    neighbour looked alike."""
    n = np.count_nonzero(cells)
    if n < min(cells.shape):
        return False
    inner = (slice(1, -1), slice(1, -1))
    same = np.abs(_cell_means(view)[inner] - _cell_means(before)[inner]).max(axis=2) <= STILL_STEP
    return bool(2 * np.count_nonzero(same & cells) > n)


def _cell_means(view: np.ndarray) -> np.ndarray:
    """(rows + 2, cols + 2, 3) int16: the mean colour of each cell of a :func:`_cells_view`,
    the ring's too."""
    size = (view.shape[1] // PITCH, view.shape[0] // PITCH)
    return cv2.resize(view, size, interpolation=cv2.INTER_AREA).astype(np.int16)


_ONE_CELL = ((1, 0), (-1, 0), (0, 1), (0, -1))  # (rows, cols): a cell down, up, right, left


def _moved_cells(cells: np.ndarray, dr: int, dc: int) -> np.ndarray:
    """``cells`` (rows, cols bool) moved by (dr, dc): cell (r, c) to (r + dr, c + dc), the
    cells it leaves False.

    >>> _moved_cells(np.eye(3, dtype=bool), 1, 0).astype(int).tolist()
    [[0, 0, 0], [1, 0, 0], [0, 1, 0]]
    """
    rows, cols = cells.shape
    out = np.zeros_like(cells)
    out[max(dr, 0):rows + min(dr, 0), max(dc, 0):cols + min(dc, 0)] = cells[
        max(-dr, 0):rows + min(-dr, 0), max(-dc, 0):cols + min(-dc, 0)]
    return out


def _with_cells(view: np.ndarray, now: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """``view`` with the ``cells`` (rows, cols bool) of ``now`` (both :func:`_cells_view`)."""
    pick = np.zeros((cells.shape[0] + 2, cells.shape[1] + 2), bool)
    pick[1:-1, 1:-1] = cells
    mask = np.repeat(np.repeat(pick, PITCH, axis=0), PITCH, axis=1)
    return np.where(mask[..., None], now, view)


def _still_in_place(frame: np.ndarray, found: GridGeometry, g: GridGeometry,
                    before: np.ndarray) -> bool:
    """Do the cards the search ``found`` (whole cells off ``g``) outlined lie, through
    ``g``, nearer as they did in ``before`` (``g``'s cells' view then) than moved by the
    cells between the two lattices (:func:`_in_place_rather_than`)?"""
    dr, dc = _cells_off(found, g)
    outlined = _moved_cells(found.seen, dr, dc)  # found's cell (r, c) is g's (r + dr, c + dc)
    view = _light_matched(_cells_view(_top_down(frame, g)), before)
    return _in_place_rather_than(view, before, outlined & g.seen, (dr, dc))


def _looks_as_it_did(frame: np.ndarray, found: GridGeometry, g: GridGeometry,
                     before: np.ndarray) -> bool:
    """Do the cards the search ``found`` (where ``g`` lies) outlined show, through ``g``,
    nearer the mean colour they showed in ``before`` (``g``'s cells' view then), light
    matched, than the one a neighbour a cell over showed, whichever way
    (:func:`_in_place_rather_than`)? Play may have changed a few under the hand, a light
    turned up clipped them all; a grid laid a line over shows its neighbours' cards."""
    view = _light_matched(_cells_view(_top_down(frame, g)), before)
    cells = found.seen & g.seen
    return all(_in_place_rather_than(view, before, cells, off) for off in _ONE_CELL)


def _in_place_rather_than(view: np.ndarray, before: np.ndarray, cells: np.ndarray,
                          off: tuple[int, int]) -> bool:
    """Do most ``cells`` (rows, cols bool, a line's worth at least, each with a cell
    ``off`` (rows, cols) away in the view) of ``view`` show a mean colour near the one they
    showed ``before``, and far nearer it than the one the cell ``off`` away showed (both
    :func:`_cells_view`)? A light turned up clips colours past the threshold that tells
    a still picture, but leaves a card far nearer itself than its neighbour; the grid
    laid or the camera bumped by ``off`` shows each card where its neighbour was."""
    rows, cols = cells.shape
    now, then = _cell_means(view), _cell_means(before)
    dr, dc = off
    here = np.abs(now - then)[1:-1, 1:-1].max(axis=2)
    # moved by ``off``, the card that showed in cell (r, c) shows in (r + dr, c + dc); a
    # cell a line past the grid's edge is the ring's, past that the view has nothing and
    # the cell cannot tell
    shifted = np.zeros((rows, cols, 3), np.int16)
    told = np.zeros((rows, cols), bool)
    r0, r1 = max(0, dr - 1), min(rows, rows + dr + 1)
    c0, c1 = max(0, dc - 1), min(cols, cols + dc + 1)
    shifted[r0:r1, c0:c1] = then[r0 + 1 - dr:r1 + 1 - dr, c0 + 1 - dc:c1 + 1 - dc]
    told[r0:r1, c0:c1] = True
    asked = cells & told
    n = np.count_nonzero(asked)
    if n < min(cells.shape):
        return False
    there = np.abs(now[1:-1, 1:-1] - shifted).max(axis=2)
    # Far nearer itself, and near in colour: new cards laid there look like neither, and
    # one of the two is nearer by chance (a light turned up moves a card's mean colour by
    # some 20, a card of another colour by some 40 or more).
    like = (2 * here < there) & (here <= 2 * STILL_STEP)
    return bool(2 * np.count_nonzero(like & asked) > n)


def _moved_a_cell(view: np.ndarray, before: np.ndarray | None, seen: np.ndarray,
                  was: np.ndarray) -> bool:
    """Do most cards ``seen`` in ``view`` show what the picture ``before`` showed a cell
    away, where it showed cards (``was``), and more of them than show what it showed in
    their own cells? Then the lattice slipped: the camera was bumped. Only cells seen in
    both pictures count, a line's worth at least (a hand that cleared a line hides others);
    cells beside a line cleared show its cards' edges gone, so in place need not mean
    unchanged. (Where the light changed, few cards show what they showed either way, and
    which few is chance.)"""
    if before is None or view.shape != before.shape:
        return False
    here = _alike_share(view, before, seen & was)
    for dr, dc in _ONE_CELL:
        move = np.array([[1, 0, dc * PITCH], [0, 1, dr * PITCH]], np.float32)
        moved = cv2.warpAffine(before, move, before.shape[1::-1],
                               borderMode=cv2.BORDER_REPLICATE)
        there = _alike_share(view, moved, seen & _moved_cells(was, dr, dc))
        if there is not None and 2 * there > 1 and (here is None or there > here):
            return True
    return False


def _copy(reading: GridReading) -> GridReading:
    """A reading of its own for each frame: a caller may keep or change its arrays."""
    corners = None if reading.corners is None else reading.corners.copy()
    return replace(reading, corners=corners, confidence=reading.confidence.copy())


def _grid_area(g: GridGeometry, shape: tuple[int, ...]) -> np.ndarray:
    """(H, W) bool for an image of ``shape`` shrunk ``STILL`` times from the frame: the
    grid and the ring of cells around it."""
    outer = np.array([[-1, -1], [g.cols + 1, -1], [g.cols + 1, g.rows + 1], [-1, g.rows + 1]])
    corners = (g.to_image(outer.astype(float)) + 0.5) / STILL - 0.5
    area = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(area, np.round(corners).astype(np.int32), 1)
    return area.astype(bool)


def _shrink(frame: np.ndarray) -> np.ndarray:
    """The frame shrunk ``STILL`` times by halvings, each averaging its pixels: a real
    sensor's noise (several levels in dim light) averages away, a card moved does not."""
    small = frame
    for _ in range(STILL.bit_length() - 1):
        if min(small.shape[:2]) < 2:
            break
        # bilinear at exactly half the size: each new pixel is the mean of a 2 x 2 block
        half = (small.shape[1] // 2, small.shape[0] // 2)
        small = cv2.resize(small, half, interpolation=cv2.INTER_LINEAR)
    return small


def _unchanged(small: np.ndarray, before: np.ndarray, area: np.ndarray) -> bool:
    """Does the grid's area of the shrunk frame ``small`` look as it did ``before``? A
    fingertip on a card's edge changes a few pixels: that is a change."""
    changed = _beyond(cv2.absdiff(small, before), STILL_STEP)
    return bool(area.any() and np.count_nonzero(changed & area) < STILL_PIXELS)


def _beyond(diff: np.ndarray, step: int) -> np.ndarray:
    """(H, W) bool: where some channel of ``diff`` (H, W, 3 uint8) is above ``step``
    (``(diff > step).any(axis=2)``, at a fraction of numpy's cost over a channel axis)."""
    return cv2.inRange(diff, (0, 0, 0), (step, step, step)) == 0


def _cells_view(top_down: np.ndarray) -> np.ndarray:
    """A :func:`_top_down` view lightly blurred: what :func:`_same_cells` compares."""
    return cv2.GaussianBlur(top_down, (3, 3), 0)


def _moved_view(seen: np.ndarray, g: GridGeometry, moved: GridGeometry) -> np.ndarray:
    """The top-down view through the lattice ``moved`` from ``seen``, the same frame's view
    through ``g``: the two lattices lie within a fraction of a cell, so the small view
    holds what the frame would give, at a fraction of a frame warp's cost."""
    to_seen = GRID_TO_VIEW @ inverse(g.homography) @ moved.homography @ VIEW_TO_GRID
    return cv2.warpPerspective(
        seen, to_seen, seen.shape[1::-1],
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE,
    )


def _same_cells(view: np.ndarray, before: np.ndarray) -> bool:
    """Does every cell of ``view`` show what it did ``before`` (both :func:`_cells_view`)?"""
    return view.shape == before.shape and not _changed_cells(view, before).any()


def _alike_share(view: np.ndarray, before: np.ndarray, cells: np.ndarray) -> float | None:
    """The share of ``cells`` (rows, cols bool) that show in ``view`` what they did
    ``before`` (:func:`_changed_cells`); None for fewer than a line's worth of cells."""
    n = np.count_nonzero(cells)
    if n < min(cells.shape):
        return None
    return 1.0 - np.count_nonzero(_changed_cells(view, before)[cells]) / n


def _changed_cells(view: np.ndarray, before: np.ndarray) -> np.ndarray:
    """(rows, cols) bool: the cells of ``view`` that do not show what they did ``before``
    (both :func:`_cells_view`, of one shape; see :func:`_changed_all`)."""
    # the ring round the grid only lends the cells at its edge their neighbours
    return _changed_all(view, before)[1:-1, 1:-1]


def _changed_all(view: np.ndarray, before: np.ndarray) -> np.ndarray:
    """(rows + 2, cols + 2) bool: the cells of ``view`` and of the ring around them that
    do not show what they did ``before`` (both :func:`_cells_view`, of one shape). A pixel
    changed where some channel lies more than ``STILL_STEP`` outside what ``before``
    showed within a pixel of it (a lattice refit to the cards is good to a fraction of
    one): a shake's residue at an edge is within; a card taken, a hand or a light turned
    up is not."""
    high = cv2.dilate(before, _NEAR)
    low = cv2.erode(before, _NEAR)
    # saturating uint8 subtractions: how far above the highest, below the lowest
    out = cv2.max(cv2.subtract(view, high), cv2.subtract(low, view))
    changed = _beyond(out, STILL_STEP).astype(np.uint8)
    solid = cv2.erode(changed, _SOLID)
    rows, cols = solid.shape[0] // PITCH, solid.shape[1] // PITCH
    per_cell = solid.reshape(rows, PITCH, cols, PITCH).sum(axis=(1, 3))
    return np.asarray(per_cell > CHANGED_SHARE * PITCH * PITCH)


def _top_down(frame: np.ndarray, g: GridGeometry) -> np.ndarray:
    """The grid and one cell pitch around it, top-down at ``PITCH`` px per pitch, through
    the lattice ``g`` (``VIEW_TO_GRID`` maps its pixels to grid units)."""
    centre = np.array([[g.cols / 2, g.rows / 2]])
    pitch = math.sqrt(float(jacobian_area(g.homography, centre)[0]))
    # Warping skips pixels when the view is much coarser than the frame: halve it first.
    img, to_img = halved_to(frame, g.homography, pitch, 4 * PITCH)
    return cv2.warpPerspective(
        img,
        to_img @ VIEW_TO_GRID,
        ((g.cols + 2) * PITCH, (g.rows + 2) * PITCH),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def _as_regions(boxes: np.ndarray) -> Candidates:
    """Card-like outlines (N, 4, 2 frame pixels) as a search's regions (vision.air reads
    those, through a search's ``to_frame``: here none is needed)."""
    return Candidates(boxes.mean(axis=1), quad_areas(boxes), boxes, np.ones(len(boxes), int))


def _card_boxes(cut: np.ndarray, card_size: tuple[float, float]) -> np.ndarray:
    """(N, 4, 2) rectangles (TL TR BR BL) of the regions of ``cut``, a top-down view, that
    could be cards of ``card_size`` (grid units): about that size, nearly filling their
    rectangle, wholly inside the view (a region cut off by its edge can be straight there
    without being a card)."""
    w, h = np.array(card_size) * PITCH
    contours, keep, areas, bounds = outlines(cut, 0.6 * min(w, h), 1.6 * w * h)
    lo, hi = bounds[:, 0], bounds[:, 1]
    span = hi - lo  # between outline pixel centres, as the areas are
    ok = (areas >= 0.4 * w * h) & np.all(lo > 1, axis=1)
    ok &= (hi[:, 0] < cut.shape[1] - 2) & (hi[:, 1] < cut.shape[0] - 2)
    # Nearly all cards stand square to the view: their upright box is their outline.
    upright = ok & (areas >= UPRIGHT_FILL * span[:, 0] * span[:, 1])
    x0, y0, x1, y1 = lo[upright, 0], lo[upright, 1], hi[upright, 0], hi[upright, 1]
    boxes = [np.stack([x0, y0, x1, y0, x1, y1, x0, y1], axis=1).reshape(-1, 4, 2)]
    for k, a in zip(keep[ok & ~upright].tolist(), areas[ok & ~upright].tolist(), strict=True):
        rect = cv2.minAreaRect(contours[k])
        if a >= MIN_FILL * rect[1][0] * rect[1][1]:
            boxes.append(cv2.boxPoints(rect)[None].astype(np.float64))
    return np.concatenate(boxes)


def _assign(
    grid: np.ndarray, g: GridGeometry
) -> tuple[dict[tuple[int, int], int], set[tuple[int, int]]]:
    """Which box (N, 4, 2 in grid units) shows the card of each of ``g``'s cells, one per
    cell, and which ring cells (just around the grid) show a card-like box too."""
    # Elementwise steps over the two axes, not numpy's reductions along them: this runs
    # after every cut of every frame followed, and a reduction costs numpy several times more.
    centre = grid.mean(axis=1) - 0.5
    near = np.round(centre)
    miss = np.abs(centre - near)
    off = np.maximum(miss[:, 0], miss[:, 1])
    size, square = shape_in_grid(grid)
    ratio = size / np.array(g.card_size)
    small, big = CARD_SIZE
    sized = (ratio > small) & (ratio < big) & (size < 1.05)
    ok = np.flatnonzero(sized[:, 0] & sized[:, 1] & square & (off < SNAP))
    log_ratio = np.abs(np.log(ratio[ok]))
    cost = off[ok] + 0.3 * (log_ratio[:, 0] + log_ratio[:, 1])
    # each box's cell, as (col, row), in order of cost
    order = np.argsort(cost, kind="stable")
    cells: dict[tuple[int, int], int] = {}
    ring: set[tuple[int, int]] = set()
    for i, (c, r) in zip(ok[order].tolist(), near[ok[order]].astype(int).tolist(), strict=True):
        if 0 <= r < g.rows and 0 <= c < g.cols:
            cells.setdefault((r, c), i)
        elif -1 <= r <= g.rows and -1 <= c <= g.cols:
            ring.add((r, c))
    return cells, ring


BARE_LINE = "a row or column shows no card"


def _doubt(
    cells: dict[tuple[int, int], int], ring: set[tuple[int, int]], g: GridGeometry, in_view: bool
) -> str:
    """Why cards seen in ``cells`` (and in ``ring`` cells around the grid) are not enough
    to follow ``g`` by, or "". ``in_view``: the whole ring lies in the frame."""
    need = max(min(4, g.rows * g.cols), math.ceil(MIN_SUPPORT * g.rows * g.cols))
    if len(cells) < need:
        return f"only {len(cells)} cards near their cells"
    bare = len({r for r, _ in cells}) < g.rows or len({c for _, c in cells}) < g.cols
    # A lattice slipped by a whole cell leaves a row or column bare and pushes the one at
    # the other side into the ring. A hand can hide a whole row, but not that one as well.
    if bare and (ring or not in_view):
        return BARE_LINE
    return ""


def _only_bare(why: str, ring: set[tuple[int, int]], known: set[tuple[int, int]]) -> bool:
    """The doubt is a row or column with no card, and the ring round the grid holds none
    but in ``known`` cells."""
    return why == BARE_LINE and ring <= known


def _ring_in_view(g: GridGeometry, shape: tuple[int, ...]) -> bool:
    """Would a card in every cell of the ring around the grid lie wholly in the frame?"""
    w, h = g.card_size
    corner = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    quads = g.to_image(ring_points(g.rows, g.cols)[:, None, :] + corner)
    fh, fw = shape[:2]
    return bool(np.all((quads >= 0) & (quads < [fw - 1, fh - 1])))


def _refit(
    grid: np.ndarray,
    cells: dict[tuple[int, int], int],
    g: GridGeometry,
    shape: tuple[int, ...],
    in_view: bool,
    known: set[tuple[int, int]] | None = None,
) -> GridGeometry | str:
    """The lattice refitted to the card boxes ``grid`` (N, 4, 2, in ``g``'s grid units)
    that show the cards of ``cells``; or the doubt that stops it. ``known``: ring cells; a
    row or column with no card, and no card in the ring but in these, is no doubt (the
    caller keeps such a lattice)."""
    rows, cols = g.rows, g.cols
    centres = cell_centres(rows, cols)
    to_new = np.eye(3)  # g's grid units -> the refitted lattice's
    model = g.homography
    for _ in range(2):
        keys = np.array(list(cells), int)
        # The refit maps each cell's centre to where its card's centre is in the frame.
        refit = fit_model(
            keys[:, ::-1] + 0.5, apply(g.homography, grid.mean(axis=1))[list(cells.values())]
        )
        if refit is None:
            return "lattice fit is degenerate"
        model = refit / refit[2, 2]
        to_new = inverse(model) @ g.homography
        moved = np.abs(apply(to_new, centres) - centres).max()
        if moved < SETTLED:
            break
        # The camera moved: a card further off its old place may snap to the moved lattice.
        cells, ring = _assign(apply(to_new, grid), g)
        why = _doubt(cells, ring, g, in_view)
        if why and not (known is not None and _only_bare(why, ring, known)):
            return why
    new = apply(to_new, grid[list(cells.values())])
    keys = np.array(list(cells), int)
    res = np.hypot(*(new.mean(axis=1) - (keys[:, ::-1] + 0.5)).T)
    residual = float(median(res))
    if residual > MAX_RESIDUAL:
        return "the cards no longer fit a lattice"
    h, w = shape[:2]
    pts = apply(model, centres)
    if ((pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)).mean() < 0.75:
        return "the grid runs out of the frame"
    seen = np.zeros((rows, cols), bool)
    seen[keys[:, 0], keys[:, 1]] = True
    # A card not seen now (a glare spot, a hand) most likely lies where it lay before.
    centres = apply(to_new, g.card_centres)
    centres[keys[:, 0], keys[:, 1]] = new.mean(axis=1)
    size, _ = shape_in_grid(new)
    fw, fh = (float(min(1.0, v)) for v in median(size, axis=0))
    x0, x1 = 0.5 - fw / 2, cols - 0.5 + fw / 2
    y0, y1 = 0.5 - fh / 2, rows - 0.5 + fh / 2
    corners = apply(model, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
    if not convex(corners):
        return "lattice fit is degenerate"
    return GridGeometry(rows, cols, corners, model, (fw, fh), seen, centres, residual)
