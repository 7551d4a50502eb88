"""What the players are told of the cards the camera cannot read (``session.unread``): where
such a card lies and the name it counts as, and how it was settled, in players' words.

>>> card_name("O"), card_name("*")
('an amber', 'the pearl')
"""

from __future__ import annotations

from companion.rules.grid import GEM_NAMES, PEARL, SIZE, Cell

from .table import TableState


def card_name(letter: str) -> str:
    return "the pearl" if letter == PEARL else f"{article(GEM_NAMES[letter])} {GEM_NAMES[letter]}"


def article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def unread_cells(t: TableState) -> tuple[Cell, ...]:
    """The cells of the cards on the grid laid unread, still under a provisional name."""
    return tuple(sorted((i // SIZE + 1, i % SIZE + 1) for i, card in enumerate(t.origin)
                        if card in t.provisional))


def unread_prompt(t: TableState) -> str:
    """The prompt's word on the cards on the grid still under a provisional name."""
    cells = unread_cells(t)
    if not cells or t.grid is None:
        return ""
    names = [card_name(t.grid.at(*cell)) for cell in cells]
    where = " and ".join(f"row {row}, card {col}" for row, col in cells)
    if len(cells) == 1:
        return (f"The camera cannot read the card in {where}: it counts as {names[0]} until "
                f"it shows; tap it if it is another card.")
    return (f"The camera cannot read the cards in {where}: they count as "
            f"{' and '.join(names)} until they show; tap one if it is another card.")


def card_words(t: TableState, card: int) -> str:
    """A card, in players' words: "The card in row 3, card 1" where it lies now."""
    if card not in t.origin:
        return "The card the camera could not read"
    at = t.origin.index(card)
    return f"The card in row {at // SIZE + 1}, card {at % SIZE + 1}"


def settled_words(t: TableState, told: tuple[int, str, str, bool]) -> str:
    """What the players are told of a card just settled (``TableSession._settle``): its
    name, who named it, and whether the scores were counted again."""
    card, letter, by, again = told
    if by == "likeliest":
        return (f"{card_words(t, card)} is not the card the camera took it for: it counts as "
                f"{card_name(letter)} until it shows.")
    how = {"camera": "the camera read it", "tap": "no other card lets the tap be taken"}.get(
        by, "no other card fits the moves since")
    return (f"{card_words(t, card)} was {card_name(letter)}: {how}."
            + (" The scores are counted again." if again else ""))
