"""Calibration figures on real photos and synthetic cells (prints; asserts nothing).

    .venv/bin/python tests/bench/bench_calibration.py

- lens: RMS and fx on OpenCV's chessboard photos (target RMS <= 0.45 px, fx 536 +- 2);
- cube-rgb: per-sticker colours of 23 real cubes, learned from counts alone (>= 99.5 %);
- set-cards-webcam: calibrate on one photo with its labels, read the other three (every card);
- cube-photos: calibrate on photos with labels, read the others (>= 99 %);
- synthetic cells under 2700-6500 K, exposure, shadow, glare, with hands over some cells;
- speed: classify 25 patches, one core (its share of the frame read bench_vision times).

Real photos go through vision's grid finder and patch cutter (vision.lattice, vision.cells).
Classes are scored without their names: the best one-to-one matching of classes.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from calibration.counts import cluster_by_counts  # noqa: E402
from calibration.features import prepare_with_table  # noqa: E402
from calibration.lens import calibrate_camera  # noqa: E402
from calibration.palette import learn_palette  # noqa: E402
from tests.calibration.synth import scene  # noqa: E402
from tests.calibration.test_real_colours import cube_scans, matched_right  # noqa: E402
from vision.cells import extract_patches  # noqa: E402
from vision.lattice import find_grid  # noqa: E402

DATA = ROOT.parent / "shared" / "data"


def tally(predicted: str, truth: str) -> tuple[int, int, int]:
    right = sum(p == t for p, t in zip(predicted, truth, strict=True))
    unsure = predicted.count("?")
    return right, unsure, len(truth) - right - unsure


def lens() -> None:
    photos = [cv2.imread(str(p)) for p in sorted((DATA / "opencv-calib-left").glob("*.jpg"))]
    model = calibrate_camera(photos, board=(9, 6), square_mm=25)
    fx, fy = model.camera_matrix[0, 0], model.camera_matrix[1, 1]
    print(f"lens: {model.images_used} boards, RMS {model.rms:.3f} px, fx {fx:.2f}, fy {fy:.2f}")


def cube_rgb() -> None:
    right = total = 0
    worst = []
    start = time.perf_counter()
    for name, bgr, truth, per_class in cube_scans():
        (predicted,) = cluster_by_counts(bgr, {ch: per_class for ch in "ULFRBD"})
        ok = matched_right(predicted, truth)
        right += ok
        total += len(truth)
        if ok < len(truth):
            worst.append(f"{name.removesuffix('.txt')} {ok}/{len(truth)}")
    took = time.perf_counter() - start
    print(
        f"cube-rgb (counts only): {right}/{total} = {100 * right / total:.2f} % right "
        f"({took:.1f} s for 23 cubes); not all right: {', '.join(worst) or 'none'}"
    )


def grid_patches(path: Path, rows: int, cols: int) -> np.ndarray | None:
    frame = cv2.imread(str(path))
    geometry = find_grid(frame, rows, cols)
    return None if geometry is None else extract_patches(frame, geometry)


def set_cards() -> None:
    photos = []
    for png in sorted((DATA / "set-cards-webcam").glob("*.png")):
        lines = [x for x in png.with_suffix(".txt").read_text().splitlines() if x.strip()]
        labels = "".join(line.split()[1][0].upper() for line in lines)
        photos.append((png.stem, grid_patches(png, 3, 4), labels))
    missing = [name for name, patches, _ in photos if patches is None]
    print(f"set-cards: grid found in {len(photos) - len(missing)}/{len(photos)} photos")
    for name, patches, labels in photos:
        if patches is None:
            continue
        palette = learn_palette([(patches, labels)])
        results = []
        for other, test, truth in photos:
            if other == name or test is None:
                continue
            results.append(tally("".join(palette.classify(test).labels), truth))
        right, unsure, wrong = (sum(r[i] for r in results) for i in range(3))
        every = "every card right" if right == 12 * len(results) else ""
        print(
            f"  calibrated on {name}: other photos {right}/{12 * len(results)} right, "
            f"{unsure} unsure, {wrong} wrong  {every}"
        )


def cube_photos() -> None:
    sets = {}
    for folder in sorted((DATA / "cube-photos").iterdir()):
        if not folder.is_dir():
            continue
        info = json.loads((folder / "labels.json").read_text())
        n = info["cube_size"]
        sides = []
        for side, s in info["sides"].items():
            sides.append(
                (
                    side,
                    grid_patches(folder / s["image"], n, n),
                    "".join(s["labels_rowmajor_as_seen"]),
                )
            )
        found = sum(p is not None for _, p, _ in sides)
        print(f"cube-photos {folder.name}: grid found in {found}/{len(sides)} photos")
        sets[folder.name] = [s for s in sides if s[1] is not None]
    for name, sides in sets.items():
        # every photo read by a palette learned from the others of its set, when they show
        # every class
        right = total = unsure = 0
        for i, (_, patches, truth) in enumerate(sides):
            rest = sides[:i] + sides[i + 1 :]
            if set(truth) - set("".join(t for _, _, t in rest)):
                continue
            palette = learn_palette([(p, t) for _, p, t in rest])
            r, u, _ = tally("".join(palette.classify(patches).labels), truth)
            right, unsure, total = right + r, unsure + u, total + len(truth)
        share = 100 * right / total if total else float("nan")
        print(
            f"  {name}, each photo read with the others as calibration: "
            f"{right}/{total} = {share:.1f} % right, {unsure} unsure"
        )
    names = list(sets)
    for a, b in ((names[0], names[1]), (names[1], names[0])):
        palette = learn_palette([(p, t) for _, p, t in sets[a]])
        counts = [tally("".join(palette.classify(p).labels), t) for _, p, t in sets[b]]
        right, unsure, wrong = (sum(c[i] for c in counts) for i in range(3))
        print(
            f"  across sets (other cube, camera and light): calibrated on {a}, read {b}: "
            f"{right}/{right + unsure + wrong} right, {unsure} unsure, {wrong} wrong"
        )


def synthetic(n: int = 60) -> None:
    rng = np.random.default_rng(2024)
    layout = "RROGYCBVPRGGYOCBVPROYGCB*"
    cards = [0, 0, 0]
    hands = {"unsure": 0, "empty": 0, "gem": 0}
    for i in range(n):
        table = ("wood", "felt", "grey")[i % 3]
        if i % 10 == 0:
            palette = learn_palette([(scene(rng, layout, table=table)[0], layout)])
        kw = {
            "kelvin": (2700, 3500, 4000, 5000, 6500)[i % 5],
            "exposure": float(rng.uniform(0.6, 1.5)),
            "table": table,
            "shadowed": frozenset(rng.choice(25, 8, replace=False).tolist())
            if i % 3 == 0
            else frozenset(),
            "glared": frozenset(rng.choice(25, 3, replace=False).tolist())
            if i % 4 == 1
            else frozenset(),
        }
        test = "".join(rng.permutation(list(layout)))
        test = test[:3] + ".." + test[5:]
        cells, tables = scene(rng, test, **kw)
        got = tally("".join(palette.classify(cells, tables).labels), test)
        cards = [a + b for a, b in zip(cards, got, strict=True)]
        over = frozenset(rng.choice(25, 6, replace=False).tolist())
        cells, tables = scene(rng, test, hands=over, **kw)
        labels = palette.classify(cells, tables).labels
        for k in over:
            hands["unsure" if labels[k] == "?" else "empty" if labels[k] == "." else "gem"] += 1
    total = sum(cards)
    print(
        f"synthetic cells ({n} scenes: 2700-6500 K, exposure 0.6-1.5, shadows, glare, 3 "
        f"tables, palettes learned at 5000 K): {cards[0]}/{total} right, {cards[1]} unsure, "
        f"{cards[2]} wrong; hand cells: {hands['unsure']} '?', {hands['empty']} '.', "
        f"{hands['gem']} read as a gem"
    )


def speed() -> None:
    cv2.setNumThreads(1)
    rng = np.random.default_rng(1)
    layout = "RROGYCBVPRGGYOCBVPROYGCB*"
    cells, tables = scene(rng, layout)
    palette = learn_palette([(cells, layout)])
    cells, tables = scene(rng, layout, kelvin=3500)
    for label, args in (("25 cells", (cells,)), ("25 cells + 8 table patches", (cells, tables))):
        times = cpu_times(palette.classify, *args)
        print(
            f"classify {label} (48 px): median {1000 * statistics.median(times):.2f} ms, "
            f"10th percentile {1000 * sorted(times)[len(times) // 10]:.2f} ms CPU"
            " (its share of a frame read; bench_vision times the whole read)"
        )
    # of which measuring the patches (calibration.measure); the rest reads the light and
    # compares the cells with the classes
    times = cpu_times(prepare_with_table, cells, tables)
    print(f"  of which measuring the 33 patches: median {1000 * statistics.median(times):.2f} ms")


def cpu_times(call, *args) -> list[float]:
    """This thread's CPU seconds of 300 calls (other work on the machine aside)."""
    times = []
    for _ in range(300):
        start = time.thread_time()
        call(*args)
        times.append(time.thread_time() - start)
    return times


if __name__ == "__main__":
    lens()
    cube_rgb()
    set_cards()
    cube_photos()
    synthetic()
    speed()
