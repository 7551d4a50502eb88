"""Stage a simulated game in front of a synthetic camera: a recording with its truth.

The game is played by the rules' simulator (a seeded shuffle and simple players); each
moment of the table is drawn by ``tools.synthetic`` with one camera, cloth and light for
the whole recording, with hands over the grid while cards are shifted, cleared and laid.
The recording has DESIGN.md's layout, plus ``truth.json``: what the rules say happened.

    python -m tools.recorder OUT --players 3 --mode classic --seed 7
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.deck import NOMINAL_RGB
from companion.rules.combination import cleared_cells
from companion.rules.game import Game, Options
from companion.rules.grid import EMPTY, GEMS, PEARL, Grid
from companion.rules.replay import Replay
from companion.rules.setup import GameSetup
from companion.rules.simulate import greedy, simulate
from tools.synthetic import Conditions, render_scene

CALIBRATION_LAYOUT = "RROOY/YGGCC/BB*VV/PPROY/GCBVP"
"""Three of each gem and the pearl: the Pearl set-up, so counts alone can calibrate too."""


@dataclass
class Film:
    """Frames (grid rows, hand over the grid?) and the taps made at them."""

    frames: list[tuple[tuple[str, ...], bool]] = field(default_factory=list)
    taps: list[dict[str, Any]] = field(default_factory=list)

    def hold(self, grid: Grid, n: int) -> None:
        self.frames.extend([(tuple(str(grid).split("/")), False)] * n)

    def hand(self, grid: Grid, n: int) -> None:
        self.frames.extend([(tuple(str(grid).split("/")), True)] * n)

    def tap(self, name: str) -> None:
        self.taps.append({"frame": len(self.frames) - 1, "tap": name})


def film_game(played: Replay, rng: random.Random, stable: int = 3, hidden: int = 2) -> Film:
    """What the camera sees and the players tap through a simulated game."""
    film = Film()
    grid = played.states[0].grid
    film.hand(grid, hidden)
    film.hold(grid, stable)
    for before, report in zip(played.states, played.reports, strict=False):
        grid = before.grid
        if report.turn.is_draw:
            film.hold(grid, 1)
            film.tap("draw")
        else:
            for k, move in enumerate(report.turn.shifts):
                film.hand(grid, hidden)
                grid = move.plain().apply(grid)
                last = k == len(report.turn.shifts) - 1
                # Sometimes a second shift follows under the same hand: no stable view between.
                if last or move.wildcard or rng.random() < 0.5:
                    film.hold(grid, stable)
                    if move.wildcard:
                        film.tap("wildcard")
            film.tap("end_turn")
        for scoring in report.rounds:
            if scoring.cleared and scoring.combinations:
                film.hand(grid, hidden)
                cells = [c for c in cleared_cells(scoring.combinations) if grid.at(*c) != PEARL]
                grid = grid.replace({cell: EMPTY for cell in cells})
                film.hold(grid, stable)
            if scoring.laid:
                film.hand(grid, hidden)
                grid = grid.replace(dict(zip(grid.empty_cells(), scoring.laid, strict=False)))
                film.hold(grid, stable)
    film.hold(grid, stable)
    return film


def card_colours() -> dict[str, tuple[int, int, int]]:
    """BGR of each card type, for the renderer."""
    return {k: (b, g, r) for k, (r, g, b) in NOMINAL_RGB.items() if k in GEMS + PEARL}


class Camera:
    """One camera, cloth and light for a whole recording: every frame drawn the same way."""

    def __init__(self, seed: int, conditions: Conditions, size: tuple[int, int]) -> None:
        self.seed, self.conditions, self.size = seed, conditions, size
        self.colours = card_colours()

    def shoot(self, rows: Sequence[str], hand: bool, frame: int = 0) -> np.ndarray:
        rng = np.random.default_rng(self.seed)
        cond = replace(self.conditions, hand=hand)
        scene = render_scene(rng, self.colours, conditions=cond, size=self.size,
                             labels=tuple(rows))
        return scene.image


def write_recording(
    out: Path, played: Replay, names: Sequence[str], *, seed: int,
    size: tuple[int, int] = (1280, 720), quality: int = 85,
    conditions: Conditions | None = None,
) -> dict[str, Any]:
    """Render ``played`` into the recording folder ``out``; returns the truth written.
    The players are ``names`` (``Player N`` for one not given)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "frames").mkdir(exist_ok=True)
    cond = conditions or Conditions(tilt=18.0, tilt_dir=30.0, roll=6.0, jitter_mm=1.5,
                                    jitter_deg=2.0, cloth="felt", kelvin=4200.0)
    camera = Camera(seed, cond, size)
    film = film_game(played, random.Random(seed))
    params = [cv2.IMWRITE_JPEG_QUALITY, quality]
    cv2.imwrite(str(out / "calib.jpg"), camera.shoot(CALIBRATION_LAYOUT.split("/"), False),
                params)
    cache: dict[tuple[tuple[str, ...], bool], bytes] = {}
    for n, key in enumerate(film.frames):
        if key not in cache:
            ok, data = cv2.imencode(".jpg", camera.shoot(*key), params)
            cache[key] = data.tobytes()
        (out / "frames" / f"{n:06d}.jpg").write_bytes(cache[key])
    setup = GameSetup.of_game(played.game, names)
    (out / "game.json").write_text(json.dumps(setup.recording_header()) + "\n")
    (out / "calib.json").write_text(json.dumps({"grid": CALIBRATION_LAYOUT}) + "\n")
    (out / "taps.jsonl").write_text("".join(json.dumps(t) + "\n" for t in film.taps))
    truth = {**played.summary(), "turns": len(played.reports), "frames": len(film.frames)}
    (out / "truth.json").write_text(json.dumps(truth) + "\n")
    return truth


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.recorder", description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--mode", choices=("classic", "pearl"), default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turns", type=int, default=400, help="stop the game after this many")
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--quality", type=int, default=85)
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.split("x"))
    game = Game(args.mode, args.players, Options())
    played = simulate(game, random.Random(args.seed), greedy, max_turns=args.turns)
    truth = write_recording(args.out, played, (), seed=args.seed, size=(width, height),
                            quality=args.quality)
    print(json.dumps(truth))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
