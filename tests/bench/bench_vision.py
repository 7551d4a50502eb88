"""Vision benchmark: grid finding and cell reading on synthetic scenes across every
condition, a hand over the grid, the real photos in ../shared/data, and speed on one core:
each frame on its own, and frames of a video followed by a ``GridTracker``.

    .venv/bin/python tests/bench/bench_vision.py [--scenes 300] [--hands 90] [--seed 1]

Prints figures; asserts nothing. The palette is learned from two calm synthetic layouts,
as a player calibrates once; scenes are then shot under light, tilt and clutter it never saw.
A "wrong" cell is a class letter that is not the truth; "sure" means at or above the
palette's own confidence threshold.
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from calibration import learn_palette  # noqa: E402
from calibration.colour import decode, encode  # noqa: E402
from calibration.palette import DEFAULT_MIN_CONFIDENCE as SURE  # noqa: E402
from tests.bench.bench_learning import count_cells, follow  # noqa: E402
from tests.bench.bench_learning import said as learning_said  # noqa: E402
from tests.bench.bench_nizam_dev import tally as split_tally  # noqa: E402
from tests.vision.scenes import (  # noqa: E402
    CALM,
    GEMS,
    corner_error,
    cube_photos,
    gem_palette,
    set_card_photos,
    video,
)
from tools.synthetic import (  # noqa: E402
    Conditions,
    Scene,
    random_conditions,
    render_scene,
    widened_conditions,
)
from vision.cells import extract_patches, extract_table_patches  # noqa: E402
from vision.lattice import find_grid, search_grid  # noqa: E402
from vision.reader import read_grid  # noqa: E402
from vision.tracker import GridTracker  # noqa: E402

SIZES = [(5, 5)] * 8 + [(3, 4), (4, 4), (6, 6), (8, 8)]


def say(*parts: object) -> None:
    print("".join(str(p) for p in parts))


def pct(a: float, b: float) -> str:
    return f"{100.0 * a / b:.2f}%" if b else "-"


def tally(reading, truth: tuple[str, ...]) -> Counter:
    """A reading's cells, ``?``, wrong and wrong-and-sure (bench_nizam_dev's count)."""
    return split_tally(reading.cells, list(truth), [], reading.confidence)


def drawn_stills(scenes: int, seed: int) -> Iterator[tuple[Conditions, Scene, float]]:
    """The stills: every condition, no hand, at SIZES in turn; each with the seconds its
    drawing took."""
    rng = np.random.default_rng(seed)
    for i in range(scenes):
        rows, cols = SIZES[i % len(SIZES)]
        cond = random_conditions(rng, hand=False)
        t0 = time.perf_counter()
        scene = render_scene(rng, GEMS, rows, cols, cond)
        yield cond, scene, time.perf_counter() - t0


def drawn_hands(hands: int, seed: int) -> Iterator[tuple[Conditions, int]]:
    """The scenes with a hand: their conditions, and the seed that draws each (with the
    hand, or bare with ``hand=False``)."""
    rng = np.random.default_rng(seed + 1000)
    for _ in range(hands):
        cond = random_conditions(rng, hand=True)
        yield cond, int(rng.integers(2**31))


def drawn_widened(scenes: int, seed: int) -> Iterator[Scene]:
    """The widened scenes (tools.synthetic.widened_conditions)."""
    rng = np.random.default_rng(seed + 2000)
    for _ in range(scenes):
        yield render_scene(rng, GEMS, 5, 5, widened_conditions(rng))


def synthetic(args: argparse.Namespace, palette) -> list[np.ndarray]:
    found = placed = 0
    counts: Counter = Counter()
    misses: list[str] = []
    frames = []
    drawing = 0.0
    for i, (cond, scene, seconds) in enumerate(drawn_stills(args.scenes, args.seed)):
        rows, cols = len(scene.labels), len(scene.labels[0])
        drawing += seconds
        if (rows, cols) == (5, 5) and len(frames) < args.timed:
            frames.append(scene.image)
        reading = read_grid(scene.image, palette, rows, cols)
        where = (
            f"  scene {i} {rows}x{cols} ({cond.cloth}, tilt {cond.tilt:.0f}, {cond.kelvin:.0f} K)"
        )
        if reading.cells is None:
            misses.append(f"{where}: {reading.reason}")
            continue
        found += 1
        if corner_error(reading.corners, scene.corners, cols) > 0.25:
            misses.append(f"{where}: corners off")
            continue
        placed += 1
        counts += tally(reading, scene.labels)
    n, cells = args.scenes, counts["cells"]
    say(
        f"synthetic, no hand: {n} scenes (5x5, 3x4, 4x4, 6x6, 8x8), ",
        f"{drawing / n * 1000:.0f} ms to draw each",
    )
    say(
        f"  grid found: {pct(found, n)}; corners within 1/4 cell: {pct(placed, n)}",
        " (target >= 99.5%)",
    )
    say(
        f"  cells {cells}: wrong {counts['wrong']} = {pct(counts['wrong'], cells)}",
        " (target <= 0.1%),",
        f" wrong and sure {counts['wrong_sure']}, unsure '?' {pct(counts['unsure'], cells)}",
    )
    for line in misses[:10]:
        say(line)
    return frames


def hands(args: argparse.Namespace, palette) -> None:
    """Each scene twice from one seed: bare, and with a hand over it."""
    readings = caused = caused_sure = covered = covered_unsure = 0
    counts: Counter = Counter()
    for cond, seed in drawn_hands(args.hands, args.seed):
        bare = render_scene(np.random.default_rng(seed), GEMS, 5, 5, replace(cond, hand=False))
        handy = render_scene(np.random.default_rng(seed), GEMS, 5, 5, cond)
        before = read_grid(bare.image, palette, 5, 5)
        after = read_grid(handy.image, palette, 5, 5)
        if after.cells is None:
            continue
        readings += 1
        counts += tally(after, handy.labels)
        for r in range(5):
            for c in range(5):
                got, truth = after.cells[r][c], handy.labels[r][c]
                if handy.covered[r, c] > 0.5 and truth != ".":
                    covered += 1
                    covered_unsure += got == "?"
                right_before = before.cells is not None and before.cells[r][c] == truth
                if right_before and got not in "?." and got != truth:
                    caused += 1
                    caused_sure += after.confidence[r, c] >= SURE
    say(
        f"synthetic, a hand over the grid: {args.hands} scenes;",
        f" a reading in {readings}, none in the rest",
    )
    say(
        f"  cells the hand turned into a wrong gem: {caused},",
        f" of them sure: {caused_sure} (target 0)",
    )
    say(f"  all wrong and sure cells in those readings (hand or not): {counts['wrong_sure']}")
    say(
        f"  cards more than half under the hand: {covered},",
        f" read '?': {pct(covered_unsure, covered)}",
    )


def widened(args: argparse.Namespace, palette) -> None:
    """Scenes with more of what real tables show (tools.synthetic.widened_conditions): a
    veil of flare, a second light of another colour, a card lifted mid-move, hands. Cells
    nothing covers are counted as the split's unoccluded cells; a covered cell counts only
    if it reads another card."""
    found = 0
    cells: Counter = Counter()
    for scene in drawn_widened(args.widened, args.seed):
        reading = read_grid(scene.image, palette, 5, 5)
        found += count_cells(cells, reading, scene)
    say(f"synthetic, widened (veil, a second light, lifted cards, hands): {args.widened} scenes;"
        f" a reading in {found}")
    say(f"  {cells_said(cells)}")


def drifting(args: argparse.Namespace, palette) -> None:
    """Videos whose light drifts while the game goes on (tests.vision.scenes.video's
    ``drift``: the exposure swings by 35% and the lamp's colour by 700 K), read with a
    tracker as the app reads them; random camera, cloth and light per video."""
    found = frames = 0
    cells: Counter = Counter()
    learning: Counter = Counter()
    for v in range(args.videos):
        tracker = GridTracker()
        shots = video(args.seed + 900 + v, 2 * args.video_frames, (1280, 720), drift=0.35)
        for scene in shots:
            frames += 1
            found += count_cells(cells, tracker.read(scene.image, palette), scene)
        follow(shots, palette, True, learning, settle=2)
    say(f"videos with a drifting light (exposure +-35%, colour +-700 K): {args.videos} videos,"
        f" {frames} frames, a reading in {found}; {cells_said(cells)}")
    say(f"  the same, colours learning from confirmed readings (bench_learning.py): "
        f"{learning_said(learning)}")


def glared_calibration(args: argparse.Namespace) -> None:
    """Calibrated on one calm layout whose only card of a gem lies under the lamp's
    reflection (white light over all of it, as on one of the other renderer's set-ups), then
    the random scenes read: that gem's cards, and all the rest."""
    rng = np.random.default_rng(args.seed + 3000)
    counts: Counter = Counter()
    gem_cells: Counter = Counter()
    for gem in ("V", "B", "P", "C"):
        others = [g for g in GEMS if g != gem]
        cells = [gem] + [others[i % len(others)] for i in range(24)]
        layout = "".join(rng.permutation(cells))
        labels = tuple(layout[r * 5:(r + 1) * 5] for r in range(5))
        calm = render_scene(rng, GEMS, 5, 5, CALM, labels=labels)
        at = layout.index(gem)
        mask = np.zeros(calm.image.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, np.round(calm.card_quads[at // 5, at % 5]).astype(np.int32), 1)
        linear = decode(calm.image / 255.0)
        linear[mask.astype(bool)] += args.glare
        image = np.clip(np.rint(encode(linear) * 255.0), 0, 255).astype(np.uint8)
        geometry = find_grid(image, 5, 5)
        if geometry is None:
            continue
        palette = learn_palette([(extract_patches(image, geometry), layout)])
        for _ in range(args.glared // 4):
            scene = render_scene(rng, GEMS, 5, 5, random_conditions(rng, hand=False))
            reading = read_grid(scene.image, palette, 5, 5)
            if reading.cells is None:
                counts["missed"] += 1
                continue
            counts += tally(reading, scene.labels)
            for got, want in zip("".join(reading.cells), "".join(scene.labels), strict=True):
                if want == gem:
                    gem_cells["cells"] += 1
                    gem_cells["unsure"] += got == "?"
                    gem_cells["wrong"] += got not in (gem, "?")
    n = counts["cells"]
    say(f"synthetic, calibrated with the only violet, blue, pink or cyan under a glare (white"
        f" light {args.glare} of the white over it): {args.glared // 4 * 4} scenes, no reading"
        f" in {counts['missed']}")
    say(f"  that gem's cards {gem_cells['cells']}: wrong {gem_cells['wrong']}, '?' "
        f"{pct(gem_cells['unsure'], gem_cells['cells'])}; all cells {n}: wrong {counts['wrong']}"
        f" = {pct(counts['wrong'], n)}, '?' {pct(counts['unsure'], n)}")


def cells_said(counts: Counter) -> str:
    n = counts["cells"]
    return (f"uncovered cells {n}: wrong {counts['cells wrong']} ="
            f" {pct(counts['cells wrong'], n)}, '?' {pct(counts['cells unsure'], n)}; covered"
            f" cells {counts['covered']}, read as another card {counts['covered wrong']}")


def set_cards() -> None:
    sets = set_card_photos()
    say("set-cards-webcam (3x4 SET cards on black cloth):")
    for photo, _ in sets:
        g = find_grid(cv2.imread(str(photo)), 3, 4)
        seen = 0 if g is None else int(g.seen.sum())
        say(
            f"  {photo.name}: grid {'found' if g is not None else 'NOT found'},",
            f" cards in their cells {seen}/12",
        )
    for k, (photo, labels) in enumerate(sets):
        image = cv2.imread(str(photo))
        palette = learn_palette([(extract_patches(image, find_grid(image, 3, 4)), labels)])
        right = unsure = wrong_sure = 0
        for j, (other, truth) in enumerate(sets):
            if j == k:
                continue
            reading = read_grid(cv2.imread(str(other)), palette, 3, 4)
            got = "".join(reading.cells) if reading.cells else "?" * 12
            conf = reading.confidence.ravel()
            right += sum(a == b for a, b in zip(got, truth, strict=True))
            unsure += got.count("?")
            wrong_sure += sum(
                a not in "?" and a != b and p >= SURE
                for a, b, p in zip(got, truth, conf, strict=True)
            )
        say(
            f"  colours learned on {photo.name}: the other three {right}/36 right,",
            f" {unsure} unsure, {wrong_sure} wrong and sure",
        )


def cubes() -> None:
    say("cube-photos (2x2 and 4x4 stickers in a robot):")
    photos = cube_photos()
    found = stickers = 0
    for photo, n, _ in photos:
        image = cv2.imread(str(photo))
        g = find_grid(image, n, n)
        found += g is not None
        stickers += 0 if g is None else int(g.seen.sum())
        if g is None:
            say(
                f"  {photo.parent.name}/{photo.name}: NOT found ({search_grid(image, n, n).reason})"
            )
    total = sum(n * n for _, n, _ in photos)
    say(f"  grids found {found}/{len(photos)}; sticker outlines seen {stickers}/{total}")


def least(repeat: int, run, *args, state=None):
    """Call ``run(*args)`` (``run(state, *args)`` with a ``state``) ``repeat`` times and keep
    the least CPU time: other programs sharing the core only ever add to it. The state (a
    tracker) is copied for every call but the last, so each starts where the last frame
    left it. Returns (result, seconds)."""
    best = float("inf")
    result = None
    for k in range(repeat):
        c0 = time.thread_time()
        if state is None:
            result = run(*args)
        else:
            result = run(state if k == repeat - 1 else copy.deepcopy(state), *args)
        best = min(best, time.thread_time() - c0)
    return result, best


def cut_cells(img: np.ndarray, g) -> tuple[np.ndarray, np.ndarray]:
    return extract_patches(img, g), extract_table_patches(img, g)


def speed(frames: list[np.ndarray], palette, repeat: int) -> None:
    if not frames:  # --timed 0: a median of nothing would print nan
        say("speed, each frame on its own: not timed (--timed 0)")
        return
    cv2.setNumThreads(1)
    say(
        "speed, one core (cv2.setNumThreads(1)), each frame on its own: median over frames",
        f" of the least CPU time of {repeat} runs:",
    )
    for size, target in (((1280, 720), 15), ((640, 480), 6)):
        parts: dict[str, list[float]] = {"read": [], "find": [], "cells": [], "classify": []}
        for frame in frames:
            img = (
                frame
                if size == (1280, 720)
                else cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
            )
            parts["read"].append(least(repeat, read_grid, img, palette, 5, 5)[1])
            g, spent = least(repeat, find_grid, img, 5, 5)
            parts["find"].append(spent)
            if g is None:
                continue
            cut, spent = least(repeat, cut_cells, img, g)
            parts["cells"].append(spent)
            parts["classify"].append(least(repeat, palette.classify, *cut)[1])
        m = {k: 1000 * float(np.median(v)) if v else float("nan") for k, v in parts.items()}
        say(
            f"  {size[0]}x{size[1]}: read {m['read']:.1f} ms (target <= {target} ms);",
            f" its parts: find grid {m['find']:.1f}, cut cells {m['cells']:.1f},",
            f" classify (calibration) {m['classify']:.1f}",
        )


def video_speed(args: argparse.Namespace, palette) -> None:
    """Videos of one table each in the rhythm of a game (fixed camera; five frames of a
    still table, three with a hand over the grid, then still again with other cards; fresh
    sensor noise in every frame), read frame by frame with a tracker and without."""
    if not args.videos:
        say("speed on video: not timed (--videos 0)")
        return
    cv2.setNumThreads(1)
    say(
        f"speed on video, one core: {args.videos} videos of {args.video_frames} frames",
        " (5 still, 3 with a hand, ...); median over frames of the least CPU time of",
        f" {args.repeat} runs:",
    )
    for size, target in (((1280, 720), 15), ((640, 480), 6)):
        times: dict[str, list[float]] = {"tracker": [], "plain": [], "classify": []}
        hand_times: dict[str, list[float]] = {"tracker": [], "plain": []}
        still_times: list[float] = []
        counts: Counter = Counter()
        for v in range(args.videos):
            tracker = GridTracker()
            for scene in video(args.seed + 500 + v, args.video_frames, size):
                image = scene.image
                for name in ("tracker", "plain"):
                    if name == "tracker":
                        kept = tracker.still
                        reading, spent = least(
                            args.repeat, GridTracker.read, image, palette, 5, 5, state=tracker
                        )
                        if tracker.still > kept:
                            still_times.append(spent)
                    else:
                        reading, spent = least(1, read_grid, image, palette, 5, 5)
                    times[name].append(spent)
                    if scene.conditions.hand:
                        hand_times[name].append(spent)
                    counts[f"{name} found"] += reading.found
                    if reading.cells is None:
                        continue
                    if name == "tracker":  # the palette's share of the read, as in it
                        cut = cut_cells(image, reading.geometry)
                        times["classify"].append(least(args.repeat, palette.classify, *cut)[1])
                    got = tally(reading, scene.labels)
                    counts[f"{name} wrong_sure"] += got["wrong_sure"]
                    counts[f"{name} unsure"] += got["unsure"]
            counts["still"] += tracker.still
            counts["followed"] += tracker.tracked
        m = {k: 1000 * float(np.median(v)) for k, v in times.items()}
        mh = {k: 1000 * float(np.median(v)) for k, v in hand_times.items()}
        n = len(times["tracker"])
        say(
            f"  {size[0]}x{size[1]}: with a tracker {m['tracker']:.1f} ms (target <= {target}),",
            f" of it classify (calibration) {m['classify']:.1f}; nothing moved:",
            f" {1000 * float(np.median(still_times)):.1f}; each frame searched",
            f" {m['plain']:.1f} ms (one run); frames with a hand: {mh['tracker']:.1f} and",
            f" {mh['plain']:.1f} ms",
        )
        say(
            f"    tracker: lattice kept (nothing moved) {pct(counts['still'], n)},",
            f" followed {pct(counts['followed'], n)}, searched the rest;",
            f" grid found {counts['tracker found']}/{n} (searching each: {counts['plain found']});",
            f" wrong and sure cells {counts['tracker wrong_sure']} (searching each:",
            f" {counts['plain wrong_sure']}); '?' {counts['tracker unsure']}",
            f" ({counts['plain unsure']})",
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenes", type=int, default=300)
    p.add_argument("--hands", type=int, default=90)
    p.add_argument("--widened", type=int, default=150)
    p.add_argument("--timed", type=int, default=40, help="5x5 frames timed at each size")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--glared", type=int, default=60, help="scenes read, glared calibrations")
    p.add_argument("--glare", type=float, default=0.3, help="white light over the glared card")
    p.add_argument("--videos", type=int, default=4, help="videos timed at each size")
    p.add_argument("--video-frames", type=int, default=16)
    p.add_argument("--repeat", type=int, default=3, help="runs per timed read (least kept)")
    p.add_argument(
        "--only", choices=["all", "speed", "glare"], default="all",
        help="speed: the timings alone; glare: the glared calibrations alone",
    )
    args = p.parse_args()
    cv2.setNumThreads(1)
    if args.only == "glare":
        glared_calibration(args)
        return
    palette = gem_palette()
    if args.only == "speed":
        args.scenes = args.timed * len(SIZES) // SIZES.count((5, 5))
        frames = synthetic(args, palette)
    else:
        frames = synthetic(args, palette)
        hands(args, palette)
        widened(args, palette)
        glared_calibration(args)
        drifting(args, palette)
        set_cards()
        cubes()
    speed(frames, palette, args.repeat)
    video_speed(args, palette)


if __name__ == "__main__":
    main()
