"""Which shifts turned one grid into another, and what they cost (RULES.md N4, N5, P4).

The camera sees the grid before and after a hand hid it; between the two the player may
have made several shifts. :func:`explain` lists every shortest sequence of shifts that
turns the first grid into the second, each with the payment it needs.

>>> e = explain(Grid("RROGY/CBVPR/GGYOC/BVPRO/YGCBV"), Grid("RRPGY/BVYRC/GGPOC/BVCRO/YGOBV"))
>>> e.length, [str(m) for m in e.moves]
(2, ['r2< c3^'])
>>> e.moves[0].payment
Payment('CO')
>>> e.moves[0].payment.cards, e.moves[0].payment.min_hand
(('C', 'O'), 2)

The search (:mod:`companion.rules.shift_paths`) is meet-in-the-middle: breadth-first from
both grids at once, so grids 4 shifts apart need about 2 × 400 grids instead of 20⁴.

What "payable" means when only the size of a hand is known (N14): a sequence of k shifts,
m of them with a gem on the moving edge and p = k − m moving the pearl, costs at least
m + 3p cards (each gem shift paid with one matching card, N4; each pearl shift with three,
P4) and at most 3k (every shift paid with three cards, N5). A hand of h cards *may* pay it
when h ≥ m + 3p (the companion cannot see colours, so it assumes the best) and *surely*
pays it, whatever gems it holds, when h ≥ 3k. No card enters the hand during a shift, so
the total is all that counts. Only shortest sequences are listed: a longer one that costs
fewer cards (four gem shifts instead of one pearl shift) is not.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .errors import BadInput
from .grid import EMPTY, PEARL, SIZE, Grid
from .shift import ALL_SHIFTS, WILDCARD_COST, Shift
from .shift_paths import EDGE, MOVE, shortest

MAX_SHIFTS = 6
"""The deepest search offered: 3 + 3 layers of meet-in-the-middle, still well under a second."""

DEFAULT_MAX_SHIFTS = 4


class CardsDifferError(BadInput):
    """The two grids do not hold the same cards, so no shifts can turn one into the other."""


@dataclass(frozen=True, slots=True)
class Payment:
    """What a sequence of shifts costs: ``edges`` holds, per shift, the card on its moving edge.

    >>> p = Payment("RB*")
    >>> p.cards, p.wildcards, p.min_hand, p.sure_hand
    (('R', 'B'), 1, 5, 9)
    >>> p.payable(4), p.payable(5), p.surely_payable(8)
    (False, True, False)
    >>> p.cost(extra_wildcards=1)
    7
    """

    edges: str

    @property
    def cards(self) -> tuple[str, ...]:
        """The matching card each gem shift needs, in order (N4)."""
        return tuple(e for e in self.edges if e != PEARL)

    @property
    def wildcards(self) -> int:
        """Shifts that move the pearl: each must be paid with three cards (P4)."""
        return self.edges.count(PEARL)

    @property
    def min_hand(self) -> int:
        """The fewest cards that pay it: one per gem shift, three per pearl shift."""
        return self.cost()

    @property
    def sure_hand(self) -> int:
        """A hand this big pays it whatever gems it holds (every shift by three cards, N5)."""
        return WILDCARD_COST * len(self.edges)

    def cost(self, extra_wildcards: int = 0) -> int:
        """Cards paid when ``extra_wildcards`` of the gem shifts are paid with three cards."""
        if not 0 <= extra_wildcards <= len(self.cards):
            raise BadInput(
                f"{extra_wildcards} wildcards: this payment has {len(self.cards)} gem shifts"
            )
        gem_shifts = len(self.cards) - extra_wildcards
        return gem_shifts + WILDCARD_COST * (self.wildcards + extra_wildcards)

    def payable(self, hand: int) -> bool:
        """A hand of ``hand`` cards may pay it, if its gems match (by count only, N14)."""
        return hand >= self.min_hand

    def surely_payable(self, hand: int) -> bool:
        return hand >= self.sure_hand

    def to_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "wildcards": self.wildcards, "min_hand": self.min_hand}

    def __repr__(self) -> str:
        return f"Payment({self.edges!r})"

    def __str__(self) -> str:
        parts = [e if e != PEARL else f"pearl ({WILDCARD_COST} cards)" for e in self.edges]
        return ", ".join(parts) if parts else "nothing"


@dataclass(frozen=True, slots=True)
class Move:
    """One way the player may have moved: the shifts in order, and what they cost.

    >>> from companion.rules.shift import parse_shifts
    >>> m = Move.of(Grid.parse("R*OGY/CBVPR/GGYOC/BVPRO/YGCBV"), parse_shifts("r1< r1<"))
    >>> m
    Move(shifts=(Shift.parse('r1<'), Shift.parse('r1<')), payment=Payment('R*'))
    >>> str(m), m.as_paid()
    ('r1< r1<', (Shift.parse('r1<'), Shift.parse('r1<!3')))
    """

    shifts: tuple[Shift, ...]
    payment: Payment

    @classmethod
    def of(cls, start: Grid, shifts: Iterable[Shift]) -> Move:
        """The move made of ``shifts`` from ``start``; raises if an edge it moves is empty."""
        grid, edges = start, []
        for shift in shifts:
            edge = grid.at(*shift.edge)
            if edge == EMPTY:
                raise BadInput(f"{shift.plain()}: its edge cell {shift.edge} is empty")
            edges.append(edge)
            grid = shift.apply(grid)
        return cls(tuple(shifts), Payment("".join(edges)))

    def __str__(self) -> str:
        return " ".join(str(s) for s in self.shifts)

    def as_paid(self) -> tuple[Shift, ...]:
        """The shifts as a record writes them: ``!3`` on each shift that moves the pearl."""
        edges = self.payment.edges
        return tuple(s.with_wildcard(e == PEARL) for s, e in zip(self.shifts, edges, strict=True))

    def canonical(self) -> tuple[Shift, ...]:
        """The shifts with each run of row shifts (and of column shifts) sorted.

        Row shifts commute with one another, and so do column shifts, so two moves with the
        same canonical form are the same shifts made in another order.

        >>> from companion.rules.shift import parse_shifts
        >>> Move.of(Grid("RROGY/CBVPR/GGYOC/BVPRO/YGCBV"), parse_shifts("r3< r1> c2^")).canonical()
        (Shift.parse('r1>'), Shift.parse('r3<'), Shift.parse('c2^'))
        """
        out: list[Shift] = []
        run: list[Shift] = []
        for shift in (*self.shifts, None):
            if run and (shift is None or shift.line != run[0].line):
                out.extend(sorted(run, key=ALL_SHIFTS.index))
                run = []
            if shift is not None:
                run.append(shift)
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Explanation:
    """Every shortest move from ``start`` to ``target`` within ``searched`` shifts.

    ``moves`` is empty when none exists; otherwise all moves have the same number of shifts
    (``length``) and come in the order of ``ALL_SHIFTS``, shift by shift.
    """

    start: Grid
    target: Grid
    searched: int
    moves: tuple[Move, ...]

    @property
    def length(self) -> int | None:
        return len(self.moves[0].shifts) if self.moves else None

    def payable(self, hand: int) -> tuple[Move, ...]:
        """The moves a hand of ``hand`` cards may pay, by count only (see the module text)."""
        if hand < 0:
            raise BadInput(f"hand size {hand}: a hand holds 0 or more cards")
        return tuple(m for m in self.moves if m.payment.payable(hand))

    def groups(self) -> tuple[tuple[Move, ...], ...]:
        """The moves gathered by canonical form: each group is one set of shifts, all orders.

        >>> e = explain("RROGY/CBVPR/GGYOC/BVPRO/YGCBV", "OGYRR/BVPRC/GGYOC/BVPRO/YGCBV")
        >>> [[str(m) for m in g] for g in e.groups()]
        [['r1< r1< r2<', 'r1< r2< r1<', 'r2< r1< r1<']]
        """
        found: dict[tuple[Shift, ...], list[Move]] = {}
        for move in self.moves:
            found.setdefault(move.canonical(), []).append(move)
        return tuple(tuple(g) for g in found.values())

    def to_json(self, hand: int | None = None) -> dict[str, Any]:
        """DESIGN.md's ``rules explain`` object, with ``payments`` (and ``payable``) aligned."""
        if not self.moves:
            return {"sequences": [], "searched": self.searched}
        out: dict[str, Any] = {
            "sequences": [[str(s) for s in m.shifts] for m in self.moves],
            "length": self.length,
            "payments": [m.payment.to_json() for m in self.moves],
        }
        if hand is not None:
            out["hand"] = hand
            out["payable"] = [m.payment.payable(hand) for m in self.moves]
        return out


