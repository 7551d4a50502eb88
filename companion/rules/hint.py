"""The best turns a hand can pay for: a hint for the player to move (RULES.md N4–N8, P4–P6).

A turn is one or more shifts (N3, N4). Each is paid with one card of the gem on the edge
it moves, or with any three cards (N5); moving the pearl always costs three (P4); an empty
edge cannot move. :func:`payment` answers whether a hand pays a sequence of shifts, and
with which cards; :func:`legal_shifts` lists the shifts a hand can make now.
:func:`best_turns` searches every turn of up to ``max_shifts`` shifts and keeps those that
score the most at once, with the fewest shifts; ties are all kept.

>>> h = best_turns(Grid("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"), Cards.of("CY"), max_shifts=2)
>>> h.points, [str(t) for t in h.turns]
(3, ['r2< (3 points, pays C)'])
>>> best_turns(Grid("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"), Cards.of("Y"), max_shifts=2).turns
()

Decisions where RULES.md leaves the hint open:

- **What "at once" means.** The points of the combinations on the grid once the shifts are
  made (N6, N7, the N8 bonus of the table's option); in Pearl of the East the tasks of the
  player to move that they complete (P5, P6). An N10 cascade depends on the cards the deck
  lays next, which no one sees, so it is not counted; lines already on the grid (N2 ``keep``,
  N10 ``leave``) are, since the scoring phase scores them too.
- **How a turn is paid.** A hand pays with matching cards wherever it can: a matching card
  costs one card where three would do the same, so the cheapest payment gives each gem the
  hand holds to the earliest shifts of that gem, and pays the rest with three cards (``!3``).
  A sequence is payable exactly when this payment fits the hand. The three cards of a
  wildcard are taken from the gem the hand holds most (``Cards.spare``), keeping variety.
- **Which turns are shown.** Those scoring the most, and among them those with the fewest
  shifts (a longer turn spends more cards for the same points), those spending the fewest
  cards first, then in the order found (shifts in ``ALL_SHIFTS`` order). A turn that
  scores nothing is no hint: none is shown.
- **How far it looks.** Up to 3 shifts by default (8420 sequences at most), 4 at most
  (168 420, a second or more), since every shift adds twenty times the work.

The search is a depth-first walk over shift sequences; each grid reached is scored line by
line with each row's and column's points kept once computed, since the same five letters
recur across thousands of grids.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from .combination import POINTS, Combination, bonus, find_combinations, line_runs, phase_points
from .deck import Cards
from .errors import BadInput
from .game import GEM_COPIES, MIN_PLAYERS, PEARL_MODE, Game, RuleError
from .grid import EMPTY, GEMS, SIZE, Grid
from .shift import ALL_SHIFTS, WILDCARD_COST, Shift
from .shift_paths import permutation

DEFAULT_HINT_SHIFTS = 3
MAX_HINT_SHIFTS = 4

_GEM_INDEX = {gem: i for i, gem in enumerate(GEMS)}
_MOVE = tuple(itemgetter(*permutation(s)) for s in ALL_SHIFTS)
_EDGE = tuple((s.edge[0] - 1) * SIZE + s.edge[1] - 1 for s in ALL_SHIFTS)
_LINE_SLICES = tuple(slice(r * SIZE, (r + 1) * SIZE) for r in range(SIZE)) + tuple(
    slice(c, None, SIZE) for c in range(SIZE)
)


@dataclass(frozen=True, slots=True)
class Paid:
    """How a hand pays a sequence of shifts: the shifts, ``!3`` on those paid with three
    cards, and the cards spent."""

    shifts: tuple[Shift, ...]
    cards: Cards


@dataclass(frozen=True, slots=True)
class HintTurn:
    """One best turn: its shifts (with their payment), the cards it spends, what it scores.

    ``points`` is the scoring phase's points, bonus included; in Pearl of the East the
    number of tasks completed, ``tasks`` naming them.
    """

    shifts: tuple[Shift, ...]
    cards: Cards
    points: int
    combinations: tuple[Combination, ...]
    tasks: str = ""

    def to_json(self, pearl: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"shifts": [str(s) for s in self.shifts], "points": self.points,
                               "cards": self.cards.letters()}
        if pearl:
            out["tasks"] = list(self.tasks)
        return out

    def __str__(self) -> str:
        what = (f"tasks {' '.join(self.tasks)}" if self.tasks else
                f"{self.points} point{'s' * (self.points != 1)}")
        return f"{' '.join(str(s) for s in self.shifts)} ({what}, pays {self.cards.letters()})"


@dataclass(frozen=True, slots=True)
class Hint:
    """The best turns for ``hand`` on ``grid`` (``turns`` empty when nothing scores)."""

    grid: Grid
    hand: Cards
    points: int
    turns: tuple[HintTurn, ...]
    searched: int
    """The most shifts a turn was allowed."""
    tasks: str | None = None
    """Pearl of the East: the tasks of the player to move; None in classic Nizam."""

    def to_json(self) -> dict[str, Any]:
        """DESIGN.md's ``rules hint --json``."""
        pearl = self.tasks is not None
        return {"points": self.points, "turns": [t.to_json(pearl) for t in self.turns]}


