"""The Desert Sands (RULES.md D1–D6): the bag, the calls, and each call's outcomes as chance.

>>> state = Sands().start()
>>> state.bag
Bag(red=12, yellow=12, green=12, lilac=12)
>>> [(o.drawn, o.probability) for o in state.outcomes("yellow") if o.success]
[('yellow', Fraction(1, 4)), ('green', Fraction(1, 4))]
>>> state = state.after("green", "green")
>>> state.scores, state.turn, str(state.bag)
((5, 0), 0, 'r12y12g11l12')
>>> state.after("lilac", "red").scores
(5, 2)

Decisions RULES.md leaves open (each pinned by a test in tests/sands/):

- Player 0 makes the first call; the players then alternate as D2–D4 say.
- D3's lilac penalty is added before anything else is looked at, also when that failure empties
  the bag: D6 then compares the scores with the penalty in them.
- D5 comes before D6: a success with the last stone that reaches 16 wins by D5, whatever D6
  would have said; a success with the last stone that does not reach 16 goes to D6.
- A player at 16 or more by penalties (``pending``) still collects further penalties: they
  do not end the game (D5) but they count when the bag empties (D6).
- A D6 draw ends the game with no winner: ``winners`` is empty.
- The bag counts are known to both players: stones set aside (D2) are in plain sight.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import BrokenRule, CompanionError
from .grid import NotationError
from .record import Record, RecordError

COLOURS = ("red", "yellow", "green", "lilac")
LETTERS = "rygl"
"""Bag notation letters, one per colour in COLOURS' order: ``r12y12g12l12``."""
PLAYERS = 2
GOAL = 16
"""D5: 16 points right after one's own successful prediction win."""
PENALTY = 2
"""D3: a failed lilac call gives the opponent 2 points."""
DEFAULT_COUNT = 12


