"""A Nizam or Pearl of the East game at the table, as a fold over its events.

``TableState`` is what the session knows at one moment: the rules' state, which phase of
the turn the table is in (waiting for the opening layout, play, clearing scored cards,
refilling), and where every card on the grid came from, so that a fixed misread can
correct the record of the setup or refill that laid it. Before the opening grid is set up,
a fix names the card of a cell the camera cannot read, and the names complete the readings,
until the layout is laid anew (``outlived``, ``Relaid``; its undo, ``Kept``). A named card
the camera now reads, sure, as another card is asked about again (``contested``).
A card the camera cannot read as it is laid (the opening layout, a refill) is laid under a
provisional name (``provisional``) until it is settled (``Settled``): the log is then folded
again with the card laid under its name (``log``), so what was scored is counted again.
So is a card the camera read, sure, as another, that the rules name otherwise
(``session.misread``; ``misnamed`` keeps what the camera took it for), never one a player
named (``tapped``).
``apply`` takes one event and returns the next state, or raises a ``CompanionError`` saying
why the event cannot happen now; ``fold`` replays a whole log, undo included.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

from companion.errors import CompanionError
from companion.rules.combination import find_combinations
from companion.rules.deck import RefillChance
from companion.rules.game import Game, RuleError
from companion.rules.grid import EMPTY, GEMS, PEARL, SIZE, Cell, Grid
from companion.rules.nizam import (
    Scoring,
    draw,
    end_turn,
    refill,
    score,
    shift,
    start,
    why_illegal_shifts,
)
from companion.rules.shift import WILDCARD_COST, Shift
from companion.rules.shift_paths import permutation
from companion.rules.state import State
from companion.rules.value import evolve
from companion.words import moves_words

from .events import (
    Cleared,
    Draw,
    EndTurn,
    Event,
    EventError,
    Fix,
    Kept,
    Misread,
    Refill,
    Relaid,
    Settled,
    Setup,
    Shifts,
    Wildcard,
    fold_log,
)
from .kept import FoldSoFar, KeptFolds

OPENING, PLAY, CLEAR, REFILL, OVER = "opening", "play", "clear", "refill", "over"
UNSURE = "?"
CARDS = GEMS + PEARL
MIN_READ = SIZE
"""Cells read, sure, in both layouts that can tell a layout laid anew (``_laid_anew``): a
hand or a sleeve over all the others tells nothing."""
GATHERED = 2
"""Cells emptied, at the least, that can be the cards gathered (``_laid_anew``): a single
card lifted to be looked at empties one."""


@dataclass(frozen=True)
class TableState:
    game: Game
    phase: str = OPENING
    rules: State | None = None
    turn_start: State | None = None
    """The rules' state when this turn began: shifts are re-paid from here (wildcard tap)."""
    shifts: tuple[Shift, ...] = ()
    wildcard_next: bool = False
    """"Paid with 3 cards" was tapped before this turn's first shift was seen: that shift is
    paid with three cards (N5). At a real table the tap comes before the move as often as
    after it."""
    drew: bool = False
    rounds: tuple[Scoring, ...] = ()
    """This turn's scoring rounds so far (N10 cascades add rounds)."""
    last_rounds: tuple[Scoring, ...] = ()
    last_turn_player: int | None = None
    to_clear: tuple[Cell, ...] = ()
    cards: str = ""
    """Every card laid on the grid in order: the 25 of the setup, then each refill's."""
    origin: tuple[int, ...] = ()
    """For each cell, the index in ``cards`` of the card lying there (-1: empty)."""
    turn_origin: tuple[int, ...] = ()
    turn_laid_from: int = 0
    turns: tuple[dict[str, Any], ...] = ()
    """Finished turns as game-record lines; ``refill`` as a (start, end) slice of ``cards``."""
    misreads: frozenset[str] = field(default_factory=frozenset)
    notice: str = ""
    named: tuple[tuple[Cell, str], ...] = ()
    """Before the opening grid is set up: the cells a player named (a ``Fix``), in reading
    order, each with its card. A card the camera cannot read on any frame would otherwise
    keep the game from starting; the names complete the readings (``named_reading``)."""
    named_on: tuple[tuple[Cell, str], ...] = ()
    """For each named cell whose name says so (``Fix.layout``), the opening layout the
    camera read when it was named: the name belongs to the card that lay there then."""
    provisional: tuple[int, ...] = ()
    """The cards (their index in ``cards``) laid unread under a provisional name, in the
    order they were laid: the camera or the rules may still name them (``Settled``)."""
    clearing: tuple[int, ...] = ()
    """The cards waiting to be cleared (N9), in the order of ``to_clear``: one laid unread
    may still be named by a tap on its cell (``Fix``)."""
    tapped: tuple[int, ...] = ()
    """The cards a player named by a tap (a ``Fix``, or a card named on the opening layout):
    the rules never name them otherwise (``Settled`` of a misread)."""
    misnamed: tuple[tuple[int, str], ...] = ()
    """The cards the camera read, sure, as another card, named by the rules (``Settled``),
    each with the card the camera took it for: it may read it so again."""
    log: tuple[Event, ...] = field(default=(), repr=False)
    """The events this state was folded from, undone ones left out and settled names laid
    as named: a settled card's game is folded again from them (``_refold``)."""

    @property
    def grid(self) -> Grid | None:
        return self.rules.grid if self.rules else None

    @property
    def ended(self) -> bool:
        return self.phase == OVER

    def cell_of_card(self, card: int) -> Cell | None:
        """The cell where ``card`` (its index in ``cards``) lies on the grid; None when it
        lies off it (cleared, or not laid yet)."""
        return card_cell(card, self.origin)


