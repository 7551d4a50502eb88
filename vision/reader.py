"""Frame in, ``GridReading`` out: find the grid, cut out its cells, read them with a palette.

The palette (``calibration``) says which class each cell's colours fit and how sure it is.
Vision adds what only the geometry knows: a cell whose card outline cannot be found (a
hand or arm over it, something lying on it) or whose card is partly out of the frame is
read ``?`` whatever its colours say, so a hand is never read as a confident gem.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from calibration import reading_step
from calibration.adapt import ReadFrom

from .air import cards_in_the_air
from .cells import (
    PATCH_SIZE,
    cut_by_the_edge,
    extract_patches,
    extract_points,
    extract_table_sides,
    inside_frame,
    squares_in_frame,
)
from .halves import one_frame
from .lattice import (
    EDGE_LINES,
    GridGeometry,
    GridSearch,
    empty_edge_lines,
    ring_points,
    search_grid,
    too_small,
)
from .visible import (
    TableLook,
    bare_inside,
    card_in_cell,
    cards_in_view,
    edges_in_cell,
    like_table,
    outlines_in_view,
)

if TYPE_CHECKING:
    from calibration import LensModel, Palette

    from .tracker import GridTracker

UNSURE = "?"
EMPTY = "."
RING_LOOKS = 8  # cells of the ring round the grid looked at to tell a busy cloth


@dataclass(frozen=True, eq=False)
class GridReading:
    """What one frame shows.

    ``cells``: one string per row (class letters, ``.`` empty, ``?`` unsure), or None when
    no grid was found (``reason`` says why). ``confidence``: (rows, cols) floats 0..1
    (zeros without a grid). ``corners``: TL TR BR BL of the grid in frame pixels, or None.
    ``features``: each cell's colour features in reading order (rows * cols, F: the
    palette's, ``CellReads.features``), what a palette learns from; None without a grid.
    ``guesses``: ``cells`` with each card read ``?`` whose outline shows (a card the colours
    leave in doubt, not a hand over a cell) as the class it is likeliest to be; ``?`` left
    where nothing tells; None without a grid. ``read_from``: what the palette read the
    cells from (colours learned are checked on it), None without a grid.
    """

    rows: int
    cols: int
    corners: np.ndarray | None
    cells: tuple[str, ...] | None
    confidence: np.ndarray
    reason: str = ""
    geometry: GridGeometry | None = field(default=None, repr=False)
    features: np.ndarray | None = field(default=None, repr=False)
    guesses: tuple[str, ...] | None = field(default=None, repr=False)
    read_from: ReadFrom | None = field(default=None, repr=False)

    @property
    def found(self) -> bool:
        return self.cells is not None

    @property
    def unsure(self) -> int:
        """How many cells read ``?`` (all of them when no grid was found)."""
        if self.cells is None:
            return self.rows * self.cols
        return sum(row.count(UNSURE) for row in self.cells)

    def to_json(self) -> dict[str, Any]:
        """The ``companion detect --json`` object (without ``image``)."""
        out: dict[str, Any] = {"rows": self.rows, "cols": self.cols}
        out["corners"] = (
            None
            if self.corners is None
            else [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]
        )
        out["cells"] = None if self.cells is None else list(self.cells)
        out["confidence"] = [[round(float(v), 3) for v in row] for row in self.confidence]
        if self.cells is None:
            out["reason"] = self.reason
        return out

    def __repr__(self) -> str:
        if self.cells is None:
            return f"<GridReading {self.rows}x{self.cols} none: {self.reason}>"
        return f"<GridReading {self.rows}x{self.cols} {'/'.join(self.cells)}>"


def no_reading(rows: int, cols: int, reason: str) -> GridReading:
    return GridReading(rows, cols, None, None, np.zeros((rows, cols)), reason)


def read_grid(
    frame: np.ndarray,
    palette: Palette,
    rows: int = 5,
    cols: int = 5,
    lens: LensModel | None = None,
    tracker: GridTracker | None = None,
) -> GridReading:
    """Find the rows x cols grid in ``frame`` (BGR uint8) and read every cell. With a
    ``tracker`` (frames of one video, in order) the grid is followed from the last frame
    where that leaves no doubt, and searched for where it does."""
    small = too_small(frame, rows, cols)
    if small:  # a camera's glitch: nothing to read, nothing followed so far forgotten
        return no_reading(rows, cols, small)
    if lens is not None:
        frame = lens.undistort(frame)
    with one_frame(frame):
        return _read_grid(frame, palette, rows, cols, tracker)


def _read_grid(
    frame: np.ndarray, palette: Palette, rows: int, cols: int, tracker: GridTracker | None
) -> GridReading:
    """:func:`read_grid` of a frame as the lens leaves it."""
    search = (
        search_grid(frame, rows, cols) if tracker is None else tracker.locate(frame, rows, cols)
    )
    geometry = search.geometry
    if geometry is None:
        return no_reading(rows, cols, search.reason)
    if tracker is None:
        return _without_cards_in_the_air(read_cells(frame, geometry, palette), search, frame)
    kept = tracker.kept_reading(palette)
    if kept is None:
        kept = _without_cards_in_the_air(
            read_cells(frame, geometry, palette, tracker.looks, anchored=search.anchored), search,
            frame,
        )
        tracker.keep_reading(kept, palette)
    return kept


def _without_cards_in_the_air(reading: GridReading, search: GridSearch, frame: np.ndarray
                              ) -> GridReading:
    """The reading with every cell under a card held above the grid read ``?``. Where a
    card is read with no outline of its own seen, something may lie over it: then the
    outlines are looked for in more cuts than the lattice needed (in ``frame`` itself, for
    a grid followed in video, which kept none)."""
    g = search.geometry
    unoutlined = False
    if reading.cells is not None and g is not None:
        gem = np.array([[x not in (EMPTY, UNSURE) for x in row] for row in reading.cells])
        unoutlined = bool((gem & ~g.seen).any())
    covered = cards_in_the_air(search, look_further=unoutlined, frame=frame)
    if reading.cells is None or not covered.any():
        return reading
    confidence = reading.confidence.copy()
    confidence[covered] = 0.0
    # what lies under a card in the air is neither read nor guessed
    guesses = None if reading.guesses is None else _unsure_at(reading.guesses, covered)
    return replace(reading, cells=_unsure_at(reading.cells, covered), confidence=confidence,
                   guesses=guesses)


def cloth_shows_card_edges(frame: np.ndarray, geometry: GridGeometry, table: TableLook) -> bool:
    """Does the bare table around the grid show a card's four sides as edges (a gingham's
    checks, tiles)? Close looks at a few cells of the ring around it, those in the frame
    that look like the table there (not a pile, a deck or a hand beside it): a third of them
    or more find such edges (a plain cloth, felt or wood shows them in none; a busy cloth in
    most)."""
    ring = ring_points(geometry.rows, geometry.cols)
    ring = ring[squares_in_frame(frame, geometry, ring)]
    ring = ring[like_table(extract_points(frame, geometry, ring), table)]
    # a few spread round it tell as well as all
    ring = ring[np.linspace(0, len(ring) - 1, min(RING_LOOKS, len(ring))).round().astype(int)]
    edged = sum(edges_in_cell(frame, geometry, y, x)
                for x, y in np.floor(ring).astype(int).tolist())
    return edged >= 2 and 3 * edged >= len(ring)


def _unsure_at(rows: tuple[str, ...], cells: np.ndarray) -> tuple[str, ...]:
    """``rows`` with ``?`` in the ``cells`` marked ((rows, cols) bool)."""
    labels = np.array([list(row) for row in rows], dtype=object)
    labels[cells] = UNSURE
    return tuple("".join(row) for row in labels)


Looks = dict[tuple[str, int, int], bool]
"""Close looks at cells, (what was looked for: "card", "region" (a card-shaped region, not
just edges), "table", "surely table" (``like_table``'s ``surely``), "inside" or "inside by
blocks" (``bare_inside``), row, col) -> whether it was seen."""


_READ_EVERY = reading_step(PATCH_SIZE)  # the pixels of a cell's patch a palette reads


def read_cells(
    frame: np.ndarray, geometry: GridGeometry, palette: Palette, looks: Looks | None = None,
    *, anchored: bool = False,
) -> GridReading:
    """Read the cells of a grid already found in ``frame``. ``looks``: close looks already
    taken at this very picture (a tracker keeps them while nothing moves); those taken here
    are added. ``anchored``: the lattice is one earlier frames held with a card in every
    line at its edge (a tracker's), which keeps its place over a line the players emptied."""
    rows, cols = geometry.rows, geometry.cols
    # a cell is asked about more than once below (whether it looks like the table): each
    # look taken once, kept for this picture at least
    looks = {} if looks is None else looks
    # the cells cut as the palette reads them: only the pixels it reads (the table's patches
    # are looked at whole below)
    every = _READ_EVERY
    patches = extract_patches(frame, geometry, every=every)
    sides = extract_table_sides(frame, geometry)
    table = np.concatenate(list(sides.values()))
    read_from = ReadFrom(patches, table[:, ::every, ::every], geometry.seen.ravel())
    reads = read_from.classify(palette)
    labels = np.array(reads.labels, dtype=object).reshape(rows, cols)
    undecided = _decided_by_what_is_cut_off(frame, geometry, palette, read_from, labels)
    doubted = labels == UNSURE
    confidence = np.asarray(reads.confidence, float).reshape(rows, cols).copy()
    in_frame = inside_frame(frame, geometry)
    gem = (labels != EMPTY) & (labels != UNSURE)
    table_likeliest = np.array([x == EMPTY for x in reads.best] or [False] * doubted.size)
    table_likeliest = table_likeliest.reshape(rows, cols)
    unseen = ~geometry.seen & in_frame
    looks_bare = TableLook(table)

    def bare(only: np.ndarray, surely: bool = False) -> np.ndarray:
        out = np.zeros(only.shape, bool)
        out[only] = like_table(extract_patches(frame, geometry, only=only), looks_bare, surely)
        return out

    # A gem where no card outline was seen, or a '?' that may be an empty cell (likeliest
    # the table, or like the cloth around the grid): look again, closer. A gem still with no
    # card there is distrusted.
    maybe_empty = doubted & unseen
    maybe_empty &= table_likeliest | _look(looks, "table", maybe_empty & ~table_likeliest, bare)
    # a card look here tells whether a whole region showed too, what the look without edges
    # asks below: known for this picture only, not kept with the looks a tracker holds
    regions = np.zeros((rows, cols), bool)
    looked = np.zeros((rows, cols), bool)

    def card_looks(only: np.ndarray) -> np.ndarray:
        card, region = outlines_in_view(frame, geometry, only)
        regions[only], looked[only] = region[only], True
        return card

    def region_looks(only: np.ndarray) -> np.ndarray:
        out = cards_in_view(frame, geometry, only & ~looked, edges=False)
        out[only & looked] = regions[only & looked]
        return out

    card = _look(looks, "card", gem & unseen | maybe_empty, card_looks)
    distrust = (gem & unseen & ~card) | ~in_frame | undecided

    # A busy cloth (a gingham's checks) has edges wherever a card's sides would be: in a
    # cell that looks like the cloth around the grid, only a whole card-shaped region is a
    # card's outline.
    cloth = card & _look(looks, "table", card, bare)
    edges_only = cloth & ~_look(looks, "region", cloth, region_looks)

    def bare_all_inside(only: np.ndarray, blocks: bool = False) -> np.ndarray:
        out = np.zeros(only.shape, bool)
        patches = extract_patches(frame, geometry, only=only)
        out[only] = bare_inside(patches, looks_bare, blocks)
        return out

    # No card outline even close up, and bare table all over the inner half: an empty cell
    # (a neighbour's edge reaching into it: cards laid by hand are square neither to the
    # lattice nor to each other).
    no_card = doubted & table_likeliest & unseen & ~card
    spilled = no_card & _look(looks, "inside", no_card, bare_all_inside)
    if edges_only.any() and cloth_shows_card_edges(frame, geometry, looks_bare):
        # So too where only edges showed, if the bare table around the grid shows such
        # edges too, whatever the cell's colours were likeliest (a gingham of the colour of
        # some card); elsewhere edges are a card's (a pale card on a pale table shows no
        # region of its own). Its inner half is held against the cloth's own blocks: a
        # block shows one check or a few, as the table's blocks do, not the mix of a whole
        # patch (against blocks alone, smooth skin over a card passes for the plain ground
        # between a cloth's dots: only the edges the cloth shows let them count).
        spilled |= edges_only & _look(looks, "inside by blocks", edges_only,
                                      partial(bare_all_inside, blocks=True))
    labels[spilled] = EMPTY
    confidence[spilled] = palette.min_confidence
    distrust |= gem & edges_only & ~spilled
    gem &= ~spilled
    # Bare table by its colours, but a card outline is there, or it does not look like the
    # table around the grid (a hand the colour of the wood): something is there.
    empty = labels == EMPTY
    distrust |= empty & geometry.seen
    not_table = empty & ~_look(looks, "surely table", empty, partial(bare, surely=True))
    distrust |= not_table
    # A hand is one piece: where it hides a card, table-coloured skin beside it may pass for
    # an empty cell, and so may the skin beside that (an arm across a row). Such a reading
    # never counts anyway (it has a "?"), so nothing is lost. From a cell something surely
    # lies over (a card's colours, no card's outline even close up, and nothing like the
    # cloth: a busy cloth's flowers or stripes may show a card's colours in an empty cell;
    # or the table's colours without its look), corner to corner too: an arm at a slant
    # (``_reached``). A card only unsure of its colour, or a cell likeliest bare table, is
    # no sign of a hand; but a '?' that may be bare table, with no card even close up,
    # beside a cell something surely lies over (or beside such a '?'), is likeliest the
    # same arm, over a card it left too little of to read, and reaches on as that cell does.
    covered = gem & unseen & ~card
    covered &= ~_look(looks, "table", covered, bare)
    hidden = (covered | not_table) & ~geometry.seen
    hidden |= _spread(hidden, maybe_empty & ~card & (labels == UNSURE), _beside)
    distrust |= empty & _reached(distrust | (labels == UNSURE), empty, hidden)
    if not anchored:
        distrust |= empty_edge_lines(empty & ~distrust)
    labels[distrust] = UNSURE
    confidence[distrust] = 0.0
    hand = np.zeros((rows, cols), bool)  # '?' cells a hand likeliest lies over
    if reads.features is not None:
        like, hand = _like_what_hides(labels, gem & ~geometry.seen, reads.features, palette)
        # the skin found so is the hand too: table-coloured skin beside it, as above
        like |= _reached(like, labels == EMPTY)
        labels[like] = UNSURE
        confidence[like] = 0.0
    # A hand over part of a card leaves bits of its sides, which show up close as edges
    # where they should be, but no whole region of a card's shape; the cell's colours are
    # then mostly the hand's (skin over a violet card read orange, a blue sleeve over one
    # blue). Such a card, beside a '?' cell where no card shows even up close and that is
    # not likeliest bare table (a hand, likeliest), is in doubt too, and that cell a hand,
    # as for ``_like_what_hides``. A card whose whole outline shows up close is read as it
    # is; so is one beside a '?' that shows a card up close (a card only unsure of its
    # colour is no sign of a hand).
    edged = gem & card & unseen & (labels != UNSURE)
    hides = (labels == UNSURE) & unseen & ~undecided & ~table_likeliest & _beside(edged)
    if hides.any():
        # the looks a card took already first: most such frames have them
        edged &= _beside(hides)
        edged &= ~_look(looks, "region", edged, region_looks)
        hides &= _beside(edged)
        hides &= ~_look(looks, "card", hides, card_looks)
        edged &= _beside(hides)
        labels[edged] = UNSURE
        confidence[edged] = 0.0
        hand |= hides & _beside(edged)
    taken = np.zeros((rows, cols), bool)
    if reads.sheen and reads.best:
        # A card read '?' only for a lamp's sheen on it: read through the sheen (never where
        # a hand may be, or where the frame's edge cuts the card: what is read there hangs
        # on more than its light), if that makes the card it likeliest was sure (never
        # another: white light on a red is a pink's colour, and a pink read unsure must
        # not turn red so), and its outline shows (close up, where the search missed it: a
        # sheened card's border stands out less).
        sheen = np.array(reads.sheen, dtype=object).reshape(rows, cols)
        likeliest = np.array(reads.best, dtype=object).reshape(rows, cols)
        taken = _under_a_sheen(sheen, doubted & (labels == UNSURE) & ~distrust & ~hand)
        taken &= sheen == likeliest
        if taken.any():
            taken &= ~cut_by_the_edge(frame, geometry, every=_READ_EVERY)
            taken &= geometry.seen | _look(looks, "card", taken & ~geometry.seen, card_looks)
        labels[taken] = sheen[taken]
        confidence[taken] = palette.min_confidence
    doubt = _line_in_doubt(frame, geometry, labels, sides,
                           None if anchored else partial(_look, looks, "table", look=bare))
    if doubt:
        return no_reading(rows, cols, doubt)
    cells = tuple("".join(row) for row in labels)
    nearest = np.array(reads.nearest, dtype=object).reshape(rows, cols)
    # a card outlined in the frame, its colour in doubt: the class it is likeliest to be
    guess = doubted & geometry.seen & ~distrust & ~taken & (nearest != EMPTY)
    guesses = tuple("".join(row) for row in np.where(guess, nearest, labels))
    return GridReading(rows, cols, geometry.corners.copy(), cells, confidence, "", geometry,
                       reads.features, guesses, read_from)


SHEEN_CARDS = 2
"""A lamp's reflection on glossy cards lies on one card, or on two side by side: its mirror
image falls on one spot of the table."""


def _under_a_sheen(sheen: np.ndarray, unsure: np.ndarray) -> np.ndarray:
    """(rows, cols) bool: the cells whose card to read as it reads under a lamp's sheen
    (``sheen``: each cell's reading so, :attr:`calibration.CellReads.sheen`): of the cells
    read ``?`` and not distrusted for anything else (``unsure``), those that read as a card
    so, if they make one spot of at most ``SHEEN_CARDS`` cards side by side. A reflection
    lies on one spot; where cells all over the grid read as a card only so, the scene's
    light is at fault (every pink of a scene guessed too warm reads as a red under white
    light), not a sheen, and they all stay ``?``.

    >>> sheen = np.array([list("B?"), list("RP")], dtype=object)
    >>> _under_a_sheen(sheen, np.array([[True, False], [True, False]])).tolist()
    [[True, False], [True, False]]
    >>> _under_a_sheen(sheen, np.array([[True, False], [False, True]])).tolist()
    [[False, False], [False, False]]
    """
    card = unsure & (sheen != UNSURE) & (sheen != EMPTY)
    if not card.any() or card.sum() > SHEEN_CARDS:
        return np.zeros(card.shape, bool)
    spot = np.argwhere(card)
    if len(spot) == 2 and np.abs(spot[0] - spot[1]).sum() != 1:
        return np.zeros(card.shape, bool)  # two spots, not one
    return card


def _decided_by_what_is_cut_off(
    frame: np.ndarray, geometry: GridGeometry, palette: Palette, read_from: ReadFrom,
    labels: np.ndarray,
) -> np.ndarray:
    """(rows, cols) bool: cells the frame's edge cuts whose reading hangs on what fills in
    the part cut off. Read again with the frame's last pixels repeated past its edge instead
    of the card's face turned half round: a cell read otherwise then is not read (an empty
    cell boxed in by its neighbours' borders, turned in, took one of them for its own and
    read blue)."""
    cut = cut_by_the_edge(frame, geometry, every=_READ_EVERY)
    if not cut.any():
        return cut
    cells = read_from.cells.copy()
    cells[cut.ravel()] = extract_patches(frame, geometry, every=_READ_EVERY, only=cut,
                                         turned=False)
    again = ReadFrom(cells, read_from.table, read_from.outlined).classify(palette)
    other = np.array(again.labels, dtype=object).reshape(labels.shape)
    return cut & (other != labels)


def _line_in_doubt(
    frame: np.ndarray, geometry: GridGeometry, labels: np.ndarray, sides: dict[str, np.ndarray],
    looks_bare: Callable[[np.ndarray], np.ndarray] | None = None,
) -> str:
    """Why the grid's place is in doubt, or "". A line at the grid's edge with no card in it
    (a card read or outlined in one cell at most: a cloth's pattern or a deck beside the
    grid may show one where the lattice runs on past the cards) while the line just past
    the opposite edge is hidden (not bare table: an arm over a line of cards) means the
    lattice may sit a line or two off the cards, and every card would be read as its
    neighbour's. A hand over the grid's edge has bare table past the other side, bar a
    pile of cards beside it. So has a grid missing a line with a card laid just past the
    other side: where nothing before anchored the lattice, a line at the edge with one card
    at most and bare table in the rest (``looks_bare``: which of the cells marked look like
    the table around the grid) is in doubt whatever lies past the other side. ``sides``:
    the table's patches on each side of the grid."""
    rows, cols = geometry.rows, geometry.cols
    card = geometry.seen | ((labels != EMPTY) & (labels != UNSURE))  # read or outlined
    if looks_bare is not None:
        for line in EDGE_LINES:
            rest = np.zeros(card.shape, bool)
            rest[line] = ~card[line] & (labels[line] != EMPTY)
            lone = np.count_nonzero(card[line]) <= 1
            if lone and (not rest.any() or looks_bare(rest)[rest].all()):
                return "a line at the grid's edge shows one card at most: its place is in doubt"
        if _fits_a_line_over(frame, geometry, ~card):
            return "the cards fit the grid a row or column over too (a gap at one edge, " \
                   "cards just past the other): move loose cards away from it"
    past_lines = _past_the_far_side(rows, cols)
    for k in range(len(EDGE_LINES)):
        line, far, past = EDGE_LINES[k], _FAR_SIDES[k], past_lines[k]
        if np.count_nonzero(card[line]) > 1:
            continue
        # the table as the other sides show it: the far side may be under the same arm
        table = np.concatenate([p for side, p in sides.items() if side != far])
        beyond = past[:, ::-1] + 0.5  # the cells' centres, grid units (x, y)
        patches = extract_points(frame, geometry, beyond)
        if len(patches) < len(beyond):
            continue  # past the frame's edge: nothing to doubt by
        # a pile of cards beside the grid hides a cell or two of table; an arm, the line
        if np.sum(~like_table(patches, table)) >= len(beyond) - 1:
            return "a line at the grid's edge shows no card and the other side is hidden: " \
                   "its place is in doubt"
    return ""


def _fits_a_line_over(frame: np.ndarray, geometry: GridGeometry, gaps: np.ndarray) -> bool:
    """A line at the grid's edge with two gaps or more (``gaps``: cells where no card is
    read or outlined) while a card is outlined in line just past the opposite edge: the
    cards fit the lattice a line over as well, a grid whose edge line the players thinned
    to that card, with piles laid in line past its other side taken for the line it lost.
    Only the frames before can tell which (a lattice they anchored); a picture on its own
    cannot. A single gap is a card taken mid-turn, with a deck or a pile beside the grid:
    piles past the other side would have to lie in line with four of its five lines.
    (A full grid with piles beside it has no gap at its edge, and bare table past the
    other side leaves no other lattice.)"""
    past_lines = _past_the_far_side(geometry.rows, geometry.cols)
    for k in range(len(EDGE_LINES)):
        line, past = EDGE_LINES[k], past_lines[k]
        if np.count_nonzero(gaps[line]) < 2 or gaps[line].all():
            continue  # full but a card, or bare (the check above and empty_edge_lines')
        inside = squares_in_frame(frame, geometry, past[:, ::-1] + 0.5)
        for r, c in past[inside].tolist():
            if card_in_cell(frame, geometry, r, c, edges=False):
                return True
    return False


_FAR_SIDES = ("bottom", "top", "right", "left")  # per line of EDGE_LINES, the opposite side


def _past_the_far_side(rows: int, cols: int) -> list[np.ndarray]:
    """Per line of ``EDGE_LINES`` (top, bottom, left, right), the (row, col) cells just past
    the opposite edge, in the line's order.

    >>> [p.tolist() for p in _past_the_far_side(2, 3)][:3]
    [[[2, 0], [2, 1], [2, 2]], [[-1, 0], [-1, 1], [-1, 2]], [[0, 3], [1, 3]]]
    """
    along_row, along_col = np.arange(cols), np.arange(rows)
    return [
        np.column_stack([np.full(cols, rows), along_row]),
        np.column_stack([np.full(cols, -1), along_row]),
        np.column_stack([along_col, np.full(rows, cols)]),
        np.column_stack([along_col, np.full(rows, -1)]),
    ]


def _like_what_hides(
    labels: np.ndarray, unoutlined: np.ndarray, features: np.ndarray, palette: Palette
) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols) bool: the cards read beside an unsure cell (a hand over it, most often),
    with no outline of their own seen by the search (``unoutlined``), that look more like
    that unsure cell than like a card of the class they read as. A hand is one piece in
    colour too: skin over half a pink card reads orange, and it is the skin next door. And
    (rows, cols) bool: the unsure cells they looked like (the hand, likeliest)."""
    rows, cols = labels.shape
    unsure = labels == UNSURE
    x = features.reshape(rows, cols, -1)
    out = np.zeros((rows, cols), bool)
    hand = np.zeros((rows, cols), bool)
    cards_r, cards_c = np.nonzero(unoutlined & ~unsure & (labels != EMPTY))
    if not len(cards_r) or not unsure.any():
        return out, hand  # most frames: nothing unsure, or every card outlined
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        nr, nc = cards_r + dr, cards_c + dc
        ok = (nr >= 0) & (nr < rows) & (nc >= 0) & (nc < cols)
        ok[ok] = unsure[nr[ok], nc[ok]]
        r, c, nr, nc = cards_r[ok], cards_c[ok], nr[ok], nc[ok]
        if len(r):
            like = palette.nearer_than_class(x[r, c], x[nr, nc], labels[r, c].tolist())
            out[r, c] |= like
            hand[nr[like], nc[like]] = True
    return out, hand


def _reached(marked: np.ndarray, through: np.ndarray, hidden: np.ndarray | None = None
             ) -> np.ndarray:
    """(rows, cols) bool: the ``through`` cells joined to a marked one by a path of
    ``through`` cells, step by step left, right, up or down; from a ``hidden`` cell (one
    something surely lies over: a hand, likeliest) corner to corner too, and so on from
    each cell so reached. An arm that crosses the grid at a slant passes from a cell to
    the one diagonally next to it over the gap at their shared corner as readily as to
    one beside it (an arm from a grid's corner hid three cells in a diagonal line; skin
    the colour of the cloth over the middle one read '.'). A card only unsure of its
    colour is no hand: its doubt reaches only the cells beside it, and theirs.

    >>> m = np.array([[True, False, False, False], [False, False, True, False]])
    >>> t = np.array([[False, True, True, False], [True, False, False, True]])
    >>> _reached(m, t).astype(int).tolist()
    [[0, 1, 1, 0], [1, 0, 0, 1]]
    >>> m, t = np.eye(3, dtype=bool), np.eye(3, dtype=bool)  # an arm down the diagonal
    >>> m[1:], t[0] = False, False
    >>> [_reached(m, t, hidden).astype(int).tolist() for hidden in (np.ones((3, 3), bool), ~m)]
    [[[0, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, 0, 0], [0, 0, 0], [0, 0, 0]]]
    """
    reached = _spread(marked, through, _beside)
    if hidden is None or not (marked & hidden).any():
        return reached
    return reached | _spread(marked & hidden, through, lambda m: _beside(m) | _corners(m))


def _spread(
    marked: np.ndarray, through: np.ndarray, step: Callable[[np.ndarray], np.ndarray]
) -> np.ndarray:
    """(rows, cols) bool: the ``through`` cells a path of them joins to a marked one, each
    step of it to a cell ``step`` gives."""
    reached = np.zeros_like(marked)
    front = marked
    while True:
        more = through & step(front) & ~reached
        if not more.any():
            return reached
        reached |= more
        front = more


def _beside(marked: np.ndarray) -> np.ndarray:
    """(rows, cols) bool: the cells next to (left, right, above, below) a marked one.

    >>> _beside(np.array([[False, False, False], [False, True, False]])).astype(int).tolist()
    [[0, 1, 0], [1, 0, 1]]
    """
    out = np.zeros_like(marked)
    out[1:] |= marked[:-1]
    out[:-1] |= marked[1:]
    out[:, 1:] |= marked[:, :-1]
    out[:, :-1] |= marked[:, 1:]
    return out


def _corners(marked: np.ndarray) -> np.ndarray:
    """(rows, cols) bool: the cells diagonally next to a marked one.

    >>> _corners(np.array([[False, False, False], [False, True, False]])).astype(int).tolist()
    [[1, 0, 1], [0, 0, 0]]
    """
    out = np.zeros_like(marked)
    out[1:, 1:] |= marked[:-1, :-1]
    out[1:, :-1] |= marked[:-1, 1:]
    out[:-1, 1:] |= marked[1:, :-1]
    out[:-1, :-1] |= marked[1:, 1:]
    return out


def _look(
    looks: Looks, kind: str, ask: np.ndarray, look: Callable[[np.ndarray], np.ndarray]
) -> np.ndarray:
    """(rows, cols) bool: ``look(only)`` at the cells ``ask`` (False elsewhere), taking what
    ``looks`` already holds for ``kind`` and adding the rest to it."""
    out = np.zeros(ask.shape, bool)
    todo = ask.copy()
    for r, c in np.argwhere(ask).tolist():
        known = looks.get((kind, r, c))
        if known is not None:
            out[r, c] = known
            todo[r, c] = False
    if todo.any():
        fresh = look(todo)
        for r, c in np.argwhere(todo).tolist():
            out[r, c] = looks[(kind, r, c)] = bool(fresh[r, c])
    return out
