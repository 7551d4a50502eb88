"""The reader measured alike on every source, side by side: the project's own generator, the
other renderer's split (``../shared/data/nizam-dev``) and the real photos in ``../shared/data``.
A figure that holds on one source only says what was tuned to it; this bench puts them in
one table, counted one way.

    .venv/bin/python tests/bench/bench_sources.py [--scenes 300] [--hands 90] [--widened 150]

Every source is judged as the split's README judges it:
- images with nothing over the grid: the grid found; of their cells, those read as another
  card (``wrong``; ``sure`` at or above the palette's confidence threshold) and those read ``?``;
- images with a hand or a lifted card: cells read as another card anywhere in them (a cell
  under the hand may read ``?``, never another card), and how many of those lie under it;
- the CPU time of a read on one core, median over the source's frames, at their own sizes;
  beside it bench_plain's plain contour-and-median pipeline on the same frames, and how many
  frames were read within twice it (issue 11's speed target). One run each: the machine's
  noise stays in; bench_plain keeps the least of several runs.

Colours are learned as a player would learn them on each source: the generator's from two
calm layouts (``tests.vision.scenes.gem_palette``), each split set-up's from its
``calib.jpg``, each SET board's from one other board, each cube face's from the other faces
of its cube (when those show every colour). The generator's draws are bench_vision's (same
seeds): its figures here and there agree. The split's filmed game is replayed to its end.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from bench_hands import COVERED  # noqa: E402
from bench_nizam_dev import DATA as SPLIT  # noqa: E402
from bench_nizam_dev import game, set_ups, stills, tally  # noqa: E402
from bench_plain import plain  # noqa: E402
from bench_vision import drawn_hands, drawn_stills, drawn_widened  # noqa: E402

from calibration import learn_palette  # noqa: E402
from calibration.palette import Palette  # noqa: E402
from tests.vision.scenes import GEMS, cube_photos, gem_palette, set_card_photos  # noqa: E402
from tools.synthetic import render_scene  # noqa: E402
from vision.cells import extract_patches  # noqa: E402
from vision.lattice import find_grid  # noqa: E402
from vision.reader import read_grid  # noqa: E402
from vision.sources import read_image  # noqa: E402

# the plain pipeline's palette: the gems' colours (its time hardly depends on them)
PLAIN_COLOURS = np.array(list(GEMS.values()), float)


@dataclass(frozen=True)
class Shot:
    """One frame to read, with the colours to read it by and its truth: rows of letters,
    and the cells under a hand or a lifted card (None: nothing is over the grid)."""

    frame: np.ndarray
    palette: Palette
    truth: tuple[str, ...]
    hidden: list[list[int]] | None = None


@dataclass
class Figures:
    """A source's counts, as the split's README counts them."""

    bare: Counter = field(default_factory=Counter)
    covered: Counter = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)
    plain: list[float] = field(default_factory=list)
    sizes: set[str] = field(default_factory=set)

    def add(self, shot: Shot) -> None:
        rows, cols = len(shot.truth), len(shot.truth[0])
        t0 = time.process_time()
        reading = read_grid(shot.frame, shot.palette, rows, cols)
        self.seconds.append(time.process_time() - t0)
        t0 = time.process_time()
        plain(shot.frame, PLAIN_COLOURS)
        self.plain.append(time.process_time() - t0)
        self.sizes.add(f"{shot.frame.shape[1]}x{shot.frame.shape[0]}")
        counts = self.bare if shot.hidden is None else self.covered
        counts["images"] += 1
        if reading.cells is None:
            counts["missed"] += 1
            return
        counts.update(tally(reading.cells, list(shot.truth), shot.hidden or [],
                            reading.confidence))

    def row(self, name: str) -> str:
        b, c = self.bare, self.covered
        found = b["images"] - b["missed"]
        ms, base = (1000 * float(np.median(x)) if x else float("nan")
                    for x in (self.seconds, self.plain))
        within = int((np.asarray(self.seconds) <= 2 * np.asarray(self.plain)).sum())
        return (f"| {name} | {b['images']} | {_share(found, b['images'])} | {b['cells']} | "
                f"{b['wrong']} = {_share(b['wrong'], b['cells'])} ({b['wrong_sure']} sure) | "
                f"{b['unsure']} = {_share(b['unsure'], b['cells'])} | {c['images']} "
                f"({c['missed']} not found) | {c['wrong']} ({c['hidden_wrong']} under it, "
                f"{c['wrong_sure']} sure) | {ms:.1f} ({', '.join(sorted(self.sizes))}) | "
                f"{base:.1f}, {within} of {len(self.seconds)} |")


HEADER = ("| source | images, nothing over the grid | grid found | their cells | wrong | '?' "
          "| images with a hand or a lifted card | cells read as another card | read, median "
          "ms (sizes) | plain pipeline, median ms; frames read within twice it |\n"
          "|---|---|---|---|---|---|---|---|---|---|")


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.2f} %" if whole else "-"


def _rows(letters: str | list[str], cols: int) -> tuple[str, ...]:
    text = "".join(letters)
    return tuple(text[k:k + cols] for k in range(0, len(text), cols))


def _hidden(covered: np.ndarray) -> list[list[int]] | None:
    """The generator's covered cells as the split names them (1-based), None if none."""
    at = np.argwhere(covered > COVERED)
    return [[int(r) + 1, int(c) + 1] for r, c in at] if len(at) else None


