"""A game record of Nizam or Pearl of the East, replayed and checked through the rules.

The record's format is DESIGN.md's "Game record". Every line is checked; the first one that
breaks a rule (or the format) is refused with a ``RecordError`` naming its line and rule.

>>> text = '''{"game": "nizam", "players": 2, "options": {"setup_lines": "keep"}}
... {"setup": "RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"}
... {"turn": 1, "shifts": ["r2<"], "refill": "OYB"}
... {"turn": 2, "draw": true}
... '''
>>> played = replay(parse_record(text))
>>> played.summary()
{'scores': [3, 0], 'deck': 59, 'discard': 4, 'deck_runs_out': 0, 'ended': False, 'winners': []}
>>> replay(parse_record(text.replace('"turn": 2', '"turn": 3')))
Traceback (most recent call last):
...
companion.rules.record.RecordError: line 4 (N3): turn 3 out of order: the next turn is 2
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .combination import find_combinations
from .deck import RefillChance
from .errors import CompanionError
from .game import Game, RuleError
from .grid import GEMS, Grid, NotationError
from .nizam import Turn, TurnReport, play
from .record import Record, RecordError, format_record, parse_record
from .setup import MODE_OF, GameSetup
from .shift import Shift
from .state import State, start, summary

__all__ = ["Replay", "game_from_header", "parse_record", "record_text", "replay"]

HEADER_KEYS = ("game", "players", "options")
TURN_KEYS = ("turn", "draw", "shifts", "refill")


@dataclass(frozen=True)
class Replay:
    """A game as played: its facts, the state after set-up and after each turn, the turns."""

    game: Game
    states: tuple[State, ...]
    reports: tuple[TurnReport, ...]

    @property
    def state(self) -> State:
        return self.states[-1]

    def summary(self) -> dict[str, Any]:
        """DESIGN.md's ``rules replay --json`` object."""
        return summary(self.game, self.state)


def game_from_header(header: Mapping[str, Any]) -> Game:
    """The game facts a record's first line gives (line 1 in any error)."""
    unknown = [key for key in header if key not in HEADER_KEYS]
    if unknown:
        raise RecordError(1, f"unknown header key {unknown[0]!r}; keys are "
                          f"{', '.join(HEADER_KEYS)}")
    if header.get("game") not in MODE_OF:
        raise RecordError(1, f"game {header.get('game')!r} is not nizam or pearl")
    try:
        return GameSetup.from_header(header).game()
    except CompanionError as err:
        raise RecordError(1, str(err)) from None


def replay(record: Record) -> Replay:
    """Replay ``record`` from its set-up to its last turn, checking every line."""
    game = game_from_header(record.header)
    if not record.entries:
        raise RecordError(1, "no setup line: the record ends after its header", "N1")
    line, entry = record.entries[0]
    state = _setup(game, line, entry)
    states, reports = [state], []
    for line, entry in record.entries[1:]:
        turn, letters = _turn_entry(game, state, line, entry)
        chance = RefillChance(letters)
        try:
            state, report = play(game, state, turn, chance)
        except RuleError as err:
            raise RecordError(line, err.detail, err.rule) from None
        too_long = _too_long(game, state, chance)
        if too_long is not None:
            raise RecordError(line, *too_long)
        states.append(state)
        reports.append(report)
    return Replay(game, tuple(states), tuple(reports))


def _setup(game: Game, line: int, entry: Mapping[str, Any]) -> State:
    if set(entry) != {"setup"}:
        what = "a turn" if "turn" in entry else f"keys {sorted(entry)}"
        raise RecordError(line, f"the line after the header must be only the setup grid, "
                          f"not {what}", "N1")
    if not isinstance(entry["setup"], str):
        raise RecordError(line, f"setup must be a grid string, not {entry['setup']!r}")
    try:
        grid = Grid.parse(entry["setup"])
        state = start(game, grid)
    except NotationError as err:
        raise RecordError(line, str(err)) from None
    except RuleError as err:
        raise RecordError(line, err.detail, err.rule) from None
    if game.options.setup_lines == "replace":
        combos = find_combinations(grid, game.pearl)
        if combos:
            raise RecordError(line, f"setup holds the combination {combos[0]}; with "
                              f"setup_lines replace N2 leaves none", "N2")
    return state


