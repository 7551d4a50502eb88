"""The family of expected errors: what a player, a file or a command line can get wrong.

Each says in one line what was wrong. Anything else raised is a bug and is reported as one
(the command line exits 1 with a crash log, not 2 as for bad input). The root lives here
because the rules are the lowest layer of ``companion`` and stay pure; everyone else imports
the family from ``companion.errors``, which also names the camera's errors.

They subclass ValueError so callers written before the family still catch them; new code
catches them by name.

>>> issubclass(BrokenRule, CompanionError) and issubclass(BadInput, ValueError)
True
"""

from __future__ import annotations

__all__ = ["BadInput", "BrokenRule", "CompanionError", "DamagedFile"]


class CompanionError(ValueError):
    """An expected error: bad input, a broken rule or a damaged file, said in one line."""


class BadInput(CompanionError):
    """A value given by a player or on the command line that cannot be used as it is."""


class BrokenRule(CompanionError):
    """A move, call or set-up the game's rules forbid."""


class DamagedFile(CompanionError):
    """A stored file (a game, a record, a calibration) that cannot be read as it is."""