class SandsError(BrokenRule):
    """A call or drawn stone the rules do not allow; ``rule`` names the rule it breaks."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(f"{rule}: {message}" if rule else message)


@dataclass(frozen=True, slots=True)
class Call:
    """One row of D3's table: the colours that make this call succeed, its points, and the
    points its failure gives the opponent."""

    colour: str
    succeeds_on: tuple[str, ...]
    points: int
    penalty: int = 0


CALLS = {
    "red": Call("red", ("red", "yellow", "green"), 1),
    "yellow": Call("yellow", ("yellow", "green"), 2),
    "green": Call("green", ("green",), 5),
    "lilac": Call("lilac", ("lilac",), 12, PENALTY),
}


def check_colour(colour: object, what: str = "colour") -> str:
    if colour not in COLOURS:
        raise SandsError(f"{what} {colour!r} is not one of {', '.join(COLOURS)}", "D1")
    return str(colour)


@dataclass(frozen=True, slots=True)
class Bag:
    """Stones per colour: those left in the bag, or (as ``Sands.full``) those a game starts with.

    >>> Bag.parse("r3l2")
    Bag(red=3, yellow=0, green=0, lilac=2)
    >>> str(Bag.parse("r12y12g12l12"))
    'r12y12g12l12'
    >>> Bag.parse("r3x2")
    Traceback (most recent call last):
    ...
    companion.rules.grid.NotationError: bag 'r3x2': character 3 'x' is not a colour letter rygl
    """

    red: int = 0
    yellow: int = 0
    green: int = 0
    lilac: int = 0

    def __post_init__(self) -> None:
        for colour in COLOURS:
            n = getattr(self, colour)
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise SandsError(f"the bag's {colour} count must be a whole number >= 0, not {n!r}")

    @classmethod
    def parse(cls, text: str) -> Bag:
        """Read ``r12y12g12l12``: a letter then its count, any order; a missing colour is 0."""
        counts: dict[str, int] = {}
        pos = 0
        if not text:
            raise NotationError("empty bag: write the counts like r12y12g12l12")
        while pos < len(text):
            letter = text[pos].lower()
            if letter not in LETTERS:
                hint = " (counts cannot be negative)" if letter == "-" else ""
                raise NotationError(f"bag {text!r}: character {pos + 1} {text[pos]!r} is not a "
                                    f"colour letter {LETTERS}{hint}")
            colour = COLOURS[LETTERS.index(letter)]
            if colour in counts:
                raise NotationError(f"bag {text!r}: character {pos + 1} {text[pos]!r} names "
                                    f"{colour} a second time")
            end = pos + 1
            while end < len(text) and text[end].isascii() and text[end].isdigit():
                end += 1
            if end == pos + 1:
                after = text[end : end + 1]
                why = "counts cannot be negative" if after == "-" else "a count must follow it"
                raise NotationError(f"bag {text!r}: character {pos + 1} {text[pos]!r}: {why}")
            counts[colour] = int(text[pos + 1 : end])
            pos = end
        return cls(**counts)

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Bag:
        """DESIGN.md's ``{"red": 12, "yellow": 12, ...}``; a missing colour is 0."""
        for colour in obj:
            check_colour(colour)
        return cls(**{c: obj[c] for c in COLOURS if c in obj})

    def __str__(self) -> str:
        return "".join(f"{letter}{n}" for letter, n in zip(LETTERS, self.counts(), strict=True))

    def count(self, colour: str) -> int:
        return int(getattr(self, check_colour(colour)))

    def counts(self) -> tuple[int, int, int, int]:
        return (self.red, self.yellow, self.green, self.lilac)

    @property
    def total(self) -> int:
        return self.red + self.yellow + self.green + self.lilac

    def without(self, colour: str) -> Bag:
        """The bag after one stone of ``colour`` came out (D2)."""
        left = self.count(colour)
        if left == 0:
            raise SandsError(f"no {colour} stone is left in the bag ({self})", "D2")
        return Bag(**{**self.to_json(), colour: left - 1})

    def within(self, full: Bag) -> bool:
        """True when no colour has more stones than ``full``."""
        return all(n <= f for n, f in zip(self.counts(), full.counts(), strict=True))

    def to_json(self) -> dict[str, int]:
        return {c: self.count(c) for c in COLOURS}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One way a call can go: the stone drawn, its exact chance and the state after it."""

    drawn: str
    probability: Fraction
    success: bool
    state: SandsState


@dataclass(frozen=True, slots=True)
class SandsState:
    """Stones left, both scores, whose turn it is and the winners once the game is over.

    The game is over when it has a winner (D5) or the bag is empty (D6; no winner is a draw).
    """

    bag: Bag
    scores: tuple[int, int] = (0, 0)
    turn: int = 0
    winners: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if len(self.scores) != PLAYERS or any(
            isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in self.scores
        ):
            raise SandsError(f"scores must be {PLAYERS} whole numbers >= 0, not {self.scores!r}")
        if self.turn not in range(PLAYERS):
            raise SandsError(f"turn must be 0 or 1, not {self.turn!r}")
        if len(self.winners) > 1 or any(w not in range(PLAYERS) for w in self.winners):
            raise SandsError(f"winners must be () or one player 0 or 1, not {self.winners!r}")

    @property
    def ended(self) -> bool:
        return bool(self.winners) or self.bag.total == 0

    @property
    def pending(self) -> tuple[int, ...]:
        """D5: players at 16 or more by penalties, who win with their next success."""
        if self.ended:
            return ()
        return tuple(p for p in range(PLAYERS) if self.scores[p] >= GOAL)

    def p_success(self, call: str) -> Fraction:
        """The exact chance that ``call`` succeeds from this bag (0 when the bag is empty)."""
        total = self.bag.total
        hits = sum(self.bag.count(c) for c in CALLS[check_colour(call, "call")].succeeds_on)
        return Fraction(hits, total) if total else Fraction(0)

    def after(self, call: str, drawn: str) -> SandsState:
        """The state after the player to move names ``call`` and draws ``drawn`` (D2–D6)."""
        if self.ended:
            rule = "D6" if self.bag.total == 0 else "D5"
            raise SandsError("the game has ended: no more calls", rule)
        row = CALLS[check_colour(call, "call")]
        bag = self.bag.without(check_colour(drawn, "drawn stone"))
        scores = list(self.scores)
        me, other = self.turn, 1 - self.turn
        if drawn in row.succeeds_on:
            scores[me] += row.points
            if scores[me] >= GOAL:
                return SandsState(bag, (scores[0], scores[1]), me, (me,))
            turn = me
        else:
            scores[other] += row.penalty
            turn = other
        winners: tuple[int, ...] = ()
        if bag.total == 0 and scores[0] != scores[1]:
            winners = (0,) if scores[0] > scores[1] else (1,)
        return SandsState(bag, (scores[0], scores[1]), turn, winners)

    def outcomes(self, call: str) -> tuple[Outcome, ...]:
        """Every stone ``call`` can draw, with its exact probability; they sum to 1."""
        total = self.bag.total
        success_on = CALLS[check_colour(call, "call")].succeeds_on
        return tuple(
            Outcome(c, Fraction(self.bag.count(c), total), c in success_on, self.after(call, c))
            for c in COLOURS
            if self.bag.count(c)
        )

    def summary(self) -> dict[str, Any]:
        """DESIGN.md's ``rules replay`` summary for The Desert Sands."""
        return {
            "scores": list(self.scores),
            "bag": self.bag.to_json(),
            "ended": self.ended,
            "winners": list(self.winners),
        }


