"""Colours, names and sizes the screens share; no Kivy here, so it is cheap to import.

Gems are never told by colour alone: every gem colour comes with its letter, and the
letter's ink is chosen for contrast with the colour behind it.

>>> gem_ink("Y") == DARK_INK, gem_ink("B") == LIGHT_INK
(True, True)
>>> gem_label("V")
'V amethyst'
>>> ui_scale(800, 480), ui_scale(1280, 800)
(1.0, 1.6)
"""

from __future__ import annotations

from companion.rules.grid import EMPTY, GEM_NAMES, GEMS, PEARL
from companion.rules.setup import PEARL as PEARL_GAME

RGBA = tuple[float, float, float, float]


def _hex(code: str, alpha: float = 1.0) -> RGBA:
    code = code.lstrip("#")
    r, g, b = (int(code[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return (r, g, b, alpha)


# The nominal colours of RULES.md's default deck profile.
GEM_COLOURS: dict[str, RGBA] = {
    "R": _hex("#d32f2f"),
    "O": _hex("#f57c00"),
    "Y": _hex("#fdd835"),
    "G": _hex("#2e9e44"),
    "C": _hex("#26c6da"),
    "B": _hex("#1e4fd8"),
    "V": _hex("#8e44c9"),
    "P": _hex("#f48fb1"),
    PEARL: _hex("#f4efe1"),
    EMPTY: _hex("#3a3f47"),
    "?": _hex("#7b8089"),
}
PICKER_LETTERS = GEMS + PEARL + EMPTY
CELL_NAMES = {**GEM_NAMES, PEARL: "pearl", EMPTY: "empty", "?": "unread"}

DARK_INK = _hex("#111111")
LIGHT_INK = _hex("#ffffff")

BACKGROUND = _hex("#1b1e23")
PANEL = _hex("#262a31")
TEXT = _hex("#f2f2f2")
MUTED = _hex("#b8bec8")
ACCENT = _hex("#ffb300")  # whose turn, the best call
GOOD = _hex("#43c463")
BAD = _hex("#ff5252")
COMBINATION = _hex("#ffd740")
HIGHLIGHT = _hex("#40c4ff")
DISABLED = _hex("#3b3f46")  # a button that does not apply now
DISABLED_INK = (1.0, 1.0, 1.0, 0.38)
FIX = _hex("#40c4ff")  # what to do to put an illegal move back, drawn on the grid
ILLEGAL_STRIP = _hex("#8e1b1b")

# Player markers, as on the box's scoring board; each also carries the player's number.
PLAYER_COLOURS: tuple[RGBA, ...] = (
    _hex("#fafafa"),
    _hex("#e53935"),
    _hex("#1e88e5"),
    _hex("#43a047"),
    _hex("#fdd835"),
)

# The Desert Sands' stones (D1), in the order the screen lists them.
STONES = ("red", "yellow", "green", "lilac")
STONE_COLOURS: dict[str, RGBA] = {
    "red": _hex("#d32f2f"),
    "yellow": _hex("#fdd835"),
    "green": _hex("#2e9e44"),
    "lilac": _hex("#b39ddb"),
}

# The games' titles and the rule options each offers are the registry's
# (companion.session.kinds.KINDS); the options' choices, default first, are the rules'
# (companion.rules.game.OPTION_CHOICES).
OPTION_TITLES = {  # in players' words: the rule IDs (N2, N8, N10) are for the record
    "setup_lines": "Lines in the first grid",
    "bonus": "Bonus per extra line",
    "cascades": "New lines after refill",
    "unread_cards": "A card the camera cannot read",
}
OPTION_MEANINGS = {  # what each choice does, one short line under the option's title
    "setup_lines": {"replace": "Their cards are swapped for new ones before play",  # N2
                    "keep": "They stay, and the first turn scores them"},
    "bonus": {"flat": "+1 for each line after the first in a turn",  # N8
              "rising": "2nd line in a turn +1, 3rd +2, and so on"},
    "cascades": {"score": "They score now, for the same player",  # N10
                 "leave": "They stay; the next player's turn scores them"},
    "unread_cards": {"provisional": "Play goes on; it counts as the likeliest card",
                     "ask": "Play waits until a player names it"},
}
PEARL_MEANINGS = {  # where Pearl of the East means otherwise: no points, lines complete tasks
    "setup_lines": {"replace": "Their gems are swapped before play; the pearl stays",  # P2
                    "keep": "They stay, and complete tasks at the first turn"},  # P5, P6
    "cascades": {"score": "They complete tasks now, for the same player",  # P7
                 "leave": "They stay; at the next player's turn they complete tasks"},
}


def option_meaning(game: str, key: str, choice: str) -> str:
    """What ``choice`` of the rule option ``key`` does in ``game`` (``rules.setup``'s
    name: "nizam", "pearl"), one short line in players' words."""
    own = PEARL_MEANINGS if game == PEARL_GAME else {}
    return own.get(key, {}).get(choice) or OPTION_MEANINGS[key][choice]

BASE_SIZE = (800, 480)
"""The official 7" display; every size in the kv files is for this one, then scaled."""

NAME_LENGTH = 20
"""The longest player's name the start screen takes: every screen has room for it."""

TOUCH_MIN = 48
"""The smallest touch target in pixels at the base size."""

SMALL_TEXT = 16
"""The smallest text a player must read (cards in hand, a task card's letter), in pixels at
the base size: smaller is too small at arm's length on the 7" display."""


def luminance(colour: RGBA) -> float:
    r, g, b, _ = colour
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_for(colour: RGBA) -> RGBA:
    """Dark or light text, whichever reads better on ``colour``."""
    return DARK_INK if luminance(colour) > 0.45 else LIGHT_INK


def gem_colour(letter: str) -> RGBA:
    return GEM_COLOURS.get(letter, GEM_COLOURS["?"])


def gem_ink(letter: str) -> RGBA:
    return ink_for(gem_colour(letter))


def gem_label(letter: str) -> str:
    return f"{letter} {CELL_NAMES.get(letter, 'unknown')}"


def player_colour(index: int) -> RGBA:
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)]


def ui_scale(width: float, height: float) -> float:
    """How much bigger than the 800×480 layout everything is drawn."""
    return round(min(width / BASE_SIZE[0], height / BASE_SIZE[1]), 3)