def card_cell(card: int, origin: Sequence[int], clearing: Sequence[int] = (),
              to_clear: Sequence[Cell] = ()) -> Cell | None:
    """Where ``card`` lies: its cell on the grid (``origin``, as ``TableState`` keeps it), or
    the cell it waits to be cleared from (``clearing``, in the order of ``to_clear``); None
    when it is neither."""
    if card in origin:
        return cell_of(origin.index(card))
    if card in clearing:
        return to_clear[list(clearing).index(card)]
    return None


def _permute(origin: tuple[int, ...], move: Shift) -> tuple[int, ...]:
    source = permutation(move)
    return tuple(origin[source[i]] for i in range(SIZE * SIZE))


def permuted(origin: tuple[int, ...], moves: Iterable[Shift]) -> tuple[int, ...]:
    """Where each card lies (``TableState.origin``) once ``moves`` are made."""
    for move in moves:
        origin = _permute(origin, move)
    return origin


def refill_count(game: Game, state: State) -> int:
    """How many empty cells the deck can fill now (N9, N11, N12), without naming the cards."""
    probe = _ProbeChance(state)
    _, laid = refill(game, state, probe)
    return len(laid)


class _ProbeChance:
    """Names, for each card taken, a gem the deck can still hold, so only counts matter."""

    def __init__(self, state: State) -> None:
        self.seen = {g: state.grid.count(g) + state.known_discard.count(g) for g in GEMS}

    def card(self, deck: object, to_grid: bool) -> str | None:
        if not to_grid:
            return None
        gem = min(GEMS, key=lambda g: self.seen[g])
        self.seen[gem] += 1
        return gem


def _runs_out_notice(game: Game, before: State, after: State) -> str:
    """What the players must do now that the deck ran out (N11, N12, P8), in words: the
    last run-out ends the game; an empty discard pile leaves nothing to shuffle in yet."""
    if after.runs_out == before.runs_out:
        return ""
    limit = game.deck_limit
    rule = "P8" if game.pearl or limit is None else "N11"
    count = "" if rule == "P8" else f" ({after.runs_out} of {limit})"
    if limit is not None and after.runs_out >= limit:
        return (f"The deck ran out for the last time{count}: this turn ends the game (N12).")
    if after.deck == 0 and after.discard == 0:
        return (f"The deck ran out{count} and the discard pile is empty: the deck stays empty "
                f"until cards are discarded; shuffle them in when a card is needed ({rule}).")
    return f"The deck ran out{count}: shuffle the discard pile to form the new deck ({rule})."


def _after_scoring(t: TableState, rules: State, scoring: Scoring) -> TableState:
    t = evolve(t, rules=rules, rounds=t.rounds + (scoring,))
    if rules.ended:  # P9: the task phase's combinations stay where they are
        return _finish_turn(t)
    cleared = tuple(cell for cell in rules.grid.empty_cells() if t.origin[index_of(cell)] >= 0)
    if cleared:
        origin = list(t.origin)
        for cell in cleared:
            origin[index_of(cell)] = -1
        return evolve(t, phase=CLEAR, to_clear=cleared, origin=tuple(origin),
                      clearing=tuple(t.origin[index_of(cell)] for cell in cleared))
    return _refill_or_finish(t)


