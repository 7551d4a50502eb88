"""Grids the camera held only briefly, and when the game takes them.

A stable reading needs a grid held for a few frames (``companion.live.watcher``). In a video
that is jittery (a frame that reads nothing, a glare) or sparse, a turn's moments (the
shift, the cards cleared, the refill) may each hold for fewer frames than that. Such a grid
is kept, and nothing is made of it on its own: a hand moving cards shows many a grid for a
frame or two. It is taken only when the game needs it: when a stable reading or a tap the
game cannot take follows from the state it makes, every card in it read or outlined, each
step one the rules take (``catching_up``); and, while cards are cleared and laid, before the
stable reading after it (a refill seen for a moment whose cascade the players cleared at
once: the grid after it fits a plain refill too), where the grid after such a cascade shows
its cards being taken away.

>>> from companion.rules.game import Game
>>> from companion.session.events import EndTurn, Setup
>>> t = apply(TableState(Game("classic", 2)), Setup("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"))
>>> shifted = ("RGOGY/RVPBC/RGYOC/BVPRO/YGCBV", "", True)  # r2< held for a moment
>>> catching_up(t, [shifted], lambda s: taken(s, EndTurn()))
[('RGOGY/RVPBC/RGYOC/BVPRO/YGCBV', (Shifts(shifts=(Shift.parse('r2<'),)),))]
>>> catching_up(t, [shifted], lambda s: False) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from companion.errors import CompanionError
from companion.rules.combination import cleared_cells, find_combinations
from companion.rules.explain import card_difference
from companion.rules.grid import EMPTY, PEARL, Cell, Grid
from companion.rules.shift import ALL_SHIFTS, Shift

from .events import Cleared, EndTurn, Event, Refill, Shifts
from .misread import as_read
from .table import CLEAR, PLAY, REFILL, TableState, apply, shifts_problem
from .unread import (
    UNSURE,
    cells_differ,
    letter_at,
    paid_moves,
    refill_cells,
    refill_read,
    scored,
    taken_as,
    taken_away,
)

UNSEEN_SHIFTS = 2  # shifts after a refill never seen whole that ``refills_behind`` undoes
MISREAD_AT_MOST = 2  # cells a stable reading may misread of the grid as it was

Brief = tuple[str, str, bool]
"""A grid held briefly: the reading (rows joined by "/"), its guesses ("" for none), and
whether two frames in a row showed it (not only two around an odd one)."""


def taken(t: TableState, event: Event) -> bool:
    """Whether state ``t`` takes ``event``."""
    try:
        apply(t, event)
    except CompanionError:
        return False
    return True


def moves_made(t: TableState, raw: str, guesses: str = "", provisional: bool = True,
               again: bool = False) -> tuple[Event, ...] | None:
    """The events state ``t`` logs on taking the reading ``raw`` (``TableSession`` takes it
    the same way): shifts in play (the first way the hand can pay), the cards scored
    cleared (and the refill seen with them), the refill once every card is laid (a card
    read ``?`` laid under its provisional name, at a table that lays such cards:
    ``provisional``); () for a reading that changes nothing or a step still under way; None
    when ``t`` cannot take it. A refill of the very gems just scored (``laid_back``) only
    with ``again``: the caller then waits for a grid that shows its cascade cleared."""
    text = taken_as(t, raw, provisional)
    if text is None or t.grid is None or t.phase not in (PLAY, CLEAR, REFILL):
        return None
    if text in t.misreads:
        return ()  # a reading the players set aside
    expected = str(t.grid)
    if t.phase == PLAY:
        if text == expected:
            return ()
        if card_difference(t.grid, Grid.parse(text)) is not None:
            return None
        paid = next((p for p in paid_moves(t, text) if shifts_problem(t, p) is None), None)
        return None if paid is None else (Shifts(tuple(paid)),)
    differ = set(cells_differ(expected, text))
    if t.phase == CLEAR:
        if not differ <= set(t.to_clear):
            return None
        away = taken_away(t, text)
        if away is not None and not all(away):
            return ()  # not all taken away yet
        after = apply(t, Cleared())
        if after.phase != REFILL or text == str(after.grid):
            return (Cleared(),)
        rest = moves_made(after, text, guesses, provisional, again)
        return None if rest is None else (Cleared(), *rest)
    cells = refill_cells(t)
    letters = "".join(letter_at(text, cell) for cell in cells)
    if not differ <= set(cells):
        return None
    if EMPTY in letters:
        return ()  # still being laid
    if PEARL in letters:
        return None
    if not again and laid_back(t, text, cells):
        return None
    refill = refill_read(t, text, cells, guesses)
    return (refill,) if taken(t, refill) else None


def laid_back(t: TableState, text: str, cells: Sequence[Cell]) -> bool:
    """While cards are laid (N9): the reading ``text`` shows in the refill ``cells`` the very
    gems just scored there. A shuffled deck deals that often (in 320 simulated games, in
    29 of 160 Pearl games and 10 of 160 classic ones), and the line they make scores again
    as a cascade (N10); but cards lifted for a moment and put back, or a frame that read
    them gone, show it too. Only a grid after it that shows its cascade cleared tells the
    refill (``catching_up`` waits for one)."""
    gone = scored(t)
    return all(letter_at(text, cell) == gone.get(cell) for cell in cells)


def cleared_whole(t: TableState, text: str) -> bool:
    """While cards scored are cleared (N9): the reading ``text`` shows every one of them
    taken away, none refilled yet. One card gone alone may be one just laid, lifted to
    straighten it: no sign that the line it seemed to make was cleared."""
    away = taken_away(t, text)
    return away is not None and all(away)


def catching_up(t: TableState, briefly: Sequence[Brief], takes: Callable[[TableState], bool],
                provisional: bool = True, then: str | None = None,
                glimpsed: Collection[str] = (), budget: CatchUpBudget | None = None
                ) -> list[tuple[str, tuple[Event, ...]]] | None:
    """The grids held briefly (oldest first) that take state ``t`` to one that ``takes``
    what the game could not take (a stable reading ``then``, or a tap), each with the events
    it makes: in their order, each one the state the others before it made takes as a move.
    A cascade that a refill held briefly made counts where two frames in a row showed that
    refill, or, shown by two frames around an odd one, where a grid after it shows all its
    cards taken away (a card misread in every other frame as one that makes a line is no
    cascade, even where that card is then lifted to straighten it). A grid that shifts make
    from a grid held before it, two frames in a row, that is the refill laid is play after
    that refill, never a refill itself (``shifted_from_laid``). Of such ways: in play,
    the one with the fewest (a shift tried and put back is no move, and the last grid tells
    the shifts); while cards are cleared and laid, the one that explains the most grids
    (each is a moment the table was seen in: a cascade left out is points lost), one after
    the cards laid explained by shifts that make it, tried or made; the play after them
    judged as play is, the fewest shifts to the table as last seen (through more grids, a
    shift tried and put back would be paid twice). ``glimpsed``: grids one frame alone
    showed. Such a grid may show
    known cards moved or taken away (a card misread in it makes no shift the rules take);
    it names the cards of a refill only for a stable reading ``then`` after it, or, for a
    tap, where another frame after it shows them moved by a shift or shows its cascade's
    cards taken away and the rest as they were (two frames agree), and
    never of one that makes a cascade of the refill's cards alone (one card misread in it may make
    the line, and the cards lifted to lay them again look like that line cleared); a
    cascade through cards that lay there before counts where a grid after it shows all its
    cards taken away; so does a refill of the very gems scored, in the cells they left
    (``laid_back``), however it was seen. None when none gets there,
    or when ``t`` takes it as it is, or when ``budget`` (steps shared by every call for one
    reading or tap; a fresh one if None) runs out first (``budget.ran_out`` then says so)."""
    Chain = list[tuple[str, tuple[Event, ...]]]
    Way = tuple[Chain, int]  # a chain, and how many grids it explains (while laid)
    budget = CatchUpBudget() if budget is None else budget
    n = len(briefly)

    def through(k: int, s: TableState, cascade: bool, pending: bool,
                ends: Callable[[TableState], bool] | None) -> Way | None:
        # cascade: a refill's cascade waits for a grid that shows all its cards taken away;
        # pending: a refill one frame alone named waits for another frame to agree with its
        # cards (a tap, not a stable reading, follows); ends: in play, where a way may end
        budget.spend()
        if k == n:
            shown = not cascade or (then is not None and cleared_whole(s, then))
            return ([], 0) if shown and not pending and (ends or takes)(s) else None
        fewest = ends is not None
        if s.phase == PLAY and not fewest:
            # the cards laid, play goes on: judged as play is, not by the grids it passes
            return played(k, s, pending)
        # Each grid is taken or left out; where both get there, taken only if that makes a
        # way with strictly fewer grids (in play) or one that explains more. The branch
        # likelier to win is followed first, and the other not at all where it cannot win:
        # in play, after a way with one grid at most; while cards are cleared and laid,
        # after a way that explains every grid left (a chain of cascades held briefly is
        # followed in a step a grid, not through every subset of it).
        if fewest:
            left = through(k + 1, s, cascade, pending, ends)
            if left is not None and len(left[0]) <= 1:
                return left
            take = taking(k, s, cascade, pending, ends)
            better = take is not None and (left is None or len(take[0]) < len(left[0]))
        else:
            take = taking(k, s, cascade, pending, ends)
            if take is not None and take[1] == n - k:
                return take
            left = through(k + 1, s, cascade, pending, ends)
            better = take is not None and (left is None or take[1] > left[1])
        return take if better else left

    def taking(k: int, s: TableState, cascade: bool, pending: bool,
               ends: Callable[[TableState], bool] | None) -> Way | None:
        # the best way on from grid k taken as a move; None where it is no move
        text, guesses, in_a_row = briefly[k]
        alone = text in glimpsed
        text = as_read(s, text)
        made = moves_made(s, text, guesses, provisional, again=True)
        # while a cascade waits to be shown, only a grid with all its cards taken away
        shown = cascade and cleared_whole(s, text)
        if made is not None and (made or shown) and (shown or not cascade):
            after, laid = s, set[Cell]()  # the cells the refill laid, if it is one
            back = False  # the refill lays the very gems scored back in their cells
            for event in made:
                if isinstance(event, Refill):
                    cells = refill_cells(after)
                    laid, back = set(cells), laid_back(after, text, cells)
                after = apply(after, event)
            refilled = bool(laid)
            if refilled and shifted_from_laid(s, briefly[:k], text, provisional):
                return None
            if alone and refilled and after.phase == CLEAR and not set(after.to_clear) - laid:
                # a line of the cards laid alone: one misread makes it, and lifting them to
                # lay them again looks like it cleared (a line through cards that lay there
                # before counts once a grid after it shows them taken away: a hand does not
                # lift those for a misread)
                return None
            # another frame agrees with every card of a refill one frame named: the next
            # player's shift moved them, or its cascade's cards taken away left the rest
            agreed = shown or any(isinstance(event, Shifts) for event in made)
            rest = through(k + 1, after,
                           refilled and after.phase == CLEAR and (back or not in_a_row),
                           (pending and not agreed) or (alone and refilled and then is None),
                           ends)
            if rest is not None:
                return [(text, made), *rest[0]], rest[1] + 1
        return None

    def played(k: int, s: TableState, pending: bool) -> Way | None:
        # Play after the cards laid, from grid k on, as play judges it: the fewest shifts
        # from the grid laid to the table as last seen (the stable reading; for a tap, the
        # newest grid held that shifts make, as "end turn" takes it), logged through the
        # grids held on such a way (each a shift seen made); the grid laid shown again puts
        # back what was tried before it (``TableSession`` forgets those grids in play).
        # Every grid held that shifts make is explained, tried or made: a way that names a
        # refill in a later one leaves this one unexplained.
        # The grids held that shifts make from the grid laid, or from the grid held before
        # (shifts seen one by one reach further than one reading is asked to explain; a
        # card read '?' shortens that reach).
        shown = []
        at = s  # the table as the last of them shows it
        for i, (text, guesses, _) in enumerate(briefly[k:], k):
            budget.spend()
            made = moves_made(s, as_read(s, text), guesses, provisional)
            base = s
            if made is None and at is not s:
                made, base = moves_made(at, as_read(at, text), guesses, provisional), at
                if not made:
                    continue  # the grid before again, or none that shifts make
            if made is None:
                continue
            shown.append((i, text, guesses, bool(made)))
            at = _after(base, made)
        since = max((j + 1 for j, (*_, moved) in enumerate(shown) if not moved), default=0)
        tried = [(text, guesses) for _, text, guesses, _ in shown[since:]]
        goal = (then, "") if then is not None else tried[-1] if tried else (str(s.grid), "")
        chain: Chain = []
        end, left = s, _shifts_to(s, *goal, provisional)
        for text, guesses in tried:
            if not left:
                break
            budget.spend()
            text = as_read(end, text)
            made = moves_made(end, text, guesses, provisional)
            if not made:
                continue
            after = _after(end, made)
            rest = _shifts_to(after, *goal, provisional)
            if rest is not None and _shift_count(made) + rest == left:
                chain.append((text, made))
                end, left = after, rest
        # (a refill one frame alone named waits for a shift that moves its cards)
        if (then is not None or left == 0) and (chain or not pending) and takes(end):
            return chain, len(shown)
        if not pending and takes(s):
            return [], len(shown)  # a tap play takes as the grid was laid (a draw): none a move
        # None that play takes (more shifts than one reading shows, a card misread; for a
        # tap, shifts put back all made): the fewest grids held that get there, after the
        # grid laid was last shown again (what was tried before it was put back: a way
        # through it would pay for a shift and for its undoing)
        again = shown[since - 1][0] + 1 if since else k
        way = through(again, s, False, pending, lambda x: takes(x) and (
            then is not None or _shifts_to(x, *goal, provisional) == 0))
        return None if way is None else (way[0], len(shown))

    try:
        found = through(0, t, False, False, takes if t.phase == PLAY else None)
    except _TooManyWays:
        budget.ran_out = True
        return None  # left to the players: a tap, or the cards held still
    return (found and found[0]) or None


def laid_refill(t: TableState, held: Brief, provisional: bool = True) -> TableState | None:
    """The state after the grid ``held`` briefly, two frames in a row, taken from state
    ``t`` as the refill laid (the cards scored cleared first, if they wait), shifts none;
    None where it is not that."""
    text, guesses, in_a_row = held
    made = moves_made(t, as_read(t, text), guesses, provisional) if in_a_row else None
    if not made or not isinstance(made[-1], Refill) or any(
            isinstance(event, Shifts) for event in made):
        return None
    return _after(t, made)


def shifted_from_laid(t: TableState, earlier: Sequence[Brief], text: str, provisional: bool = True
                      ) -> bool:
    """Whether the grid ``text``, taken from state ``t`` as a refill, is shifts made on a
    grid held before it that ``t`` takes as the refill laid (``laid_refill``): that one was
    the refill, and this the play after it. A shift along the line refilled leaves other
    cards in its cells, laid as well as any; taken as the refill, the grid that shifted it
    back would be paid as a move."""
    for held in earlier:
        after = laid_refill(t, held, provisional)
        if after is None:
            continue
        made = moves_made(after, as_read(after, text), "", provisional)
        if made and _only_shifts(made):
            return True
    return False


def _after(t: TableState, events: Sequence[Event]) -> TableState:
    """State ``t`` with ``events`` applied, in order."""
    for event in events:
        t = apply(t, event)
    return t


def _only_shifts(events: Sequence[Event]) -> bool:
    return all(isinstance(event, Shifts) for event in events)


def _shift_count(events: Sequence[Event]) -> int:
    return sum(len(event.shifts) for event in events if isinstance(event, Shifts))


def _shifts_to(t: TableState, text: str, guesses: str, provisional: bool) -> int | None:
    """The fewest shifts, each paid as play pays it, from state ``t`` to the grid ``text``;
    None where none the hand can pay get there."""
    made = moves_made(t, as_read(t, text), guesses, provisional)
    return None if made is None else _shift_count(made)


class CatchUpBudget:
    """The steps ``catching_up`` may still take, shared by all its calls for one stable
    reading or one tap (a reading tries a chain, then each refill worked out behind it: the
    frames wait for them all)."""

    def __init__(self, steps: int | None = None) -> None:
        self.left = CATCH_UP_STEPS if steps is None else steps
        self.ran_out = False  # a call stopped short: some way may have gone unfollowed

    def spend(self) -> None:
        if self.left <= 0:
            raise _TooManyWays
        self.left -= 1


CATCH_UP_STEPS = 16384
"""The most steps ``catching_up`` takes through the grids held briefly for one reading or
tap (each step a grid taken or left out). A chain of cascades held briefly, every grid a
moment of it, takes a step or two a grid (the way through them all is followed first). A
stable reading no way explains has every subset of the grids tried (sixteen grids: 65536),
and a card flickering between two readings that are both moves (a hand over it, sliding a
row to and fro) could make millions: the frames must not wait for them all (16384 steps
took 0.9 s on the development machine)."""


class _TooManyWays(Exception):
    """More ways through the grids held briefly than ``catching_up`` follows."""


_ShiftsTo = tuple[tuple[Event, ...], TableState]  # the shifts to a grid held, the state then


def shifted_before(t: TableState, briefly: Sequence[Brief], event: Event,
                   provisional: bool = True) -> tuple[Event, ...]:
    """The shifts the newest grid held briefly shows made since the grid last taken, when
    ``event`` (a tap) ends the turn after them: the table as the camera last saw it when the
    button was pressed. A player taps "end turn" as soon as the last card stops; on a jittery
    or sparse video the grid after that shift has then held for a frame or two, too few to be
    a stable reading. Taken without it, the turn would be scored short, and that grid then
    read as the next player's shift. Where that grid lies more shifts from the grid taken
    than one reading is asked to explain, each seen made, they are followed through the
    grids held before it (the fewest shifts such a way pays). A grid no move makes (a card
    misread) is passed over for the one before it. () where that grid shows no shift, a
    card unread, or a move the rules or the hand do not take.

    >>> from companion.rules.game import Game
    >>> from companion.session.events import Setup
    >>> t = apply(TableState(Game("classic", 2)), Setup("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"))
    >>> t = apply(t, Shifts((Shift.parse("r2<"),)))
    >>> held = ("YGOGY/RVPBC/RGYOC/RVPRO/BGCBV", "", False)  # then c1v, one frame
    >>> shifted_before(t, [held], EndTurn())
    (Shifts(shifts=(Shift.parse('c1v'),)),)
    >>> shifted_before(t, [held, (str(t.grid), "", False)], EndTurn())
    ()
    """
    if t.phase != PLAY or not isinstance(event, EndTurn):
        return ()
    ways: dict[int, _ShiftsTo] | None = None  # grid held -> the fewest shifts to it
    for newest in range(len(briefly) - 1, -1, -1):
        text = briefly[newest][0]
        if UNSURE in text:
            return ()  # a hand still over the cards: no look at the table as it was left
        made = moves_made(t, text, "", provisional)
        if made is not None and not _only_shifts(made):
            return ()
        if made is None:
            # More shifts than one reading is asked to explain, each seen made: the way
            # through the grids held before it
            if ways is None:
                ways = _ways_through(t, briefly[:newest], provisional)
            way = _on_from(t, {j: w for j, w in ways.items() if j < newest}, text, None,
                           provisional)
            made = None if way is None else way[0]
        if made is None:
            continue  # no move makes it: a card misread, which says nothing of the table
        if not made:
            return ()  # the grid taken, shown again: a shift tried was put back
        return made if taken(_after(t, made), event) else ()
    return ()


def _ways_through(t: TableState, briefly: Sequence[Brief], provisional: bool
                  ) -> dict[int, _ShiftsTo]:
    """In play: each grid held (by its index) that shifts make from state ``t``, with the
    shifts of the fewest-shift way to it, each step from ``t`` or from a grid held before
    it (``_on_from``), and the state they make."""
    ways: dict[int, _ShiftsTo] = {}
    for k, (text, _, _) in enumerate(briefly):
        if UNSURE in text:
            continue
        direct = moves_made(t, text, "", provisional)
        if direct is not None and not _only_shifts(direct):
            continue
        made = _on_from(t, ways, text, direct, provisional)
        if made is not None:
            ways[k] = made
    return ways


def _on_from(t: TableState, ways: dict[int, _ShiftsTo], text: str,
             direct: tuple[Event, ...] | None, provisional: bool) -> _ShiftsTo | None:
    """The fewest shifts that make the grid ``text`` from state ``t``, and the state they
    make: ``direct`` (the shifts ``moves_made`` names from ``t``, or None), or on from a
    grid held before it whose way ``ways`` holds; of ways as short, the one of the fewest
    steps, and then the one through the latest grid (the most of it one reading names).
    None where none do."""
    best = None if direct is None else (direct, _after(t, direct))
    for j in sorted((j for j in ways if ways[j][0]), reverse=True):
        before, at = ways[j]
        more = moves_made(at, text, "", provisional)
        if not more or not _only_shifts(more):
            continue
        way = before + more
        if best is None or (_shift_count(way), len(way)) < (_shift_count(best[0]), len(best[0])):
            best = (way, _after(at, more))
    return best


def refills_behind(t: TableState, text: str) -> list[str]:
    """While cards are cleared and laid (N9): the grids the refill may have left when the
    stable reading ``text`` shows the next player's shifts (up to ``UNSEEN_SHIFTS``) made
    already, the refilled grid never seen whole (a sparse video; hands over it until the
    shift). Each is ``text`` with the shifts undone: the grid before the refill in every
    cell but the ones refilled, a card in each of those. Only a candidate: a way to it, and
    on to ``text``, must be one the rules take (``catching_up``).

    >>> from companion.rules.game import Game, Options
    >>> from companion.session.events import EndTurn, Setup
    >>> game = Game("classic", 2, Options(setup_lines="keep"))
    >>> t = apply(TableState(game), Setup("RGYOR/OOOCP/RRCVV/PPCYB/BRVGV"))
    >>> t = apply(t, Shifts((Shift.parse("c4v"),)))  # O O O O in row 2: scored
    >>> t = apply(t, EndTurn())
    >>> refills_behind(t, "RGYGR/GOVYP/RRCCV/BPPCV/BRVYV")  # refilled GOVY, then r4>
    ['RGYGR/GOVYP/RRCCV/PPCVB/BRVYV']
    """
    if t.phase not in (CLEAR, REFILL) or t.grid is None or UNSURE in text:
        return []
    after = apply(t, Cleared()) if t.phase == CLEAR else t
    if after.phase != REFILL or after.grid is None:
        return []
    cells = set(refill_cells(after))
    before = str(after.grid)
    shown = Grid.parse(text)
    found: set[str] = set()
    ways: list[tuple[Shift, ...]] = [()]
    for _ in range(UNSEEN_SHIFTS):
        ways = [(*way, shift) for way in ways for shift in ALL_SHIFTS]
        for way in ways:
            grid = shown
            for shift in reversed(way):
                grid = shift.opposite().apply(grid)
            undone = str(grid)
            if undone == text or not set(cells_differ(before, undone)) <= cells:
                continue
            if all(letter_at(undone, cell) not in (EMPTY, PEARL) for cell in cells):
                found.add(undone)
    return sorted(found)


def turn_behind(t: TableState, text: str, provisional: bool = True
                ) -> list[tuple[str, tuple[Event, ...]]] | None:
    """In play, a turn the camera never saw held (a hand over the grid while the player
    shifted, and on until the refill was laid: "end turn" was refused then, no shift seen):
    the stable reading ``text`` shows the grid after it, scored, cleared and refilled, or
    scored and cleared, the refill not laid yet (empty the cells the scoring empties, and
    only they). The events of the one way there: one shift the hand can pay, the turn
    ended, the cards scored cleared and the refill laid in their cells (if it is), every
    other card as the shift left it. None where no way, or more than one, gets there, or
    where the refill would make a cascade (its first cards were never seen), or where the
    grid differs from the grid before the turn in two cells or fewer (a card or two
    misread, nobody moved). Two shifts are never worked out: they may have been two turns,
    the first making no line, and whose the points are would be in doubt.

    >>> from companion.rules.game import Game
    >>> from companion.session.events import Setup
    >>> t = apply(TableState(Game("classic", 2)), Setup("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"))
    >>> for text, events in turn_behind(t, "BGOGY/YVPBC/PGYOC/BVPRO/YGCBV"):  # r2<, BYP laid
    ...     print(text, [e.KIND for e in events])
    RGOGY/RVPBC/RGYOC/BVPRO/YGCBV ['shifts', 'end_turn']
    BGOGY/YVPBC/PGYOC/BVPRO/YGCBV ['cleared', 'refill']
    >>> [e.KIND for _, events in turn_behind(t, ".GOGY/.VPBC/.GYOC/BVPRO/YGCBV") for e in events]
    ['shifts', 'end_turn', 'cleared']
    """
    if t.phase != PLAY or t.grid is None or UNSURE in text:
        return None
    if len(cells_differ(str(t.grid), text)) <= MISREAD_AT_MOST:
        return None  # the grid as it was with a card or two misread: far likelier
    pearl = t.game.pearl
    found: dict[str, list[tuple[str, tuple[Event, ...]]]] = {}
    # one shift: two may have been two turns, the first making no line and ending, the
    # next player's making it (whose the points are is in doubt; shifts of two lines show
    # no order either)
    for shift in ALL_SHIFTS:
        grid = shift.apply(t.grid)
        shifted = str(grid)
        if shifted in found:
            continue
        # cheap first: every card the scoring left in place shows where the shift put it
        cells = set(cleared_cells(find_combinations(grid, pearl)))
        if not cells or not set(cells_differ(shifted, text)) <= cells:
            continue
        chain = _scored_and_laid(t, shifted, text, provisional)
        if chain is not None:
            found[shifted] = chain
    return next(iter(found.values())) if len(found) == 1 else None


def _scored_and_laid(t: TableState, shifted: str, text: str, provisional: bool
                     ) -> list[tuple[str, tuple[Event, ...]]] | None:
    """:func:`turn_behind` through the grid ``shifted``: its events, or None where the rules
    take no step of it."""
    made = moves_made(t, shifted, "", provisional)
    if not made:
        return None
    try:
        ended = apply(_after(t, made), EndTurn())
        if ended.phase != CLEAR:
            return None
        cleared = apply(ended, Cleared())
    except CompanionError:
        return None
    if cleared.phase == REFILL and text == str(cleared.grid):
        return [(shifted, (*made, EndTurn())), (text, (Cleared(),))]
    laid = moves_made(cleared, text, "", provisional)
    if not laid or not all(isinstance(event, Refill) for event in laid):
        return None
    after = apply(cleared, laid[0])
    if after.phase == CLEAR:
        return None  # the refill makes a cascade: the cards first laid were never seen
    return [(shifted, (*made, EndTurn())), (text, (Cleared(), *laid))]
