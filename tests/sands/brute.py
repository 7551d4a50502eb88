"""A plain exact recursion over The Desert Sands, written from RULES.md's D3-D6 alone.

Values are exact integers over n! (n = stones left): each draw divides by the stones left, so
the chances of a bag with n stones share the denominator n!. Scores are exact, never capped.
"""

from functools import cache
from math import factorial

MEMO = {}
"""(bag, mover's score, other's score) -> (wins, losses): every position met so far."""

# RULES.md D3, colours by index red 0, yellow 1, green 2, lilac 3: (succeeds on, points).
D3 = {"red": ((0, 1, 2), 1), "yellow": ((1, 2), 2), "green": ((2,), 5), "lilac": ((3,), 12)}
ORDER = ("red", "yellow", "green", "lilac")


@cache
def call_value(bag, me, other, call):
    """(wins, losses) of the player to move, over factorial(stones left), after ``call``."""
    n = sum(bag)
    hits, points = D3[call]
    wins = losses = 0
    for colour, k in enumerate(bag):
        if not k:
            continue
        rest = bag[:colour] + (k - 1,) + bag[colour + 1 :]
        if colour in hits:
            if me + points >= 16:
                wins += k * factorial(n - 1)
                continue
            w, lose = value(rest, me + points, other)
        else:
            lose, w = value(rest, other + (2 if call == "lilac" else 0), me)
        wins += k * w
        losses += k * lose
    return wins, losses


def value(bag, me, other):
    """Best play: the most wins, then the fewest losses; an empty bag is D6."""
    key = (bag, me, other)
    if key not in MEMO:
        if sum(bag) == 0:
            MEMO[key] = int(me > other), int(me < other)
        else:
            MEMO[key] = max((call_value(bag, me, other, c) for c in ORDER),
                            key=lambda wl: (wl[0], -wl[1]))
    return MEMO[key]


def chances(bag, me, other, call=None):
    """As floats: (P(win), P(lose)) of the player to move, best play or after ``call``."""
    w, lose = value(bag, me, other) if call is None else call_value(bag, me, other, call)
    scale = factorial(sum(bag))
    return w / scale, lose / scale