def _refill_or_finish(t: TableState) -> TableState:
    assert t.rules is not None
    if refill_count(t.game, t.rules) == 0:
        return _finish_turn(t)
    return evolve(t, phase=REFILL, to_clear=(), clearing=())


def _finish_turn(t: TableState) -> TableState:
    assert t.rules is not None
    rules = end_turn(t.game, t.rules)
    line: dict[str, Any] = {"turn": rules.turn}
    if t.drew:
        line["draw"] = True
    else:
        line["shifts"] = [str(s) for s in t.shifts]
    line["refill"] = (t.turn_laid_from, len(t.cards))
    return evolve(
        t, phase=OVER if rules.ended else PLAY, rules=rules, turn_start=rules, shifts=(),
        wildcard_next=False, drew=False, last_rounds=t.rounds, rounds=(),
        last_turn_player=t.rules.active,
        to_clear=(), clearing=(), turn_origin=t.origin, turn_laid_from=len(t.cards),
        turns=t.turns + (line,),
    )


def index_of(cell: Cell) -> int:
    """A cell's place in reading order (0-24), where ``origin`` keeps its card."""
    return (cell[0] - 1) * SIZE + (cell[1] - 1)


def cell_of(index: int) -> Cell:
    """The cell at a place in reading order: ``index_of``'s other way."""
    return index // SIZE + 1, index % SIZE + 1


def _pay_shifts(game: Game, state: State, moves: Iterable[Shift]) -> State:
    for move in moves:
        state = shift(game, state, move)
    return state


def apply(t: TableState, event: Event) -> TableState:
    """The state after ``event``; a ``CompanionError`` (with the rule ID) when it cannot happen."""
    if isinstance(event, Settled):
        return _settled(t, event)
    return evolve(_apply(t, event), log=t.log + (event,))


def _apply(t: TableState, event: Event) -> TableState:
    t = evolve(t, notice="")
    if isinstance(event, Misread):
        return evolve(t, misreads=t.misreads | {event.reading})
    if isinstance(event, Setup):
        return _setup(t, event.grid, event.unread or ())
    if isinstance(event, Fix) and t.phase == OPENING:
        return _name(t, event.cell, event.letter, event.layout)
    if isinstance(event, Relaid):
        return _relaid(t, event.cells)
    if isinstance(event, Kept):
        return _kept(t, event.cells, event.layout)
    if t.rules is None or t.turn_start is None:
        raise EventError("lay out the opening grid first")
    if t.phase == OVER and not isinstance(event, Fix):
        raise RuleError("P9" if t.game.pearl else "N12", "the game is over")
    match event:
        case Fix(cell=(row, col), letter=letter):
            return _fix(t, row, col, letter)
        case Shifts(shifts=moves):
            return _shifts(t, moves)
        case Wildcard():
            return _wildcard(t, t.turn_start)
        case Draw():
            return _draw(t)
        case EndTurn():
            if t.phase != PLAY:
                raise EventError("the turn is already being scored")
            if not t.shifts:
                raise RuleError("N3", "draw or shift first: a turn is a draw or shifts")
            rules, scoring = score(t.game, t.rules)
            return _after_scoring(t, rules, scoring)
        case Cleared():
            if t.phase != CLEAR:
                raise EventError("no scored cards are waiting to be cleared")
            return _refill_or_finish(t)
        case Refill(cards=cards, unread=unread):
            return _refill(t, cards, unread or ())
    raise EventError(f"a {event.KIND} event cannot be applied to this game")


def _setup(t: TableState, text: str, unread: Sequence[Cell]) -> TableState:
    if t.phase != OPENING:
        raise EventError("the game has already started")
    grid = Grid.parse(text)
    if t.game.options.setup_lines == "replace" and find_combinations(grid, t.game.pearl):
        raise RuleError("N2", "the opening grid holds a combination: return its cards to "
                        "the deck, shuffle, and deal new ones")
    rules = start(t.game, grid)
    origin = tuple(range(SIZE * SIZE))
    unread_at = set(unread)
    tapped = tuple(sorted(index_of(c) for c, _ in t.named if c not in unread_at))
    return evolve(t, phase=PLAY, rules=rules, turn_start=rules, cards=grid.cells,
                  origin=origin, turn_origin=origin, turn_laid_from=SIZE * SIZE, named=(),
                  named_on=(), provisional=tuple(sorted(index_of(c) for c in unread_at)),
                  tapped=tapped)