@dataclass(frozen=True, slots=True)
class Sands:
    """The game facts: the bag a game starts with (D1; configurable, 12 of each by default)."""

    full: Bag = Bag(DEFAULT_COUNT, DEFAULT_COUNT, DEFAULT_COUNT, DEFAULT_COUNT)

    def start(self) -> SandsState:
        return SandsState(self.full)


ENTRY_KEYS = frozenset({"call", "drawn", "player"})


def replay(record: Record) -> SandsState:
    """Play a game record's calls through the rules; the state after the last one.

    >>> from companion.rules.record import parse_record
    >>> rec = parse_record('{"game": "sands", "bag": "r1l1"}\\n{"call": "red", "drawn": "lilac"}')
    >>> summary = replay(rec).summary()
    >>> summary["scores"], summary["bag"]["red"], summary["ended"], summary["winners"]
    ([0, 0], 1, False, [])

    An entry may carry ``"player"`` (0 or 1); it must then be the player whose turn it is.
    """
    from .setup import GameSetup  # the set-up reads this module's bag: imported when used

    if record.game != "sands":
        raise RecordError(1, f"not a Desert Sands record: the game is {record.game!r}")
    try:  # without a bag, D1's 12 stones of each colour
        state = GameSetup.from_header(record.header).sands().start()
    except CompanionError as err:
        raise RecordError(1, _bare(err), getattr(err, "rule", None) or "D1") from None
    for line, entry in record.entries:
        unknown = sorted(set(entry) - ENTRY_KEYS)
        if unknown or "call" not in entry or "drawn" not in entry:
            what = f"unknown key {unknown[0]!r}" if unknown else "missing 'call' or 'drawn'"
            raise RecordError(line, f'{what}: an entry is {{"call": colour, "drawn": colour}}')
        if "player" in entry and entry["player"] != state.turn and not state.ended:
            # D4: a success keeps the turn, a failure passes it; the entry disagrees.
            raise RecordError(
                line, f"player {entry['player']!r} called but it is player {state.turn}'s turn",
                "D4",
            )
        try:
            state = state.after(entry["call"], entry["drawn"])
        except SandsError as err:
            raise RecordError(line, _bare(err), err.rule) from None
    return state


def _bare(err: ValueError) -> str:
    """The message without the rule prefix, which RecordError adds again."""
    rule = getattr(err, "rule", None)
    text = str(err)
    return text[len(rule) + 2 :] if rule and text.startswith(f"{rule}: ") else text
