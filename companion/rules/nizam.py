"""Play: a turn of Nizam or Pearl of the East, step by step (RULES.md N3–N12, P4–P9).

Each step takes a ``State`` and returns a new one; the input never changes. A turn is
``draw`` or one or more ``shift``, then the scoring phase: ``score`` and ``refill`` in
turn (N9, N10), then ``end_turn``. ``play`` does a whole turn. Cards come off the deck
through a ``Chance`` (``deck.py``): a record's refill letters, or a seeded shuffle.

>>> from .deck import RefillChance
>>> game = Game(players=2)
>>> state = start(game, Grid.parse("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"))
>>> state, report = play(game, state, Turn.parse("r2<"), RefillChance("OYB"))
>>> [str(c) for c in report.rounds[0].combinations], report.points, report.laid
(['R×3 r1c1-r3c1'], 3, 'OYB')
>>> state.grid, state.hands, state.discard, state.deck, state.active
(Grid('OGOGY/YVPBC/BGYOC/BVPRO/YGCBV'), (2, 3), 4, 62, 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .combination import Combination, cleared_cells, find_combinations, phase_points
from .deck import Cards, Chance
from .game import DRAW, GEM_COPIES, MIN_PLAYERS, PEARL_MODE, Game, RuleError
from .grid import EMPTY, GEMS, PEARL, SIZE, Grid, NotationError
from .shift import ALL_SHIFTS, Shift, format_shifts, parse_shifts
from .state import NOTHING, State, start
from .value import evolve

__all__ = ["Game", "Grid", "Scoring", "Turn", "TurnReport", "apply_shifts", "check_table_grid",
           "draw", "end_turn", "is_legal", "legal_moves", "play", "refill", "score", "shift",
           "shift_problem", "start", "why_illegal", "why_illegal_shifts"]


@dataclass(frozen=True, slots=True)
class Turn:
    """What the active player does (N3): ``shifts``, or a draw when there are none.

    >>> Turn.parse("r2< c3^!3"), str(Turn.parse("draw"))
    (Turn.parse('r2< c3^!3'), 'draw')
    """

    shifts: tuple[Shift, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Turn:
        """``draw``, or shifts in order such as ``r2< c3^!3``."""
        if text.strip() == "draw":
            return cls()
        if not text.strip():
            raise NotationError("empty turn: write 'draw' or one or more shifts")
        return cls(parse_shifts(text))

    @property
    def is_draw(self) -> bool:
        return not self.shifts

    def __str__(self) -> str:
        return "draw" if self.is_draw else format_shifts(self.shifts)

    def __repr__(self) -> str:
        return f"Turn.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Scoring:
    """One round of a scoring phase: what it found, scored and cleared, then what refilled."""

    combinations: tuple[Combination, ...]
    points: int = 0
    tasks: str = ""
    """Pearl: the task cards the active player removed (P6)."""
    cleared: bool = True
    """False when P9 ended the game: that phase's combinations stay on the grid."""
    laid: str = ""


@dataclass(frozen=True, slots=True)
class TurnReport:
    """A turn as played: who, what, the rounds of its scoring phase, what happened to the deck."""

    number: int
    player: int
    turn: Turn
    paid: int
    drawn: int
    rounds: tuple[Scoring, ...]
    runs_out: int
    reshuffles: int
    ended: bool

    @property
    def points(self) -> int:
        return sum(r.points for r in self.rounds)

    @property
    def tasks(self) -> str:
        return "".join(r.tasks for r in self.rounds)

    @property
    def laid(self) -> str:
        return "".join(r.laid for r in self.rounds)

    @property
    def combinations(self) -> tuple[Combination, ...]:
        return tuple(c for r in self.rounds for c in r.combinations)


