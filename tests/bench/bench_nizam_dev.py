"""The other renderer's development split (``../shared/data/nizam-dev``), measured the way
the product is judged: per set-up, colours learned from ``calib.jpg`` with its layout, then
every still read as ``companion detect`` reads it.

    .venv/bin/python tests/bench/bench_nizam_dev.py [--data DIR] [-v]

Prints, per set-up and in all: images whose grid was found; of unoccluded images' cells the
share read wrong and read ``?``; in images with a hand or a lifted card, cells read as
another card (anything but ``?`` that is not the truth), and of them those under the hand
or the lifted card (the truth's ``occluded``) apart from visible cards beside it. Asserts
nothing.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench_real_variants import turned_truth  # noqa: E402

from calibration.palette import DEFAULT_MIN_CONFIDENCE as SURE  # noqa: E402
from calibration.palette import Palette, learn_palette  # noqa: E402
from vision.cells import layout_patches  # noqa: E402
from vision.reader import read_grid  # noqa: E402
from vision.sources import read_image  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "nizam-dev" / "stills"


def tally(cells: tuple[str, ...], truth: list[str], hidden: list[list[int]],
          confidence: np.ndarray | None = None) -> Counter:
    """Cells, ``?`` and cells read as another card; of those, ``hidden_wrong``: under a
    hand or a lifted card (``hidden``: the truth's ``occluded``, 1-based [row, col]). In an
    image with a hand the two differ: a visible card misread beside the hand counts as
    wrong, not as hidden. Given the reading's ``confidence`` (rows, cols), also
    ``wrong_sure``: those read at or above the palette's threshold."""
    under = {(r - 1, c - 1) for r, c in hidden}
    out: Counter = Counter()
    for r, row in enumerate(truth):
        for c, t in enumerate(row):
            got = cells[r][c]
            out["cells"] += 1
            if got == "?":
                out["unsure"] += 1
            elif got != t:
                out["wrong"] += 1
                out["hidden_wrong"] += (r, c) in under
                out["wrong_sure"] += confidence is not None and confidence[r, c] >= SURE
    return out


def set_ups(data: Path = DATA, change: Callable[[np.ndarray], np.ndarray] | None = None,
            turns: int = 0) -> Iterator[tuple[Path, Palette | None]]:
    """Each set-up of the split with the colours learned from its layout
    (:func:`layout_palette`)."""
    for session in sorted(p for p in data.iterdir() if p.is_dir()):
        yield session, layout_palette(session, change, turns)


def layout_palette(folder: Path, change: Callable[[np.ndarray], np.ndarray] | None = None,
                   turns: int = 0) -> Palette | None:
    """The colours learned from a folder's ``calib.jpg`` and its layout (``calib.json``), as
    a player learns them (the picture changed by ``change`` first; ``turns``: the quarter
    turns clockwise that ``change`` gives it, the layout's letters read as the turned picture
    shows them); None where the layout is not found."""
    calib = json.loads((folder / "calib.json").read_text())
    image = read_image(str(folder / "calib.jpg"))
    patches = layout_patches(image if change is None else change(image), 5, 5)
    letters = turned_truth(calib["grid"].replace("/", ""), 5, 5, turns)[2]
    return None if patches is None else learn_palette([(patches, letters)])


def stills(session: Path) -> Iterator[tuple[Path, dict, bool]]:
    """A set-up's stills in order: each picture, its truth, and whether nothing is over its
    grid (no hand, or a hand beside it: the README's unoccluded images)."""
    for meta in sorted(session.glob("0*.json")):
        truth = json.loads(meta.read_text())
        yield (meta.with_suffix(".jpg"), truth,
               truth["conditions"]["occluder"] in ("none", "hand_off_grid"))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if not args.data.is_dir():
        print(f"no split at {args.data}")
        return 2
    total = {"none": Counter(), "cover": Counter()}
    times = []
    for session, palette in set_ups(args.data):
        if palette is None:
            print(f"{session.name}: calibration layout not found")
            continue
        per = {"none": Counter(), "cover": Counter()}
        for picture, truth, bare in stills(session):
            kind = "none" if bare else "cover"
            frame = read_image(str(picture))
            t0 = time.perf_counter()
            reading = read_grid(frame, palette, 5, 5)
            times.append(time.perf_counter() - t0)
            per[kind]["images"] += 1
            if reading.cells is None:
                per[kind]["missed"] += 1
                if args.verbose:
                    print(f"  {session.name}/{picture.stem} [{kind}]: no grid ({reading.reason})")
                continue
            t = tally(reading.cells, truth["grid"].split("/"), truth["occluded"])
            per[kind].update(t)
            if args.verbose and (t["wrong"] or t["unsure"]):
                want = truth["grid"]
                got = "/".join(reading.cells)
                print(f"  {session.name}/{picture.stem} [{kind}] occl={truth['occluded']}")
                print(f"     truth {want}\n     read  {got}  wrong={t['wrong']} ?={t['unsure']}")
        for k in per:
            total[k].update(per[k])
        n, c = per["none"], per["cover"]
        print(
            f"{session.name}: unoccluded {n['images'] - n['missed']}/{n['images']} found, "
            f"wrong {n['wrong']}/{n['cells']} ?{n['unsure']}; "
            f"covered {c['images'] - c['missed']}/{c['images']} found, wrong {c['wrong']}"
        )
    n, c = total["none"], total["cover"]
    print(
        f"ALL unoccluded: found {n['images'] - n['missed']}/{n['images']}; "
        f"wrong {n['wrong']}/{n['cells']} = {100 * n['wrong'] / max(1, n['cells']):.2f}%; "
        f"? {n['unsure']} = {100 * n['unsure'] / max(1, n['cells']):.2f}%"
    )
    print(
        f"ALL covered: found {c['images'] - c['missed']}/{c['images']}; "
        f"read as another card {c['wrong']} (under the hand or a lifted card "
        f"{c['hidden_wrong']}, visible {c['wrong'] - c['hidden_wrong']})"
    )
    times.sort()
    print(f"read_grid median {1000 * times[len(times) // 2]:.1f} ms (mixed sizes)")
    game(args.data.parent / "game-classic-p2")
    return 0


def game(folder: Path) -> None:
    """``companion replay`` over the filmed game, its end against the truth's."""
    if not folder.is_dir():
        return
    done = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(folder), "--json"],
        capture_output=True, text=True, check=False,
    )
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode or not lines:
        print(f"game {folder.name}: replay failed: {done.stderr.strip()[-200:]}")
        return
    end = json.loads(lines[-1])
    final = json.loads((folder / "truth.json").read_text())["final"]
    keys = ("scores", "deck", "discard", "deck_runs_out")
    same = all(end.get(k) == final.get(k) for k in keys)
    print(
        f"game {folder.name}: replay ends {[end.get(k) for k in keys]} after {end.get('turns')} "
        f"turns; truth {[final.get(k) for k in keys]}: {'the same' if same else 'DIFFERENT'}"
    )


if __name__ == "__main__":
    raise SystemExit(main())
