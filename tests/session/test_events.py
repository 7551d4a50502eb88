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
    events.Fix((1, 3), "O", "RG?GY/CRVPB/RGYOC/BVPRO/YGCBV"),
    events.Relaid(((1, 3), (4, 4))),
    events.Kept(((1, 3),), "BC?RV/YOGCR/PBVGY/ORCPB/GVYRO"),
    events.Setup("RGOGY/CRVPB/RGYOC/BVPRO/YGCBV", ((1, 3),)),
    events.Refill("OBY", ((1, 1), (2, 4))),
    events.Settled(3, "O", "camera"), events.Settled(27, "R"), events.Settled(4, "B", "likeliest"),
]


def older(event, version=2):
    """What ``version`` could write of ``event`` (3 added the layout a card was named on,
    ``Fix.layout``, and ``Relaid``; 4 added ``Kept``; 5 the cards laid unread and
    ``Settled``); None if nothing."""
    if version >= events.SINCE.get(type(event).KIND, 1) and (
            version >= 3 or getattr(event, "layout", None) is None) and (
            version >= 5 or getattr(event, "unread", None) is None):
        return event
    return None


def test_every_kind_has_one_class():
    assert sorted(events.KINDS) == sorted({type(e).KIND for e in ONE_OF_EACH})


@pytest.mark.parametrize("event", ONE_OF_EACH, ids=repr)
def test_an_event_reads_back_what_it_writes_and_its_repr_pastes_back(event):
    stored = event.to_json()
    assert stored["kind"] == event.KIND and stored["v"] == VERSION
    assert parse(stored) == event
    namespace = {name: getattr(events, name) for name in dir(events)} | {"Shift": Shift}
    assert eval(repr(event), namespace) == event  # noqa: S307 (our own repr)


@pytest.mark.parametrize("event", [e for e in ONE_OF_EACH if older(e)], ids=repr)
def test_an_event_of_version_1_or_2_is_upgraded_as_it_was_played(event):
    # Version 1 (the companion up to d42cb3e) wrote the same fields and no number;
    # version 2 numbered them. A fix of either was named on a layout not known.
    old = {k: v for k, v in event.to_json().items() if k != "v"}
    assert parse(old) == event
    assert parse({**old, "v": 2}) == event


@pytest.mark.parametrize("event", [e for e in ONE_OF_EACH if older(e, 3)], ids=repr)
def test_an_event_of_version_3_reads_back_as_it_was_played(event):
    # Version 4 added a kind (``Kept``): every other kind's fields are unchanged.
    assert parse({**event.to_json(), "v": 3}) == event


@pytest.mark.parametrize("event", [e for e in ONE_OF_EACH if older(e, 4)], ids=repr)
def test_an_event_of_version_4_reads_back_as_it_was_played(event):
    # Version 5 added the cards laid unread and ``Settled``: a version 4 log laid none.
    assert parse({**event.to_json(), "v": 4}) == event


def test_a_setup_of_version_4_laid_no_card_unread():
    setup = parse({"kind": "setup", "v": 4, "grid": "RGOGY/CRVPB/RGYOC/BVPRO/YGCBV"})
    assert setup.unread is None and "unread" not in setup.to_json()
    with pytest.raises(EventError, match="a settled event of version 4: that version had none"):
        parse({"kind": "settled", "v": 4, "card": 3, "letter": "O"})


def test_a_tap_of_version_5_reads_back_joined_by_no_event_before_it():
    tap = parse({"kind": "end_turn", "v": 5, "frame": 40})
    assert tap == events.EndTurn(frame=40) and tap.joined is None
    assert tap.to_json() == {"kind": "end_turn", "v": 6, "frame": 40}


def test_a_fix_of_version_2_reads_back_with_no_layout_known():
    fix = parse({"kind": "fix", "v": 2, "cell": [1, 3], "letter": "O"})
    assert fix == events.Fix((1, 3), "O") and fix.layout is None
    assert "layout" not in fix.to_json()  # None is not written


@pytest.mark.parametrize("stored, why", [
    ({"kind": "setup"}, "a setup event needs its grid"),
    ({"kind": "shifts", "shifts": []}, "a shifts event needs at least one shift"),
    ({"kind": "shifts", "shifts": ["r9<"]}, "not a line number"),
    ({"kind": "fix", "cell": [1], "letter": "R"}, r"a fix event needs a cell \[row, col\]"),
    ({"kind": "draw", "v": 7}, "a draw event of version 7; this companion reads versions 1 to 6"),
    ({"kind": "end_turn", "v": 6, "joined": 0}, "an? end_turn event's joined must be 1 or more"),
    ({"kind": "end_turn", "v": 6, "joined": "2"}, "joined must be a number, not '2'"),
    ({"kind": "settled", "v": 6, "card": -1, "letter": "R"}, "a settled event needs a card"),
    ({"kind": "settled", "v": 6, "card": 2, "letter": "R", "by": "guess"},
     "who named it \\(camera, rules, tap, likeliest\\)"),
    ({"kind": "refill", "v": 5, "cards": "RG", "unread": [1]},
     "a refill event's unread must be cells"),
    ({"kind": "relaid", "v": 2, "cells": [[1, 3]]}, "a relaid event of version 2: that version"),
    ({"kind": "relaid", "v": 3, "cells": []}, "a relaid event needs its cells"),
    ({"kind": "kept", "v": 3, "cells": [[1, 3]], "layout": "RG?GY/CRVPB/RGYOC/BVPRO/YGCBV"},
     "a kept event of version 3: that version had none"),
    ({"kind": "kept", "v": 4, "cells": [[1, 3]]}, "a kept event needs its layout"),
    ({"kind": "fix", "v": 3, "cell": [1, 3], "letter": "O", "layout": 7},
     "a fix event's layout must be rows of cards, not 7"),
    ({"kind": "draw", "frame": "x"}, "a draw event's frame must be a number, not 'x'"),
    ({"v": 2}, "unknown event kind None"),
])
def test_what_no_version_wrote_is_refused_saying_what(stored, why):
    with pytest.raises(EventError, match=why):
        parse(stored)