def _turn_entry(game: Game, state: State, line: int, entry: Mapping[str, Any]
                ) -> tuple[Turn, str]:
    unknown = [key for key in entry if key not in TURN_KEYS]
    if unknown:
        raise RecordError(line, f"unknown key {unknown[0]!r}; a turn line has "
                          f"{', '.join(TURN_KEYS)}")
    number = entry.get("turn")
    if isinstance(number, bool) or not isinstance(number, int):
        raise RecordError(line, f"a turn line needs \"turn\": a number, not {number!r}")
    if state.ended:
        raise RecordError(line, f"turn {number} comes after the game ended with turn "
                          f"{state.turn}", "P9" if game.pearl else "N12")
    if number != state.turn + 1:
        raise RecordError(line, f"turn {number} out of order: the next turn is "
                          f"{state.turn + 1}", "N3")
    has_draw, has_shifts = "draw" in entry, "shifts" in entry
    if has_draw == has_shifts:
        raise RecordError(line, "a turn is a draw or shifts: give exactly one of "
                          "\"draw\": true and \"shifts\"", "N3")
    if has_draw and entry["draw"] is not True:
        raise RecordError(line, f"\"draw\" must be true, not {entry['draw']!r}")
    turn = Turn()
    if has_shifts:
        shifts = entry["shifts"]
        if not isinstance(shifts, list) or not shifts or not all(
            isinstance(s, str) for s in shifts
        ):
            raise RecordError(line, f"\"shifts\" must be a list of one or more shifts such "
                              f"as [\"r2<\", \"c3^!3\"], not {shifts!r}", "N3")
        try:
            turn = Turn(tuple(Shift.parse(s) for s in shifts))
        except NotationError as err:
            raise RecordError(line, str(err)) from None
    letters = entry.get("refill", "")
    if not isinstance(letters, str):
        raise RecordError(line, f"\"refill\" must be a string of gem letters, not {letters!r}")
    bad = [ch for ch in letters if ch not in GEMS]
    if bad:
        raise RecordError(line, f"refill: {bad[0]!r} is not a gem letter ({GEMS})", "N9")
    return turn, letters


def _too_long(game: Game, state: State, chance: RefillChance) -> tuple[str, str] | None:
    """What is wrong with a refill that names more cards than were laid, and the rule."""
    if not chance.left:
        return None
    if state.ended and not game.pearl:
        why, rule = "the deck ran out for the last time", "N12"
    elif state.deck == 0 and state.discard == 0:
        why, rule = "no card was left in the deck or the discard pile", "N11"
    else:
        why, rule = "every emptied cell was filled", "N9"
    return (f"refill lists {len(chance.letters)} cards but only {chance.used} were laid "
            f"({why}); {chance.left!r} left over"), rule


def record_entries(played: Replay) -> list[dict[str, Any]]:
    """The record lines after the header of a game played (simulated or replayed)."""
    entries: list[dict[str, Any]] = [{"setup": str(played.states[0].grid)}]
    for report in played.reports:
        entry: dict[str, Any] = {"turn": report.number}
        if report.turn.is_draw:
            entry["draw"] = True
        else:
            entry["shifts"] = [str(s) for s in report.turn.shifts]
        if report.laid:
            entry["refill"] = report.laid
        entries.append(entry)
    return entries


def record_text(played: Replay) -> str:
    """The whole record of a game played, as DESIGN.md's ``.jsonl`` text."""
    header = GameSetup.of_game(played.game).record_header()
    return format_record(header, record_entries(played))
