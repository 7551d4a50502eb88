"""The other renderer's filmed game (``../shared/data/nizam-dev/game-classic-p2``) seen through
other cameras, replayed as the product plays it (``companion replay``, colours learning): every
frame and ``calib.jpg`` changed the same way (``bench_dev_variants.VARIANTS``; ``A|B`` is A then
B), the replay's end against the truth's. The split has one game under one camera; the games it
is judged on have others.

    .venv/bin/python tests/bench/bench_game_variants.py [--drift|--ramp|--flicker] [--keep DIR]
        [VARIANT ...]

By default each variant is a new camera, calibrated from its changed ``calib.jpg``. ``--drift``:
calibrated from ``calib.jpg`` as it is, the frames changed (the light or the camera's settings
moved after calibration). ``--ramp``: calibrated as it is, the frames moving from as they are
(the first) to wholly changed (the last): the light or the camera drifting during the game,
as the daylight fades. ``--flicker``: calibrated as it is, each frame changed, then given its
own exposure (x0.7 to x1.3) and white balance (each channel x0.9 to x1.1), seeded by its
number: a camera's auto exposure and white balance hunting from frame to frame (with no
VARIANT, only "as rendered"). With no VARIANT, every single variant. The changed recordings are
written to a temporary folder (``--keep DIR``: there, and reused when run again). About a minute
a variant on one core. Prints one line per variant; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from bench_dev_variants import QUARTER_TURNS, RESHAPED, Variant  # noqa: E402
from bench_dev_variants import VARIANTS as ALL_VARIANTS  # noqa: E402

GAME = ROOT.parent / "shared" / "data" / "nizam-dev" / "game-classic-p2"
KEYS = ("scores", "deck", "discard", "deck_runs_out")
# a picture turned a quarter round shows the layout's letters otherwise: its calibration
# would need them turned too (bench_dev_variants turns them; the replay's calibration does not)
VARIANTS = {name: v for name, v in ALL_VARIANTS.items() if name not in QUARTER_TURNS}


def change_of(combo: str) -> Variant:
    """The variants named in ``combo`` ("A|B"), applied in turn."""
    names = combo.split("|")
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        raise SystemExit(f"unknown variant {unknown[0]!r}; variants: {', '.join(VARIANTS)}")

    def change(image: np.ndarray) -> np.ndarray:
        for name in names:
            image = VARIANTS[name](image)
        return image

    return change


def flickered(image: np.ndarray, number: int) -> np.ndarray:
    """``image`` with frame ``number``'s own exposure and white balance (``--flicker``)."""
    rng = np.random.default_rng(number)
    gain = rng.uniform(0.7, 1.3) * rng.uniform(0.9, 1.1, 3)
    return np.clip(image.astype(np.float32) * gain.astype(np.float32), 0, 255).astype(np.uint8)


def changed_recording(combo: str, how: str, into: Path) -> Path:
    """The game with every frame changed (and ``calib.jpg`` too unless ``how`` is "drift",
    "ramp" or "flicker"; "ramp": frame k of n a blend, k / (n - 1) of the way to changed;
    "flicker": then ``flickered``), in a folder of ``into`` named after the variant; kept as
    it is when already there."""
    out = into / ((how + " " if how else "") + combo).replace(" ", "_").replace("|", "+")
    if (out / "frames").is_dir():
        return out
    change = change_of(combo)
    frames = sorted((GAME / "frames").iterdir())
    if how == "ramp":
        whole = change

        def change(image: np.ndarray, share: float = 1.0) -> np.ndarray:
            return cv2.addWeighted(whole(image), share, image, 1.0 - share, 0.0)

    work = out.with_name(out.name + ".part")
    shutil.rmtree(work, ignore_errors=True)
    (work / "frames").mkdir(parents=True)
    for name in ("game.json", "calib.json", "taps.jsonl"):
        shutil.copy(GAME / name, work / name)
    calib = cv2.imread(str(GAME / "calib.jpg"))
    cv2.imwrite(str(work / "calib.jpg"), calib if how else change(calib),
                [cv2.IMWRITE_JPEG_QUALITY, 97])
    for k, frame in enumerate(frames):
        image = cv2.imread(str(frame))
        changed = change(image, k / (len(frames) - 1)) if how == "ramp" else change(image)
        if how == "flicker":
            changed = flickered(changed, k)
        cv2.imwrite(str(work / "frames" / frame.name), changed, [cv2.IMWRITE_JPEG_QUALITY, 97])
    work.rename(out)
    return out


def replay_end(folder: Path) -> dict[str, object] | str:
    """The replay's summary line, or why there is none."""
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(folder), "--json"],
                          capture_output=True, text=True, check=False, cwd=ROOT)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode or not lines:
        return f"replay failed: {done.stderr.strip()[-200:]}"
    end: dict[str, object] = json.loads(lines[-1])
    # who named the cards laid unread or misread (the fewer by the rules, the fewer times
    # the players saw the scores counted again)
    settled = [json.loads(ln).get("event", {}) for ln in lines[:-1]]
    end["settled"] = Counter(e.get("by") for e in settled if e.get("kind") == "settled")
    return end


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("variants", nargs="*")
    after = ap.add_mutually_exclusive_group()
    after.add_argument("--drift", action="store_true")
    after.add_argument("--ramp", action="store_true")
    after.add_argument("--flicker", action="store_true")
    ap.add_argument("--keep", type=Path, help="folder for the changed recordings, kept")
    args = ap.parse_args()
    if not GAME.is_dir():
        print(f"no game at {GAME}")
        return 2
    how = "drift" if args.drift else "ramp" if args.ramp else "flicker" if args.flicker else ""
    combos = args.variants or (["as rendered"] if how == "flicker" else [
        n for n in VARIANTS if not (how and n == "as rendered")
        and not (how == "ramp" and n in RESHAPED)])
    # a ramp blended with another size or view of the table would show two tables
    if how == "ramp" and any(set(combo.split("|")) & RESHAPED for combo in combos):
        raise SystemExit("a ramp blends each frame with its change: not one of another size "
                         "or view")
    for combo in combos:
        change_of(combo)  # every name checked before the first minute is spent
    final = json.loads((GAME / "truth.json").read_text())["final"]
    truth = [final.get(k) for k in KEYS]
    print(f"{GAME.name}, " + {"drift": "calibrated as it is, frames changed",
                              "ramp": "calibrated as it is, frames drifting to changed",
                              "flicker": "calibrated as it is, each frame its own exposure "
                                         "and white balance",
                              "": "calibrated and read changed"}[how] + f"; truth {truth}")
    into = args.keep or Path(tempfile.mkdtemp(prefix="game-variants-"))
    same = 0
    try:
        for combo in combos:
            end = replay_end(changed_recording(combo, how, into))
            if isinstance(end, str):
                print(f"{combo:36s} {end}")
                continue
            got = [end.get(k) for k in KEYS]
            same += got == truth
            named = ", ".join(f"{n} by {by}" for by, n in sorted(end["settled"].items()))
            print(f"{combo:36s} {got} after {end.get('turns')} turns: "
                  f"{'the same' if got == truth else 'DIFFERENT'}"
                  f"{f' (cards named: {named})' if named else ''}", flush=True)
    finally:
        if args.keep is None:
            shutil.rmtree(into, ignore_errors=True)
    print(f"ALL {same}/{len(combos)} replays end as the truth")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
