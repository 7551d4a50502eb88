"""Plain words for what players read: shifts, verdicts and messages without notation.

The rules, the log and the record speak in notation (``r3<``, ``c4^!3``) and name the rule a
move breaks (``N4: …``), and count players from 0; people at the table read "Row 3 moved
left", see no rule IDs and count players from 1. The screens and the command line both
turn the one into the other here, so they say the same thing the same way.

>>> shift_words("r3<")
'Row 3 moved left'
>>> verdict_words(True, ("r3<!3",), "3 cards")
'Row 3 moved left, paid with 3 cards'
>>> plain("N4: c2^: player 2 holds 0 cards and the shift costs 1", ("Ann", "Bob", "Cid"))
'Cid holds 0 cards and the move costs 1'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

from companion.rules.grid import GEM_NAMES
from companion.rules.shift import Shift

OVER_EXPOSED = ("The white borders look pure white to the camera: the picture is too bright "
                "to show the colour of the light, so yellow and orange, or pink and red, may be "
                "mixed up. Dim the lamp or move it further away, then save the colours again.")
"""Said when colours are saved from a picture whose white borders the camera clipped
(``Palette.over_exposed``): they are saved all the same, the players choose."""

DIRECTIONS = {"<": "left", ">": "right", "^": "up", "v": "down"}
LINES = {"r": "row", "c": "column"}

_SHIFT = re.compile(r"\b([rc])([1-9])([<>^v])(!3)?")
_CELL = re.compile(r"\br([1-9])c([1-9])\b")
_RULE_ID = re.compile(r"\(?\b[NPD][0-9]{1,2}[a-z]?\b\)?:?\s?")
_PLAYER = re.compile(r"\bplayer ([0-9]+)\b")
_ONE_GEM = re.compile(r"\b([0-9]+) ([ROYGCBVP])\b")


def shift_words(text: str, *, moved: bool = True) -> str:
    """A shift as a sentence's start: what moved and which way (the payment apart).

    >>> shift_words("c4^!3"), shift_words("r1>", moved=False)
    ('Column 4 moved up', 'Move row 1 right')
    """
    move = Shift.parse(text.strip())
    line, way = LINES[move.line], DIRECTIONS[move.direction]
    if moved:
        return f"{line.capitalize()} {move.index} moved {way}"
    return f"Move {line} {move.index} {way}"


def moves_words(shifts: Sequence[str], *, moved: bool = True) -> str:
    """Several shifts in order, joined as people say them.

    >>> moves_words(["r2<", "c4^!3"])
    'Row 2 moved left, then column 4 moved up'
    >>> moves_words(["c2v", "r5>"], moved=False)
    'Move column 2 down, then row 5 right'
    >>> moves_words([])
    ''
    """
    parts = [shift_words(s, moved=moved) for s in shifts]
    if not moved:  # "Move column 2 down, then row 5 right": the verb is said once
        parts = parts[:1] + [p.removeprefix("Move ") for p in parts[1:]]
    return ", then ".join(parts[:1] + [p[0].lower() + p[1:] for p in parts[1:]])


def opposites(shifts: Sequence[str]) -> tuple[str, ...]:
    """The shifts that put ``shifts`` back, the last first (payment marks dropped).

    >>> opposites(("r2<", "c4^!3"))
    ('c4v', 'r2>')
    """
    return tuple(str(Shift.parse(text).opposite().plain()) for text in reversed(shifts))


def undo_words(shifts: Sequence[str]) -> str:
    """How to put the grid back after ``shifts``: each undone, the last first.

    >>> undo_words(["r2<", "c4^"])
    'Move column 4 down, then row 2 right'
    """
    return moves_words(opposites(shifts), moved=False)


def payment_words(payment: str) -> str:
    """The session's payment ("1 G + 3 cards") in words.

    >>> payment_words("1 G + 3 cards"), payment_words("1 emerald")
    ('1 emerald card and 3 cards', '1 emerald')
    """
    text = _ONE_GEM.sub(lambda m: f"{m[1]} {GEM_NAMES.get(m[2], m[2])} card"
                        + ("s" if m[1] != "1" else ""), payment)
    return text.replace(" + ", " and ")


def verdict_words(legal: bool, shifts: Sequence[str], payment: str = "") -> str:
    """The first line of a verdict: what moved and, when legal, how it was paid.

    >>> verdict_words(True, ("r2<", "c4^"), "1 R + 1 B")
    'Row 2 moved left, then column 4 moved up, paid with 1 ruby card and 1 sapphire card'
    >>> verdict_words(False, ("c2^",))
    'Column 2 moved up'
    >>> verdict_words(False, ())
    'The cards changed'
    """
    text = moves_words(shifts) or "The cards changed"
    if legal and payment:
        text += f", paid with {payment_words(payment)}"
    return text


def players_from_one(text: str, names: Sequence[str] = ()) -> str:
    """"player K" counted from 0 (as the rules count) as people count: by name when known,
    else from 1.

    >>> players_from_one("player 0 called but it is player 1's turn")
    "player 1 called but it is player 2's turn"
    >>> players_from_one("player 1 holds 2 cards", ["Ann", "Bob"])
    'Bob holds 2 cards'
    """
    def one(match: re.Match[str]) -> str:
        index = int(match[1])
        return names[index] if index < len(names) else f"player {index + 1}"

    return _PLAYER.sub(one, text)


def plain(text: str, names: Sequence[str] = ()) -> str:
    """A message from the rules or the session as players read it: no rule ID, no
    notation, players by name (or counted from 1).

    >>> plain("N3: draw or shift first: a turn is a draw or shifts")
    'Draw or shift first: a turn is a draw or shifts'
    >>> plain("illegal: N4: r2<: no hand can hold a R to pay with: all 7 are on the grid")
    'No hand can hold a ruby to pay with: all 7 are on the grid'
    >>> plain("P2: the pearl stays one card (N15), fix r2c3 instead")
    'The pearl stays one card, fix row 2, column 3 instead'
    >>> plain("The deck ran out: shuffle the discard pile to form the new deck (P8).")
    'The deck ran out: shuffle the discard pile to form the new deck.'
    >>> plain("N15: the deck cannot hold a O: all 12 are on the grid")
    'The deck cannot hold an amber: all 12 are on the grid'
    >>> plain("N5: r4<!3 is already paid with three cards")
    'Row 4 left (paid with 3 cards) is already paid with three cards'
    """
    text = text.strip().removeprefix("illegal:").strip()
    text = _RULE_ID.sub("", text)
    # A message that starts by naming the move says it again: the verdict already did.
    text = re.sub(r"^([rc][1-9][<>^v](!3)?): ", "", text)
    text = _CELL.sub(lambda m: f"row {m[1]}, column {m[2]}", text)
    text = _SHIFT.sub(lambda m: f"{LINES[m[1]]} {m[2]} {DIRECTIONS[m[3]]}"
                      + (" (paid with 3 cards)" if m[4] else ""), text)
    text = re.sub(r"\ba ([ROYGCBVP])\b",
                  lambda m: f"{article(GEM_NAMES[m[1]])} {GEM_NAMES[m[1]]}", text)
    text = text.replace("the shift costs", "the move costs")
    text = players_from_one(text, names)
    text = re.sub(r"\s+([,.;:])", r"\1", " ".join(text.split()))
    return text[:1].upper() + text[1:]


def article(word: str) -> str:
    """The article before ``word``: "an amber", "a ruby"."""
    return "an" if word[0] in "aeiou" else "a"


def plural(letter: str) -> str:
    """The gem ``letter``'s name for more than one: "rubies", "topazes", "ambers"."""
    name = GEM_NAMES.get(letter, letter)
    return name[:-1] + "ies" if name.endswith("y") else name + ("es" if name.endswith("z")
                                                                 else "s")