def _check_fix(t: TableState, row: int, col: int, letter: str) -> None:
    """Raises why a tap cannot say the card in (row, col) is ``letter``; nothing when it can."""
    if not (1 <= row <= SIZE and 1 <= col <= SIZE):
        raise EventError(f"there is no cell r{row}c{col}")
    allowed = GEMS + (PEARL if t.game.pearl else "")
    if letter == EMPTY:
        raise EventError("an empty cell needs no fixing: the camera sees it empty once the "
                         "card is taken away")
    if letter not in allowed:
        raise EventError(f"{letter!r} is not a card letter ({allowed})")


def _name(t: TableState, cell: Cell, letter: str, layout: str | None) -> TableState:
    """A card named before the opening grid is set up: kept for its cell (named again, the
    newer name holds) until a reading it completes is set up, or the layout is laid anew
    (``Relaid``). ``layout``: the layout read when it was named (None: not known)."""
    _check_fix(t, *cell, letter)
    named = dict(t.named)
    named[cell] = letter
    named_on = dict(t.named_on)
    named_on.pop(cell, None)
    if layout is not None:
        named_on[cell] = layout
    return evolve(t, named=tuple(sorted(named.items())), named_on=tuple(sorted(named_on.items())))


def _relaid(t: TableState, cells: Sequence[Cell]) -> TableState:
    if t.phase != OPENING:
        raise EventError("the game has already started")
    gone = set(cells)
    return evolve(t, named=tuple(x for x in t.named if x[0] not in gone),
                  named_on=tuple(x for x in t.named_on if x[0] not in gone),
                  notice="New cards were laid where you had chosen cards: those choices "
                  "are dropped.")


def _kept(t: TableState, cells: Sequence[Cell], layout: str) -> TableState:
    if t.phase != OPENING:
        raise EventError("the game has already started")
    named = {cell for cell, _ in t.named}
    missing = [f"r{row}c{col}" for row, col in cells if (row, col) not in named]
    if missing:
        raise EventError(f"no card was chosen for {', '.join(missing)}: nothing to keep")
    named_on = dict(t.named_on)
    named_on.update((cell, layout) for cell in cells)
    return evolve(t, named_on=tuple(sorted(named_on.items())))


def outlived(t: TableState, text: str) -> tuple[Cell, ...]:
    """The named cells whose names no longer apply to the opening layout read as ``text``
    (rows joined by "/"): the layout is a new one since the name was given (``_laid_anew``:
    the players gathered the cards, or dealt again), whatever the camera reads in the cell.
    One card read otherwise is not a new layout: it is asked about (``contested``). A name
    whose layout is not known (stored before version 3, or given before any reading) is
    kept until it is named again or undone, as it always was."""
    layouts = dict(t.named_on)
    return tuple(cell for cell, _ in t.named
                 if cell in layouts and _laid_anew(layouts[cell], text))


def contested(t: TableState, text: str) -> tuple[tuple[Cell, str, str], ...]:
    """The named cells the camera reads, sure, in ``text`` as a card other than its name
    and other than it read when the name was given (a card it misread then, the name beats:
    it still reads the same), each with the name and the card read now. Such a cell is not
    taken as named (``named_reading`` shows it unsure): the players are asked to choose
    again, and their new name holds for what the camera reads now. The camera's letter is
    not taken either: a misread under a changing light must not start the game. A name
    whose layout is not known beats the camera, as it always did."""
    layouts = dict(t.named_on)
    out = []
    for cell, letter in t.named:
        then = layouts.get(cell)
        now = _letter_at(text, cell)
        if then is not None and now in CARDS and now not in (letter, _letter_at(then, cell)):
            out.append((cell, letter, now))
    return tuple(out)


def _letter_at(text: str, cell: Cell) -> str:
    index = _place(cell)
    return text[index] if 0 <= index < len(text) else UNSURE


