"""The hint as the table screen shows it: the best turn for the hand the player to move
tapped in, on the grid the screen shows (``companion.rules.hint`` does the search).

Only the player to move's own cards are asked for, and only for this turn: the hint is a
plain value, and the screen forgets the hand once the turn is over.

>>> from companion.view import PlayerView, TableView
>>> view = TableView("nizam", (PlayerView("Ann", 0, 3),), 0, 1,
...                  ("RGOGY", "CRVPB", "RGYOC", "BVPRO", "YGCBV"))
>>> h = hint_for(view, "CY")
>>> h.shifts, h.points, h.text, h.detail
(('r2<',), 3, 'Shift row 2 left: +3 points', 'Pays turquoise')
>>> hint_for(view, "Y").text
'Nothing this hand pays for scores now: draw 3 cards instead.'
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.deck import Cards
from companion.rules.game import RuleError
from companion.rules.grid import GEM_NAMES, GEMS, Grid, NotationError
from companion.rules.hint import DEFAULT_HINT_SHIFTS, best_turns, check_hand
from companion.rules.shift import Shift
from companion.view import TableView
from companion.words import DIRECTIONS, LINES


@dataclass(frozen=True)
class HintView:
    grid: tuple[str, ...]  # the grid it is for: the hint is void once the grid changes
    hand: str
    shifts: tuple[str, ...] = ()  # the best turn, in order ("r2<", "c3^!3")
    points: int = 0  # Pearl of the East: tasks completed
    cards: str = ""  # what it spends from the hand
    tasks: str = ""
    ties: int = 0  # other turns as good
    text: str = ""  # what to do and what it scores, for the players
    detail: str = ""  # what it costs, and how many other turns are as good
    problem: str = ""  # why there is no hint (a card the grid rules out, an unread cell)


def say_shift(text: str) -> str:
    """``r2<`` in players' words.

    >>> say_shift("r2<"), say_shift("c4v!3")
    ('row 2 left', 'column 4 down (3 cards)')
    """
    move = Shift.parse(text)
    paid = " (3 cards)" if move.wildcard else ""
    return f"{LINES[move.line]} {move.index} {DIRECTIONS[move.direction]}{paid}"


def hint_for(view: TableView, hand: str, max_shifts: int = DEFAULT_HINT_SHIFTS) -> HintView:
    """The best turn ``hand`` (gem letters) pays for on ``view``'s grid, for the player to
    move (their tasks in Pearl of the East, the table's bonus in Nizam)."""
    hand = "".join(sorted(hand, key=GEMS.index))
    pearl = view.mode == "pearl"
    try:
        grid = Grid.parse("/".join(view.grid))
        cards = check_hand(grid, Cards.of(hand), pearl)
    except NotationError:
        return HintView(view.grid, hand, problem="The camera has not read every card yet: "
                        "wait for a clear view of the grid.")
    except RuleError as err:
        return HintView(view.grid, hand, problem=f"That hand cannot be: {err.detail}. "
                        "Check the cards tapped.")
    if all(letter == "." for letter in grid.cells):
        return HintView(view.grid, hand, problem="Lay out the grid first.")
    tasks = "".join(view.players[view.active].tasks_left) if pearl else None
    if tasks == "":
        return HintView(view.grid, hand, problem="All tasks are done.")
    bonus = str(view.options.get("bonus", "flat"))
    found = best_turns(grid, cards, bonus_rule=bonus, tasks=tasks, max_shifts=max_shifts)
    if not found.turns:
        return HintView(view.grid, hand, text="Nothing this hand pays for scores now: "
                        "draw 3 cards instead.")
    best = found.turns[0]
    shifts = tuple(str(s) for s in best.shifts)
    moves = ", then ".join(say_shift(s) for s in shifts)
    gain = (f"completes {', '.join(GEM_NAMES[t] for t in best.tasks)}" if pearl
            else f"+{best.points} point{'s' * (best.points != 1)}")
    spent = ", ".join(GEM_NAMES[c] for c in best.cards.letters())
    ties = len(found.turns) - 1
    more = f" ({ties} other turn{'s' * (ties != 1)} as good)" if ties else ""
    return HintView(view.grid, hand, shifts, best.points, best.cards.letters(), best.tasks,
                    ties, f"Shift {moves}: {gain}", f"Pays {spent}{more}")