def card_difference(start: Grid, target: Grid) -> str | None:
    """Why no shifts can turn ``start`` into ``target``, or None when they hold the same cards.

    >>> card_difference(Grid("RROGY/CBVPR/GGYOC/BVPRO/YGCBV"),
    ...                 Grid("RRRGY/CBVPR/GGYOC/BVPRO/YGCBV"))
    'the grids hold different cards (O: 3 then 2, R: 4 then 5)'
    """
    before, after = Counter(start.cells), Counter(target.cells)
    if before == after:
        return None
    changed = sorted(k for k in before.keys() | after.keys() if before[k] != after[k])
    detail = ", ".join(f"{k}: {before[k]} then {after[k]}" for k in changed)
    return f"the grids hold different cards ({detail})"


def explain(
    start: Grid | str, target: Grid | str, max_shifts: int = DEFAULT_MAX_SHIFTS
) -> Explanation:
    """Every shortest sequence of at most ``max_shifts`` shifts from ``start`` to ``target``.

    An empty edge cell cannot be shifted. Raises :class:`CardsDifferError` at once when the
    grids do not hold the same cards.

    >>> explain("RROGY/CBVPR/GGYOC/BVPRO/YGCBV", "RROGY/CBVPR/GGYOC/BVPRO/YGCBV").moves
    (Move(shifts=(), payment=Payment('')),)
    >>> explain("RROGY/CBVPR/GGYOC/BVPRO/YGCBV", "YGCBV/RROGY/CBVPR/GGYOC/BVPRO").to_json()
    {'sequences': [], 'searched': 4}
    """
    first = Grid(start) if isinstance(start, str) else start
    second = Grid(target) if isinstance(target, str) else target
    _check_depth(max_shifts)
    reason = card_difference(first, second)
    if reason is not None:
        raise CardsDifferError(reason)
    found = shortest(first.cells.encode(), second.cells.encode(), max_shifts)
    return Explanation(first, second, max_shifts, tuple(_moves(first, found)))