def _place(cell: Cell) -> int:
    """Where ``cell``'s letter is in a reading's text (rows joined by "/")."""
    return (cell[0] - 1) * (SIZE + 1) + (cell[1] - 1)


def _laid_anew(then: str, now: str) -> bool:
    """The layout read as ``now`` is not the one read as ``then``: of the cells read, sure,
    in both (at least ``MIN_READ``), over half hold another card (a hand over the layout
    hides cards, it does not change them; three cards of a combination replaced (N2) are not
    a new layout; a new layout read under poor light, many cards unsure, still is one); or
    the cards are being gathered: over half of the cells that held a card then (and at
    least ``GATHERED``) are empty now (a card lifted to be looked at empties one)."""
    pairs = [(a, b) for a, b in zip(then, now, strict=False) if a != "/"]
    read = [(a, b) for a, b in pairs if a in CARDS and b in CARDS]
    changed = sum(a != b for a, b in read)
    held = [b for a, b in pairs if a != EMPTY]
    emptied = held.count(EMPTY)
    return ((len(read) >= MIN_READ and 2 * changed > len(read))
            or (emptied >= GATHERED and 2 * emptied > len(held)))


def named_reading(t: TableState, text: str) -> str:
    """A reading (rows joined by "/") with the cards the players named in their cells: what
    they said beats what the camera read, as a fix does in play; a ``contested`` cell reads
    unsure, to be named again."""
    flat = list(text)
    asked = {cell for cell, _, _ in contested(t, text)}
    for cell, letter in t.named:
        flat[_place(cell)] = UNSURE if cell in asked else letter
    return "".join(flat)


def _as_tapped(t: TableState, moves: tuple[Shift, ...]) -> tuple[Shift, ...]:
    """``moves`` with the first paid with three cards when that was tapped before it."""
    if t.wildcard_next and moves:
        return (moves[0].with_wildcard(),) + moves[1:]
    return moves


def shifts_problem(t: TableState, moves: Sequence[Shift]) -> CompanionError | None:
    """Why a ``Shifts`` event of ``moves`` cannot happen now, or None when it can: asked
    before the event is logged, and by ``apply`` itself."""
    if t.rules is None or t.phase != PLAY:
        return EventError("the turn is being scored: no shifts now")
    if t.drew:
        return RuleError("N3", "this turn was a draw: a turn is a draw or shifts, not both")
    return why_illegal_shifts(t.game, t.rules, _as_tapped(t, tuple(moves)))


def _shifts(t: TableState, moves: tuple[Shift, ...]) -> TableState:
    problem = shifts_problem(t, moves)
    if problem is not None:
        raise problem
    assert t.rules is not None
    moves = _as_tapped(t, moves)
    rules = _pay_shifts(t.game, t.rules, moves)
    return evolve(t, rules=rules, shifts=t.shifts + moves, origin=permuted(t.origin, moves),
                  wildcard_next=False)


def _wildcard(t: TableState, turn_start: State) -> TableState:
    if t.phase != PLAY or t.drew:
        raise RuleError("N5", "no shift this turn to pay with three cards")
    if not t.shifts:
        if t.wildcard_next:
            raise RuleError("N5", "the next shift is already paid with three cards")
        return evolve(t, wildcard_next=True, notice="the next shift is paid with three cards")
    last = t.shifts[-1]
    if last.wildcard:
        raise RuleError("N5", f"{last} is already paid with three cards")
    moves = t.shifts[:-1] + (last.with_wildcard(),)
    return evolve(t, rules=_pay_shifts(t.game, turn_start, moves), shifts=moves)


def wildcard_problem(t: TableState) -> CompanionError | None:
    """Why "paid with three cards" cannot be tapped now (N5), or None when it can: asked to
    grey the button."""
    if t.rules is None or t.turn_start is None:
        return EventError("lay out the opening grid first")
    try:
        _wildcard(t, t.turn_start)
    except CompanionError as err:
        return err
    return short_of_three(t)


def short_of_three(t: TableState) -> RuleError | None:
    """N5: why the player whose turn it is can pay no shift of it with three cards (they
    began it with fewer), or None. The fold still takes such a tap, tapped before a shift,
    from an older log: it was taken then, and the shift it announced refused."""
    if t.phase != PLAY or t.turn_start is None:
        return None
    player = t.turn_start.active
    hand = t.turn_start.hands[player]
    if hand >= WILDCARD_COST:
        return None
    return RuleError("N5", f"player {player} holds {hand} cards and a shift paid with three "
                     f"cards costs {WILDCARD_COST}")


