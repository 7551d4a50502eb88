"""Events are typed, versioned values: each kind reads back what it writes, pastes back from
its repr, and an event of an older version is upgraded, never dropped."""

import pytest

from companion.rules.shift import Shift
from companion.session import events
from companion.session.events import VERSION, EventError, parse

ONE_OF_EACH = [
    events.Setup("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"),
    events.Shifts((Shift.parse("r2<"), Shift.parse("c3^!3"))),
    events.Wildcard(), events.Draw(), events.EndTurn(), events.Cleared(), events.Refill("OBY"),
    events.Fix((2, 3), "R"), events.Misread("RGOGY/CRVPB/RGYOC/BVPRO/YGCBR"),
    events.Call("green"), events.Drawn("red", "camera"), events.Undo(),
    events.Shifts((Shift.parse("r1>"),), frame=40, tap=3),
]


def test_every_kind_has_one_class():
    assert sorted(events.KINDS) == sorted({type(e).KIND for e in ONE_OF_EACH})


@pytest.mark.parametrize("event", ONE_OF_EACH, ids=repr)
def test_an_event_reads_back_what_it_writes_and_its_repr_pastes_back(event):
    stored = event.to_json()
    assert stored["kind"] == event.KIND and stored["v"] == VERSION
    assert parse(stored) == event
    namespace = {name: getattr(events, name) for name in dir(events)} | {"Shift": Shift}
    assert eval(repr(event), namespace) == event  # noqa: S307 (our own repr)


@pytest.mark.parametrize("event", ONE_OF_EACH, ids=repr)
def test_an_event_of_version_1_is_upgraded_as_it_was_played(event):
    # Version 1 (the companion up to d42cb3e) wrote the same fields and no number.
    old = {k: v for k, v in event.to_json().items() if k != "v"}
    assert parse(old) == event


@pytest.mark.parametrize("stored, why", [
    ({"kind": "setup"}, "a setup event needs its grid"),
    ({"kind": "shifts", "shifts": []}, "a shifts event needs at least one shift"),
    ({"kind": "shifts", "shifts": ["r9<"]}, "not a line number"),
    ({"kind": "fix", "cell": [1], "letter": "R"}, r"a fix event needs a cell \[row, col\]"),
    ({"kind": "draw", "v": 3}, "a draw event of version 3; this companion reads versions 1 to 2"),
    ({"kind": "draw", "frame": "x"}, "a draw event's frame must be a number, not 'x'"),
    ({"v": 2}, "unknown event kind None"),
])
def test_what_no_version_wrote_is_refused_saying_what(stored, why):
    with pytest.raises(EventError, match=why):
        parse(stored)