def shortest_sequences(
    start: str, target: str, max_shifts: int = DEFAULT_MAX_SHIFTS
) -> tuple[tuple[Shift, ...], ...]:
    """The search itself on any 25 ASCII symbols in reading order (EMPTY cannot be shifted).

    Empty when there is none within ``max_shifts``; ``((),)`` when the two are the same.

    >>> shortest_sequences("abcdefghijklmnopqrstuvwxy", "bcdeafghijklmnopqrstuvwxy")
    ((Shift.parse('r1<'),),)
    """
    _check_depth(max_shifts)
    if len(start) != SIZE * SIZE or len(target) != SIZE * SIZE:
        raise BadInput(f"a grid has {SIZE * SIZE} cells")
    found = shortest(start.encode("ascii"), target.encode("ascii"), max_shifts)
    return tuple(tuple(ALL_SHIFTS[i] for i in seq) for seq in found)


def _check_depth(max_shifts: int) -> None:
    if not 0 <= max_shifts <= MAX_SHIFTS:
        raise BadInput(f"max shifts {max_shifts}: must be 0 to {MAX_SHIFTS}")


def _moves(start: Grid, found: list[tuple[int, ...]]) -> Iterator[Move]:
    cells = start.cells.encode()
    for seq in found:
        grid, edges = cells, bytearray()
        for i in seq:
            edges.append(grid[EDGE[i]])
            grid = bytes(MOVE[i](grid))
        yield Move(tuple(ALL_SHIFTS[i] for i in seq), Payment(edges.decode()))