def _draw(t: TableState) -> TableState:
    assert t.rules is not None
    if t.phase != PLAY:
        raise EventError("the turn is being scored: no draw now")
    if t.shifts:
        raise RuleError("N3", "this turn has shifts: a turn is a draw or shifts, not both")
    before = t.rules
    rules = draw(t.game, before, RefillChance(""))
    # a draw pays nothing: three cards tapped for a shift never made are not paid
    t = evolve(t, drew=True, wildcard_next=False, notice=_runs_out_notice(t.game, before, rules))
    rules, scoring = score(t.game, rules)
    return _keep_notice(t, _after_scoring(t, rules, scoring))


def _keep_notice(before: TableState, after: TableState) -> TableState:
    return evolve(after, notice=after.notice or before.notice)


def _refill(t: TableState, cards: str, unread: Sequence[Cell]) -> TableState:
    assert t.rules is not None
    if t.phase != REFILL:
        raise EventError("no empty cells are waiting for cards")
    want = refill_count(t.game, t.rules)
    if len(cards) != want:
        raise RuleError("N9", f"{want} cards go into the empty cells, {len(cards)} were read")
    empty = t.rules.grid.empty_cells()[:want]
    before = t.rules
    rules, laid = refill(t.game, t.rules, RefillChance(cards))
    origin = list(t.origin)
    for k, cell in enumerate(empty):
        origin[index_of(cell)] = len(t.cards) + k
    if not set(unread) <= set(empty):
        raise EventError("a card laid unread must be one of the refilled cards")
    provisional = t.provisional + tuple(len(t.cards) + empty.index(c) for c in sorted(set(unread)))
    t = evolve(t, rules=rules, cards=t.cards + laid, origin=tuple(origin),
               notice=_runs_out_notice(t.game, before, rules), provisional=provisional)
    if t.game.options.cascades == "leave":
        return _keep_notice(t, _finish_turn(t))
    rules, scoring = score(t.game, rules)
    if not scoring.combinations:
        return _keep_notice(t, _finish_turn(evolve(t, rules=rules)))
    return _keep_notice(t, _after_scoring(t, rules, scoring))


def _fix(t: TableState, row: int, col: int, letter: str) -> TableState:
    assert t.rules is not None and t.turn_start is not None
    _check_fix(t, row, col, letter)
    was = t.rules.grid.at(row, col)
    if was == EMPTY and t.phase == CLEAR and (row, col) in t.to_clear:
        # a card laid unread, scored under its provisional name, still lies there: named,
        # the game is folded again under its name (the combination may never have been)
        source = t.clearing[t.to_clear.index((row, col))]
        if source in t.provisional:
            return _refold(t, source, letter, still=False)
    if was == EMPTY:
        raise EventError(f"r{row}c{col} is empty: lay a card there and the camera reads it")
    if (was == PEARL) != (letter == PEARL):
        raise RuleError("P2", "the pearl stays one card: fix the other cell instead")
    source = t.origin[index_of((row, col))]
    tapped = t.tapped + (source,) * (source not in t.tapped)
    if source in t.provisional:  # named for good: the game is folded again under its name
        try:
            return evolve(_refold(t, source, letter, still=False), tapped=tapped)
        except RuleError as err:
            if err.rule == "N2":  # the players return those cards and deal anew
                raise
        except CompanionError:  # what was played says otherwise: the players' word holds
            pass
    provisional = tuple(c for c in t.provisional if c != source)
    cards = t.cards[:source] + letter + t.cards[source + 1 :]
    rules = evolve(t.rules, grid=t.rules.grid.replace({(row, col): letter}))
    turn_cells = {
        cell_of(i): letter for i, o in enumerate(t.turn_origin) if o == source
    }
    turn_start = evolve(t.turn_start, grid=t.turn_start.grid.replace(turn_cells))
    return evolve(t, rules=rules, turn_start=turn_start, cards=cards, provisional=provisional,
                  tapped=tapped)