def generator_stills(scenes: int, seed: int) -> Iterator[Shot]:
    """bench_vision's stills: every condition, 5x5 to 8x8, no hand."""
    palette = gem_palette()
    for _, scene, _ in drawn_stills(scenes, seed):
        yield Shot(scene.image, palette, scene.labels)


def generator_hands(hands: int, widened: int, seed: int) -> Iterator[Shot]:
    """bench_vision's hands over the grid, then its widened scenes (a veil, a second light,
    lifted cards, hands): a scene counts as covered where a card lies under something."""
    palette = gem_palette()
    for cond, drawn in drawn_hands(hands, seed):
        scene = render_scene(np.random.default_rng(drawn), GEMS, 5, 5, cond)
        yield Shot(scene.image, palette, scene.labels, _hidden(scene.covered))
    for scene in drawn_widened(widened, seed):
        yield Shot(scene.image, palette, scene.labels, _hidden(scene.covered))


def split_stills(data: Path) -> Iterator[Shot]:
    """The split's stills, each set-up's colours learned from its calib.jpg."""
    for session, palette in set_ups(data):
        if palette is None:
            print(f"{session.name}: calibration layout not found: its stills are left out")
            continue
        for picture, truth, bare in stills(session):
            yield Shot(read_image(str(picture)), palette, tuple(truth["grid"].split("/")),
                       None if bare else truth["occluded"])


def set_boards() -> Iterator[Shot]:
    """Each SET board read with colours learned on each other board (4 x 3 reads)."""
    boards = [(cv2.imread(str(photo)), labels) for photo, labels in set_card_photos()]
    for k, (image, labels) in enumerate(boards):
        grid = find_grid(image, 3, 4)
        if grid is None:
            print(f"SET board {k}: no grid to learn its colours from")
            continue
        palette = learn_palette([(extract_patches(image, grid), labels)])
        for j, (other, truth) in enumerate(boards):
            if j != k:
                yield Shot(other, palette, _rows(truth, 4))


def cube_faces() -> Iterator[Shot]:
    """Each cube face read with colours learned on the other faces of its cube, where they
    show every colour the face does."""
    cubes: dict[Path, list[tuple[np.ndarray, int, str]]] = {}
    for photo, n, letters in cube_photos():
        cubes.setdefault(photo.parent, []).append((cv2.imread(str(photo)), n, "".join(letters)))
    for folder, faces in cubes.items():
        learned = []
        for image, n, letters in faces:
            grid = find_grid(image, n, n)
            learned.append(None if grid is None else (extract_patches(image, grid), letters))
        for k, (image, n, letters) in enumerate(faces):
            rest = [x for j, x in enumerate(learned) if j != k and x is not None]
            if set(letters) - set("".join(t for _, t in rest)):
                print(f"{folder.name} face {k}: its other faces miss a colour: left out")
                continue
            yield Shot(image, learn_palette(rest), _rows(letters, n))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenes", type=int, default=300)
    ap.add_argument("--hands", type=int, default=90)
    ap.add_argument("--widened", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--split", type=Path, default=SPLIT)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    sources = {
        "generator, stills": generator_stills(args.scenes, args.seed),
        "generator, hands and lifted cards": generator_hands(args.hands, args.widened,
                                                             args.seed),
        "nizam-dev stills": split_stills(args.split),
        "real: SET boards (webcam)": set_boards(),
        "real: cube faces (robot)": cube_faces(),
    }
    if not args.split.is_dir():
        print(f"no split at {args.split}: its row is left out")
        del sources["nizam-dev stills"]
    table = []
    for name, shots in sources.items():
        figures = Figures()
        for shot in shots:
            figures.add(shot)
        table.append(figures.row(name))
    print(HEADER)
    print("\n".join(table))
    game(args.split.parent / "game-classic-p2")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
