"""Cards the camera read, sure, as another card: when what the players did next (a reading,
a tap) cannot happen in the game as the camera read it, the rules may name the card it
misread (``table.Settled`` of a card not laid unread).

The camera may read a card wrong on every frame (a colour rendered otherwise than it was
calibrated): a combination it hid is not scored, one it made up is. The players then do
the right thing, clear the cards that truly scored or leave the ones that did not and play
on, and the game as read cannot follow. Which card the camera misread, the rules can tell
when one name of one card, and no other, makes what the players did legal.

The cards looked at (``suspects``) are those the players' action touched, a few: the cards
lying where the reading differs from the grid the game expects (a combination the players
cleared holds the misread card, and the shift they made moves it), those in line with them
at most two cards away (one cleared with them and refilled with its like looks unchanged),
and the cards waiting to be cleared (a combination that was not there: the players leave
its cards). Not every card of the grid: the more cards tried, the likelier one fits by
chance, and each try folds the game again. Each is tried under each other gem, the game
folded again with it so (``renamings``); the camera keeps reading it as it did
(``taken_misread``): a name the reading only fits because the camera now reads the card
otherwise is not one the rules settle (a glare, a changed light: the players are asked, as
before). The session (``TableSession._rename``) names a card only when one card fits, never
from a reading with a card unsure (a hand, a sleeve: the rules would name cards from a part
of the view), and only from the first reading the game cannot take since it last took one
(the players may have done more since than the rules can follow).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from contextlib import suppress

from companion.errors import CompanionError
from companion.rules.grid import EMPTY, GEMS, SIZE, Cell

from .table import CLEAR, REFILL, TableState, cell_of, index_of, misnamed
from .unread import Fit, cells_differ, fits, letter_at, with_letter

Takes = Callable[[TableState, int, str], Fit | None]
"""How a state with one card named otherwise (the card, the name the camera read it as)
takes what the players did next; None when it cannot."""


def suspects(t: TableState, raw: str | None) -> tuple[int, ...]:
    """The cards the camera may have misread, for the reading ``raw`` (None: a tap) the
    state ``t`` cannot take: where the reading differs from the grid expected, and the
    cards waiting to be cleared. Not a card laid unread (``session.unread`` names those),
    one a player named, or the pearl."""
    cards: list[int] = []
    if raw is not None and t.grid is not None:
        differ = cells_differ(str(t.grid), raw)
        if t.phase == REFILL:
            # the cards scored are cleared: one more gone from its cell now was lifted (to
            # straighten it) or moved, and shows no other name
            differ = tuple(cell for cell in differ if letter_at(raw, cell) != EMPTY)
        cards += [t.origin[index_of(cell)] for cell in differ]
        # a card cleared with them and refilled with its like looks unchanged: it lies in
        # their line (N6), near enough to have made one combination with them
        cards += [t.origin[index_of((r, c))] for r, c in _near(differ)]
    if t.phase == CLEAR:
        cards += t.clearing
    return tuple(card for card in dict.fromkeys(cards) if card >= 0
                 and card not in t.provisional and card not in t.tapped
                 and t.cards[card] in GEMS)


def _near(cells: Sequence[Cell]) -> list[Cell]:
    """The cells in the row or column of one of ``cells``, at most two cards away: a
    combination of three holding it may hold them."""
    return [(r + dr, c + dc) for r, c in cells for dr, dc in (
        (-2, 0), (-1, 0), (1, 0), (2, 0), (0, -2), (0, -1), (0, 1), (0, 2))
        if 1 <= r + dr <= SIZE and 1 <= c + dc <= SIZE]


def renamings(t: TableState, cards: Sequence[int], takes: Takes) -> list[tuple[int, str]]:
    """Each card of ``cards`` with each other gem under which the log can be played and the
    state ``takes`` what followed (each game folded once: ``table._refold`` keeps them)."""
    found = []
    for card in cards:
        was = t.cards[card]
        for letter in GEMS:
            if letter == was:
                continue
            try:
                alt = misnamed(t, card, letter)
            except CompanionError:  # what was played cannot happen with that card
                continue
            if takes(alt, card, was) is not None:
                found.append((card, letter))
    return found


def fold_renamings(t: TableState, until: float = math.inf, first: int = 0) -> int | None:
    """Fold the game under each other gem of every card ``suspects`` may name later (on
    the grid, or waiting to be cleared), so that ``renamings`` after a reading the game
    cannot take goes on from kept folds (``table._refold``): a few events each, not the
    game since the card was laid. ``until``: a ``time.monotonic()`` to stop at; then the
    place to go on from next time (``first``; None when all were folded), so that a slow
    machine still folds them all in turn."""
    cards = [card for card in t.origin if card >= 0]
    if t.phase == CLEAR:
        cards += t.clearing
    cards = list(dict.fromkeys(cards))
    first %= max(1, len(cards))
    for k, card in enumerate(cards[first:] + cards[:first]):
        was = t.cards[card]
        if card in t.provisional or card in t.tapped or was not in GEMS:
            continue
        for letter in GEMS:
            if time.monotonic() > until:  # this card again next time: its names done are kept
                return (first + k) % len(cards)
            if letter != was:
                with suppress(CompanionError):  # what was played cannot happen so
                    misnamed(t, card, letter)
    return None


def taken_misread(t: TableState, raw: str, card: int, was: str) -> Fit | None:
    """How state ``t`` takes the reading ``raw`` when the camera reads ``card`` as ``was``,
    not as the card ``t`` holds: the card gone from the grid (cleared), or lying where the
    reading shows ``was``. None when it cannot, or only with the camera reading the card as
    ``t`` names it."""
    waits = _waits(t, card)
    if waits is not None and letter_at(raw, waits) == t.cards[card]:
        return None  # the camera reads it as named: not the camera that misread it
    fit = fits(t, raw)
    if fit is not None:
        return fit if card not in fit.origin else None
    found = _read_as(t, raw, card, was)
    return None if found is None else found[1]


def _read_as(t: TableState, raw: str, card: int, was: str) -> tuple[str, Fit] | None:
    """The reading ``raw`` with ``card`` under the name ``t`` gives it, in a cell where the
    reading shows ``was``, that ``t`` takes with the card lying in that cell; and how."""
    for at in range(SIZE * SIZE):
        cell = cell_of(at)
        if letter_at(raw, cell) != was:
            continue
        text = with_letter(raw, cell, t.cards[card])
        fit = fits(t, text)
        if fit is not None and (fit.origin[at] == card or _waits(t, card) == cell):
            return text, fit
    return None


def _waits(t: TableState, card: int) -> Cell | None:
    """Where ``card`` lies waiting to be cleared (N9); None when it does not."""
    return t.to_clear[t.clearing.index(card)] if t.phase == CLEAR and card in t.clearing else None


def as_read(t: TableState, raw: str) -> str:
    """The reading ``raw`` with the cards the rules named otherwise than the camera reads
    them (``TableState.misnamed``) under their names, where they lie in it; ``raw`` as it is
    when the state takes it so, or no such card explains it."""
    around = [(card, was) for card, was in t.misnamed
              if card in t.origin or card in t.clearing]
    if not around or fits(t, raw) is not None:
        return raw
    for card, was in around:
        found = _read_as(t, raw, card, was)
        if found is not None:
            return found[0]
    return raw