def _settled(t: TableState, event: Settled) -> TableState:
    if event.card not in t.provisional:
        return _misnamed(t, event)
    allowed = GEMS + (PEARL if t.game.pearl else "")
    if event.letter not in allowed:
        raise EventError(f"{event.letter!r} is not a card letter ({allowed})")
    return _refold(t, event.card, event.letter, still=event.by == "likeliest")


def _misnamed(t: TableState, event: Settled) -> TableState:
    """A card laid under the name the camera read, sure, named otherwise by the rules (the
    one name under which what the players did next can happen): the game is folded again
    with it laid under that name, as a card laid unread is. When the rules tell the card
    but not its name (``by`` "likeliest"), it is laid unread under that name, provisional
    until it is settled. Never a card a player named (a tap wins), never to or from the
    pearl (P2: it is one card, never misread as a gem)."""
    return misnamed(t, event.card, event.letter, event.by == "likeliest")


def misnamed(t: TableState, card: int, letter: str, still: bool = False) -> TableState:
    """The state ``Settled(card, letter)`` makes of ``t`` for a card not laid unread
    (``still``: by "likeliest"): the game is folded again from the card's laying only."""
    if not 0 <= card < len(t.cards):
        raise EventError(f"card {card} of the game was never laid")
    if card in t.tapped:
        raise EventError(f"card {card} of the game was named by a player: the name holds")
    was = t.cards[card]
    if was not in GEMS or letter not in GEMS or letter == was:
        raise EventError(f"card {card} of the game ({was}) cannot be named {letter!r}")
    return evolve(_refold(t, card, letter, still),
                  misnamed=t.misnamed + ((card, was),))


_REFOLDS: KeptFolds[TableState] = KeptFolds()
"""Each name tried of a card, its fold so far (``kept``): the next search goes on from it."""


def _refold(t: TableState, card: int, letter: str, still: bool) -> TableState:
    """The state ``t``'s log makes with ``card`` laid as ``letter`` (``still``: under a
    provisional name still); a ``CompanionError`` when what followed cannot happen so."""
    key = (t.game, card, letter, still)
    laying, laid = _laying(t.log, card)
    # the name the card was laid under is not folded: a fold kept goes on whatever it was
    # (a card laid unread named otherwise as the likeliest, the other card's tried again)
    log: tuple[Any, ...] = t.log
    if laying < len(log):
        log = log[:laying] + (_unnamed(log[laying], card - laid),) + log[laying + 1 :]
    kept = _REFOLDS.longest(key, log)
    if kept is not None and kept.error is not None:
        raise kept.refusal()
    if kept is None:
        # the log before the event that laid the card is folded as it was: from there on only
        start, s, repaid = laying, _folded(t.game, t.log[:laying]), False
    else:
        start, s, (laid, repaid) = len(kept.events), kept.state, kept.carried
    for at, event in enumerate(t.log[start:], start):
        count = _laid_count(event)
        if laid <= card < laid + count:
            event = _renamed(s, event, card - laid, letter, still)
        laid += count
        try:
            s, repaid = _refolded(s, event, repaid)
        except CompanionError as err:
            _REFOLDS.keep(key, FoldSoFar(log[: at + 1], s, error=err))
            raise
    _REFOLDS.keep(key, FoldSoFar(log, s, (laid, repaid)))
    if t.ended and not s.ended:  # the store keeps the game finished: a name cannot reopen it
        raise RuleError("P9" if t.game.pearl else "N12",
                        "the game is over: the card's name cannot undo its end")
    return evolve(s, misnamed=t.misnamed)


def _unnamed(event: Event, k: int) -> tuple[Any, ...]:
    """The event that laid a card, its ``k``-th, with the card's name left out: what a
    fold of the card under another name takes of it (``_renamed``)."""
    name, at = ("grid", _place(cell_of(k))) if isinstance(event, Setup) else ("cards", k)
    values = [(f.name, getattr(event, f.name)) for f in fields(event)]
    return (event.KIND, *((n, v[:at] + v[at + 1 :] if n == name else v) for n, v in values))


