"""A game's set-up, fixed before play: which game, who plays, the rule options or the bag.

It is read once, where a game comes in (the start screen, a stored game, a recording, a game
record), by ``GameSetup.from_header``, which reads every form a header has taken:

- a game record's first line (DESIGN.md): ``{"game": "nizam", "players": 3, "options": {…}}``;
  The Desert Sands ``{"game": "sands", "players": [names] (or 2, or none), "bag": {…}}``;
- a recording's ``game.json`` and the start screen: ``"players"`` as the players' names;
- a stored game (``companion.store``): Nizam and Pearl keep ``"players"`` as a count with
  their ``"names"`` beside it (and ``companion replay`` the ``"recording"`` it plays).

and written by ``header`` (the stored game's), ``record_header`` (the game record's) and
``recording_header`` (a recording's ``game.json``, the start screen's choice), in the forms
above, which other tools read.

>>> s = GameSetup.from_header({"game": "nizam", "players": ["Ann", "Bob"],
...                            "options": {"bonus": "rising"}})
>>> s  # doctest: +ELLIPSIS
GameSetup('nizam', ('Ann', 'Bob'), Options(setup_lines='replace', bonus='rising', ...))
>>> s.header()["players"], s.header()["names"], s.record_header()["players"]
(2, ['Ann', 'Bob'], 2)
>>> s.recording_header()["players"]
['Ann', 'Bob']
>>> GameSetup.from_header({"game": "sands", "bag": "r3y3g3l3"}).names
('Player 1', 'Player 2')
>>> GameSetup.from_header({"game": "pearl", "players": 7})
Traceback (most recent call last):
...
companion.rules.game.OptionError: players: 7; the game is for 1 to 5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import BadInput, CompanionError
from .game import MAX_PLAYERS, MIN_PLAYERS, RECORD_GAMES, Game, OptionError, Options
from .record import GAMES
from .sands import PLAYERS, Bag, Sands, SandsError

NIZAM, PEARL, SANDS = GAMES
MODE_OF = {name: mode for mode, name in RECORD_GAMES.items()}
"""The rules' mode of each game played on the grid: ``nizam`` is ``classic``."""


class SetupError(BadInput):
    """A header that names no game, or players in no form a header has had."""


def player_names(names: Sequence[Any], count: int) -> tuple[str, ...]:
    """``count`` names: those given, in order, a missing or blank one as ``Player N``.

    >>> player_names(["Ann", " "], 3)
    ('Ann', 'Player 2', 'Player 3')
    """
    given = [str(n).strip() for n in names[:count]]
    given += [""] * (count - len(given))
    return tuple(name or f"Player {i + 1}" for i, name in enumerate(given))


@dataclass(frozen=True, slots=True)
class GameSetup:
    """``kind``: ``nizam``, ``pearl`` or ``sands`` (as records name it); the players'
    ``names``, one a player; the rule ``options`` (Nizam, Pearl) or the full ``bag``
    (The Desert Sands: D1's 12 of each unless the players chose)."""

    kind: str
    names: tuple[str, ...]
    options: Options = Options()
    bag: Bag | None = field(default=None)

    def __post_init__(self) -> None:
        if self.kind not in GAMES:
            raise SetupError(f"game {self.kind!r} is not one of {', '.join(GAMES)}")
        if not _fits(self.kind, len(self.names)):
            raise _count_error(self.kind, len(self.names))
        if self.kind == SANDS:
            if self.bag is None:
                object.__setattr__(self, "bag", Sands().full)
        elif self.bag is not None:
            raise SetupError(f"{self.kind} is played with cards, not a bag of stones")

    def __repr__(self) -> str:
        extra = (f", bag=Bag.parse({str(self.bag)!r})" if self.kind == SANDS
                 else f", {self.options!r}" if self.options != Options() else "")
        return f"GameSetup({self.kind!r}, {self.names!r}{extra})"

    @property
    def players(self) -> int:
        return len(self.names)

    def game(self) -> Game:
        """The facts of a game played on the grid (Nizam, Pearl of the East)."""
        if self.kind not in MODE_OF:
            raise SetupError(f"{self.kind} is not played on the grid")
        return Game(MODE_OF[self.kind], self.players, self.options)

    def sands(self) -> Sands:
        """The facts of a game of The Desert Sands: the bag it starts with."""
        if self.bag is None:
            raise SetupError(f"{self.kind} is not played with a bag of stones")
        return Sands(self.bag)

    @classmethod
    def of_game(cls, game: Game, names: Sequence[str] = ()) -> GameSetup:
        """The set-up of a game on the grid, the players' names defaulted as needed."""
        return cls(game.record_name, player_names(names, game.players), game.options)

    @classmethod
    def from_header(cls, header: Mapping[str, Any]) -> GameSetup:
        """The set-up any header gives (the forms of the module's doc); keys the set-up
        does not hold (a stored game's ``recording``) are left to their readers."""
        kind = header.get("game")
        if kind not in GAMES:
            raise SetupError(f"game {kind!r} is not one of {', '.join(GAMES)}")
        players = header.get("players", PLAYERS if kind == SANDS else None)
        if isinstance(players, list) and all(isinstance(p, str) for p in players):
            names = player_names(players, len(players))
        elif isinstance(players, int) and not isinstance(players, bool):
            if not _fits(str(kind), players):
                raise _count_error(str(kind), players)
            given = header.get("names")
            names = player_names(given if isinstance(given, list) else [], players)
        else:
            raise SetupError(f"players must be a number {MIN_PLAYERS}-{MAX_PLAYERS} or a "
                             f"list of names, not {players!r}")
        if kind == SANDS:
            return cls(SANDS, names, bag=_bag(header.get("bag")))
        options = header.get("options", {})
        if not isinstance(options, dict):
            raise SetupError(f"options must be an object, not {options!r}")
        return cls(str(kind), names, Options.from_json(options))

    def header(self) -> dict[str, Any]:
        """The header a stored game keeps (``companion.store``)."""
        if self.kind == SANDS:
            return self.record_header()
        return {**self.record_header(), "names": list(self.names)}

    def record_header(self) -> dict[str, Any]:
        """The first line of the game's record (DESIGN.md, "Game record")."""
        if self.bag is not None:
            return {"game": self.kind, "players": list(self.names), "bag": self.bag.to_json()}
        return {"game": self.kind, "players": self.players, "options": self.options.to_json()}

    def recording_header(self) -> dict[str, Any]:
        """A recording's ``game.json`` (DESIGN.md, "Recording"), which is also what the
        start screen hands the app: the record's header with the players by name."""
        return {**self.record_header(), "players": list(self.names)}


def _fits(kind: str, players: int) -> bool:
    if kind == SANDS:
        return players == PLAYERS
    return MIN_PLAYERS <= players <= MAX_PLAYERS


def _count_error(kind: str, players: int) -> CompanionError:
    if kind == SANDS:
        return SandsError(f"The Desert Sands has {PLAYERS} players, not {players}", "D1")
    return OptionError(f"players: {players!r}; the game is for {MIN_PLAYERS} to {MAX_PLAYERS}")


def _bag(bag: Any) -> Bag:
    if bag is None:
        return Sands().full
    if isinstance(bag, str):
        return Bag.parse(bag)
    if not isinstance(bag, dict):
        raise SandsError(f"'bag' must be an object of counts per colour, not {bag!r}", "D1")
    return Bag.from_json(bag)
