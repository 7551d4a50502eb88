"""A frozen value with some fields changed: ``dataclasses.replace`` without its cost.

The game is a fold over its log, and a card laid unread is tried under each other name by
folding the game again (``session.table``): every event makes a new rules ``State`` and a
new ``TableState``, several times over. ``dataclasses.replace`` builds each through
``__init__``, looking every field up by name: a third of a fold's time. A value with no
``__post_init__`` has nothing for ``__init__`` to check or work out, so its fields are
copied as they are.

>>> from companion.rules.grid import Grid
>>> from companion.rules.state import State
>>> s = State(Grid("RRRRR/OOOOO/YYYYY/GGGGG/CCCCC"), 40, 0, (3, 3), (0, 0))
>>> evolve(s, deck=39, active=1) == State(s.grid, 39, 0, (3, 3), (0, 0), active=1)
True
>>> evolve(s, decks=39)
Traceback (most recent call last):
...
TypeError: State has no field 'decks'
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, TypeVar

V = TypeVar("V")


@functools.cache
def _shape(cls: type) -> tuple[tuple[str, ...], frozenset[str], bool] | None:
    """The field names of a dataclass, as a set too, and whether it keeps them in slots;
    None when a copy of its fields is not the same value: ``__init__`` does more than store
    them (its own ``__init__``, a ``__post_init__``, a field left out of it), a
    ``cached_property`` would be copied stale, or its fields lie partly in slots."""
    fields = dataclasses.fields(cls)
    own = [vars(k) for k in cls.__mro__[:-1]]
    init = getattr(getattr(cls, "__init__", None), "__code__", None)
    if (hasattr(cls, "__post_init__") or not all(f.init for f in fields)
            or init is None or init.co_filename != "<string>"  # not the one dataclass wrote
            or any(isinstance(v, functools.cached_property) for d in own for v in d.values())):
        return None
    slotted = ["__slots__" in d for d in own]
    if any(slotted) and not all(slotted):
        return None
    names = tuple(f.name for f in fields)
    return names, frozenset(names), all(slotted)


def evolve(value: V, /, **changes: Any) -> V:
    """``value`` (a dataclass instance) with the fields named in ``changes`` changed."""
    cls: type[V] = type(value)
    shape = _shape(cls)  # type: ignore[arg-type]
    if shape is None:
        return dataclasses.replace(value, **changes)  # type: ignore[type-var]
    names, known, slots = shape
    if not changes.keys() <= known:
        wrong = sorted(changes.keys() - known)[0]
        raise TypeError(f"{cls.__name__} has no field {wrong!r}")
    new: V = object.__new__(cls)
    if slots:
        for name in names:
            kept = changes[name] if name in changes else getattr(value, name)
            object.__setattr__(new, name, kept)
    else:
        fields = new.__dict__
        fields.update(value.__dict__)
        fields.update(changes)
    return new