def check_hand(grid: Grid, hand: Cards, pearl: bool = False) -> Cards:
    """``hand``, if it could be held beside ``grid`` (N15; in Pearl of the East at least
    one of each gem is a task card, P1).

    >>> check_hand(Grid("RRRRR/RRRRR/OOOOO/YYYYY/GGGGG"), Cards.of("RRRG"))
    Traceback (most recent call last):
    ...
    companion.rules.game.RuleError: N15: the hand holds 3 R and the grid 10; there are only 12
    """
    copies = Game(PEARL_MODE, MIN_PLAYERS).copies if pearl else GEM_COPIES
    for gem in GEMS:
        if hand.count(gem) + grid.count(gem) > copies:
            raise RuleError("N15", f"the hand holds {hand.count(gem)} {gem} and the grid "
                            f"{grid.count(gem)}; there are only {copies}"
                            + (" once the task cards are laid out (P1)" if pearl else ""))
    return hand


def check_tasks(tasks: str) -> str:
    """Task letters as ``GEMS`` orders them: each gem at most once, at least one (P1, P9).

    >>> check_tasks("YRR")
    Traceback (most recent call last):
    ...
    companion.rules.errors.BadInput: tasks 'YRR': R twice; a player has one task card of each gem
    """
    for letter in tasks:
        if letter not in GEMS:
            raise BadInput(f"tasks {tasks!r}: {letter!r} is not a gem letter ({GEMS})")
        if tasks.count(letter) > 1:
            raise BadInput(f"tasks {tasks!r}: {letter} twice; a player has one task card "
                             "of each gem")
    if not tasks:
        raise BadInput("tasks '': a player with no task left has already won (P9)")
    return "".join(gem for gem in GEMS if gem in tasks)


def _steps(grid: Grid, shifts: Sequence[Shift]) -> Iterator[tuple[Shift, str]]:
    """Each shift with the card on the edge it moves when it is made."""
    for move in shifts:
        yield move, grid.at(*move.edge)
        grid = move.apply(grid)


def payment(grid: Grid, shifts: Sequence[Shift], hand: Cards) -> Paid | None:
    """The cheapest way ``hand`` pays ``shifts`` made in order on ``grid``, or None when it
    cannot (N4, N5, P4; an empty edge cannot move). The shifts' own ``!3`` marks are
    ignored: the payment sets them.

    >>> grid = Grid("R*OGY/CBVPR/GGYOC/BVPRO/YGCBV")
    >>> payment(grid, [Shift.parse("r1<"), Shift.parse("r1<")], Cards.of("RGGY"))
    Paid(shifts=(Shift.parse('r1<'), Shift.parse('r1<!3')), cards=Cards.of('RYGG'))
    >>> payment(grid, [Shift.parse("r1<"), Shift.parse("r1<")], Cards.of("RGY")) is None
    True
    """
    left = list(hand.counts)
    marked, matched, wild = [], [0] * len(GEMS), 0
    for move, edge in _steps(grid, shifts):
        if edge == EMPTY:
            return None
        g = _GEM_INDEX.get(edge)
        if g is not None and left[g] > 0:
            left[g] -= 1
            matched[g] += 1
            marked.append(move.plain())
        else:
            wild += 1
            marked.append(move.with_wildcard())
    rest = Cards(tuple(left))
    if len(rest) < WILDCARD_COST * wild:
        return None
    return Paid(tuple(marked), Cards(tuple(matched)) + rest.spare(WILDCARD_COST * wild))


def legal_shifts(grid: Grid, hand: Cards) -> tuple[Shift, ...]:
    """Every shift ``hand`` can pay for now, each the cheapest way (``!3`` when by three).

    >>> [str(s) for s in legal_shifts(Grid("R*OGY/CBVPR/GGYOC/BVPRO/YGCBV"), Cards.of("RG"))]
    ['r1<', 'r2>', 'r3<', 'c1^', 'c2v', 'c4^']
    """
    found = []
    for move in ALL_SHIFTS:
        paid = payment(grid, (move,), hand)
        if paid is not None:
            found.append(paid.shifts[0])
    return tuple(found)


