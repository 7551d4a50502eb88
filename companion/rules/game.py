"""The facts of one game, fixed before play: mode, players, rule options (RULES.md).

Game facts stay apart from the state that play changes (``state.State``).

>>> game = Game("pearl", 5)
>>> game.setup_deck, game.copies, game.deck_limit
(17, 7, None)
>>> Game(players=2, options=Options(bonus="rising")).options
Options(setup_lines='replace', bonus='rising', cascades='score', unread_cards='provisional')
>>> Options.from_json({"bonus": "steep"})
Traceback (most recent call last):
...
companion.rules.game.OptionError: option bonus: 'steep' is not one of flat, rising
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import BadInput, BrokenRule
from .grid import GEMS, SIZE

CLASSIC = "classic"
PEARL_MODE = "pearl"
MODES = (CLASSIC, PEARL_MODE)
RECORD_GAMES = {CLASSIC: "nizam", PEARL_MODE: "pearl"}
"""How each mode is named in a game record's header (DESIGN.md, "Game record")."""

GEM_COPIES = 12
"""Cards of each gem type in the box: 8 × 12 = 96."""
TOTAL_GEMS = GEM_COPIES * len(GEMS)
HAND_START = 3
"""N1, P3: each player draws 3 cards at the start."""
DRAW = 3
"""N3: a draw takes 3 cards."""
GRID_GEMS_PEARL = 3
"""P2: 3 cards of each type (24) and the pearl make the grid."""
MIN_PLAYERS, MAX_PLAYERS = 1, 5

OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "setup_lines": ("replace", "keep"),
    "bonus": ("flat", "rising"),
    "cascades": ("score", "leave"),
    "unread_cards": ("provisional", "ask"),
}
"""Each option with its choices, the default first: the rules' (N2, N8, N10), and how the
companion treats a card its camera cannot read as it is laid (``unread_cards``: laid under a
provisional name the camera or the rules settle later, or asked of the players first)."""
COMPANION_OPTIONS = ("unread_cards",)
"""The options that are the companion's, not the rules': written only when not the default."""


class RuleError(BrokenRule):
    """A move or a game set-up the rules forbid; ``rule`` is the RULES.md ID it breaks."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.detail = message
        super().__init__(f"{rule}: {message}")


class OptionError(BadInput):
    """An unknown rule option or choice."""


@dataclass(frozen=True, slots=True)
class Options:
    """The options a table picks before play (N2 ``setup_lines``, N8 ``bonus``, N10
    ``cascades``; ``unread_cards``, OPTION_CHOICES)."""

    setup_lines: str = "replace"
    bonus: str = "flat"
    cascades: str = "score"
    unread_cards: str = "provisional"

    def __post_init__(self) -> None:
        for name, choices in OPTION_CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise OptionError(f"option {name}: {value!r} is not one of {', '.join(choices)}")

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Options:
        """Options from a record header's ``options`` object; missing ones take the default.

        >>> Options.from_json({"cascades": "leave"}).cascades
        'leave'
        """
        unknown = sorted(set(obj) - set(OPTION_CHOICES))
        if unknown:
            raise OptionError(
                f"unknown option {unknown[0]!r}; options are {', '.join(OPTION_CHOICES)}"
            )
        for name, value in obj.items():
            if not isinstance(value, str):
                raise OptionError(f"option {name}: {value!r} is not one of "
                                  f"{', '.join(OPTION_CHOICES[name])}")
        return cls(**{name: str(value) for name, value in obj.items()})

    def to_json(self) -> dict[str, str]:
        """The options as a header writes them; ``unread_cards`` only when not the default:
        it is no rule, and a game that keeps it is written as it always was."""
        return {name: getattr(self, name) for name in OPTION_CHOICES
                if name not in COMPANION_OPTIONS or getattr(self, name) != OPTION_CHOICES[name][0]}


@dataclass(frozen=True, slots=True)
class Game:
    """Mode (``classic`` Nizam or ``pearl`` Pearl of the East), players 1–5, options."""

    mode: str = CLASSIC
    players: int = 3
    options: Options = Options()

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise OptionError(f"mode {self.mode!r} is not one of {', '.join(MODES)}")
        if isinstance(self.players, bool) or not isinstance(self.players, int) or not (
            MIN_PLAYERS <= self.players <= MAX_PLAYERS
        ):
            raise OptionError(
                f"players: {self.players!r}; the game is for {MIN_PLAYERS} to {MAX_PLAYERS}"
            )

    @property
    def pearl(self) -> bool:
        """True in Pearl of the East."""
        return self.mode == PEARL_MODE

    @property
    def tasks(self) -> int:
        """P1: task cards per player (one of each gem type); none in classic Nizam."""
        return len(GEMS) if self.pearl else 0

    @property
    def copies(self) -> int:
        """Cards of one gem type that can be on the grid, in the deck, discard pile or hands.

        In Pearl each player's task card of that type is out of play (in front of them, or
        removed from the game once completed).
        """
        return GEM_COPIES - (self.players if self.pearl else 0)

    @property
    def in_play(self) -> int:
        """Gems shared by grid, deck, discard pile and hands (N15 without the task cards)."""
        return self.copies * len(GEMS)

    @property
    def setup_deck(self) -> int:
        """The deck once the grid is laid and every player has drawn (N1, P2, P3)."""
        grid_gems = SIZE * SIZE - (1 if self.pearl else 0)
        return self.in_play - grid_gems - HAND_START * self.players

    @property
    def deck_limit(self) -> int | None:
        """N12: the deck running out this many times ends the game; Pearl has no limit (P8)."""
        return None if self.pearl else self.players

    @property
    def record_name(self) -> str:
        return RECORD_GAMES[self.mode]