class _Table:
    """A working copy of a state while one step runs; ``freeze`` gives the new state."""

    def __init__(self, game: Game, state: State) -> None:
        self.game = game
        self.state = state
        self.cells = list(state.grid.cells)
        self.deck = state.deck
        self.discard = state.discard
        self.known = state.known_discard
        self.hands = list(state.hands)
        self.runs_out = state.runs_out
        self.reshuffles = state.reshuffles
        self.closing = state.closing
        self.piles = state.piles

    def freeze(self) -> State:
        return evolve(
            self.state, grid=Grid("".join(self.cells)), deck=self.deck, discard=self.discard,
            known_discard=self.known, hands=tuple(self.hands), runs_out=self.runs_out,
            reshuffles=self.reshuffles, closing=self.closing, piles=self.piles,
        )

    def to_discard(self, cards: int, known: str = "", piles_cards: Cards = NOTHING) -> None:
        self.discard += cards
        self.known = self.known + Cards.of(known)
        if self.piles is not None:
            self.piles = evolve(self.piles, discard=self.piles.discard + piles_cards)

    def take(self, chance: Chance, to_grid: bool) -> tuple[bool, str | None]:
        """N11, N12, P8: take the top card of the deck; ``(False, None)`` when none can be."""
        if self.closing:
            return False, None
        if self.deck == 0:
            if self.discard == 0:
                return False, None
            self._reshuffle()  # the discard pile left waiting by an earlier run-out (N11)
        letter = chance.card(self.piles.deck if self.piles else None, to_grid)
        if to_grid:
            self._check_laid(letter)
        self.deck -= 1
        if self.piles is not None:
            if letter is None:
                raise ValueError("a state with piles needs to know every card taken")
            self.piles = evolve(self.piles, deck=self.piles.deck - Cards.of(letter))
        if self.deck == 0:
            self._run_out()
        return True, letter

    def _check_laid(self, letter: str | None) -> None:
        if letter is None or letter not in GEMS:
            raise RuleError("N9", f"a card laid from the deck must be a gem, not {letter!r}")
        seen = self.cells.count(letter) + self.known.count(letter)
        if seen >= self.game.copies:
            raise RuleError(
                "N15", f"the deck cannot hold a {letter}: all {self.game.copies} are on the "
                f"grid ({self.cells.count(letter)}) or in the discard pile "
                f"({self.known.count(letter)})",
            )

    def _run_out(self) -> None:
        self.runs_out += 1
        limit = self.game.deck_limit
        if limit is not None and self.runs_out >= limit:
            self.closing = True
        elif self.discard > 0:
            self._reshuffle()

    def _reshuffle(self) -> None:
        self.deck, self.discard, self.known = self.discard, 0, NOTHING
        self.reshuffles += 1
        if self.piles is not None:
            self.piles = evolve(self.piles, deck=self.piles.discard, discard=NOTHING)


def _check_can_act(game: Game, state: State, action: str) -> None:
    if state.ended:
        raise RuleError("P9" if game.pearl else "N12", f"the game ended after turn {state.turn}")
    if state.action not in ("", action):
        raise RuleError("N3", f"a turn is a draw or shifts, not both: this one began with a "
                        f"{state.action}")


def draw(game: Game, state: State, chance: Chance) -> State:
    """N3: the active player takes 3 cards (fewer when the deck ends the game, N11, N12)."""
    _check_can_act(game, state, "draw")
    if state.action == "draw":
        raise RuleError("N3", "a turn has only one draw")
    table = _Table(game, state)
    for _ in range(DRAW):
        taken, letter = table.take(chance, to_grid=False)
        if not taken:
            break
        table.hands[state.active] += 1
        if table.piles is not None and letter is not None:
            hands = list(table.piles.hands)
            hands[state.active] += Cards.of(letter)
            table.piles = evolve(table.piles, hands=tuple(hands))
    return evolve(table.freeze(), action="draw")


def shift_problem(grid: Grid, move: Shift) -> RuleError | None:
    """What forbids ``move`` on ``grid`` whatever the hand holds, if anything (N4, P4)."""
    edge = grid.at(*move.edge)
    if edge == EMPTY:
        return RuleError("N4", f"{move}: no card at the edge r{move.edge[0]}c{move.edge[1]}")
    if edge == PEARL and not move.wildcard:
        return RuleError("P4", f"{move}: the pearl has no matching card; moving it costs "
                         f"three cards ({move.with_wildcard()})")
    return None


