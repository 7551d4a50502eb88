"""The other renderer's development split seen through other cameras and lights: every image of a
set-up (its ``calib.jpg`` too) changed the same way, as another camera's white balance, exposure,
colour rendering or tone curve would change it, or another place for the camera (turned on its
stand, lower down the table, off to a side). The split has six set-ups; the scenes it is
judged on have others. A reader that holds only on the six as rendered was tuned to them.

    .venv/bin/python tests/bench/bench_dev_variants.py [--drift] [-v] [VARIANT ...]

By default each variant is a new set-up: colours are learned from the changed ``calib.jpg``.
``--drift``: colours learned from ``calib.jpg`` as it is, the stills read changed (the light or
the camera's settings moved after calibration). Prints, per variant, the bench_nizam_dev
figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from bench_nizam_dev import DATA, set_ups, stills, tally  # noqa: E402
from bench_real_variants import (  # noqa: E402
    gains,
    glare,
    jpeg,
    keystone,
    noisy,
    quarter_turns,
    s_curve,
    saturation,
    scaled,
    side,
    tone,
    turned,
    turned_truth,
)

from vision.reader import read_grid  # noqa: E402
from vision.sources import read_image  # noqa: E402

Variant = Callable[[np.ndarray], np.ndarray]


def crosstalk(image: np.ndarray, amount: float) -> np.ndarray:
    """Each channel takes a share of its neighbours (B<-G, G<-R, R<-B): another sensor's
    colour filters, which move hues, not only their strength."""
    f = image.astype(np.float32)
    mixed = (1 - amount) * f + amount * f[..., [1, 2, 0]]
    return np.clip(mixed, 0, 255).astype(np.uint8)


def shaken(image: np.ndarray, length: int) -> np.ndarray:
    """The camera moved sideways by ``length`` pixels while the shutter was open."""
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2] = 1.0 / length
    return cv2.filter2D(image, -1, kernel)


def falloff(image: np.ndarray, far: float, exposure: float = 1.0) -> np.ndarray:
    """A lamp to one side: the light falls evenly across the picture, from as it was on the
    left to ``far`` of it on the right, at ``exposure`` times the exposure (clipped once,
    after both, as a camera clips what its sensor got)."""
    ramp = np.linspace(exposure, exposure * far, image.shape[1], dtype=np.float32)
    return np.clip(image * ramp[None, :, None], 0, 255).astype(np.uint8)


VARIANTS: dict[str, Variant] = {
    "as rendered": lambda i: i,
    "warmer": lambda i: gains(i, (0.7, 0.88, 1.0)),
    "cooler": lambda i: gains(i, (1.0, 0.92, 0.75)),
    "green tint": lambda i: gains(i, (0.9, 1.0, 0.88)),
    "magenta tint": lambda i: gains(i, (1.0, 0.85, 1.0)),
    "exposure x0.6": lambda i: gains(i, (0.6, 0.6, 0.6)),
    "exposure x1.07": lambda i: gains(i, (1.07, 1.07, 1.07)),
    "exposure x1.15": lambda i: gains(i, (1.15, 1.15, 1.15)),
    "exposure x1.35": lambda i: gains(i, (1.35, 1.35, 1.35)),
    "lamp to one side": lambda i: falloff(i, 0.7),
    # over-exposed too: white borders clipped, none shows how much dimmer one side is
    "lamp aside, x1.35": lambda i: falloff(i, 0.8, 1.35),
    "tone curve 0.7": lambda i: tone(i, 0.7),
    "tone curve 1.4": lambda i: tone(i, 1.4),
    "s-curve": lambda i: s_curve(i, 0.6),
    "saturation x0.7": lambda i: saturation(i, 0.7),
    "saturation x1.3": lambda i: saturation(i, 1.3),
    "crosstalk 0.12": lambda i: crosstalk(i, 0.12),
    "a lamp's glare": lambda i: glare(i, 0.5),
    "a lamp's glare, strong": lambda i: glare(i, 0.9),
    "half size": lambda i: scaled(i, 0.5),
    # 1280x720 to 1920x1080: a camera of finer pixels (the split's game is filmed at 720p)
    "1.5x size": lambda i: scaled(i, 1.5),
    "jpeg q40 + noise 6": lambda i: jpeg(noisy(i, 6.0), 40),
    # out of focus or shaken, on top of the split's own (defocus up to 1.1 px, motion up to 8)
    "defocus 1 px": lambda i: cv2.GaussianBlur(i, (0, 0), 1.0),
    "defocus 1.5 px": lambda i: cv2.GaussianBlur(i, (0, 0), 1.5),
    "defocus 2 px": lambda i: cv2.GaussianBlur(i, (0, 0), 2.0),
    "shaken 7 px": lambda i: shaken(i, 7),
    # the camera placed otherwise: turned on its stand, lower down the table, off to a side
    "turned 10 deg": lambda i: turned(i, 10),
    "from lower (15%)": lambda i: keystone(i, 0.15),
    "from the side (15%)": lambda i: side(i, 0.15),
}
# the camera turned on its stand a quarter, a half, three quarters round: the grid read as
# the picture then shows it (the truth turned alike); a reading must not hang on which way up
QUARTER_TURNS = {"a quarter turn": 1, "upside down": 2, "three quarter turns": 3}
VARIANTS |= {name: (lambda i, t=turns: quarter_turns(i, t))
             for name, turns in QUARTER_TURNS.items()}
RESHAPED = {"half size", "1.5x size", "turned 10 deg", "from lower (15%)", "from the side (15%)",
            *QUARTER_TURNS}
"""The variants that change the picture's size or the table's place in it, not its colours."""


def turned_cells(cells: list[list[int]], n: int, turns: int) -> list[list[int]]:
    """The 1-based [row, col] of cells of an n x n grid where :func:`quarter_turns` puts them.

    >>> turned_cells([[1, 1], [2, 5]], 5, 1)
    [[1, 5], [5, 4]]
    """
    out = []
    for r, c in cells:
        for _ in range(turns % 4):
            r, c = c, n + 1 - r
        out.append([r, c])
    return out


def run(change: Variant, drift: bool, verbose: bool, label: str, turns: int = 0
        ) -> tuple[Counter, Counter, int]:
    """A variant's figures; ``turns``: the quarter turns ``change`` gives a picture."""
    total = {"none": Counter(), "cover": Counter()}
    sessions = 0
    # --drift: calibrated on the set-up as it is
    for session, palette in set_ups(DATA, None, 0) if drift else set_ups(DATA, change, turns):
        if palette is None:
            continue
        sessions += 1
        for picture, truth, bare in stills(session):
            kind = "none" if bare else "cover"
            reading = read_grid(change(read_image(str(picture))), palette, 5, 5)
            total[kind]["images"] += 1
            if reading.cells is None:
                total[kind]["missed"] += 1
                continue
            letters = turned_truth(truth["grid"].replace("/", ""), 5, 5, turns)[2]
            grid = [letters[k : k + 5] for k in range(0, 25, 5)]
            t = tally(reading.cells, grid, turned_cells(truth["occluded"], 5, turns))
            total[kind].update(t)
            if verbose and t["wrong"]:
                print(f"  [{label}] {session.name}/{picture.stem} [{kind}]\n"
                      f"     truth {'/'.join(grid)}\n     read  {'/'.join(reading.cells)}")
    return total["none"], total["cover"], sessions


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("variants", nargs="*")
    ap.add_argument("--drift", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if not DATA.is_dir():
        print(f"no split at {DATA}")
        return 2
    names = args.variants or list(VARIANTS)
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        print(f"unknown variant {unknown[0]!r}; variants: {', '.join(VARIANTS)}")
        return 2
    cv2.setNumThreads(1)
    how = "calibrated as it is, read changed" if args.drift else "calibrated and read changed"
    print(f"nizam-dev stills, {how}: unoccluded found, wrong, '?' | covered found, "
          f"read as another card (of them under the hand or a lifted card)")
    sums = np.zeros(5, int)
    for name in names:
        n, c, sessions = run(VARIANTS[name], args.drift, args.verbose, name,
                             QUARTER_TURNS.get(name, 0))
        cells = max(1, n["cells"])
        sums += (n["wrong"], n["unsure"], n["cells"], c["wrong"], c["hidden_wrong"])
        print(f"{name:20s} {sessions} set-ups | {n['images'] - n['missed']}/{n['images']}, "
              f"{n['wrong']} ({100 * n['wrong'] / cells:.2f}%), {n['unsure']} "
              f"({100 * n['unsure'] / cells:.2f}%) | {c['images'] - c['missed']}/{c['images']}, "
              f"{c['wrong']} ({c['hidden_wrong']})", flush=True)
    w, u, cells, cw, hw = sums
    print(f"{'ALL':20s} wrong {w}/{cells} ({100 * w / max(1, cells):.2f}%), '?' "
          f"{100 * u / max(1, cells):.2f}%, covered read as another {cw} (under the hand or "
          f"a lifted card {hw})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