class _Scorer:
    """The points of a whole grid, from its ten lines' points kept once computed."""

    def __init__(self, bonus_rule: str, tasks: str | None) -> None:
        self.pearl = tasks is not None
        self.tasks = sum(1 << _GEM_INDEX[t] for t in tasks or "")
        self.bonus = [sum(bonus(k, bonus_rule) for k in range(n)) for n in range(4 * SIZE + 1)]
        self.lines: dict[str, tuple[int, int]] = {}

    def line(self, letters: str) -> tuple[int, int]:
        """(points, combinations) of a line; in Pearl (gems with a combination as bits, 0)."""
        got = self.lines.get(letters)
        if got is None:
            points = count = 0
            for gem, start, end in line_runs(letters, self.pearl):
                if self.pearl:
                    points |= 1 << _GEM_INDEX[gem]
                else:
                    points += POINTS[end - start]
                    count += 1
            got = self.lines[letters] = (points, count)
        return got

    def __call__(self, cells: str) -> int:
        if self.pearl:
            mask = 0
            for part in _LINE_SLICES:
                mask |= self.line(cells[part])[0]
            return (mask & self.tasks).bit_count()
        points = count = 0
        for part in _LINE_SLICES:
            p, n = self.line(cells[part])
            points += p
            count += n
        return points + self.bonus[count]


def best_turns(grid: Grid, hand: Cards, *, bonus_rule: str = "flat", tasks: str | None = None,
               max_shifts: int = DEFAULT_HINT_SHIFTS) -> Hint:
    """The turns of 1 to ``max_shifts`` shifts that ``hand`` pays for and that score the most
    at once, with the fewest shifts (module docstring). ``tasks``: Pearl of the East, the
    tasks of the player to move; None for classic Nizam, scored with ``bonus_rule`` (N8)."""
    if not 1 <= max_shifts <= MAX_HINT_SHIFTS:
        raise BadInput(f"max shifts {max_shifts}: must be 1 to {MAX_HINT_SHIFTS}")
    if tasks is not None:
        tasks = check_tasks(tasks)
    bonus(0, bonus_rule)  # an unknown rule is refused before any search
    score = _Scorer(bonus_rule, tasks)
    best, shortest, found = 0, max_shifts + 1, []
    for path, points in _walk(grid.cells, hand, max_shifts, score):
        if points > best or (points == best and len(path) < shortest):
            best, shortest, found = points, len(path), [path]
        elif points == best and len(path) == shortest:
            found.append(path)
    turns = sorted((_turn(grid, path, hand, bonus_rule, tasks) for path in found if best),
                   key=lambda t: len(t.cards))  # the cheapest first; stable: search order
    return Hint(grid, hand, best, tuple(turns), max_shifts, tasks)


def _walk(cells: str, hand: Cards, depth: int, score: _Scorer
          ) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every payable sequence (as shift indices) with its points, depth first."""
    left = list(hand.counts)
    size = len(hand)
    path: list[int] = []

    def visit(cells: str, matched: int, wild: int) -> Iterator[tuple[tuple[int, ...], int]]:
        for i in range(len(ALL_SHIFTS)):
            edge = cells[_EDGE[i]]
            if edge == EMPTY:
                continue
            g = _GEM_INDEX.get(edge)
            match = g is not None and left[g] > 0
            m, w = (matched + 1, wild) if match else (matched, wild + 1)
            if m + WILDCARD_COST * w > size:
                continue  # every longer sequence costs more still
            if match:
                left[g] -= 1  # type: ignore[index]
            after = "".join(_MOVE[i](cells))
            path.append(i)
            yield tuple(path), score(after)
            if len(path) < depth:
                yield from visit(after, m, w)
            path.pop()
            if match:
                left[g] += 1  # type: ignore[index]

    return visit(cells, 0, 0)


def _turn(grid: Grid, path: tuple[int, ...], hand: Cards, bonus_rule: str,
          tasks: str | None) -> HintTurn:
    shifts = tuple(ALL_SHIFTS[i] for i in path)
    paid = payment(grid, shifts, hand)
    assert paid is not None, "the search only yields payable turns"
    after = grid
    for move in shifts:
        after = move.apply(after)
    combos = find_combinations(after, tasks is not None)
    if tasks is None:
        return HintTurn(paid.shifts, paid.cards, phase_points(combos, bonus_rule), combos)
    done = "".join(gem for gem in tasks if any(c.gem == gem for c in combos))
    return HintTurn(paid.shifts, paid.cards, len(done), combos, done)