def check_table_grid(grid: Grid, pearl: bool | None = None) -> Grid:
    """``grid``, if some table can hold it: no gem beyond its copies (N15; in Pearl of the
    East, those the fewest players leave once the task cards are laid out, P1), and the pearl
    its mode has (N1: none in classic Nizam; P2: one in Pearl of the East; with the mode not
    given, one at most).

    >>> check_table_grid(Grid.parse("RRRRR/RRRRR/RRRRR/OOOOO/OOOOO"))
    Traceback (most recent call last):
    ...
    companion.rules.game.RuleError: N15: the grid holds 15 R; there are only 12
    """
    copies = Game(PEARL_MODE, MIN_PLAYERS).copies if pearl else GEM_COPIES
    for gem in GEMS:
        if grid.count(gem) > copies:
            raise RuleError("N15", f"the grid holds {grid.count(gem)} {gem}; there are only "
                            f"{copies}" + (" once the task cards are laid out (P1)"
                                           if pearl else ""))
    pearls = grid.count(PEARL)
    if pearl is False and pearls:
        raise RuleError("N1", f"the grid holds {pearls} pearl cards; classic Nizam has none")
    if pearls > 1 or (pearl and pearls != 1):
        raise RuleError("P2", f"the grid holds {pearls} pearl cards; there is one, and in "
                        "Pearl of the East it never leaves the grid")
    return grid


def apply_shifts(grid: Grid, shifts: tuple[Shift, ...], pearl: bool = False) -> Grid:
    """The grid after ``shifts`` when no hand is in view: only what the grid forbids is
    checked (N4, P4), and that a table can hold it (``check_table_grid``).

    >>> apply_shifts(Grid.parse("*ROGY/CBVPR/GGYOC/BVPRO/YGCBV"), parse_shifts("r1<"), True)
    Traceback (most recent call last):
    ...
    companion.rules.game.RuleError: P4: r1<: the pearl has no matching card; moving it costs \
three cards (r1<!3)
    """
    check_table_grid(grid, pearl)
    for move in shifts:
        problem = shift_problem(grid, move)
        if problem is not None:
            raise problem
        grid = move.apply(grid)
    return grid


def why_illegal(game: Game, state: State, move: Shift, paid: str | None = None
                ) -> RuleError | None:
    """What forbids the active player's ``move`` now, or None when it is legal (N3, N4, N5,
    P4, N12, P9). The question :func:`shift` asks before it moves anything.

    The hand is known by its size (N14): a shift by one card is legal when the hand holds a
    card and one of the edge's gem can still be in a hand (not all its copies on the grid or
    in the discard pile). With ``piles`` the cards themselves are checked; ``paid`` names the
    three of a wildcard payment (default: ``Cards.spare``).

    >>> game = Game(players=2)
    >>> state = start(game, Grid.parse("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"))
    >>> print(why_illegal(game, evolve(state, hands=(2, 3)), Shift.parse("c1^!3")))
    N5: c1^!3: player 0 holds 2 cards and the shift costs 3
    >>> why_illegal(game, state, Shift.parse("c1^!3")) is None
    True
    """
    try:
        _check_can_act(game, state, "shift")
    except RuleError as err:  # the same refusal draw and score give; here it is the answer
        return err
    problem = shift_problem(state.grid, move)
    if problem is not None:
        return problem
    edge = state.grid.at(*move.edge)
    player, hand = state.active, state.hands[state.active]
    rule = "N5" if move.wildcard else "N4"
    if hand < move.cost:
        return RuleError(rule, f"{move}: player {player} holds {hand} cards and the shift "
                         f"costs {move.cost}")
    if not move.wildcard:
        seen = state.grid.count(edge) + state.known_discard.count(edge)
        if seen >= game.copies:
            return RuleError("N4", f"{move}: no hand can hold a {edge} to pay with: all "
                             f"{game.copies} are on the grid or in the discard pile")
    if state.piles is not None:
        held = state.piles.hands[player]
        payment = _payment(state, move, paid)
        if len(payment) != move.cost or not held.holds(payment):
            return RuleError(rule, f"{move}: player {player} holds {held!r}, cannot pay "
                             f"{payment!r}")
    return None


