"""What the players are told of the cards the camera cannot read (``session.unread``): where
such a card lies and the name it counts as, and how it was settled, in players' words.

>>> card_name("O"), card_name("*")
('an amber', 'the pearl')
"""

from __future__ import annotations

from companion.rules.combination import Combination
from companion.rules.grid import GEM_NAMES, PEARL, Cell
from companion.words import article, plural

from .table import TableState, card_cell, cell_of, index_of


def card_name(letter: str) -> str:
    return "the pearl" if letter == PEARL else f"{article(GEM_NAMES[letter])} {GEM_NAMES[letter]}"


def unread_cells(t: TableState) -> tuple[Cell, ...]:
    """The cells of the cards on the grid laid unread, still under a provisional name."""
    return tuple(sorted(cell_of(i) for i, card in enumerate(t.origin)
                        if card in t.provisional))


def unread_prompt(t: TableState) -> str:
    """The prompt's word on the cards on the grid still under a provisional name: those
    the camera cannot read, and those it reads as a card they are not (``misnamed``)."""
    if t.grid is None:
        return ""
    misread = dict(t.misnamed)
    said = []
    for row, col in unread_cells(t):
        card = t.origin[index_of((row, col))]
        if card in misread:
            said.append(f"The card in row {row}, column {col} is not the "
                        f"{GEM_NAMES[misread[card]]} the camera reads: it counts as "
                        f"{card_name(t.grid.at(row, col))} until the moves show what it is; "
                        f"tap it if it is another card.")
    cells = tuple(c for c in unread_cells(t)
                  if t.origin[index_of(c)] not in misread)
    return " ".join(said + [_unread_words(t, cells)] if cells else said)


def _unread_words(t: TableState, cells: tuple[Cell, ...]) -> str:
    assert t.grid is not None
    names = [card_name(t.grid.at(*cell)) for cell in cells]
    where = " and ".join(f"row {row}, column {col}" for row, col in cells)
    if len(cells) == 1:
        return (f"The camera cannot read the card in {where}: it counts as {names[0]} until "
                f"the camera reads it; tap it if it is another card.")
    return (f"The camera cannot read the cards in {where}: they count as "
            f"{' and '.join(names)} until the camera reads them; tap one if it is another card.")


def card_words(t: TableState, card: int) -> str:
    """A card, in players' words: "The card in row 3, column 1" where it lies now."""
    cell = t.cell_of_card(card)
    if cell is None:
        return "The card the camera could not read"
    return f"The card in row {cell[0]}, column {cell[1]}"


def settled_words(t: TableState, told: tuple[int, str, str, bool]) -> str:
    """What the players are told of a card just settled (``TableSession._settle``): its
    name, who named it, and whether the scores were counted again."""
    card, letter, by, again = told
    if by == "likeliest":
        return (f"{card_words(t, card)} is not the card the camera took it for: it counts as "
                f"{card_name(letter)} until the moves or a tap name it.")
    how = {"camera": "the camera read it", "tap": "no other card lets the tap be taken"}.get(
        by, "no other card fits the moves since")
    return (f"{card_words(t, card)} was {card_name(letter)}: {how}."
            + (" The scores are counted again." if again else ""))


NUMBERS = {3: "three", 4: "four", 5: "five"}


def misread_words(before: TableState, after: TableState, card: int) -> str:
    """What the players are told of a card the camera read, sure, as another, that the
    rules just named (``before``: the game as read; ``after``: as it was played): where it
    lay, its name and the camera's, and what that changed (a combination it made scored,
    one it was taken to make never was)."""
    where = _lay(before, card) or _lay(after, card)
    said = "The card" if where is None else f"The card in row {where[0]}, column {where[1]}"
    letter, was = after.cards[card], before.cards[card]
    what = "no other card fits the moves since"
    made = _combination_of(after, card)
    if made is not None:
        what = f"the {NUMBERS.get(len(made.cells), len(made.cells))} {plural(letter)} scored"
    elif _combination_of(before, card) is not None:
        what = f"it made no line of {plural(was)}"
    again = after.rules is not None and before.rules is not None and (
        after.rules.scores != before.rules.scores)
    recount = " The scores are counted again." if again else ""
    if card in after.provisional:  # the card is known, not what it is (``unread_prompt``)
        return f"{said} is not {card_name(was)}: {what}.{recount}"
    return f"{said} was {card_name(letter)}, not {card_name(was)}: {what}.{recount}"


def _lay(t: TableState, card: int) -> Cell | None:
    """Where ``card`` lies on the grid, or waits to be cleared; None when it does neither."""
    return card_cell(card, t.origin, t.clearing, t.to_clear)


def _combination_of(t: TableState, card: int) -> Combination | None:
    """The combination holding ``card`` that the turn being scored scored, if any."""
    cell = card_cell(card, (), t.clearing, t.to_clear)
    return next((c for r in t.rounds for c in r.combinations if cell in c.cells), None)
