"""``evolve``: a frozen value with fields changed, the same value ``dataclasses.replace``
makes, and made by it where copying the fields would not be the same."""

import dataclasses
import functools

import pytest

from companion.rules.game import Game
from companion.rules.grid import Grid
from companion.rules.state import State
from companion.rules.value import _shape, evolve
from companion.session.table import TableState


def test_evolve_makes_what_replace_makes_of_the_game_values():
    s = State(Grid("RRRRR/OOOOO/YYYYY/GGGGG/CCCCC"), 40, 0, (3, 3), (0, 0))
    assert evolve(s, deck=39, scores=(5, 0)) == dataclasses.replace(s, deck=39, scores=(5, 0))
    t = TableState(Game("classic", 2))
    assert evolve(t, phase="play", rules=s) == dataclasses.replace(t, phase="play", rules=s)
    assert evolve(t, notice="") is not t
    with pytest.raises(TypeError, match="has no field 'phases'"):
        evolve(t, phases="play")


@dataclasses.dataclass(frozen=True)
class _Cached:
    x: int

    @functools.cached_property
    def double(self) -> int:
        return 2 * self.x


@dataclasses.dataclass(frozen=True, slots=True)
class _Slotted:
    a: int


@dataclasses.dataclass(frozen=True)
class _Mixed(_Slotted):
    b: int = 0


@dataclasses.dataclass(frozen=True, init=False)
class _Checked:
    n: int

    def __init__(self, n: int) -> None:
        if n < 0:
            raise ValueError("n must not be negative")
        object.__setattr__(self, "n", n)


def test_evolve_leaves_to_replace_what_a_copy_of_the_fields_would_get_wrong():
    cached = _Cached(1)
    assert cached.double == 2
    assert evolve(cached, x=5).double == 10  # not the stale cached 2
    assert evolve(_Mixed(1, 2), b=3) == _Mixed(1, 3)  # fields partly in slots
    with pytest.raises(ValueError, match="negative"):
        evolve(_Checked(1), n=-1)  # its own __init__ checks
    assert _shape(_Cached) is _shape(_Mixed) is _shape(_Checked) is None
