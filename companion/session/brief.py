"""Grids the camera held only briefly, and when the game takes them.

A stable reading needs a grid held for a few frames (``companion.live.watcher``). In a video
that is jittery (a frame that reads nothing, a glare) or sparse, a turn's moments (the
shift, the cards cleared, the refill) may each hold for fewer frames than that. Such a grid
is kept, and nothing is made of it on its own: a hand moving cards shows many a grid for a
frame or two. It is taken only when the game needs it: when a stable reading or a tap the
game cannot take follows from the state it makes, every card in it read or outlined, each
step one the rules take (``catching_up``); and, while cards are cleared and laid, before the
stable reading after it (a refill seen for a moment whose cascade the players cleared at
once: the grid after it fits a plain refill too). Of the ways through them, the one through
the most: each is a moment the table was seen in. A refill never seen at all, its cascade
cleared, is named by that cascade where one name only fits (``moves_made``).

>>> from companion.rules.game import Game
>>> from companion.session.events import EndTurn, Setup
>>> t = apply(TableState(Game("classic", 2)), Setup("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"))
>>> shifted = ("RGOGY/RVPBC/RGYOC/BVPRO/YGCBV", "")  # r2< held for a moment
>>> catching_up(t, [shifted], lambda s: taken(s, EndTurn()))
[('RGOGY/RVPBC/RGYOC/BVPRO/YGCBV', (Shifts(shifts=(Shift.parse('r2<'),)),))]
>>> catching_up(t, [shifted], lambda s: False) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product

from companion.errors import CompanionError
from companion.rules.explain import card_difference
from companion.rules.grid import EMPTY, GEMS, PEARL, Cell, Grid

from .events import Cleared, Event, Refill, Shifts
from .misread import as_read
from .table import CLEAR, PLAY, REFILL, TableState, apply, shifts_problem
from .unread import cells_differ, letter_at, paid_moves, refill_cells, refill_read, scored, taken_as

Brief = tuple[str, str]
"""A grid held briefly: the reading (rows joined by "/") and its guesses ("" for none)."""


def taken(t: TableState, event: Event) -> bool:
    """Whether state ``t`` takes ``event``."""
    try:
        apply(t, event)
    except CompanionError:
        return False
    return True


def moves_made(t: TableState, raw: str, guesses: str = "", provisional: bool = True
               ) -> tuple[Event, ...] | None:
    """The events state ``t`` logs on taking the reading ``raw`` (``TableSession`` takes it
    the same way): shifts in play (the first way the hand can pay), the cards scored
    cleared (and the refill seen with them), the refill once every card is laid (a card
    read ``?`` laid under its provisional name, at a table that lays such cards:
    ``provisional``); () for a reading that changes nothing or a step still under way; None
    when ``t`` cannot take it."""
    text = taken_as(t, raw, provisional)
    if text is None or t.grid is None or t.phase not in (PLAY, CLEAR, REFILL):
        return None
    expected = str(t.grid)
    if t.phase == PLAY:
        if text == expected:
            return ()
        if card_difference(t.grid, Grid.parse(text)) is not None:
            return None
        paid = next((p for p in paid_moves(t, text) if shifts_problem(t, p) is None), None)
        return None if paid is None else (Shifts(tuple(paid)),)
    differ = set(cells_differ(expected, text))
    if t.phase == CLEAR:
        if not differ <= set(t.to_clear):
            return None
        gone = scored(t)
        shown = [letter_at(text, cell) for cell in t.to_clear]
        if all(x in (EMPTY, gone.get(cell)) for x, cell in zip(shown, t.to_clear, strict=True)
               ) and any(x != EMPTY for x in shown):
            return ()  # not all taken away yet
        after = apply(t, Cleared())
        if after.phase != REFILL or text == str(after.grid):
            return (Cleared(),)
        rest = moves_made(after, raw, guesses, provisional)
        return None if rest is None else (Cleared(), *rest)
    cells = refill_cells(t)
    letters = "".join(letter_at(text, cell) for cell in cells)
    if PEARL in letters:
        return None
    if not differ <= set(cells):
        return _laid_and_cleared(t, text, cells)
    if EMPTY in letters:
        return ()  # still being laid
    refill = refill_read(t, text, cells, guesses)
    return (refill,) if taken(t, refill) else None


def _laid_and_cleared(t: TableState, text: str, cells: Sequence[Cell]) -> tuple[Event, ...] | None:
    """While cards are laid in the emptied ``cells`` (N9): the reading ``text`` shows them
    laid and a cascade they made cleared already, the refill itself never seen. The cells
    laid that show a card show what was laid; those empty again, with the other cards
    taken away, are the combination the refill made, which names the cards laid there:
    the one name of each (at most two) under which the cascade takes exactly those cells.
    None when no name, or more than one, does."""
    gone = {cell for cell in cells_differ(str(t.grid), text) if letter_at(text, cell) == EMPTY}
    unseen = [cell for cell in cells if letter_at(text, cell) == EMPTY]
    if not unseen or len(unseen) > 2 or any(
            letter_at(text, cell) != EMPTY for cell in cells_differ(str(t.grid), text)
            if cell not in cells):
        return None  # every change but the cards laid is a card taken away
    found = []
    for names in product(GEMS, repeat=len(unseen)):
        named = dict(zip(unseen, names, strict=True))
        refill = Refill("".join(named.get(cell, letter_at(text, cell)) for cell in cells))
        try:
            after = apply(t, refill)
        except CompanionError:
            continue
        if after.phase == CLEAR and set(after.to_clear) == gone | set(unseen):
            found.append((refill, after))
    if len(found) != 1:
        return None
    refill, after = found[0]
    rest = moves_made(after, text, provisional=False)
    return None if not rest else (refill, *rest)


def catching_up(t: TableState, briefly: Sequence[Brief], takes: Callable[[TableState], bool],
                provisional: bool = True) -> list[tuple[str, tuple[Event, ...]]] | None:
    """The grids held briefly (oldest first) that take state ``t`` to one that ``takes``
    what the game could not take (a stable reading, a tap), each with the events it makes:
    in their order, each one the state the others before it made takes as a move; of such
    ways, the one through the most of them (each is a moment the table was seen in: a
    refill and its cascade explain the grid after them better than a refill alone). None
    when none gets there."""

    def through(k: int, s: TableState) -> list[tuple[str, tuple[Event, ...]]] | None:
        if k == len(briefly):
            return [] if takes(s) else None
        best = through(k + 1, s)  # this one left out
        text, guesses = briefly[k]
        text = as_read(s, text) if s.misnamed else text
        made = moves_made(s, text, guesses, provisional)
        if made:
            after = s
            for event in made:
                after = apply(after, event)
            rest = through(k + 1, after)
            if rest is not None and (best is None or len(rest) + 1 > len(best)):
                best = [(text, made), *rest]
        return best

    chain = through(0, t)
    return chain or None