UNSURE = "?"
"""A cell the camera could not read."""


def settle(start: Grid, reading: str, max_shifts: int = 3) -> Grid | None:
    """The grid a reading with unsure cells (``?``) must show, when the rules leave one
    answer: of the grids that up to ``max_shifts`` shifts make from ``start``, those that
    agree with every cell read are all the same grid. None when none agree or several do.

    >>> start = Grid("RROGY/CBVPR/GGYOC/BVPRO/YGCBV")
    >>> str(settle(start, "ROGYR/CBVPR/GGYOC/BVPRO/YGCB?"))  # r1< with a cell unread
    'ROGYR/CBVPR/GGYOC/BVPRO/YGCBV'
    >>> settle(start, "?????/CBVPR/GGYOC/BVPRO/YGCBV") is None  # r1 as it was, or shifted
    True
    """
    found = _agreeing(start, reading, max_shifts)
    return Grid(found.pop().decode()) if len(found) == 1 else None


def agreeing(start: Grid, reading: str, max_shifts: int = 3) -> int:
    """How many grids that up to ``max_shifts`` shifts make from ``start`` agree with every
    cell a reading read (``settle``): 0 (the reading is impossible), 1, or more (several:
    the unsure cells leave the grid undecided; counted at the fewest shifts that make one).

    >>> start = Grid("RROGY/CBVPR/GGYOC/BVPRO/YGCBV")
    >>> agreeing(start, "?????/CBVPR/GGYOC/BVPRO/YGCBV") > 1  # r1 as it was, or shifted
    True
    >>> agreeing(start, "R????/RRRRR/GGYOC/BVPRO/YGCBV")
    0
    """
    return len(_agreeing(start, reading, max_shifts))


def _agreeing(start: Grid, reading: str, max_shifts: int) -> set[bytes]:
    """The grids (as bytes) that agree, at the fewest shifts that make any (all of them)."""
    cells = reading.replace("/", "")
    if len(cells) != SIZE * SIZE:
        raise BadInput(f"a reading has {SIZE * SIZE} cells, not {len(cells)}")
    _check_depth(max_shifts)
    known = [(i, ord(ch)) for i, ch in enumerate(cells) if ch != UNSURE]
    layer = {start.cells.encode()}
    seen = set(layer)
    found: set[bytes] = set()
    for depth in range(max_shifts + 1):
        found |= {g for g in layer if all(g[i] == ch for i, ch in known)}
        if len(found) > 1 or depth == max_shifts:
            break
        # A grid whose cells that differ from the reading no (shifts left) lines hold can
        # lead to none that agrees (a shift moves the cards of one line): left unshifted.
        # It stays seen, and no grid that agrees is reached only through one, so the grids
        # found are those of every path.
        left = max_shifts - depth
        layer = {bytes(move(g)) for g in layer
                 if _in_lines([i for i, ch in known if g[i] != ch], left)
                 for move in MOVE} - seen
        seen |= layer
    return found


def _in_lines(cells: list[int], lines: int) -> bool:
    """Whether cells (0-24, reading order) all lie in some ``lines`` rows and columns.

    >>> _in_lines([0, 4, 20], 2), _in_lines([0, 6, 12], 2)
    (True, False)
    """
    if not cells:
        return True
    if lines <= 0 or len(cells) > lines * SIZE:
        return False
    row, col = divmod(cells[0], SIZE)
    return _in_lines([c for c in cells if c // SIZE != row], lines - 1) or _in_lines(
        [c for c in cells if c % SIZE != col], lines - 1)