def is_legal(game: Game, state: State, move: Shift) -> bool:
    """Whether the active player may make ``move`` now, paid as it is marked (one matching
    card, or three with ``!3``).

    >>> game = Game(players=2)
    >>> state = start(game, Grid.parse("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"))
    >>> is_legal(game, state, Shift.parse("r2<")), is_legal(game, state, Shift.parse("r2<!3"))
    (True, True)
    >>> is_legal(game, evolve(state, hands=(2, 3)), Shift.parse("r2<!3"))
    False
    """
    return why_illegal(game, state, move) is None


def legal_moves(game: Game, state: State) -> tuple[Shift, ...]:
    """Every shift and payment the active player's hand can make now: each of the 20 shifts
    by one matching card, then by three (N4, N5, P4), those that are legal, in that order.

    >>> game = Game("pearl", 2)
    >>> state = start(game, Grid.parse("*RGOY/CBVPR/GYOCB/VPROY/GCBVR"))
    >>> moves = legal_moves(game, evolve(state, hands=(1, 3)))
    >>> len(moves), Shift.parse("r1<") in moves, Shift.parse("r1<!3") in moves
    (18, False, False)
    >>> len(legal_moves(game, state))
    38
    """
    found = (m.with_wildcard(wild) for wild in (False, True) for m in ALL_SHIFTS)
    return tuple(m for m in found if is_legal(game, state, m))


def why_illegal_shifts(game: Game, state: State, moves: Iterable[Shift]) -> RuleError | None:
    """What forbids the active player's ``moves``, made one after the other, or None when
    the hand pays for every one of them (N4, N5, P4).

    >>> game = Game(players=2)
    >>> state = start(game, Grid.parse("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"))
    >>> why_illegal_shifts(game, state, parse_shifts("r2< r2< r2<")) is None
    True
    >>> print(why_illegal_shifts(game, state, parse_shifts("r2< r2<!3")))
    N5: r2<!3: player 0 holds 2 cards and the shift costs 3
    """
    for move in moves:
        problem = why_illegal(game, state, move)
        if problem is not None:
            return problem
        state = _shifted(game, state, move, None)
    return None


def _payment(state: State, move: Shift, paid: str | None) -> Cards:
    """The cards a state with ``piles`` pays ``move`` with."""
    assert state.piles is not None
    held = state.piles.hands[state.active]
    edge = state.grid.at(*move.edge)
    return Cards.of(edge if not move.wildcard else paid or held.spare(move.cost).letters())


def shift(game: Game, state: State, move: Shift, paid: str | None = None) -> State:
    """N4, N5, P4: the active player pays for ``move`` and shifts its row or column; raises
    what :func:`why_illegal` answers when the move is not legal.

    The companion checks the payment by count (N14). With ``piles`` it checks the cards:
    ``paid`` names the three of a wildcard payment (default: ``Cards.spare``).
    """
    problem = why_illegal(game, state, move, paid)
    if problem is not None:
        raise problem
    return _shifted(game, state, move, paid)


def _shifted(game: Game, state: State, move: Shift, paid: str | None) -> State:
    """The state after a legal ``move``."""
    edge = state.grid.at(*move.edge)
    player = state.active
    table = _Table(game, state)
    payment = NOTHING
    if table.piles is not None:
        payment = _payment(state, move, paid)
        hands = list(table.piles.hands)
        hands[player] = table.piles.hands[player] - payment
        table.piles = evolve(table.piles, hands=tuple(hands))
    table.hands[player] -= move.cost
    table.to_discard(move.cost, "" if move.wildcard else edge, payment)
    table.cells = list(move.plain().apply(state.grid).cells)
    return evolve(table.freeze(), action="shift")


