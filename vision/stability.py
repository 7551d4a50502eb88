"""Only readings that hold still count: a stability filter for live video.

A frame's reading counts once ``k`` frames in a row have read the same grid, with no more
than ``unsure`` cells ``?`` among them that show no card: a card whose outline the frame
shows and whose colour alone is in doubt (a reading's ``guesses`` name it) is no hand over
the grid, however many there are (a camera whose colours moved since calibration). A card
read in some frames and ``?`` in others (a glare, a colour near the edge of its class, a
hand passing) is the same card in all of them: frames agree where one read a card ``?`` and
another read it, or guessed it the same. Such a cell counts as that card once at least half
the run's last ``2 k`` frames, or most of the last ``k``, have read it so, and ``?`` once
none of the last ``k`` has; in between the grid is not held yet. So one frame's misread of
a card the others cannot read is no reading, a card a hand has just left is not taken for
one the camera cannot read, and a card that turned unreadable (a glare, or laid so in an
empty cell) is, however long the cell was read before. The cells read ``?`` in two frames
in a row count towards ``unsure`` together, so a hand that moves (over some cells, then
over others, while a row is shifted under it) cannot stitch a grid that never lay on the
table out of the frames' halves. A cell read as two things (an empty cell is read like a
card), or a frame with no grid found, breaks the run; the count starts again.

>>> f = StabilityFilter(3)
>>> [f.push(cells) for cells in (("RG", "B."), ("RG", "B."), ("RG", "B."), ("RG", "B."))]
[None, None, ('RG', 'B.'), ('RG', 'B.')]
>>> f.push(("RG", "B?")), f.push(("RG", "B.")), f.stable
(None, None, ('RG', 'B.'))
>>> g = StabilityFilter(2, unsure=1)
>>> [g.push(cells) for cells in (("RG", "B?"), ("RG", "B?"), ("RG", "BY"), ("RG", "BY"))]
[None, ('RG', 'B?'), None, ('RG', 'BY')]
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Sequence
from typing import Any

UNSURE = "?"
EMPTY = "."


class StabilityFilter:
    """``push`` each frame's cells (row strings, None when no grid was found, or a reading
    with a ``cells`` attribute); it returns the grid once ``k`` frames in a row have shown
    it, with no more than ``unsure`` cells ``?`` in any two frames in a row, else None.
    ``stable`` keeps the last reading that counted."""

    def __init__(self, k: int = 3, unsure: int = 0) -> None:
        if k < 1:
            raise ValueError(f"a reading must hold for at least 1 frame, not {k}")
        self.k = k
        self.unsure = unsure
        self._widths: tuple[int, ...] = ()
        self._cards: list[str] = []  # per cell: the card the run's frames read there, or ``?``
        self._recent: deque[str] = deque(maxlen=2 * k)  # the run's last frames, flat
        self._guessed: deque[str] = deque(maxlen=2 * k)  # their guesses (``guesses``), flat
        self._run = 0
        self.stable: tuple[str, ...] | None = None

    def __repr__(self) -> str:
        return f"StabilityFilter({self.k}, unsure={self.unsure})"

    def push(self, reading: Sequence[str] | Any | None) -> tuple[str, ...] | None:
        cells = getattr(reading, "cells", reading)
        if cells is None:
            self.reset()
            return None
        flat = "".join(cells)
        guessed = getattr(reading, "guesses", None)
        guessed = "".join(guessed) if guessed is not None else ""
        guessed = guessed if len(guessed) == len(flat) else flat
        if guessed.count(UNSURE) > self.unsure:
            self.reset()
            return None
        widths = tuple(len(row) for row in cells)
        if not (self._run and widths == self._widths and self._holds(flat, guessed)):
            self.reset()
            self._widths = widths
            self._cards = [UNSURE] * len(flat)
        for cell, x in enumerate(flat):
            if x != UNSURE:
                self._cards[cell] = x
        self._recent.append(flat)
        self._guessed.append(guessed)
        self._run += 1
        grid = self._grid() if self._run >= self.k else None
        if grid is not None:
            self.stable = grid
        return grid

    def _holds(self, flat: str, guessed: str) -> bool:
        """Whether this frame shows the run's grid: no cell read as another card (or empty
        where a card was read), and no more cells ``?`` that show no card (``guessed``) in
        it and the frame before together than allowed."""
        if any(UNSURE != x != card != UNSURE for x, card in zip(flat, self._cards, strict=True)):
            return False
        before = self._guessed[-1]
        doubted = sum(x == UNSURE or y == UNSURE for x, y in zip(guessed, before, strict=True))
        return doubted <= self.unsure

    def _grid(self) -> tuple[str, ...] | None:
        """The run's grid: each cell as the card half the last ``2 k`` frames, or most of
        the last ``k``, read there (a card a hand left, then flickering, counts as soon as
        the frames since it left mostly read it), ``?`` where none of the last ``k`` did;
        None while neither holds. A frame that read the cell ``?`` but saw a card's outline
        there and guessed it as the card the others read agrees with them."""
        flat = []
        for cell, card in enumerate(self._cards):
            # a frame that read the card there, or saw its outline and guessed it the same
            read = [frame[cell] != UNSURE or UNSURE != guessed[cell] == card
                    for frame, guessed in zip(self._recent, self._guessed, strict=True)]
            last = read[-self.k:]
            if 2 * sum(read) < len(read) and 2 * sum(last) <= len(last):
                if any(last):
                    return None
                card = UNSURE
            flat.append(card)
        return _split(flat, self._widths)

    def guesses(self, grid: Sequence[str]) -> tuple[str, ...]:
        """``grid`` (the run's, as ``push`` returned it) with each cell ``?`` as the card
        the run's last frames most often guessed or read there (a reading's ``guesses``:
        the class a card whose colour is in doubt is likeliest to be); ``?`` where none did.

        >>> f = StabilityFilter(2, unsure=1)
        >>> class Frame:
        ...     def __init__(self, cells, guesses): self.cells, self.guesses = cells, guesses
        >>> f.push(Frame(("R?",), ("RO",))), f.push(Frame(("R?",), ("RY",)))
        (None, ('R?',))
        >>> f.push(Frame(("R?",), ("RO",))), f.guesses(("R?",))
        (('R?',), ('RO',))
        """
        flat = list("".join(grid))
        for cell, x in enumerate(flat):
            if x == UNSURE:
                votes = Counter(f[cell] for f in self._guessed if len(f) > cell)
                votes.pop(UNSURE, None)
                votes.pop(EMPTY, None)  # the cell before a card was laid in it
                flat[cell] = votes.most_common(1)[0][0] if votes else UNSURE
        return _split(flat, [len(row) for row in grid])

    def reset(self) -> None:
        """Forget the current run (the last stable reading is kept)."""
        self._cards, self._run = [], 0
        self._recent.clear()
        self._guessed.clear()

    @property
    def run(self) -> int:
        """How many frames in a row have shown the current grid."""
        return self._run


def _split(flat: Sequence[str], widths: Sequence[int]) -> tuple[str, ...]:
    """``flat`` cells cut back into rows of ``widths``."""
    rows, start = [], 0
    for width in widths:
        rows.append("".join(flat[start:start + width]))
        start += width
    return tuple(rows)


class BriefFilter:
    """Grids held briefly, too briefly for a ``StabilityFilter`` (a jittery or sparse
    video): ``push`` each frame's reading (as ``StabilityFilter.push`` takes it); it returns
    a grid shown whole (every card read, or its outline seen and its colour guessed: the
    reading's ``guesses`` hold no ``?``) by two of the last three frames that found a grid,
    two in a row or two around one odd frame (a card misread in that one), the first time
    it does (and again once two in a row show it); or, where the last three frames each
    read every card and each another grid, the grid two of them agree on in every cell, when
    each differs from it in one cell at most (a card misread in each, a different one: no
    two frames alike, yet every card named twice); else None. ``guesses``: that grid's, as
    the frame read it; ``in_a_row``: whether two frames in a row showed it; ``whole``: the
    last frame's grid and guesses when it showed one whole, once or not. A frame that found
    no grid is passed over: it tells nothing of the grid (a glare, an arm over it all).
    ``held``: the grid last held stable (as the game knows it). A frame beside one that
    showed a grid whole, read ``?`` where a hand came or went and as that grid in every other
    cell, shows it again where each cell it could not read lay in that grid as held: every
    card that changed since was seen twice in a row.

    >>> f = BriefFilter()
    >>> [f.push(c) for c in (("RG",), None, ("RG",), ("RG",), ("RB",), ("RG",), ("YG",))]
    [None, None, ('RG',), None, None, None, None]
    >>> f = BriefFilter()
    >>> [f.push(c) for c in (("YY",), ("YB",), ("YY",))], f.in_a_row
    ([None, None, ('YY',)], False)
    >>> f.push(("YY",)), f.in_a_row
    (('YY',), True)
    >>> [f.push(c) for c in (("RGB",), ("RGO",), ("RCB",))], f.in_a_row
    ([None, None, ('RGB',)], False)
    >>> f = BriefFilter()  # O laid where the grid held had none; a hand comes over R
    >>> [f.push(c, held=("RG.",)) for c in (("RGO",), ("?GO",))], f.in_a_row
    ([None, ('RGO',)], True)
    >>> [f.push(c, held=("RG.",)) for c in (("RGY",), ("RG?",))]  # Y: seen once
    [None, None]
    """

    def __init__(self) -> None:
        self._frames: deque[tuple[tuple[str, ...], bool]] = deque(maxlen=2)  # the two before
        self._last: tuple[str, ...] | None = None
        self.guesses: tuple[str, ...] = ()
        self.in_a_row = False
        # the last frame pushed, when it showed a grid whole: (cells, guesses)
        self.whole: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        # the frame before this one that found a grid, when it showed it whole
        self._whole_before: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    def push(self, reading: Sequence[str] | Any | None, held: Sequence[str] | None = None
             ) -> tuple[str, ...] | None:
        cells = getattr(reading, "cells", reading)
        self.whole = None
        if cells is None:
            return None
        cells = tuple(cells)
        guessed = getattr(reading, "guesses", None)
        guessed = tuple(guessed) if guessed is not None else cells
        whole = [len(row) for row in guessed] == [len(row) for row in cells] and not any(
            UNSURE in row for row in guessed)
        before = self._whole_before
        self._whole_before = (cells, guessed) if whole else None
        if whole:
            self.whole = (cells, guessed)
        earlier = list(self._frames)
        self._frames.append((cells, whole))
        in_a_row = bool(earlier) and earlier[-1] == (cells, True)
        if whole and (cells, True) in earlier:
            if cells == self._last and (self.in_a_row or not in_a_row):
                return None
            self._last, self.guesses, self.in_a_row = cells, guessed, in_a_row
            return cells
        shown = None
        if held is not None and earlier:
            held = tuple(held)
            if not whole and before is not None and _shows_again(cells, before[0], held):
                shown = before  # a hand coming: this frame shows the whole one before again
            elif whole and not earlier[-1][1] and _shows_again(earlier[-1][0], cells, held):
                shown = (cells, guessed)  # a hand going: the frame before showed this one
        if shown is not None:
            if shown[0] == self._last and self.in_a_row:
                return None
            self._last, self.guesses, self.in_a_row = shown[0], shown[1], True
            return shown[0]
        agreed = _agreed([c for c, w in earlier if w] + [cells]) if whole else None
        if agreed is None or agreed == self._last:
            return None
        self._last, self.guesses, self.in_a_row = agreed, agreed, False
        return agreed


def _shows_again(partly: tuple[str, ...], whole: tuple[str, ...], held: tuple[str, ...]) -> bool:
    """Whether a frame that read some cells ``?`` (``partly``) shows the grid another frame
    showed ``whole``: every cell it read read so, and every cell it did not lay in ``whole``
    as in the grid ``held`` stable, and ``whole`` is not that grid (every card that changed
    read in both).

    >>> _shows_again(("R?O",), ("RGO",), ("RG.",)), _shows_again(("RG?",), ("RGO",), ("RG.",))
    (True, False)
    """
    if (len({tuple(len(r) for r in g) for g in (partly, whole, held)}) != 1
            or whole == held or not any(UNSURE in row for row in partly)):
        return False
    return all((p == w != UNSURE) or (p == UNSURE and w == h)
               for p, w, h in zip("".join(partly), "".join(whole), "".join(held), strict=True))


def _agreed(frames: Sequence[tuple[str, ...]]) -> tuple[str, ...] | None:
    """The grid two of three frames' readings (each every card read, no two alike) agree
    on in every cell, where each differs from it in one cell at most; else None.

    >>> _agreed([("RG", "BY"), ("RG", "BO"), ("RC", "BY")])
    ('RG', 'BY')
    >>> _agreed([("RG", "BY"), ("CO", "BY"), ("RG", "VV")]) is None  # two cells off
    True
    """
    if len(frames) != 3 or len(set(frames)) != 3:
        return None
    widths = [len(row) for row in frames[0]]
    if any([len(row) for row in f] != widths or any(UNSURE in row for row in f)
           for f in frames):
        return None
    flat = ["".join(f) for f in frames]
    agreed = []
    for a, b, c in zip(*flat, strict=True):
        if a in (b, c):
            agreed.append(a)
        elif b == c:
            agreed.append(b)
        else:
            return None
    if any(sum(x != y for x, y in zip(f, agreed, strict=True)) > 1 for f in flat):
        return None
    return _split(agreed, widths)
