"""Every game the companion plays, in one place: its name, title, rules, session, screen and
game record. A new game (or a new way to play one) is added here.

The set-up a game starts from is ``rules.setup.GameSetup``, read once where a game comes in;
``kind_of`` gives its entry.

>>> [kind.title for kind in KINDS.values()]
['Nizam', 'Pearl of the East', 'The Desert Sands']
>>> kind_of({"game": "sands", "players": ["Ann", "Bob"]}).screen
'sands'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol

from companion.rules import sands as sands_rules
from companion.rules.errors import CompanionError
from companion.rules.game import OPTION_CHOICES
from companion.rules.record import Record
from companion.rules.replay import replay as replay_turns
from companion.rules.sands import Bag
from companion.rules.setup import NIZAM, PEARL, SANDS, GameSetup
from companion.store import GameStore

from .nizam import TableSession
from .sands import SandsSession, TableProvider

TABLE_SCREEN: Final = "table"
"""The screen that plays a game on a grid of cards, turn by turn (and its controllers' kind,
``companion.view.TableController``)."""
CALLS_SCREEN: Final = "sands"
"""The screen that plays calls and stones drawn from a bag (``view.SandsController``)."""

OddsFor = Callable[[Bag], TableProvider]
"""Given a Sands game's full bag, what gives it its solved table (None: the session's own
loader)."""


class GameSession(Protocol):
    """What every session gives whoever keeps the game: its set-up, the store and game it
    writes to, and its record (DESIGN.md)."""

    @property
    def setup(self) -> GameSetup: ...

    @property
    def game_id(self) -> int: ...

    def record(self) -> str: ...

    def unrecorded(self) -> str: ...


@dataclass(frozen=True)
class GameKind:
    """One game the companion plays.

    ``screen`` is the screen that plays it (``table``: a grid of cards, turn by turn;
    ``sands``: calls and stones from the bag) and so the kind of its record's lines;
    ``start`` and ``open`` give its session for a new game or a stored one (``odds``: a
    Sands game's solved table; None for the session's own); ``replay`` is DESIGN.md's
    summary of a game record of it, checked through the rules; ``options`` the rule
    options (``rules.game.OPTION_CHOICES``) the players choose for it before play."""

    name: str
    title: str
    screen: str
    start: Callable[[GameStore, GameSetup, TableProvider | None], GameSession]
    open: Callable[[GameStore, int, TableProvider | None], GameSession]
    replay: Callable[[Record], dict[str, Any]]
    options: tuple[str, ...] = ()


def _start_table(store: GameStore, setup: GameSetup, _odds: TableProvider | None
                 ) -> TableSession:
    return TableSession.start(store, setup)


def _open_table(store: GameStore, game_id: int, _odds: TableProvider | None) -> TableSession:
    return TableSession(store, game_id)


def _replay_turns(record: Record) -> dict[str, Any]:
    return replay_turns(record).summary()


def _replay_calls(record: Record) -> dict[str, Any]:
    return dict(sands_rules.replay(record).summary())


def _on_the_grid(name: str, title: str, options: tuple[str, ...]) -> GameKind:
    return GameKind(name, title, TABLE_SCREEN, _start_table, _open_table, _replay_turns,
                    options)


KINDS: dict[str, GameKind] = {kind.name: kind for kind in (
    _on_the_grid(NIZAM, "Nizam", tuple(OPTION_CHOICES)),
    # Pearl of the East scores no points, so the bonus does not apply (P5-P7).
    _on_the_grid(PEARL, "Pearl of the East", ("setup_lines", "cascades", "unread_cards")),
    GameKind(SANDS, "The Desert Sands", CALLS_SCREEN, SandsSession.start, SandsSession,
             _replay_calls),
)}


def kind_of(header: GameSetup | Mapping[str, Any]) -> GameKind:
    """The entry of a set-up, or of a header of any form (``GameSetup.from_header``)."""
    setup = header if isinstance(header, GameSetup) else GameSetup.from_header(header)
    return KINDS[setup.kind]


def title_of(header: Mapping[str, Any]) -> str:
    """The title of the game a stored header sets up; ``game`` when it sets up none (a
    damaged header is said where the game is opened, not where it is listed).

    >>> title_of({"game": "pearl", "players": 2}), title_of({"game": "chess"})
    ('Pearl of the East', 'game')
    """
    try:
        return kind_of(header).title
    except CompanionError:
        return "game"