def score(game: Game, state: State) -> tuple[State, Scoring]:
    """One round of the scoring phase (N6–N9) or task phase (P5–P7, P9), without the refill."""
    _check_can_act(game, state, state.action)
    if not state.action:
        raise RuleError("N3", "the scoring phase comes after a draw or shifts")
    combos = find_combinations(state.grid, game.pearl)
    player = state.active
    table = _Table(game, state)
    scores = list(state.scores)
    tasks = list(state.tasks)
    done = ""
    if game.pearl:
        done = "".join(gem for gem in GEMS if gem in tasks[player]
                       and any(c.gem == gem for c in combos))
        tasks[player] = "".join(t for t in tasks[player] if t not in done)
        scores[player] += len(done)
        if not tasks[player]:
            state = evolve(state, scores=tuple(scores), tasks=tuple(tasks), ended=True)
            return state, Scoring(combos, tasks=done, cleared=False)
        points = 0
    else:
        points = phase_points(combos, game.options.bonus, state.phase_combinations)
        scores[player] += points
    cleared = [cell for cell in cleared_cells(combos) if state.grid.at(*cell) != PEARL]
    letters = "".join(state.grid.at(*cell) for cell in cleared)
    for row, col in cleared:
        table.cells[(row - 1) * SIZE + col - 1] = EMPTY
    table.to_discard(len(cleared), letters, Cards.of(letters))
    new = evolve(table.freeze(), scores=tuple(scores), tasks=tuple(tasks),
                 phase_combinations=state.phase_combinations + len(combos))
    return new, Scoring(combos, points=points, tasks=done)


def refill(game: Game, state: State, chance: Chance) -> tuple[State, str]:
    """N9: lay a card from the deck in each empty cell, in reading order; the letters laid.

    Cells stay empty when no card can be taken (N11, N12).
    """
    table = _Table(game, state)
    laid = []
    for row, col in state.grid.empty_cells():
        taken, letter = table.take(chance, to_grid=True)
        if not taken or letter is None:
            break
        table.cells[(row - 1) * SIZE + col - 1] = letter
        laid.append(letter)
    return table.freeze(), "".join(laid)


def end_turn(game: Game, state: State) -> State:
    """The next player's turn; N12: the game ends once a closing turn is over."""
    ended = state.ended or state.closing
    return evolve(
        state, turn=state.turn + 1, active=state.active if ended else
        (state.active + 1) % game.players, ended=ended, action="", phase_combinations=0,
        closing=False,
    )


def play(game: Game, state: State, turn: Turn, chance: Chance) -> tuple[State, TurnReport]:
    """A whole turn: the draw or shifts, the scoring phase with its refills, the next player."""
    before = state
    if turn.is_draw:
        state = draw(game, state, chance)
    else:
        for move in turn.shifts:
            state = shift(game, state, move)
    after_action = state
    rounds = []
    while True:
        state, scoring = score(game, state)
        if state.ended:
            rounds.append(scoring)
            break
        state, laid = refill(game, state, chance)
        rounds.append(evolve(scoring, laid=laid))
        # N10: a refill's new lines score now, unless the table leaves them for next time.
        if not laid or game.options.cascades == "leave":
            break
    state = end_turn(game, state)
    report = TurnReport(
        number=before.turn + 1, player=before.active, turn=turn,
        paid=sum(before.hands) - sum(after_action.hands) if not turn.is_draw else 0,
        drawn=after_action.hands[before.active] - before.hands[before.active]
        if turn.is_draw else 0,
        rounds=tuple(r for r in rounds if r.combinations or r.laid),
        runs_out=state.runs_out - before.runs_out, reshuffles=state.reshuffles
        - before.reshuffles, ended=state.ended,
    )
    return state, report
