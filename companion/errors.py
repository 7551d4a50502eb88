"""Expected errors, in one public place: what the command line, a reopened game and the
screens catch by name. Anything not listed here is a bug and is reported as one.

The companion's own family is defined beside the rules (they must stay pure: stdlib only);
the camera side's root is in ``calibration`` (below vision, which must not know of us).

>>> from companion.rules.game import RuleError
>>> from calibration.palette import PaletteError
>>> issubclass(RuleError, EXPECTED)
True
>>> isinstance(PaletteError("a damaged palette"), EXPECTED)
True
>>> isinstance(ValueError("a bug"), EXPECTED)
False
"""

from __future__ import annotations

from calibration.errors import CameraError
from companion.rules.errors import BadInput, BrokenRule, CompanionError, DamagedFile

__all__ = [
    "EXPECTED", "BadInput", "BrokenRule", "CameraError", "CompanionError", "DamagedFile", "said",
]

EXPECTED: tuple[type[ValueError], ...] = (CompanionError, CameraError)
"""Every expected error, for ``except EXPECTED``: the companion's and the camera side's."""


def said(err: BaseException) -> str:
    """``err`` as a screen shows it: an expected error (or a file error) is its own line; any
    other is a bug, so its type leads and players can tell it apart when they report it.

    >>> said(BadInput("--size 8: give it as WIDTHxHEIGHT")), said(ValueError("math domain"))
    ('--size 8: give it as WIDTHxHEIGHT', 'ValueError: math domain')
    """
    if isinstance(err, (*EXPECTED, OSError)):
        return str(err)
    return f"{type(err).__name__}: {err}"
