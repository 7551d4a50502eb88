"""Cards out of sight (deck, discard pile, hands) and the chance that picks from the deck.

At the table the companion only counts these (N14). A simulation also knows which cards
they are: ``Piles``. Chance enters from outside the rules, as a ``Chance``:
``RefillChance`` names the cards laid on the grid from a game record's ``refill`` letters,
``ShuffledChance`` takes each card uniformly from the deck's composition with a
``random.Random`` the caller passes in.

>>> deck = Cards.of("RRRG")
>>> deck.odds()
{'R': Fraction(3, 4), 'G': Fraction(1, 4)}
>>> deck - Cards.of("RG"), len(deck)
(Cards.of('RR'), 4)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from .errors import BadInput
from .game import RuleError
from .grid import GEMS

_INDEX = {gem: i for i, gem in enumerate(GEMS)}


@dataclass(frozen=True, slots=True)
class Cards:
    """A multiset of gem cards: how many of each type, in ``GEMS`` order."""

    counts: tuple[int, ...] = (0,) * len(GEMS)

    def __post_init__(self) -> None:
        if len(self.counts) != len(GEMS) or min(self.counts) < 0:
            raise BadInput(f"cards: {self.counts!r} is not {len(GEMS)} counts of 0 or more")

    @classmethod
    def of(cls, letters: str) -> Cards:
        counts = [0] * len(GEMS)
        for letter in letters:
            if letter not in _INDEX:
                raise BadInput(f"cards: {letter!r} is not a gem letter ({GEMS})")
            counts[_INDEX[letter]] += 1
        return cls(tuple(counts))

    @classmethod
    def each(cls, copies: int) -> Cards:
        """``copies`` cards of every gem type."""
        return cls((copies,) * len(GEMS))

    def __repr__(self) -> str:
        return f"Cards.of({self.letters()!r})"

    def __len__(self) -> int:
        return sum(self.counts)

    def count(self, gem: str) -> int:
        return self.counts[_INDEX[gem]]

    def letters(self) -> str:
        """Every card's letter, grouped by type in ``GEMS`` order."""
        return "".join(gem * n for gem, n in zip(GEMS, self.counts, strict=True))

    def __add__(self, other: Cards) -> Cards:
        return Cards(tuple(a + b for a, b in zip(self.counts, other.counts, strict=True)))

    def __sub__(self, other: Cards) -> Cards:
        if not self.holds(other):
            raise ValueError(f"{self!r} does not hold {other!r}")
        return Cards(tuple(a - b for a, b in zip(self.counts, other.counts, strict=True)))

    def holds(self, other: Cards) -> bool:
        return all(a >= b for a, b in zip(self.counts, other.counts, strict=True))

    def odds(self) -> dict[str, Fraction]:
        """The exact chance of each type being the next card taken, when these are shuffled."""
        total = len(self)
        return {gem: Fraction(n, total) for gem, n in zip(GEMS, self.counts, strict=True) if n}

    def pick(self, index: int) -> str:
        """The letter of card number ``index`` (from 0) in ``letters()`` order."""
        for gem, n in zip(GEMS, self.counts, strict=True):
            if index < n:
                return gem
            index -= n
        raise IndexError("pick: index past the last card")

    def spare(self, n: int) -> Cards:
        """``n`` cards taken one at a time from the type held most (ties: ``GEMS`` order).

        What a simulated player pays for a three-card shift (N5): it keeps the most variety.

        >>> Cards.of("RRRGGB").spare(3)
        Cards.of('RRG')
        """
        counts = list(self.counts)
        if n > sum(counts):
            raise ValueError(f"cannot spare {n} cards from {len(self)}")
        taken = [0] * len(GEMS)
        for _ in range(n):
            i = max(range(len(GEMS)), key=lambda k: (counts[k], -k))
            counts[i] -= 1
            taken[i] += 1
        return Cards(tuple(taken))


@dataclass(frozen=True, slots=True)
class Piles:
    """Which cards the deck, the discard pile and each hand hold (simulations only)."""

    deck: Cards
    discard: Cards
    hands: tuple[Cards, ...]


class Chance(Protocol):
    """Where chance enters the rules: the card taken from the top of the deck."""

    def card(self, deck: Cards | None, to_grid: bool) -> str | None:
        """The gem letter of the card taken; ``deck`` is the deck's composition when known.

        ``None`` means unknown, which is allowed only for a card going into a hand.
        """
        ...


class RefillChance:
    """A game record's chance: its ``refill`` letters name the cards laid on the grid.

    Cards drawn into hands stay unknown, as at the table.
    """

    def __init__(self, letters: str) -> None:
        self.letters = letters
        self.used = 0

    def card(self, deck: Cards | None, to_grid: bool) -> str | None:
        if not to_grid:
            return None
        if self.used >= len(self.letters):
            raise RuleError(
                "N9",
                f"refill lists {len(self.letters)} cards, but the deck gives more: the cell "
                f"after those needs a card too",
            )
        letter = self.letters[self.used]
        self.used += 1
        return letter

    @property
    def left(self) -> str:
        """Letters not laid (yet)."""
        return self.letters[self.used :]


class ShuffledChance:
    """Each card is equally likely to be the next: the deck is shuffled (needs ``Piles``)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def card(self, deck: Cards | None, to_grid: bool) -> str | None:
        if deck is None:
            raise ValueError("a shuffled deck needs its composition: the state has no piles")
        return deck.pick(self.rng.randrange(len(deck)))
