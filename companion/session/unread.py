"""Cards the camera cannot read: how a reading with unsure cells is taken, the provisional
name a card laid unread is given, and whether a reading fits a state (so that the one name
under which it does settles the card).

A card read ``?`` on every frame must not stop the game: laid on the opening layout or in a
refill, it is laid under a provisional name (``provisional_names``): the camera's best guess
at it, or else the card the unseen cards still hold most of, among those that make no
combination where it lies (N2, N9). The camera, once it reads the card, or the rules, once
what the players did next is consistent with one name only (``fits``), settle it
(``table.Settled``).

>>> from companion.rules.game import Game
>>> provisional_names(Game("classic", 2), "RR?GY/CRVPB/RGYOC/BVPRO/YGCBV", "")
'RROGY/CRVPB/RGYOC/BVPRO/YGCBV'
>>> provisional_names(Game("classic", 2), "RR?GY/CRVPB/RGYOC/BVPRO/YGCBV", "OOOOO")
'RRPGY/CRVPB/RGYOC/BVPRO/YGCBV'
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import product
from typing import NamedTuple

from companion.errors import CompanionError
from companion.rules.combination import find_combinations
from companion.rules.explain import agreeing, card_difference, explain, settle
from companion.rules.game import Game
from companion.rules.grid import EMPTY, GEMS, PEARL, SIZE, Cell, Grid

from .events import Cleared, Refill, Settled
from .table import (
    CLEAR,
    OVER,
    PLAY,
    REFILL,
    UNSURE,
    TableState,
    apply,
    card_cell,
    cell_of,
    permuted,
    shifts_problem,
)
from .table import refill_count as _refill_count

MAX_SHIFTS = 4
"""Shifts one stable reading may be explained by (N4): more is a misread, not a turn."""
SETTLE_SHIFTS = 3
"""Shifts looked for between two stable readings: a hand may hide several."""


def unsure_cells(text: str) -> tuple[Cell, ...]:
    """The cells read ``?`` in a reading (rows joined by "/")."""
    return tuple((r, c) for r, row in enumerate(text.split("/"), 1)
                 for c, x in enumerate(row, 1) if x == UNSURE)


def cells_differ(a: str, b: str) -> tuple[Cell, ...]:
    flat_a, flat_b = a.replace("/", ""), b.replace("/", "")
    return tuple(
        cell_of(i) for i, (x, y) in enumerate(zip(flat_a, flat_b, strict=True))
        if x != y
    )


def letter_at(text: str, cell: Cell) -> str:
    return text[(cell[0] - 1) * (SIZE + 1) + (cell[1] - 1)]


def with_letter(text: str, cell: Cell, letter: str) -> str:
    """The reading ``text`` with ``letter`` in ``cell``."""
    at = (cell[0] - 1) * (SIZE + 1) + (cell[1] - 1)
    return text[:at] + letter + text[at + 1 :]


def refill_cells(t: TableState) -> tuple[Cell, ...]:
    """The cells the refill under way fills (N9: the empty ones, in reading order)."""
    assert t.grid is not None and t.rules is not None
    return tuple(t.grid.empty_cells()[: _refill_count(t.game, t.rules)])


def likeliest(game: Game, seen: str, letters: str) -> str:
    """``letters`` ordered from the card the unseen cards hold most of (``seen``: the cards
    known to lie elsewhere), ties in the order of GEMS. The pearl first, when it is one of
    ``letters`` and not seen: the grid holds it, so a card read ``?`` most likely is it."""
    count = Counter(seen)
    order = GEMS + PEARL
    return "".join(sorted(letters, key=lambda x: (
        -(game.in_play if x == PEARL and not count[x] else game.copies - count[x]),
        order.index(x))))


def likeliest_in(t: TableState, letters: str) -> str:
    """``letters`` ordered from the card the unseen cards hold most of, in state ``t`` (the
    cards on its grid and in the discard pile are seen)."""
    assert t.rules is not None
    return likeliest(t.game, str(t.grid) + t.rules.known_discard.letters(), letters)


def allowed_letters(game: Game, text: str) -> str:
    """The cards a card read ``?`` may be: a gem, or the pearl if none is read (Pearl)."""
    return GEMS + (PEARL if game.pearl and PEARL not in text else "")


def provisional_names(game: Game, text: str, seen: str, cells: Sequence[Cell] = (),
                      letters: str = "", guesses: str = "") -> str:
    """``text`` (a whole reading, rows joined by "/") with each card read ``?`` in ``cells``
    (all: none given) named provisionally, of ``letters`` (none given: ``allowed_letters``):
    the camera's best guess at it (``guesses``: the reading with such cards guessed,
    ``GridReading.guesses``) if the unseen cards still hold one, else the likeliest card
    (``seen``: the cards known to lie off the grid), the first of those that makes no
    combination with the cards around it; if all do, the first. A pearl the grid must hold
    and no card shows is the card the camera guesses is it, or else the first one unread.
    (The camera's guess at a card it is unsure of is right far more often than the deck's
    odds: 389 times in 448 on the other renderer's stills through 7 cameras.)"""
    todo = list(cells or unsure_cells(text))
    if guesses:  # the card guessed to be the pearl is named first: it takes the pearl
        todo.sort(key=lambda cell: letter_at(guesses, cell) != PEARL)
    for cell in todo:
        allowed = letters or allowed_letters(game, text)
        names = likeliest(game, seen + text, allowed)
        guess = letter_at(guesses, cell) if guesses else UNSURE
        left = game.in_play if guess == PEARL else game.copies - (seen + text).count(guess)
        if guess in allowed and left > 0 and (names[0] != PEARL or guess == PEARL):
            names = guess + names.replace(guess, "")
        # the pearl the grid must hold is named whatever lies around it
        text = with_letter(text, cell, names[0] if names[0] == PEARL else next(
            (x for x in names if not _combines(game, with_letter(text, cell, x), cell)), names[0]))
    return text


def _combines(game: Game, text: str, cell: Cell) -> bool:
    grid = Grid.parse(text.replace(UNSURE, EMPTY))
    return any(cell in c.cells for c in find_combinations(grid, game.pearl))


def taken_as(t: TableState, text: str, provisional: bool) -> str | None:
    """The reading ``text`` as state ``t`` takes it, its unsure cells settled, or None when
    they cannot be. In play, by the rules: one grid that shifts can make agrees with every
    cell read. While combinations are cleared and refilled (N9), the cells the players take
    away or fill are the only ones that change: a card read ``?`` anywhere else (a sleeve, a
    glare) is the card the grid holds there; one being cleared that reads ``?`` is what the
    phase waits to see. A refilled card read ``?`` is left for the refill to lay unread
    (``provisional``; else it is waited for too)."""
    if UNSURE not in text:
        return text
    grid = t.grid
    assert grid is not None
    if t.phase == PLAY:
        settled = settle(grid, text, SETTLE_SHIFTS)
        return None if settled is None else str(settled)
    if t.phase not in (CLEAR, REFILL):
        return None
    touched = set(t.to_clear) if t.phase == CLEAR else set(refill_cells(t))
    unsure = set(unsure_cells(text))
    if touched & unsure and not (provisional and (t.phase == REFILL or refilled(t, text))):
        return None
    for cell in sorted(unsure - touched):
        text = with_letter(text, cell, grid.at(*cell))
    return text


def undecided(t: TableState, raw: str, provisional: bool) -> bool:
    """Whether state ``t`` cannot take the reading ``raw`` only because its unsure cells
    leave it undecided, not because the reading is impossible under the names the cards
    bear: several grids that shifts can make agree with every cell read (play), or the
    cards scored all lie where they were, one of them read ``?`` (clearing). Such a reading
    says nothing of a card laid unread: no other name is looked for
    (``TableSession._settle``)."""
    if UNSURE not in raw or t.grid is None or taken_as(t, raw, provisional) is not None:
        return False
    if t.phase == PLAY:
        return agreeing(t.grid, raw, SETTLE_SHIFTS) > 1
    if t.phase != CLEAR:
        return False
    # the cards scored read ``?`` taken as still there: the players have not begun to clear
    # (they may yet clear every card scored); once they have, those they leave say which
    # combination never was
    gone = scored(t)
    for cell in set(unsure_cells(raw)) & set(t.to_clear):
        raw = with_letter(raw, cell, gone.get(cell, UNSURE))
    fit = fits(t, raw)
    return fit is not None and fit.waiting == len(t.to_clear)


def refill_read(t: TableState, text: str, cells: Sequence[Cell], guesses: str = "") -> Refill:
    """The refill the reading ``text`` shows in the refill ``cells`` (all read, no pearl),
    a card read ``?`` among them laid under a provisional name (``provisional_names``; the
    camera's ``guesses``, if any)."""
    assert t.rules is not None
    unread = tuple(cell for cell in cells if letter_at(text, cell) == UNSURE)
    if unread:
        text = provisional_names(t.game, text, t.rules.known_discard.letters(), unread, GEMS,
                                 guesses)
    return Refill("".join(letter_at(text, cell) for cell in cells), unread or None)


def _can_refill(t: TableState, text: str, cells: Sequence[Cell]) -> bool:
    """The refill the reading shows can be laid now (N9, N15), or is still being laid."""
    letters = [letter_at(text, cell) for cell in cells]
    if EMPTY in letters:
        return True
    if PEARL in letters:
        return False
    try:
        apply(t, refill_read(t, text, cells))
    except CompanionError:
        return False
    return True


def scored(t: TableState) -> dict[Cell, str]:
    """The cards the last scoring round took, by cell (the clearing phase's to wait for)."""
    return {cell: c.gem for r in t.rounds[-1:] for c in r.combinations for cell in c.cells}


def taken_away(t: TableState, text: str) -> list[bool] | None:
    """While combinations are cleared (N9): per card scored, whether the reading ``text``
    shows it taken away (its cell empty) or still there; None when a cell shows another
    card (refilled already, or no clearing at all)."""
    gone = scored(t)
    shown = [letter_at(text, cell) for cell in t.to_clear]
    if any(x not in (EMPTY, gone.get(cell)) for x, cell in zip(shown, t.to_clear, strict=True)):
        return None
    return [x == EMPTY for x in shown]


def refilled(t: TableState, text: str) -> bool:
    """While combinations are cleared (N9): the reading shows a card laid in a cleared cell
    already (another card than was scored there), the refill seen with the clearing."""
    gone = scored(t)
    return any(letter_at(text, c) not in (EMPTY, UNSURE, gone.get(c)) for c in t.to_clear)


def paid_moves(t: TableState, text: str) -> list[tuple]:  # type: ignore[type-arg]
    """Every shortest way to turn the grid into ``text``, paid with a matching card, then
    with three cards (when no hand can hold a matching one, all its copies seen)."""
    assert t.grid is not None
    found = explain(t.grid, Grid.parse(text), MAX_SHIFTS)
    return [move.as_paid() for move in found.moves] + [
        tuple(s.with_wildcard() for s in move.shifts) for move in found.moves]


class Fit(NamedTuple):
    """How a state takes a reading: where each card lies in it (``TableState.origin``),
    how many cells the phase still waits for (cards still to be cleared or laid), and
    where the cards still to be cleared lie (``TableState.clearing`` and ``to_clear``)."""

    origin: tuple[int, ...]
    waiting: int = 0
    clearing: tuple[int, ...] = ()
    to_clear: tuple[Cell, ...] = ()

    def cell_of_card(self, card: int) -> Cell | None:
        """Where ``card`` lies in the reading so taken: on the grid, or waiting to be
        cleared; None when it is neither (cleared, and its cell perhaps refilled)."""
        return card_cell(card, self.origin, self.clearing, self.to_clear)


def fits(t: TableState, raw: str) -> Fit | None:
    """How state ``t`` takes the reading ``raw`` as it stands: the grid it expects, or one
    legal move away (play), or cleared or refilled cells only (N9); None when it cannot."""
    if t.grid is None:
        return None
    text = taken_as(t, raw, provisional=True)
    if text is None:
        return None
    expected = str(t.grid)
    if text == expected:
        # (while clearing, the grid expected holds the scored cells empty already)
        return Fit(t.origin, len(refill_cells(t)) if t.phase == REFILL else 0, t.clearing,
                   t.to_clear)
    if t.phase == PLAY:
        if card_difference(t.grid, Grid.parse(text)) is not None:
            return None
        for paid in paid_moves(t, text):
            if shifts_problem(t, paid) is None:
                return Fit(permuted(t.origin, paid))
        return None
    if t.phase == OVER:
        return None
    differ = cells_differ(expected, text)
    if t.phase == REFILL:
        cells = refill_cells(t)
        if not set(differ) <= set(cells) or not _can_refill(t, text, cells):
            return None
        return Fit(t.origin, sum(letter_at(text, c) == EMPTY for c in cells))
    if not set(differ) <= set(t.to_clear):
        return None
    if refilled(t, text):  # cleared and refilled between two readings
        return fits(apply(t, Cleared()), raw)
    return Fit(t.origin, sum(letter_at(text, c) != EMPTY for c in t.to_clear), t.clearing,
               t.to_clear)


SETTLE_BUDGET = 63
"""Namings the log is folded again under for one reading or tap (``fitting``): each from the
card's laying on, gone on from the fold kept last time (``table._refold``). Enough for two
cards in play laid unread, each alone and both together (7 + 7 + 49)."""


class OverBudget(Exception):
    """The search for a name went past ``SETTLE_BUDGET``: it settles nothing."""


def in_play(t: TableState) -> tuple[int, ...]:
    """The cards laid unread a name may still matter to: on the grid, or on it when this
    turn began (a card cleared in an earlier turn is in the discard pile, out of reach)."""
    here = set(t.origin) | set(t.turn_origin) | set(t.clearing if t.phase == CLEAR else ())
    return tuple(card for card in t.provisional if card in here)


def fitting(t: TableState, groups: Sequence[tuple[int, ...]], order: str,
            takes: Callable[[TableState], Fit | None], budget: list[int] | None = None,
            until: float = math.inf) -> list[tuple[tuple[tuple[int, str], ...], Fit]]:
    """For each group of cards laid unread, each naming of them all by other names (from
    ``order``) under which the log can be played and the state ``takes`` what follows: the
    names, and how the state takes it. ``budget``: the namings left to try, spent
    (``OverBudget`` once none are, or once ``time.monotonic()`` is past ``until``)."""
    found = []
    for group in groups:
        for letters in product(order, repeat=len(group)):
            if any(t.cards[card] == x for card, x in zip(group, letters, strict=True)):
                continue
            if budget is not None:
                if budget[0] <= 0:
                    raise OverBudget(f"more than {SETTLE_BUDGET} namings to try")
                budget[0] -= 1
            if time.monotonic() > until:
                raise OverBudget("out of time")
            alt = t
            try:
                for card, letter in zip(group, letters, strict=True):
                    alt = apply(alt, Settled(card, letter))
            except CompanionError:
                continue  # what was played cannot happen with those cards
            where = takes(alt)
            if where is not None:
                found.append((tuple(zip(group, letters, strict=True)), where))
    return found


def namings(t: TableState, order: str, takes: Callable[[TableState], Fit | None],
            until: float = math.inf) -> list[tuple[tuple[tuple[int, str], ...], Fit]]:
    """The namings of the cards laid unread in play (``in_play``) under which the log can be
    played and ``takes`` what follows (``fitting``): each card alone, and when none fits,
    each two together; an ``OverBudget`` past ``SETTLE_BUDGET`` namings (or ``until``)."""
    cards = in_play(t)
    budget = [SETTLE_BUDGET]
    found = fitting(t, [(card,) for card in cards], order, takes, budget, until)
    if not found:
        found = fitting(t, [(a, b) for i, a in enumerate(cards) for b in cards[i + 1 :]],
                        order, takes, budget, until)
    return found


def settled_by(card: int, letter: str, fit: Fit, raw: str | None) -> str:
    """The camera, when the reading ``raw`` shows ``letter`` where the card lies in it as
    the state named so takes it (``fit``: on the grid, or waiting to be cleared); else the
    rules."""
    cell = fit.cell_of_card(card)
    if raw is not None and cell is not None and letter_at(raw, cell) == letter:
        return "camera"
    return "rules"
