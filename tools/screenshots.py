"""Every screen as a PNG at 800x480 and 1280x800, each size from a clean state, for whoever
reviews the screens (not players: it was ``companion --screenshot DIR``)::

    python -m tools.screenshots DIR

Real games staged through the session (``tools.showcase``) with five players of long names,
a refused move, a game over with its winner; The Desert Sands with its odds worked out, a
call made, played to its end; each step of the calibration wizard (``tools.screens``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.cli.common import output_path
from companion.errors import CompanionError
from companion.ui.env import prepare_kivy

SIZES = ((800, 480), (1280, 800))


def write_screenshots(
    directory: str | Path,
    sizes: Sequence[tuple[int, int]] = SIZES,
    **kwargs: Any,
) -> list[Path]:
    """Every screen as ``<screen>_<W>x<H>.png`` in ``directory`` at each size; the keyword
    arguments are ``companion.ui.run_app``'s, plus ``headers`` and ``play`` (see
    ``tools.screens``)."""
    biggest = (max(w for w, _ in sizes), max(h for _, h in sizes))
    prepare_kivy(size=biggest, fullscreen=False, virtual_keyboard=False, max_fps=0)
    from .screens import write_screenshots as write  # Kivy only once it is set up

    return write(directory, sizes, **kwargs)


def _advance(controller: Any) -> None:
    """For screenshots: let a demo game run a few turns, or call a few Desert Sands stones."""
    if hasattr(controller, "frames_read"):
        deadline = time.monotonic() + 60
        while controller.view().turn < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        return
    for call, drawn in (("red", "yellow"), ("green", "green"), ("lilac", "red")):
        controller.tap("call", call)
        controller.tap("drawn", drawn)


def _staged(shows: Any) -> dict[str, Any]:
    """Real games in the states players meet, for the screenshots (``tools.showcase``):
    five players with long names, a move the rules refuse, an opening layout with a card
    the camera cannot read (asked, or laid under a provisional name) and one with three, a
    card the camera misread named by the rules, a finished game."""
    from tools.showcase import (
        LONG_NAMES,
        finished_game,
        misread_named,
        opening_unsure,
        refused_move,
        staged_game,
    )

    return {
        "staged": {
            "nizam_5_players": lambda: staged_game(shows.store, LONG_NAMES, seed=0, turns=6),
            "nizam_illegal": lambda: refused_move(shows.store, LONG_NAMES, seed=0),
            "nizam_opening_unsure": lambda: opening_unsure(shows.store, ["Ann", "Bob"]),
            "nizam_unread_card": lambda: opening_unsure(shows.store, ["Ann", "Bob"],
                                                        unread_cards="provisional"),
            "nizam_misread_named": lambda: misread_named(shows.store, ["Ann", "Bob"]),
            "nizam_opening_unsure_3": lambda: opening_unsure(
                shows.store, ["Ann", "Bob"], seed=1, unsure=((1, 2), (3, 4), (5, 1))),
            "pearl_5_players": lambda: staged_game(shows.store, LONG_NAMES, mode="pearl",
                                                   seed=2, turns=8),
        },
        "finished": lambda: finished_game(shows.store, ["Ann", "Bob", "Cid"], seed=1),
    }


def _fast_demo(companion: Any, header: dict[str, Any]) -> Any:
    from companion.session.kinds import TABLE_SCREEN, kind_of

    if kind_of(header).screen != TABLE_SCREEN:
        return companion.start_game(header)
    from companion.live.app import demo_watcher

    return demo_watcher(header["game"], pace=0.0).start()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.screenshots", description=__doc__)
    parser.add_argument("directory", type=Path, help="the folder the PNGs are written into")
    args = parser.parse_args(argv)
    try:
        output_path(str(args.directory), "DIR", folder=True)
    except CompanionError as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return 2
    from companion.live.app import Companion, usable_palette
    from companion.store import GameStore
    from companion.ui.hooks import CalibrationHooks

    def fresh() -> dict[str, Any]:
        """Each size its own store: nothing of one size's games shows in the other."""
        shows = Companion(GameStore(":memory:"), demo_games=True,
                          palette=usable_palette()[0])
        return {"start_game": lambda h: _fast_demo(shows, h), "games": shows.games,
                "resume_game": shows.resume_game, "export_record": shows.export_record,
                "calibration": CalibrationHooks(shows.read_layout, shows.save_palette),
                **_staged(shows)}

    for path in write_screenshots(args.directory, play=_advance, fresh=fresh):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