def gems_named(count: int, letter: str) -> str:
    """``count`` cards of the gem ``letter`` in words: "1 ruby", "3 rubies", "4 topazes"."""
    return f"1 {GEM_NAMES.get(letter, letter)}" if count == 1 else f"{count} {plural(letter)}"


def when_words(stamp: str, now: datetime | None = None) -> str:
    """When a stored game started (an ISO stamp, as the store keeps it: UTC), in the local
    time players live by: "today 17:59", "30 Nov 10:00", "30 Nov 2025 10:00". ``now``: the
    local time now, aware (default: the machine's clock and time zone).

    >>> from datetime import timedelta, timezone
    >>> kyiv = datetime(2026, 12, 6, 20, 0, tzinfo=timezone(timedelta(hours=2)))
    >>> when_words("2026-12-06T15:59:00.000+00:00", kyiv)
    'today 17:59'
    >>> when_words("2026-11-30T10:00:00.000+00:00", kyiv), when_words("2025-11-30T10:00", kyiv)
    ('30 Nov 12:00', '30 Nov 2025 12:00')
    """
    try:
        at = datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return str(stamp)[:16].replace("T", " ")
    if at.tzinfo is None:  # the store writes UTC
        at = at.replace(tzinfo=UTC)
    # the machine's zone as it was then (a summer game read in winter: summer time)
    local = at.astimezone(None if now is None else now.tzinfo)
    now = now or datetime.now().astimezone()
    clock = f"{local:%H:%M}"
    if local.date() == now.date():
        return f"today {clock}"
    year = f" {local.year}" if local.year != now.year else ""
    return f"{local.day} {local:%b}{year} {clock}"


def has_notation(text: str) -> bool:
    """Whether ``text`` still shows notation or a rule ID (what players must not read).

    >>> has_notation("Row 3 moved left"), has_notation("OK r3<"), has_notation("N3: no")
    (False, True, True)
    """
    return bool(_SHIFT.search(text) or _CELL.search(text)
                or re.search(r"\b[NPD][0-9]{1,2}[a-z]?\b", text))
