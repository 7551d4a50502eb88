"""The live session of a Nizam or Pearl of the East game: readings and taps in, events out.

Every event is committed to the game store before the state it makes is shown. A stable
grid reading that differs from the grid the session expects is explained as shifts
(``rules.explain``), checked against the active player's hand, and either logged with a
verdict "legal" or refused with the reason and how to put the grid back. A card the camera
cannot read as it is laid (the opening layout, a refill) is laid under a provisional name
and settled later, by the camera or by the rules (``session.unread``, ``events.Settled``),
unless the table chose to be asked first (option ``unread_cards``); so is a card the camera
read, sure, as another, once the players' next move fits one other name of one card only
(``session.misread``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from typing import Any, NamedTuple

from companion.errors import BadInput, CompanionError
from companion.rules.combination import cleared_cells, find_combinations
from companion.rules.explain import card_difference
from companion.rules.game import Game, RuleError
from companion.rules.grid import EMPTY, GEMS, PEARL, SIZE, Cell, Grid
from companion.rules.setup import MODE_OF, GameSetup
from companion.rules.shift import Shift
from companion.rules.state import winners
from companion.store import GameStore
from companion.view import OpeningAsk, PlayerView, ScoredCombination, TableView, Verdict

from . import events as ev
from .brief import (
    Brief,
    CatchUpBudget,
    catching_up,
    laid_refill,
    moves_made,
    refills_behind,
    shifted_before,
    turn_behind,
)
from .brief import taken as taken_by
from .core import SessionCore, Shown, locked
from .misread import (
    Takes,
    as_read,
    fold_renamings,
    renamings,
    suspects,
    taken_misread,
)
from .table import (
    CLEAR,
    OPENING,
    OVER,
    PLAY,
    REFILL,
    UNSURE,
    TableState,
    contested,
    fold,
    named_reading,
    outlived,
    record_lines,
    shifts_problem,
    short_of_three,
    unfinished_words,
    wildcard_problem,
)
from .table import apply as apply_event
from .table import refill_count as _refill_count
from .unread import (
    MAX_SHIFTS,
    SETTLE_SHIFTS,
    Fit,
    OverBudget,
    allowed_letters,
    cells_differ,
    fits,
    in_play,
    letter_at,
    likeliest_in,
    namings,
    paid_moves,
    provisional_names,
    refill_cells,
    refill_read,
    settled_by,
    taken_as,
    taken_away,
    undecided,
    unsure_cells,
)
from .unread_words import (
    card_name,
    misread_words,
    settled_words,
    unread_cells,
    unread_prompt,
)

__all__ = ["SETTLE_AT_MOST", "SETTLE_SHIFTS", "TableSession"]

TAPS = {kind: ev.KINDS[kind] for kind in ("draw", "wildcard", "end_turn")}
"""The buttons that are an event of their own, with no more to say."""
MOVES = ("setup", "shifts", "wildcard", "draw", "end_turn", "cleared", "refill")
"""The events that are moves of the game (not a card named, a reading set aside)."""
SETTLE_AT_MOST = 2  # unsure cells the rules may settle; more is a hand, not a misread
BRIEF_KEPT = 16
"""Grids the camera held only briefly, kept since the last stable reading taken (the
moments of one turn: a shift or two, then the cards cleared and the refill, twice more for
each cascade: a chain of four cascades is ten). Fewer, and the oldest moment of a long chain
would be forgotten: its cascade unscored, and no word said."""
UNFOLLOWED = ("The cards moved too fast for the camera to follow every step: check the "
              "scores and the deck, and fix them if a move is missing")
"""What the players are told when the grids held briefly were too many ways to follow."""
FOLD_AHEAD_SECONDS = 0.05
"""The most one ``fold_ahead`` spends folding the game under other names of its cards: a tap
made meanwhile waits at most this."""


def _payment_text(shifts: Sequence[Shift], grid: Grid) -> str:
    return " + ".join("3 cards" if s.wildcard else f"1 {grid.at(*s.edge)}" for s in shifts)


def _settled_with_tap(live: Sequence[Mapping[str, Any]]) -> bool:
    """The latest of the events ``live`` (logged and not undone) is a tap that settled a
    card as it was made."""
    return (len(live) > 1 and live[-1]["kind"] in TAPS and live[-2]["kind"] == "settled"
            and live[-2].get("by") == "tap")


def _joined(chain: list[tuple[str, tuple[ev.Event, ...]]]
            ) -> list[tuple[str, tuple[ev.Event, ...]]]:
    """``chain`` (``brief.turn_behind``'s) with its last event joined by every event before
    it (``Event.joined``): one thing the players did, one undo."""
    count = sum(len(events) for _, events in chain)
    last = max((k for k, (_, events) in enumerate(chain) if events), default=-1)
    if count < 2:
        return chain
    text, events = chain[last]
    return [*chain[:last], (text, (*events[:-1], replace(events[-1], joined=count - 1))),
            *chain[last + 1:]]


def _undo_walk(logged: Sequence[Mapping[str, Any]]) -> tuple[list[int], dict[int, int]]:
    """The log's undos walked: the events logged and not undone (their numbers in
    ``logged``, oldest first), and for each undo the number of the event it took back (an
    undo with nothing left to take back takes nothing, as ``events.fold_log`` folds it)."""
    live: list[int] = []
    took: dict[int, int] = {}
    for number, payload in enumerate(logged):
        if payload["kind"] != "undo":
            live.append(number)
        elif live:
            took[number] = live.pop()
    return live, took


def _undone_look_in_log(game: Game, logged: Sequence[Mapping[str, Any]],
                        took: Mapping[int, int], name: str) -> str | None:
    """The grid whose shifts "end turn" took and the players' undo took back with it
    (``TableSession._look_undone``), where nothing but undos is logged after that undo: a
    game reopened then takes them no more by a tap than the game before the restart did
    (it would log them twice, once undone). Any other event logged since may have come from
    a stable reading, which ends that; a log before version 6 joined nothing, and a game
    reopened from it undoes one event at a time, so no undo took shifts with a tap. The log
    is read as it is: nothing in it is changed. ``took``: its undos walked (``_undo_walk``)."""
    undone_at = None
    for number in reversed(range(len(logged))):  # the undos logged last, the newest first
        if logged[number]["kind"] != "undo":
            break
        taken = logged[took[number]] if number in took else None
        if taken is not None and taken["kind"] == "end_turn" and taken.get("joined"):
            undone_at = number
            break
    if undone_at is None:
        return None
    states = fold(game, ev.read_log(logged[:undone_at], name), name)
    return str(states[-2].grid)  # as the undo found it: the grid the shifts taken made


def _legal(shifts: Sequence[Shift], grid: Grid, text: str) -> Verdict:
    """The verdict on ``shifts`` that made the reading ``text`` of ``grid``: legal, paid so."""
    return Verdict(True, tuple(map(str, shifts)), _payment_text(shifts, grid), "",
                   cells_differ(str(grid), text))


def _asked_again(asked: Sequence[tuple[Cell, str, str]]) -> str:
    """What the players are told of the named cards the camera now reads otherwise."""
    if not asked:
        return ""
    if len(asked) > 1:
        return (f"The camera now reads {len(asked)} cards otherwise than you chose: tap each "
                f"card marked ? and choose again.")
    (row, col), name, now = asked[0]
    return (f"The camera now reads {card_name(now)} where you chose {card_name(name)} (row "
            f"{row}, column {col}): tap it and choose again.")


class _Opening(NamedTuple):
    """What the opening layout asks (``TableSession._opening_case``): the case, the named
    cards the camera now reads otherwise (cell, name chosen, read now), how many other
    cards it cannot read, and how many cells read empty."""

    ask: OpeningAsk
    asked: tuple[tuple[Cell, str, str], ...]
    unsure: int
    empty: int


class TableSession(SessionCore[TableState]):
    """One game in the store, with what the camera and the players tell it."""

    PLAYS = tuple(MODE_OF)
    TITLE = "Nizam or Pearl of the East"

    verdict = Shown[Verdict | None]()
    """The last move seen: legal (with its payment) or refused (why, and how to put it back)."""
    reading = Shown[str | None]()
    """The last stable reading of the grid the session took in."""
    settled = Shown[tuple[tuple[int, str, str, bool], ...]]()
    """The cards laid unread last settled, to be told (``_settled_words``): () once told."""
    renamed = Shown[str]()
    """What the players are told of the card misread the rules last named: "" once told."""

    def __init__(self, store: GameStore, game_id: int, remake: bool = False) -> None:
        super().__init__(store, game_id, remake)
        self.game: Game = self.setup.game()
        self.names = self.setup.names
        self.verdict = None
        self.reading = None
        self.settled = ()
        self.renamed = ""
        self._settled_at = -1
        self._last_cache: tuple[TableState, dict[int, int]] | None = None
        self._live_cache: tuple[int, tuple[Mapping[str, Any], ...]] | None = None
        self._guesses = ""
        """The camera's best guess at each card it read ``?`` in the last reading given
        (``on_reading``), rows joined by "/"; "" when it gave none. Kept with the reading:
        a tap that names a card of the opening layout lays the rest under them."""
        self._behind = -1
        """The event after which a reading, all read, was refused and named no card
        misread: the players have done more since than the rules can follow, and a later
        reading may fit some other name by chance (``_rename``), until a reading is taken."""
        self._unsettled: set[tuple[int, str]] = set()
        """Readings that settled nothing, with the event they followed: the same one again
        (a hand lifted and laid back) is not searched again."""
        self._ahead = -1
        """The event after which the game was last folded ahead (``fold_ahead``)."""
        self._renaming_from = 0
        """Where on the grid folding ahead for misreads goes on from: where it stopped (the
        next reading or tap goes on with it, the log grown or not)."""
        self._briefly: list[Brief] = []
        """Grids held briefly since the last stable reading taken, oldest first, with their
        guesses (``on_brief``)."""
        self._glimpsed: set[str] = set()
        """Grids of ``_briefly`` one frame alone showed (``on_glimpse``)."""
        self._catch_budget = CatchUpBudget()
        """The steps following grids held briefly may still take for the reading or tap
        under way (``brief.CatchUpBudget``)."""
        self._last_look: str | None = None
        """The grid the newest frame that found one showed, every card read; None where it
        read one ``?`` or more (``on_look``): the table as a tap finds it
        (``brief.shifted_before``)."""
        self._look_undone: str | None = None
        """A look whose shifts a tap took and the players undid: not taken again until a
        stable reading is taken (a game reopened after that undo finds it in its log)."""
        if not remake:
            # the log read and its undos walked once for both (the first view asks ``_live``)
            logged = self.events()
            live, took = _undo_walk(logged)
            self._live_cache = (self.seq, tuple(logged[number] for number in live))
            self._look_undone = _undone_look_in_log(self.game, logged, took,
                                                    f"game {game_id} in {store.path}")
        self._held_at = -1
        """The event after which a stable reading was last taken (``_turn_behind``)."""
        self._laid_with_tap = 0
        """1 while the layout a draw just took (``_laid_for_tap``) is among the events
        ``_tapped`` counts as caught: the deal is no move, and one undo leaves it."""

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

    def unrecorded(self) -> str:
        return unfinished_words(self.state)

    # -- events ------------------------------------------------------------------------

    @locked
    def tap(self, action: str, *args: Any) -> None:
        """A button on the screen: draw, wildcard, end_turn, undo, confirm_misread, fix."""
        self.message = ""
        self._age_settled()
        with self._told():
            self._tap(action, *args)

    def _age_settled(self) -> None:
        """A card settled is told until the game moves on past the reading or tap that
        settled it."""
        if (self.settled or self.renamed) and self.seq != self._settled_at:
            self.settled = ()
            self.renamed = ""

    def _told_settled(self) -> None:
        if self._settled_at < 0:
            self._settled_at = self.seq

    def _tap(self, action: str, *args: Any) -> None:
        try:
            if action == "undo":
                self._briefly.clear()  # what was held before is no move to redo
                self._last_look = None
                before = self.state
                live = self._live()
                if self._joined_to_latest(live) and live[-1]["kind"] == "end_turn":
                    # the players said the shifts it took were no move: the grid they made
                    # is not taken again by a tap (until a stable reading is)
                    self._look_undone = str(self.history[-2].grid)
                for _ in range(self._undo_takes(live)):
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
                short = short_of_three(self.state) if action == "wildcard" else None
                if short is not None:  # no shift seen briefly would make it payable
                    raise short
                self._tapped(TAPS[action]())
                if action != "wildcard":  # the turn has moved on: what was held is behind it
                    self._briefly.clear()
                if action == "wildcard" and self.verdict is not None and self.state.shifts:
                    shifts = self.state.shifts
                    self.verdict = replace(self.verdict, shifts=tuple(map(str, shifts)), payment=(
                        _payment_text(shifts, self.state.turn_start.grid)
                        if self.state.turn_start else ""))
            else:
                raise BadInput(f"unknown tap {action!r}")
        except CompanionError as err:
            self.message = (self._after_a_draw(action) or self._laid_and_no_shift(action)
                            or str(err))

    def _laid_and_no_shift(self, action: str) -> str:
        """Why "end turn" is refused when the table, held briefly, shows the cards just laid
        and no shift made: as play refuses it (N3), not as a tap while the turn before is
        scored (the game takes the refill once the table holds still)."""
        t = self.state
        if action != "end_turn" or t.phase not in (CLEAR, REFILL) or not self._briefly:
            return ""
        if laid_refill(t, self._briefly[-1], self.provisional) is None:
            return ""
        return "N3: the cards are laid and no shift has been made since: draw or shift first"

    def _after_a_draw(self, action: str) -> str:
        """Why "end turn" tapped just after a draw is refused, in words that say so: the
        draw ended that turn (N3), and the player whose turn it is now has done nothing yet.
        Players used to ending every turn tap it after a draw too. "" otherwise."""
        t = self.state
        if action != "end_turn" or t.phase != PLAY or t.rules is None or t.shifts:
            return ""
        moves = [kind for kind in self._live_kinds() if kind in ("setup", "draw", "end_turn")]
        if not moves or moves[-1] != "draw":
            return ""
        now = t.rules.active
        before = (now - 1) % t.game.players
        return (f"N3: the draw ended player {before}'s turn; it is player {now}'s turn now, "
                f"to draw or shift")

    def _undo_takes(self, live: Sequence[Mapping[str, Any]]) -> int:
        """How many events one undo takes back: the latest of ``live`` (logged, not undone),
        the card it settled as it was tapped (``_settled_with_tap``) and the events joined to
        it (``_joined_to_latest``: a tap and the moves seen briefly it was taken after; the
        log says so, and a game reopened undoes them as one too). One thing the players did,
        one undo."""
        return 1 + _settled_with_tap(live) + self._joined_to_latest(live)

    def _joined_to_latest(self, live: Sequence[Mapping[str, Any]]) -> int:
        """How many events the latest of ``live`` (logged, not undone) was joined by (made
        again over an older log that stores none, as the undo straight after it took)."""
        if not live:
            return 0
        return max(int(live[-1].get("joined", 0)), self.joined_remade.get(self.seq, 0))

    def _live_kinds(self) -> list[str]:
        """The kinds of the events logged and not undone, oldest first."""
        return [payload["kind"] for payload in self._live()]

    def _live(self) -> tuple[Mapping[str, Any], ...]:
        """The events logged and not undone, oldest first; read again from the log only once
        another event is logged (every view built asks, ``_undoes_deal``)."""
        if self._live_cache is not None and self._live_cache[0] == self.seq:
            return self._live_cache[1]
        logged = self.events()
        self._live_cache = (self.seq, tuple(logged[number] for number in _undo_walk(logged)[0]))
        return self._live_cache[1]

    def _tapped(self, event: ev.Event) -> None:
        """A button's event. One the game cannot take now may settle a card laid unread,
        when one name only lets it be taken (``_settle``, ``by`` "tap"; one undo takes back
        both). Never the likeliest of several: a tap too early (Draw before the cards scored
        are cleared) and a card under a wrong name look the same, and a tap shows no card.
        "End turn" takes first the shifts the newest grid held briefly shows made
        (``brief.shifted_before``): one undo takes back both."""
        looks = self._briefly if self._last_look is None else [
            *self._briefly, (self._last_look, "", False)]
        looks = [look for look in looks if look[0] != self._look_undone]
        ahead = shifted_before(self.state, looks, event, self.provisional)
        if ahead:
            for made in ahead:
                self.commit(made)
            self._commit_tap(replace(event, joined=len(ahead)))
            return
        try:
            self._commit_tap(event)
        except CompanionError:
            before = len(self.history)
            if (self._catch_up(lambda s: taken_by(s, event)) or self._opened_for_tap(event)
                    or self._refill_behind_tap(event)):
                caught = len(self.history) - before - self._laid_with_tap
                self._laid_with_tap = 0
                # the move the tap follows, seen only briefly
                self._commit_tap(replace(event, joined=caught or None))
                return
            t = self.state
            takes = lambda alt: Fit(alt.origin) if taken_by(alt, event) else None  # noqa: E731
            if not ((t.provisional and self._settle(takes, tap=True)) or (
                    self._behind != self.seq and self._rename(
                        suspects(t, None), self.reading, lambda alt, card, was: takes(alt)))):
                raise
            self._commit_tap(event)

    def _commit_tap(self, event: ev.Event) -> None:
        """Log a button's event in the turn it is taken in, which a catch-up may have moved
        on to: "Paid with 3 cards" for a player who began that turn with fewer is refused
        (N5) there too, though the fold of an older log takes it."""
        if isinstance(event, ev.Wildcard):
            short = short_of_three(self.state)
            if short is not None:
                raise short
        self.commit(event)

    # -- readings ----------------------------------------------------------------------

    @property
    def unsure_taken(self) -> int:
        """How many cells read ``?`` a stable reading may hold for the session to be given
        it, not counting cards the camera sees whose colour alone is in doubt. Before the
        opening grid is set up, any number: the screen shows every unsure card outlined, to
        be tapped and named (a hand resting over the layout is shown too, and makes no event
        and loses no name). In play, ``SETTLE_AT_MOST``: more is a hand over the grid, not a
        misread; and as many more as the grid holds cards laid unread (the camera has read
        them ``?`` so far: they are no hand)."""
        t = self.state
        return SIZE * SIZE if t.phase == OPENING else SETTLE_AT_MOST + len(unread_cells(t))

    def _hidden(self, text: str) -> int:
        """How many cells of the reading ``text`` are ``?`` with no card seen there (what a
        hand hides): a card whose outline the camera sees, its colour alone in doubt (the
        reading's guesses name it), is no hand, however many there are, where the grid
        holds a card the rules know. Not in the cells being cleared and refilled: a card
        seen there may be one held over them (a fan of cards in a hand), not one laid."""
        t = self.state
        guessed = self._guesses if len(self._guesses) == len(text) else text
        laying = set(t.to_clear)
        if t.phase == REFILL:
            laying.update(refill_cells(t))
        return sum(cell in laying or letter_at(guessed, cell) == UNSURE
                   for cell in unsure_cells(text))

    @locked
    def on_reading(self, rows: Sequence[str], guesses: Sequence[str] | None = None) -> None:
        """A stable reading of the grid, as row strings. A reading with unsure cells counts
        in play when the rules settle them (one grid that shifts can make agrees with every
        cell read): a misread or two need no tap. Before the opening grid is set up, the
        cards the players named complete it (``_opening``). A reading the session cannot
        take as it stands may settle a card laid unread (``_settle``): the one name under
        which it can. ``guesses``: the rows again with a card read ``?`` as the camera's
        best guess at it (``GridReading.guesses``), the name it is laid under if it is laid
        unread and that name can be."""
        self._age_settled()
        self._look_undone = None
        shape = [len(row) for row in rows]
        self._guesses = "/".join(guesses) if guesses and [len(r) for r in guesses] == shape else ""
        with self._told():
            self._reading("/".join(rows))

    @contextmanager
    def _told(self) -> Iterator[None]:
        """A reading or tap under way: one ``CatchUpBudget`` for all it follows of the grids
        held briefly; after it, what it settled is told (``_told_settled``), and where those
        grids were more ways than ``catching_up`` follows (``brief.CATCH_UP_STEPS``), what
        was taken instead, or refused, may have left a move or a cascade out: the players
        are told to look, whatever was said before. The words go once a reading or tap after
        it moves the game on, followed whole."""
        self._catch_budget = CatchUpBudget()
        seq = self.seq
        try:
            yield
        finally:
            self._told_settled()
            if self._catch_budget.ran_out:
                self.message = UNFOLLOWED
            elif self.message == UNFOLLOWED and self.seq != seq:
                self.message = ""

    @locked
    def on_brief(self, rows: Sequence[str], guesses: Sequence[str] | None = None,
                 in_a_row: bool = True) -> None:
        """A grid the camera held for fewer frames than a stable reading needs, every card
        in it read or outlined (``guesses`` name those in doubt): kept, and nothing made of
        it, until the game needs it (``_catch_up``). In a sparse or jittery video a turn's
        moments (the shift, the cards cleared, the refill) may each hold only briefly."""
        self._keep_brief(rows, guesses, in_a_row, glimpse=False)

    def _keep_brief(self, rows: Sequence[str], guesses: Sequence[str] | None, in_a_row: bool,
                    glimpse: bool) -> None:
        text = "/".join(rows)
        guess = "/".join(guesses) if guesses is not None else text
        if text == self.reading and not (self.state.phase in (CLEAR, REFILL) and self._briefly):
            self._briefly.clear()  # the cards put back as they were: what was tried is no move
            return
        # (while cards are cleared and laid, the grid last read again after a refill held
        # briefly is that refill's cascade cleared: kept with it)
        if len(guess) != len(text) or UNSURE in guess:
            return
        # a grid two frames showed since the last stable reading stays confirmed when one
        # frame alone shows it again (two frames far apart showing it are not: a glare or a
        # hand's shadow misreads a card the same way again)
        alone = glimpse
        glimpse &= text in self._glimpsed or all(brief[0] != text for brief in self._briefly)
        if self._briefly and self._briefly[-1][0] == text:
            # seen again: held in a row now, maybe; a frame alone again takes nothing away
            in_a_row |= self._briefly.pop()[2] and alone
        self._briefly.append((text, guess if UNSURE in text else "", in_a_row))
        del self._briefly[:-BRIEF_KEPT]
        if glimpse:
            self._glimpsed.add(text)
        else:
            self._glimpsed.discard(text)
        self._glimpsed &= {brief[0] for brief in self._briefly}

    @locked
    def on_glimpse(self, rows: Sequence[str], guesses: Sequence[str]) -> None:
        """A grid one frame alone showed whole, while the game waits for the cards scored to
        be cleared and the refill laid: kept as a grid held briefly, never in a row
        (``on_brief``), marked as one frame's (``brief.catching_up``, ``glimpsed``). A
        refill it shows makes no cascade (one card misread in it may make the line), and
        names its cards only for a stable reading after it, never for a tap (one misread
        frame would be the refill logged); known cards moved or taken away it may show to
        either. In play a frame alone is no move: a hand shows many (the newest frame is
        the table as a tap finds it: ``on_look``). On the opening layout it is kept too:
        the layout, if the first grid that holds is a move from it the rules take and can
        be no layout itself (``_opened_briefly``)."""
        if self.state.phase in (CLEAR, REFILL, OPENING):
            self._keep_brief(rows, guesses, in_a_row=False, glimpse=True)

    @locked
    def on_look(self, rows: Sequence[str]) -> None:
        """Every frame that found the grid, before anything else is made of it: the table
        as a tap made now finds it, where every card is read (``_tapped``); a frame with a
        card read ``?`` (a hand still over the cards) leaves no look at all. In play, a look
        that shows the cards as the game last took them says that whatever the camera held
        briefly since was tried and put back: no tap takes it after (a hand coming back over
        the cards takes that look away, not what it showed)."""
        self._last_look = "/".join(rows) if not any(UNSURE in row for row in rows) else None
        if self._last_look is not None and self.state.phase == PLAY \
                and self._last_look == str(self.state.grid):
            self._briefly.clear()
            self._glimpsed.clear()

    def _catch_up(self, takes: Callable[[TableState], bool], then: str | None = None) -> bool:
        """Take the grids held briefly since the last stable reading taken that move the game
        to a state that ``takes`` what it could not take (``brief.catching_up``): a stable
        reading (``then``) or a tap may follow a move the camera saw only for a moment. True
        when it got there. Never on the opening layout: a deal under way holds as briefly."""
        if self.state.phase in (OPENING, OVER) or not self._briefly:
            return False
        chain = catching_up(self.state, self._briefly, takes, self.provisional, then,
                            self._glimpsed, self._catch_budget)
        if chain is None:
            return False
        self._take_chain(chain)
        return True

    def _turn_behind(self, raw: str) -> bool:
        """Take a turn the camera never saw held, shifted, scored and refilled while hands
        were over the grid, worked out from the stable reading ``raw`` after it
        (``brief.turn_behind``): only when exactly one such turn explains it. Without it the
        game would stay a turn behind the table, every grid after refused. True when taken."""
        moves = [kind for kind in self._live_kinds() if kind in MOVES]
        if moves[-1:] in (["draw"], ["end_turn"]) and self._held_at != self.seq:
            # a draw tapped while the camera held no grid may have been the next player's,
            # the turn unseen before it; "end turn" so tapped may have come before a last
            # shift the camera had not seen held: whose turn was worked out would be in doubt
            return False
        chain = turn_behind(self.state, raw, self.provisional)
        if chain is None:
            return False
        # one turn the players made: one undo takes all of it back
        self._take_chain(_joined(chain))
        self.message = ""  # a refusal of the tap the turn ended with is answered
        return True

    def _refill_behind(self, takes: Callable[[TableState], bool], then: str) -> bool:
        """Take a refill the camera never saw whole (a sparse video: hands over the grid
        until the next player had shifted), worked out from the stable reading ``then``
        that shows the shifts made already (``brief.refills_behind``): only when exactly one
        such refill, and the shifts after it, are a way the rules take. True when taken."""
        return self._one_refill(refills_behind(self.state, then),
                                lambda grid: [*self._briefly, (grid, "", False)], takes, then)

    def _refill_behind_tap(self, event: ev.Event) -> bool:
        """``_refill_behind`` for a tap: the refill worked out from the newest grid held
        briefly, which shows the next player's shifts made after it; only where two frames
        in a row showed that grid (one frame alone names no refill for a tap), and the tap
        follows it. True when taken (the tap is not)."""
        t = self.state
        if t.phase not in (CLEAR, REFILL) or not self._briefly or not self._briefly[-1][2]:
            return False
        *before, shown = self._briefly
        if any(laid_refill(t, held, self.provisional) is not None for held in before):
            return False  # the refill was seen laid: none is worked out behind the play after it
        return self._one_refill(refills_behind(t, shown[0]),
                                lambda grid: [*before, (grid, "", False), shown],
                                lambda s: taken_by(s, event), None)

    def _one_refill(self, grids: Sequence[str], held: Callable[[str], list[Brief]],
                    takes: Callable[[TableState], bool], then: str | None) -> bool:
        """Take the one way, through one of the refills worked out (``grids``), that gets
        the game to a state that ``takes`` what it could not take; ``held(grid)``: the
        grids held briefly with that refill in its place. None, or more than one refill that
        would do: the players are asked. True when taken."""
        chains = []
        for grid in grids:
            chain = catching_up(self.state, held(grid), takes, self.provisional, then,
                                self._glimpsed, self._catch_budget)
            if chain is not None and any(text == grid for text, _ in chain):
                chains.append(chain)
        if len(chains) != 1 or self._catch_budget.ran_out:  # one unfollowed may fit too
            return False
        self._take_chain(chains[0])
        return True

    def _take_chain(self, chain: list[tuple[str, tuple[ev.Event, ...]]]) -> None:
        self._briefly = []
        for text, events in chain:
            before = self.state
            for event in events:
                self.commit(event)
            self.reading = text
            shifts = [s for e in events if isinstance(e, ev.Shifts) for s in e.shifts]
            self.verdict = None if not shifts or before.grid is None else _legal(
                shifts, before.grid, text)

    @locked
    def fold_ahead(self) -> None:
        """Once the log has grown (a reading, a tap), fold the game under every naming a
        search for the cards laid unread tries (``unread.namings``), then under each other
        gem of the cards on the grid (``misread.fold_renamings``): a fold is kept and goes
        on from there (``session.kept``), so the search after a reading or tap the game
        cannot take folds little or nothing again, not the game since each card was laid
        (that took one to three seconds on a Pi). For the live parts to call between
        frames, once the screen has what the last reading or tap did: an event or two per
        naming; ``FOLD_AHEAD_SECONDS`` at most (a game reopened, a log written anew by a
        card named: every naming from its card's laying), the rest the next time. Asked
        again with nothing new, it does nothing."""
        t = self.state
        if self._ahead == self.seq or not self.provisional or t.phase in (OPENING, OVER):
            return
        until = time.monotonic() + FOLD_AHEAD_SECONDS
        if in_play(t):
            with suppress(OverBudget):
                namings(t, likeliest_in(t, allowed_letters(self.game, "")), lambda _: None,
                        until)
        left = fold_renamings(t, until, self._renaming_from)
        self._renaming_from = left or 0
        if left is None:  # all folded: nothing to go on with until the log grows
            self._ahead = self.seq

    def _reading(self, text: str) -> None:
        if len(text) != SIZE * SIZE + SIZE - 1:
            return
        t = self.state
        if t.phase == OPENING:
            self._opening(text)
            return
        if t.grid is None or self._hidden(text) > self.unsure_taken:
            return
        raw, guesses = text, self._guesses

        def takes(s: TableState) -> bool:
            return moves_made(s, as_read(s, raw), guesses, self.provisional) is not None

        # While cards are cleared and laid, what the camera held briefly comes first: a
        # refill seen for a moment may have made a cascade the players cleared at once, and
        # the reading after it fits a refill of its own too. (Not in play: a shift held for
        # a moment and put back is no move.)
        tried: TableState | None = None  # the state a catch-up found no way from
        if t.phase in (CLEAR, REFILL):
            if self._catch_up(takes, raw):
                t = self.state
            else:
                tried = t
        if t.misnamed:  # the camera may still read a card the rules named otherwise
            text = as_read(t, text)
        taken = self._take(t, text)
        # (the same search again from the same state would find nothing again)
        if taken is None and ((self.state is not tried and self._catch_up(takes, raw)) or (
                t.phase in (CLEAR, REFILL) and self._refill_behind(takes, raw))
                or self._turn_behind(raw)):
            t = self.state
            text = as_read(t, raw)
            taken = self._take(t, text)
        if taken is None and (self.seq, text) not in self._unsettled:
            settles = lambda alt: fits(alt, as_read(alt, text))  # noqa: E731
            # a reading its unsure cells leave undecided says nothing of a card laid unread
            settling = bool(t.provisional) and not undecided(t, text, self.provisional)
            if (settling and self._settle(settles, text)) or (
                    self._behind != self.seq and self._rename(
                        suspects(t, text), text,
                        lambda alt, card, was: taken_misread(alt, text, card, was))):
                if self.verdict is not None and not self.verdict.legal:
                    self.verdict = None  # the refusal was of the card's old name
                taken = self._take(self.state, as_read(self.state, text))
            else:
                self._unsettled = {k for k in self._unsettled if k[0] == self.seq}
                self._unsettled.add((self.seq, text))
                if settling:
                    self._opening_line(t, text)
                if UNSURE not in text:
                    self._behind = self.seq
        if taken is not None:
            self._briefly.clear()
            if self._behind == self.seq:  # in step again: what was not searched may be
                self._behind = -1
                self._unsettled = set()
            self._read_at_last(text, taken)
            self._held_at = self.seq

    def _take(self, t: TableState, raw: str) -> str | None:
        """Take the reading ``raw`` in state ``t`` (the current one): the reading as taken,
        or None when it could not be (a unsure cell not settled, or a refusal)."""
        text = taken_as(t, raw, self.provisional)
        if text is None:
            return None
        if text in t.misreads:
            return text
        self.reading = text
        expected = str(t.grid)
        if t.phase == OVER or (text == expected and t.phase != CLEAR):
            if self.verdict is not None and not self.verdict.legal:
                self.verdict = None
            return text
        if t.phase == PLAY:
            return text if self._play(t, text) else None
        if t.phase == CLEAR:
            return text if self._clear(t, text) else None
        return text if self._refill(t, text) else None

    @property
    def provisional(self) -> bool:
        """Whether a card the camera cannot read is laid under a provisional name (the
        ``unread_cards`` option), not waited for until a player names it."""
        return self.game.options.unread_cards == "provisional"

    def _settle(self, takes: Callable[[TableState], Fit | None],
                raw: str | None = None, tap: bool = False) -> bool:
        """Settle a card laid unread by what the players did next: of each other name for
        each such card, the states the log makes with it (``table.Settled``) that ``takes``
        (how, or None); when none does, of each two such cards named together (one
        combination may hold both). Of those, the ones under which the camera shows the
        most of the cards named as named, then of those the ones that leave the fewest
        cells waiting (a reading clearing all the cards one state scored is a state's that
        scored them all, not one's still waiting for a card to leave). One name: settled (``by`` the
        camera when ``raw``, the reading, shows it where the card lies; else by the rules).
        Several: the likeliest of them is the card's provisional name now; for a ``tap``,
        none (and one name is settled ``by`` "tap"). True when a ``Settled`` event was
        logged."""
        t = self.state
        order = likeliest_in(t, allowed_letters(self.game, ""))
        cards = in_play(t)
        try:
            found = namings(t, order, takes)
        except OverBudget:  # a search cut short can tell no one name: the players can
            return False
        if not found:
            return False
        # the camera's own reading of a card beats the rules' guess: a naming that leaves
        # fewer cells waiting is no reason to rename a card the camera does not show so
        shown = [(sum(settled_by(card, letter, fit, raw) == "camera"
                      for card, letter in names), -fit.waiting) for names, fit in found]
        found = [x for x, key in zip(found, shown, strict=True) if key == max(shown)]
        if tap and len(found) > 1:
            return False
        # several names fit: the likeliest of them (still provisional) over any other
        names, fit = min(found, key=lambda x: [(order.index(letter), cards.index(card))
                                               for card, letter in x[0]])
        told = []
        for card, letter in names:
            by = "tap" if tap else settled_by(card, letter, fit, raw) if len(
                found) == 1 else "likeliest"
            before = self.state.rules.scores if self.state.rules else ()
            after = self.commit(ev.Settled(card, letter, by))
            again = after.rules is not None and after.rules.scores != before
            told.append((card, letter, by, again))
        self.settled = tuple(told)
        self._settled_at = -1
        return True

    def _rename(self, cards: Sequence[int], raw: str | None, takes: Takes) -> bool:
        """Name a card the camera read, sure, as another (``session.misread``): the one card
        of ``cards`` and the one other name under which the game ``takes`` what the players
        did next, the camera reading it as it did. Several names of that one card (a
        combination the camera made up, left by the players: the card is known, not what
        it is): the likeliest of them, provisional (``table.Settled`` "likeliest"), until
        the moves or a tap name it. Several cards: nothing. Not when the table chose to be asked
        (``unread_cards``: a table that names the cards the camera cannot read names the
        ones it misreads too), nor from a reading (``raw``: the one given, or the last taken
        for a tap) with a card unsure: the view would be partial. True when a ``Settled``
        event was logged."""
        if not self.provisional or raw is None or UNSURE in raw or not cards:
            return False
        found = renamings(self.state, cards, takes)
        if len({card for card, _ in found}) != 1:
            return False
        card = found[0][0]
        before = self.state
        letter = likeliest_in(before, "".join(x for _, x in found))[0]
        after = self.commit(ev.Settled(card, letter, "rules" if len(found) == 1 else "likeliest"))
        self.renamed = misread_words(before, after, card)
        self._settled_at = -1
        return True

    def _opening_line(self, t: TableState, raw: str) -> None:
        """A card of the opening layout laid unread the camera now reads, sure, as a card
        that completes a line there (N2, ``replace``): the layout was never one to play.
        The players return those cards and deal anew, once the layout is taken back."""
        for card in t.provisional:
            cell = t.cell_of_card(card)
            if card >= SIZE * SIZE or cell is None:
                continue
            letter = letter_at(raw, cell)
            if letter in (UNSURE, EMPTY, t.cards[card]):
                continue
            try:
                apply_event(t, ev.Settled(card, letter, "camera"))
            except RuleError as err:
                if err.rule == "N2":
                    assert t.grid is not None
                    grid = t.grid.replace({cell: letter})
                    lines = [c for c in find_combinations(grid, self.game.pearl) if cell in c.cells]
                    self._refuse(f"{err}; tap Undo until the opening layout is taken back",
                                 tuple(cleared_cells(lines)) or (cell,))
                    return
            except CompanionError:
                continue

    def _read_at_last(self, raw: str, taken: str) -> None:
        """A card laid unread the camera now reads, sure, as its provisional name, where it
        lies in the grid the reading was taken as: settled by the camera."""
        t = self.state
        if t.grid is None or taken != str(t.grid):
            return
        for card in t.provisional:
            cell = t.cell_of_card(card)
            if cell is not None and letter_at(raw, cell) == t.cards[card]:
                self.commit(ev.Settled(card, t.cards[card], "camera"))
                self.settled = ((card, t.cards[card], "camera", False),)
                self._settled_at = -1
                return

    def _refuse(self, reason: str, cells: tuple[Cell, ...], shifts: Sequence[str] = (),
                hint: str = "") -> None:
        self.verdict = Verdict(False, tuple(shifts), "", reason, cells, hint)

    def _opening(self, text: str) -> None:
        """The opening layout read as ``text``: set up once it is whole, the cells a player
        named (``Fix``) taking their names, a card or two still unsure laid under a
        provisional name (``unread.provisional_names``). More unsure cards keep the game
        waiting (a hand over the layout), but the reading is shown, so the players can tap
        and name them."""
        if text in self.state.misreads:
            return
        stale = outlived(self.state, text)
        if stale:  # gathered or dealt again: the names were the old cards'
            self.commit(ev.Relaid(stale))
        if text != self.reading:  # a refusal (N2) was of the layout read before
            self.verdict = None
        self.reading = text
        whole = named_reading(self.state, text)
        unread = unsure_cells(whole)
        if EMPTY in whole or (unread and (not self.provisional or len(unread) > SETTLE_AT_MOST)):
            return
        whole = provisional_names(self.game, whole, "", guesses=self._guesses)
        if not unread and self._opened_briefly(whole):
            self._reading(text)  # the first move, made before the layout held
            return
        try:
            self.commit(ev.Setup(whole, unread or None))
            self._briefly.clear()  # the deal: no move of the game
            self.verdict = None
        except CompanionError as err:
            grid = Grid.parse(whole)
            cells = tuple(cleared_cells(find_combinations(grid, self.game.pearl)))
            self._refuse(str(err), cells)

    def _opened_briefly(self, whole: str) -> bool:
        """Set up the layout two frames in a row last showed whole, where the first stable
        reading, ``whole``, is a move the rules take from it (a sparse video: the first
        player shifted before the layout held for a stable reading). Taking ``whole`` as the
        layout would leave the game a turn behind the table for good. Where ``whole`` holds
        a line (no layout does, N2), a layout one frame alone showed will do. True when set
        up."""
        layout = self._oldest_layout(whole, alone=False)
        if layout is None:
            # a layout one frame alone showed, where the grid that holds can be no layout
            # (it holds a line): a deal under way shows no whole grid a move leads on from
            layout = self._oldest_layout(whole, alone=True)
            if layout is None or taken_by(self.state, ev.Setup(whole)):
                return False
        self.commit(ev.Setup(layout))
        self._briefly.clear()
        self.verdict = None
        return True

    def _oldest_layout(self, whole: str, alone: bool) -> str | None:
        """The oldest grid held whole (``alone``: by one frame too) that ``whole`` is a move
        from: grids held after it are moves made from it. None where there is none."""
        return next((text for text in self._held_whole(whole, alone)
                     if self._opened_for(text, whole) is not None), None)

    def _held_whole(self, other_than: str = "", alone: bool = False) -> list[str]:
        """The grids held briefly by two frames in a row, whole, oldest first (``alone``:
        by one frame too)."""
        return [text for text, _, in_a_row in self._briefly
                if (in_a_row or alone) and text != other_than and UNSURE not in text
                and EMPTY not in text]

    def _opened_for(self, layout: str, moved: str) -> tuple[ev.Event, ...] | None:
        """The moves the rules see from the opening ``layout`` to ``moved`` (none: None)."""
        try:
            opened = apply_event(self.state, ev.Setup(layout))
        except CompanionError:
            return None
        return moves_made(opened, moved, "", self.provisional) or None

    def _opened_for_tap(self, event: ev.Event) -> bool:
        """A tap on the opening layout (end turn, say) the game can take once the layout
        and the first move, each held by two frames in a row only, are taken: a sparse video
        never held either for a stable reading. Else the last two grids shown whole, one
        frame each will do: no frame misread, nor a deal under way, shows a whole grid and
        then one a move the rules take leads to from it. True when taken (the tap is not)."""
        if self.state.phase != OPENING:
            return False
        for alone in (False, True):
            held = self._held_whole(alone=alone)
            # the oldest layout the newest grid is a move from: those between, moves too
            for layout in held[:-1]:
                moves = self._opened_for(layout, held[-1])
                if moves is None:
                    continue
                after = apply_event(self.state, ev.Setup(layout))
                for move in moves:
                    after = apply_event(after, move)
                if not taken_by(after, event):
                    continue
                self.commit(ev.Setup(layout))
                self._take_chain([(held[-1], moves)])
                return True
        return self._laid_for_tap(event)

    def _laid_for_tap(self, event: ev.Event) -> bool:
        """A draw tapped on the opening layout, the first thing done: the layout two frames
        in a row last showed whole, where no frame since showed another whole grid, is taken
        (the draw is not). The camera may not have held it for a stable reading yet (a
        frame or two lost as the first player drew: a recording's tap is not tapped again
        as a player would): refused, the draw would leave the game a turn behind the table
        for good. Not a wildcard: one is tapped after its shift as often as before it. Not
        where the players named a card of the layout, or set a reading of it aside: only a
        stable reading weighs those (``_opening``). True when taken; one undo then takes
        back the draw alone, as the deal is no move."""
        held = self._held_whole()
        if not isinstance(event, ev.Draw) or not held \
                or self._held_whole(alone=True)[-1] != held[-1]:
            return False
        layout = held[-1]
        if (layout in self.state.misreads or outlived(self.state, layout)
                or named_reading(self.state, layout) != layout):
            return False
        try:
            laid = apply_event(self.state, ev.Setup(layout))
        except CompanionError:
            return False
        if not taken_by(laid, event):
            return False
        self.commit(ev.Setup(layout))
        self._briefly.clear()  # the deal: no move of the game
        self.verdict = None  # a refusal of an earlier layout is answered
        self._laid_with_tap = 1
        return True

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

    def _play(self, t: TableState, text: str) -> bool:
        assert t.grid is not None
        back = "put the cards back as the screen shows, or tap a misread cell to fix it"
        after = Grid.parse(text)
        changed = card_difference(t.grid, after)  # asked, so explain never refuses
        if changed is not None:
            self._refuse(f"the cards changed ({changed}): {back}",
                         cells_differ(str(t.grid), text))
            return False
        candidates = paid_moves(t, text)
        if not candidates:
            self._refuse(f"no {MAX_SHIFTS} shifts or fewer make this grid: {back}",
                         cells_differ(str(t.grid), text))
            return False
        first_error = ""
        for paid in candidates:
            problem = shifts_problem(t, paid)
            if problem is not None:
                first_error = first_error or str(problem)
                continue
            self.commit(ev.Shifts(tuple(paid)))
            self.verdict = _legal(paid, t.grid, text)
            return True
        move = [s.plain() for s in candidates[0]]
        undo = " then ".join(str(s.opposite().plain()) for s in reversed(move))
        self._refuse(f"illegal: {first_error}", cells_differ(str(t.grid), text),
                     [str(s) for s in move], f"to put it back: {undo}")
        return False

    def _clear(self, t: TableState, text: str) -> bool:
        assert t.grid is not None
        expected = str(t.grid)
        differ = set(cells_differ(expected, text))
        if not differ <= set(t.to_clear):
            self._refuse("only the highlighted cards should leave the grid",
                         tuple(sorted(differ - set(t.to_clear))))
            return False
        away = taken_away(t, text)
        if away is not None and not all(away):
            return True  # the players have not taken them all yet
        self.verdict = None
        self.commit(ev.Cleared())
        if self.state.phase == REFILL and text != str(self.state.grid):
            return self._refill(self.state, text)
        return True

    def _refill(self, t: TableState, text: str) -> bool:
        assert t.grid is not None
        cells = refill_cells(t)
        differ = set(cells_differ(str(t.grid), text))
        if not differ <= set(cells):
            self._refuse("only the empty cells should change while refilling",
                         tuple(sorted(differ - set(cells))))
            return False
        letters = "".join(letter_at(text, cell) for cell in cells)
        if EMPTY in letters:
            return True  # refill under way
        if PEARL in letters:
            self._refuse("a refilled card reads as the pearl", cells)
            return False
        try:
            self.commit(refill_read(t, text, cells, self._guesses))
            self.verdict = None
        except CompanionError as err:
            self._refuse(str(err), cells)
            return False
        return True

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
        # the opening layout as shown: worked out once, for the grid and for what it asks
        shown = self._opening_shown(t) if not grid or t.phase == OPENING else ""
        rows = tuple(str(grid).split("/")) if grid else tuple(shown.split("/"))
        pearl = next((cell for cell, x in grid.positions() if x == PEARL), None) if grid else None
        highlight: tuple[Cell, ...] = ()
        if t.phase == CLEAR:
            highlight = t.to_clear
        elif t.phase == REFILL and rules is not None and grid is not None:
            highlight = refill_cells(t)
        elif self.verdict is not None:
            highlight = self.verdict.cells
        elif t.phase == OPENING:
            highlight = unsure_cells("/".join(rows))
        unread = unread_cells(t)
        highlight += tuple(cell for cell in unread if cell not in highlight)
        opening = self._opening_case(t, shown) if t.phase == OPENING else None
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
            scoring=t.phase in (CLEAR, REFILL),
            turn_points=sum(r.points for r in rounds),
            prompt=self._prompt(t, opening),
            highlight=highlight,
            pearl=pearl,
            ended=t.phase == OVER,
            winners=tuple(winners(game, rules)) if rules and t.phase == OVER else (),
            message=self.message,
            options=game.options.to_json(),
            game_id=self.game_id,
            actions=self._actions(t),
            opening=None if opening is None else opening.ask,
            undo_deal=self._undoes_deal(t),
        )

    def _opening_shown(self, t: TableState) -> str:
        """The opening layout as the screen shows it: the last reading, named cells named."""
        return named_reading(t, self.reading or "/".join([EMPTY * SIZE] * SIZE))

    def _actions(self, t: TableState) -> tuple[str, ...]:
        """The buttons that mean something now (N3, N5): the others are greyed."""
        actions = []
        if t.phase == PLAY:
            actions.append("end_turn" if t.shifts else "draw")
            # before the move it pays the next shift; after, the last one
            if wildcard_problem(t) is None:
                actions.append("wildcard")
        if self.can_undo:
            actions.append("undo")
        return tuple(actions)

    def _undoes_deal(self, t: TableState) -> bool:
        """Whether the next undo takes the game back to its opening: among what it takes back
        (``_undo_takes``) is the layout set up, as when nothing was done since it, or when
        the first turn's end was tapped and took the layout and shifts held only briefly
        with it. The players may want that (to deal again, or to choose a card of it first);
        they should know."""
        if t.phase == OPENING or not self.can_undo:
            return False
        back_to = len(self.history) - 1 - self._undo_takes(self._live())
        return self.history[max(back_to, 0)].phase == OPENING

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

    def _opening_case(self, t: TableState, shown: str) -> _Opening:
        """What the opening layout asks of the players now (``_opening_prompt`` says it, the
        header in a few words), with what the prompt names (``_Opening``). While more cells
        are empty than a misread makes, the deal is under way: a card a hand is laying reads
        ``?`` for a moment, and what the camera cannot read is asked once the cards are laid
        (outlined meanwhile, it can be named at once). A cell or two still empty may be a
        card the camera takes for the table: then the cards it cannot read are asked about
        all the same (the prompt says an empty cell can be named too), so that a layout
        never waits for ever. ``shown``: the layout as the screen shows it
        (``_opening_shown``)."""
        empty = shown.count(EMPTY)
        if empty > SETTLE_AT_MOST:
            return _Opening(OpeningAsk("deal"), (), 0, empty)
        asked = contested(t, self.reading) if self.reading else ()
        unsure = len(unsure_cells(shown)) - len(asked)
        if unsure > SETTLE_AT_MOST:
            return _Opening(OpeningAsk("uncover"), asked, unsure, empty)
        if asked or unsure:
            return _Opening(OpeningAsk("name", len(asked) + unsure), asked, unsure, empty)
        if empty:
            return _Opening(OpeningAsk("deal"), (), 0, empty)
        # all read and named, not set up: refused (N2), or undone
        return _Opening(OpeningAsk("check" if self.verdict is None else "refused"), (), 0, 0)

    def _opening_prompt(self, opening: _Opening) -> str:
        ask, asked, unsure, empty = opening
        # a card laid that the camera takes for the table is named by a tap, like a '?'
        laid_as_empty = (" If every card is laid, tap the cell shown empty and choose its card."
                         if empty == 1 else
                         " If every card is laid, tap each cell shown empty and choose its card.")
        if ask.case == "deal":
            deal = ("Deal 3 cards of each gem and the pearl" if self.game.pearl
                    else "Deal 25 cards")
            return f"{deal} face up into the 5×5 grid." + (
                laid_as_empty if empty <= SETTLE_AT_MOST else "")
        if ask.case in ("uncover", "name"):
            said = _asked_again(asked)
            if unsure:
                said += (" " if said else "") + self._unsure_prompt(unsure)
            return said + (laid_as_empty if empty else "")
        read = "Every card is read: tap any card read wrong and choose what it is"
        if ask.case == "refused":  # the refusal says what to do
            return f"{read}."
        return f"{read}; choosing a card starts the game."

    @staticmethod
    def _unsure_prompt(unsure: int) -> str:
        if unsure == 1:
            return "The camera cannot read one card: tap the card marked ? and choose what it is."
        if unsure > SETTLE_AT_MOST:  # a hand or a sleeve over the layout, most often
            # or the camera renders colours otherwise than when they were learned (its
            # exposure or processing changed): the game cannot guess that many cards
            return (f"The camera cannot read {unsure} cards: if anything lies over the grid, "
                    f"clear it; if nothing does, calibrate the colours again (menu) or tap "
                    f"each card still marked ? and choose what it is.")
        return (f"The camera cannot read {unsure} cards: tap each card marked ? and "
                f"choose what it is.")

    def _prompt(self, t: TableState, opening: _Opening | None) -> str:
        """The prompt; ``opening``: before the first turn, what the layout asks (worked out
        once for the view that shows both)."""
        told = [x for x in (t.notice, *(settled_words(t, x) for x in self.settled),
                            self.renamed, unread_prompt(t)) if x]
        notice = "".join(f" {x}" for x in told)
        if opening is not None:
            return self._opening_prompt(opening) + notice
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
