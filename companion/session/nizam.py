"""The live session of a Nizam or Pearl of the East game: readings and taps in, events out.

Every event is committed to the game store before the state it makes is shown. A stable
grid reading that differs from the grid the session expects is explained as shifts
(``rules.explain``), checked against the active player's hand, and either logged with a
verdict "legal" or refused with the reason and how to put the grid back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from companion.errors import BadInput, CompanionError
from companion.rules.combination import cleared_cells, find_combinations
from companion.rules.explain import card_difference, explain, settle
from companion.rules.game import Game
from companion.rules.grid import EMPTY, GEM_NAMES, GEMS, PEARL, SIZE, Cell, Grid
from companion.rules.setup import MODE_OF, GameSetup
from companion.rules.shift import Shift
from companion.rules.state import winners
from companion.store import GameStore
from companion.view import PlayerView, ScoredCombination, TableView, Verdict

from . import events as ev
from .core import SessionCore, Shown, locked
from .table import (
    CLEAR,
    OPENING,
    OVER,
    PLAY,
    REFILL,
    UNSURE,
    TableState,
    contested,
    named_reading,
    outlived,
    record_lines,
    shifts_problem,
)
from .table import apply as apply_event
from .table import refill_count as _refill_count

MAX_SHIFTS = 4
TAPS = {kind: ev.KINDS[kind] for kind in ("draw", "wildcard", "end_turn")}
"""The buttons that are an event of their own, with no more to say."""
SETTLE_AT_MOST = 2  # unsure cells the rules may settle; more is a hand, not a misread
SETTLE_SHIFTS = 3
"""Shifts looked for between two stable readings: a hand may hide several."""


def _cells_differ(a: str, b: str) -> tuple[Cell, ...]:
    flat_a, flat_b = a.replace("/", ""), b.replace("/", "")
    return tuple(
        (i // SIZE + 1, i % SIZE + 1) for i, (x, y) in enumerate(zip(flat_a, flat_b, strict=True))
        if x != y
    )


def _payment_text(shifts: Sequence[Shift], grid: Grid) -> str:
    return " + ".join("3 cards" if s.wildcard else f"1 {grid.at(*s.edge)}" for s in shifts)


def _card_name(letter: str) -> str:
    return "the pearl" if letter == PEARL else f"{_article(GEM_NAMES[letter])} {GEM_NAMES[letter]}"


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _asked_again(asked: Sequence[tuple[Cell, str, str]]) -> str:
    """What the players are told of the named cards the camera now reads otherwise."""
    if not asked:
        return ""
    if len(asked) > 1:
        return (f"The camera now reads {len(asked)} cards otherwise than you chose: tap each "
                f"card marked ? and choose again.")
    (row, col), name, now = asked[0]
    return (f"The camera now reads {_card_name(now)} where you chose {_card_name(name)} (row "
            f"{row}, card {col}): tap it and choose again.")


def _held_where_untouched(t: TableState, text: str, game: Game) -> Grid | None:
    """While combinations are cleared and refilled (N9), the cells the players take away or
    fill are the only ones that change: a card read ``?`` anywhere else (a sleeve, a glare)
    is the card the grid holds there. None if a cell being cleared or filled reads ``?``:
    what lies there is what the phase waits to see."""
    grid = t.grid
    assert grid is not None
    touched = set(t.to_clear) if t.phase == CLEAR else set(_refill_cells(game, t))
    unsure = _unsure_cells(text.split("/"))
    if touched.intersection(unsure):
        return None
    return Grid.parse(text.replace(UNSURE, EMPTY)).replace({c: grid.at(*c) for c in unsure})


def _refill_cells(game: Game, t: TableState) -> tuple[Cell, ...]:
    """The cells the refill under way fills (N9: the empty ones, in reading order)."""
    assert t.grid is not None and t.rules is not None
    return tuple(t.grid.empty_cells()[: _refill_count(game, t.rules)])


def _unsure_cells(rows: Sequence[str]) -> tuple[Cell, ...]:
    return tuple((r, c) for r, row in enumerate(rows, 1) for c, x in enumerate(row, 1)
                 if x == UNSURE)


class TableSession(SessionCore[TableState]):
    """One game in the store, with what the camera and the players tell it."""

    PLAYS = tuple(MODE_OF)
    TITLE = "Nizam or Pearl of the East"

    verdict = Shown[Verdict | None]()
    """The last move seen: legal (with its payment) or refused (why, and how to put it back)."""
    reading = Shown[str | None]()
    """The last stable reading of the grid the session took in."""

    def __init__(self, store: GameStore, game_id: int, remake: bool = False) -> None:
        super().__init__(store, game_id, remake)
        self.game: Game = self.setup.game()
        self.names = self.setup.names
        self.verdict = None
        self.reading = None
        self._last_cache: tuple[TableState, dict[int, int]] | None = None

    @classmethod
    def new(cls, store: GameStore, game: Game, names: Sequence[str] = ()) -> TableSession:
        return cls.start(store, GameSetup.of_game(game, names))

    @classmethod
    def start(cls, store: GameStore, setup: GameSetup, recording: str | None = None
              ) -> TableSession:
        """A new game in ``store``; ``recording``: the recording ``companion replay`` plays
        (kept in the header, so a replay killed part way finds its game again)."""
        extra = {"recording": recording} if recording is not None else {}
        return cls(store, store.new_game({**setup.header(), **extra}))

    # -- the game's own part of the core -------------------------------------------------

    def begin(self, setup: GameSetup) -> TableState:
        return TableState(setup.game())

    def apply(self, state: TableState, event: ev.Event) -> TableState:
        return apply_event(state, event)

    def over(self, state: TableState) -> bool:
        return state.phase == OVER

    def record_lines(self) -> list[dict[str, Any]]:
        return record_lines(self.state)

    # -- events ------------------------------------------------------------------------

    @locked
    def tap(self, action: str, *args: Any) -> None:
        """A button on the screen: draw, wildcard, end_turn, undo, confirm_misread, fix."""
        self.message = ""
        try:
            if action == "undo":
                before = self.state
                self.undo()
                self.verdict = None
                self._names_back(before)
            elif action == "fix":
                row, col, letter = args
                # on the opening layout, the name belongs to the card shown there now
                layout = self.reading if self.state.phase == OPENING else None
                self.commit(ev.Fix((int(row), int(col)), str(letter), layout))
                self.verdict = None
                if self.state.phase == OPENING and self.reading is not None:
                    # the camera has no new reading to give: the name may complete its last
                    self._opening(self.reading)
            elif action == "confirm_misread":
                if self.reading is None:
                    raise BadInput("no reading to set aside")
                self.commit(ev.Misread(self.reading))
                self.verdict = None
            elif action in TAPS:
                self.commit(TAPS[action]())
                if action == "wildcard" and self.verdict is not None and self.state.shifts:
                    shifts = self.state.shifts
                    self.verdict = replace(self.verdict, shifts=tuple(map(str, shifts)), payment=(
                        _payment_text(shifts, self.state.turn_start.grid)
                        if self.state.turn_start else ""))
            else:
                raise BadInput(f"unknown tap {action!r}")
        except CompanionError as err:
            self.message = str(err)

    # -- readings ----------------------------------------------------------------------

    @property
    def unsure_taken(self) -> int:
        """How many cells read ``?`` a stable reading may hold for the session to be given
        it. Before the opening grid is set up, any number: the screen shows every unsure
        card outlined, to be tapped and named (a hand resting over the layout is shown too,
        and makes no event and loses no name). In play, ``SETTLE_AT_MOST``: more is a hand
        over the grid, not a misread."""
        return SIZE * SIZE if self.state.phase == OPENING else SETTLE_AT_MOST

    @locked
    def on_reading(self, rows: Sequence[str]) -> None:
        """A stable reading of the grid, as row strings. A reading with unsure cells counts
        in play when the rules settle them (one grid that shifts can make agrees with every
        cell read): a misread or two need no tap. Before the opening grid is set up, the
        cards the players named complete it (``_opening``)."""
        text = "/".join(rows)
        if len(text) != SIZE * SIZE + SIZE - 1:
            return
        t = self.state
        if t.phase == OPENING:
            self._opening(text)
            return
        if UNSURE in text:
            if t.grid is None or text.count(UNSURE) > SETTLE_AT_MOST:
                return
            if t.phase == PLAY:
                settled = settle(t.grid, text, SETTLE_SHIFTS)
            elif t.phase in (CLEAR, REFILL):
                settled = _held_where_untouched(t, text, self.game)
            else:
                return
            if settled is None:
                return
            text = str(settled)
        if text in t.misreads:
            return
        self.reading = text
        if t.phase == OVER or t.grid is None:
            return
        expected = str(t.grid)
        if text == expected and t.phase != CLEAR:
            if self.verdict is not None and not self.verdict.legal:
                self.verdict = None
            return
        if t.phase == PLAY:
            self._play(t, text)
        elif t.phase == CLEAR:
            self._clear(t, text)
        elif t.phase == REFILL:
            self._refill(t, text)

    def _refuse(self, reason: str, cells: tuple[Cell, ...], shifts: Sequence[str] = (),
                hint: str = "") -> None:
        self.verdict = Verdict(False, tuple(shifts), "", reason, cells, hint)

    def _opening(self, text: str) -> None:
        """The opening layout read as ``text``: set up once it is whole, the cells a player
        named (``Fix``) taking their names. A card unsure with no name keeps the game
        waiting, but the reading is shown, so the players can tap and name it."""
        if text in self.state.misreads:
            return
        stale = outlived(self.state, text)
        if stale:  # gathered or dealt again: the names were the old cards'
            self.commit(ev.Relaid(stale))
        if text != self.reading:  # a refusal (N2) was of the layout read before
            self.verdict = None
        self.reading = text
        whole = named_reading(self.state, text)
        if EMPTY in whole or UNSURE in whole:
            return
        try:
            self.commit(ev.Setup(whole))
            self.verdict = None
        except CompanionError as err:
            grid = Grid.parse(whole)
            cells = tuple(cleared_cells(find_combinations(grid, self.game.pearl)))
            self._refuse(str(err), cells)

    def _names_back(self, before: TableState) -> None:
        """After an undo on the opening layout: names a ``Relaid`` dropped are back. The
        players say the cards were not laid anew, so the names hold for the cards the camera
        reads now (``Kept``; else the next reading would drop them again), and may complete
        the layout, as a name just given does."""
        t = self.state
        if t.phase != OPENING or before.phase != OPENING or self.reading is None:
            return
        had = {cell for cell, _ in before.named}
        back = tuple(cell for cell, _ in t.named if cell not in had)
        if back:
            self.commit(ev.Kept(back, self.reading))
            self._opening(self.reading)

    def _play(self, t: TableState, text: str) -> None:
        assert t.grid is not None
        back = "put the cards back as the screen shows, or tap a misread cell to fix it"
        after = Grid.parse(text)
        changed = card_difference(t.grid, after)  # asked, so explain never refuses
        if changed is not None:
            self._refuse(f"the cards changed ({changed}): {back}",
                         _cells_differ(str(t.grid), text))
            return
        found = explain(t.grid, after, MAX_SHIFTS)
        if not found.moves:
            self._refuse(f"no {MAX_SHIFTS} shifts or fewer make this grid: {back}",
                         _cells_differ(str(t.grid), text))
            return
        first_error = ""
        # A matching card first; when no hand can hold one (all copies seen), three cards.
        candidates = [move.as_paid() for move in found.moves] + [
            tuple(s.with_wildcard() for s in move.shifts) for move in found.moves
        ]
        for paid in candidates:
            problem = shifts_problem(t, paid)
            if problem is not None:
                first_error = first_error or str(problem)
                continue
            self.commit(ev.Shifts(tuple(paid)))
            self.verdict = Verdict(True, tuple(map(str, paid)), _payment_text(paid, t.grid), "",
                                   _cells_differ(str(t.grid), text))
            return
        move = found.moves[0]
        undo = " then ".join(str(s.opposite().plain()) for s in reversed(move.shifts))
        self._refuse(f"illegal: {first_error}", _cells_differ(str(t.grid), text),
                     [str(s) for s in move.shifts], f"to put it back: {undo}")

    def _clear(self, t: TableState, text: str) -> None:
        assert t.grid is not None
        expected = str(t.grid)
        differ = set(_cells_differ(expected, text))
        if not differ <= set(t.to_clear):
            self._refuse("only the highlighted cards should leave the grid",
                         tuple(sorted(differ - set(t.to_clear))))
            return
        scored = {cell: c.gem for r in t.rounds[-1:] for c in r.combinations for cell in c.cells}
        reading = Grid.parse(text)
        shown = [reading.at(*cell) for cell in t.to_clear]
        old = [scored.get(cell) for cell in t.to_clear]
        if all(x in (EMPTY, was) for x, was in zip(shown, old, strict=True)) and any(
            x != EMPTY for x in shown
        ):
            return  # the players have not taken them all yet
        self.verdict = None
        self.commit(ev.Cleared())
        if self.state.phase == REFILL and text != str(self.state.grid):
            self._refill(self.state, text)

    def _refill(self, t: TableState, text: str) -> None:
        assert t.grid is not None
        cells = _refill_cells(self.game, t)
        reading = Grid.parse(text)
        differ = set(_cells_differ(str(t.grid), text))
        if not differ <= set(cells):
            self._refuse("only the empty cells should change while refilling",
                         tuple(sorted(differ - set(cells))))
            return
        letters = "".join(reading.at(*cell) for cell in cells)
        if EMPTY in letters:
            return  # refill under way
        if any(x not in GEMS for x in letters):
            self._refuse("a refilled card reads as the pearl", cells)
            return
        try:
            self.commit(ev.Refill(letters))
            self.verdict = None
        except CompanionError as err:
            self._refuse(str(err), cells)

    # -- what the screen shows -----------------------------------------------------------

    @locked
    def view(self) -> TableView:
        """What the screen shows now; cheap when nothing changed (the screen polls it)."""
        return self.kept_view(self._build_view)

    def _build_view(self) -> TableView:
        t = self.state
        game = self.game
        rules = t.rules
        last = self._last_turns()
        players = tuple(
            PlayerView(
                name=self.names[p],
                score=rules.scores[p] if rules else 0,
                hand=rules.hands[p] if rules else 3,
                tasks_left=tuple(rules.tasks[p]) if rules and game.pearl else
                (tuple(GEMS) if game.pearl else ()),
                last_turn=last.get(p),
            )
            for p in range(game.players)
        )
        rounds = t.rounds if t.phase in (CLEAR, REFILL) else t.last_rounds
        combos = tuple(
            ScoredCombination(c.gem, c.cells, 0 if game.pearl else c.points)
            for r in rounds for c in r.combinations
        )
        grid = t.grid
        rows = tuple(str(grid).split("/")) if grid else tuple(self._opening_shown(t).split("/"))
        pearl = next((cell for cell, x in grid.positions() if x == PEARL), None) if grid else None
        highlight: tuple[Cell, ...] = ()
        if t.phase == CLEAR:
            highlight = t.to_clear
        elif t.phase == REFILL and rules is not None and grid is not None:
            highlight = _refill_cells(game, t)
        elif self.verdict is not None:
            highlight = self.verdict.cells
        elif t.phase == OPENING:
            highlight = _unsure_cells(rows)
        return TableView(
            mode=self.setup.kind,
            players=players,
            active=rules.active if rules else 0,
            turn=(rules.turn + 1) if rules else 0,
            grid=rows,
            deck=rules.deck if rules else game.setup_deck,
            discard=rules.discard if rules else 0,
            deck_runs_out=rules.runs_out if rules else 0,
            deck_runs_out_limit=game.deck_limit,
            verdict=self.verdict,
            combinations=combos,
            turn_points=sum(r.points for r in rounds),
            prompt=self._prompt(t),
            highlight=highlight,
            pearl=pearl,
            ended=t.phase == OVER,
            winners=tuple(winners(game, rules)) if rules and t.phase == OVER else (),
            message=self.message,
            options=game.options.to_json(),
            game_id=self.game_id,
            actions=self._actions(t),
        )

    def _opening_shown(self, t: TableState) -> str:
        """The opening layout as the screen shows it: the last reading, named cells named."""
        return named_reading(t, self.reading or "/".join([EMPTY * SIZE] * SIZE))

    def _actions(self, t: TableState) -> tuple[str, ...]:
        """The buttons that mean something now (N3, N5): the others are greyed."""
        actions = []
        if t.phase == PLAY:
            if not t.shifts:
                actions.append("draw")
                if not t.wildcard_next:  # tapped before the move: pays the next shift
                    actions.append("wildcard")
            else:
                actions.append("end_turn")
                if not t.shifts[-1].wildcard:
                    actions.append("wildcard")
        if self.can_undo:
            actions.append("undo")
        return tuple(actions)

    def _last_turns(self) -> dict[int, int]:
        """Each player's points in their last finished turn (cascades included), read back
        from the newest state; kept until the history changes, as the screen asks often."""
        newest = self.history[-1]
        if self._last_cache is not None and self._last_cache[0] is newest:
            return self._last_cache[1]
        found: dict[int, int] = {}
        seen_turns = -1
        for t in reversed(self.history):
            if len(found) == self.game.players or t.last_turn_player is None:
                break
            if len(t.turns) != seen_turns and t.last_turn_player not in found:
                found[t.last_turn_player] = sum(r.points for r in t.last_rounds)
            seen_turns = len(t.turns)
        if newest.rules is not None and newest.phase in (CLEAR, REFILL):
            # The turn being scored is the last turn of its player already.
            found[newest.rules.active] = sum(r.points for r in newest.rounds)
        self._last_cache = (newest, found)
        return found

    def _opening_prompt(self, t: TableState) -> str:
        shown = self._opening_shown(t)
        asked = contested(t, self.reading) if self.reading else ()
        unsure = len(_unsure_cells(shown.split("/"))) - len(asked)
        said = _asked_again(asked)
        if unsure:
            said += (" " if said else "") + self._unsure_prompt(unsure)
        if said:
            return said
        if EMPTY not in shown:  # all read and named, not set up: refused (N2), or undone
            read = "Every card is read: tap any card read wrong and choose what it is"
            if self.verdict is not None:  # the refusal says what to do
                return f"{read}."
            return f"{read}; choosing a card starts the game."
        deal = "Deal 3 cards of each gem and the pearl" if self.game.pearl else "Deal 25 cards"
        return f"{deal} face up into the 5×5 grid."

    @staticmethod
    def _unsure_prompt(unsure: int) -> str:
        if unsure == 1:
            return "The camera cannot read one card: tap the card marked ? and choose what it is."
        if unsure > SETTLE_AT_MOST:  # a hand or a sleeve over the layout, most often
            return (f"The camera cannot read {unsure} cards: if anything lies over the grid, "
                    f"clear it; then tap each card still marked ? and choose what it is.")
        return (f"The camera cannot read {unsure} cards: tap each card marked ? and "
                f"choose what it is.")

    def _prompt(self, t: TableState) -> str:
        notice = f" {t.notice}" if t.notice else ""
        if t.phase == OPENING:
            return self._opening_prompt(t) + notice
        assert t.rules is not None
        name = self.names[t.rules.active]
        if t.phase == PLAY:
            if t.shifts:
                return f"{name}: shift again, or tap End turn to score.{notice}"
            return f"{name}'s turn: draw 3 cards (tap Draw) or shift a row or column.{notice}"
        if t.phase == CLEAR:
            return f"Take the highlighted cards to the discard pile.{notice}"
        if t.phase == REFILL:
            n = _refill_count(self.game, t.rules)
            return (f"Lay {n} card{'s' if n != 1 else ''} from the deck into the empty cells, "
                    f"in reading order.{notice}")
        won = winners(self.game, t.rules)
        who = " and ".join(self.names[p] for p in won)
        return f"Game over: {who} win{'s' if len(won) == 1 else ''}.{notice}"