def _refolded(s: TableState, event: Event, repaid: bool) -> tuple[TableState, bool]:
    """``s`` after ``event`` of a log folded again, and whether it was a turn's shifts paid
    with three cards (``repaid``: the last one was)."""
    try:
        return apply(s, event), False
    except CompanionError:
        if isinstance(event, Shifts):
            # The session paid the shifts with a matching card as the hand might hold
            # one; under this name no hand can (all its copies seen): with three cards,
            # as it would have paid them (``TableSession._play``).
            wild = tuple(m.with_wildcard() for m in event.shifts)
            return apply(s, evolve(event, shifts=wild)), True
        if repaid and isinstance(event, Wildcard):
            return s, repaid  # the tap saying so was refused then: it was never logged
        raise


def _laying(log: Sequence[Event], card: int) -> tuple[int, int]:
    """The index in ``log`` of the event that laid ``card``, and the cards laid before it."""
    laid = 0
    for at, event in enumerate(log):
        if laid + _laid_count(event) > card:
            return at, laid
        laid += _laid_count(event)
    return len(log), laid


@lru_cache(maxsize=16)
def _folded(game: Game, events: tuple[Event, ...]) -> TableState:
    """The state a log (as a state keeps it, ``TableState.log``) folds to: the same for
    every name a card laid after it is tried under (``_refold``)."""
    s = TableState(game)
    for event in events:
        s = apply(s, event)
    return s


def _laid_count(event: Event) -> int:
    if isinstance(event, Setup):
        return SIZE * SIZE
    return len(event.cards) if isinstance(event, Refill) else 0


def _renamed(s: TableState, event: Event, k: int, letter: str, still: bool) -> Event:
    """``event`` (a ``Setup`` or a ``Refill``, applied to ``s``) with its ``k``-th card
    named ``letter``, no longer unread unless ``still``."""
    if isinstance(event, Setup):
        cell = cell_of(k)
        text = event.grid
        at = _place(cell)
        renamed: Setup | Refill = evolve(event, grid=text[:at] + letter + text[at + 1 :])
    else:
        assert isinstance(event, Refill) and s.rules is not None
        cell = s.rules.grid.empty_cells()[k]
        renamed = evolve(event, cards=event.cards[:k] + letter + event.cards[k + 1 :])
    unread = tuple(c for c in renamed.unread or () if still or c != cell)
    if still and cell not in unread:  # a card misread, its name not known: unread now
        unread = tuple(sorted(unread + (cell,)))
    return evolve(renamed, unread=unread or None)


def fold(game: Game, events: Iterable[Event], name: str = "the game") -> list[TableState]:
    """Every state the log passes through (``events.fold_log``): the last is the current one."""
    return fold_log(TableState(game), apply, events, name)


def record_lines(t: TableState) -> list[dict[str, Any]]:
    """The game record's lines after the header (DESIGN.md), fixes applied: the turns over,
    never the turn under way (``unfinished_words`` says what is left out of it)."""
    if t.rules is None:
        return []
    lines: list[dict[str, Any]] = [{"setup": str(Grid(t.cards[: SIZE * SIZE]))}]
    for turn in t.turns:
        start_at, end_at = turn["refill"]
        line = {k: v for k, v in turn.items() if k != "refill"}
        if end_at > start_at:
            line["refill"] = t.cards[start_at:end_at]
        lines.append(line)
    return lines


def unfinished_words(t: TableState) -> str:
    """What the record leaves out of the turn under way, in one line for the players; ""
    when every move logged is in it. A record's line is a turn that ended: one not over is
    never written, even where the rules could read it as ended (a shift that made no line,
    one completing a player's last task, P9), for the end it would give it never happened."""
    if t.rules is None or t.turn_start is None or t.phase == OVER:
        return ""
    number = t.turn_start.turn + 1
    if not (t.shifts or t.drew):
        if t.phase == PLAY and t.wildcard_next:
            return (f"Turn {number} was not over: \"paid with 3 cards\" was tapped for a "
                    "shift not made yet, which the record cannot hold.")
        return ""
    if t.drew:
        what, count = "its draw", 1
    else:
        moves = moves_words([str(s) for s in t.shifts])
        noun = "move" if len(t.shifts) == 1 else "moves"
        what, count = f"its {noun} ({moves[:1].lower()}{moves[1:]})", len(t.shifts)
    laid = len(t.cards) - t.turn_laid_from
    if laid:
        what += " and the card laid since" if laid == 1 else f" and the {laid} cards laid since"
        count += 1
    verb = "is" if count == 1 else "are"
    return (f"Turn {number} was not over: {what} {verb} not in the record; save it again "
            "once the turn is over.")
