"""The other renderer's filmed game (``../shared/data/nizam-dev/game-classic-p2``) replayed as
the product plays it, its frames disturbed the way a jittery or sparse video is, the replay's
end against the truth's. The split holds each moment of a turn for a few frames only (a
cleared grid for 2 to 3, the grid between two cascades for 3): one bad frame there is enough
to lose a moment the scores depend on.

    .venv/bin/python tests/bench/bench_jitter.py [--seeds N] [--only KIND] [--game FOLDER]

``--game``: another recording with its truth (``truth.json``, as ``bench_recordings`` writes
them: Pearl of the East, three to five players), its frames disturbed the same way.

Kinds, each over N seeded runs (frames with a tap are never touched):
- ``blank``: a tenth of the frames black (no grid found);
- ``drop``: 15 % of the frames missing (the video is sparser);
- ``misread``: in a tenth of the frames one card read as another, sure (the reader's answer
  changed, after vision: a glare, a card on a class's edge); ``misread20``: a fifth;
- ``sparse``: every second frame (two runs, from the first and the second frame);
  ``sparse3``: every third frame (three runs); ``sparse4``: every fourth (four runs: most
  moments then show in one frame or none, the opening layout in two).
Prints one line per run and a count per kind; asserts nothing. About 25 s a run on one core.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from companion.live import playback  # noqa: E402
from companion.live.watcher import GridFollower  # noqa: E402
from companion.store import GameStore  # noqa: E402
from vision.reader import GridReading  # noqa: E402

GAME = ROOT.parent / "shared" / "data" / "nizam-dev" / "game-classic-p2"
KEYS = ("scores", "deck", "discard", "deck_runs_out")
GEMS = "ROYGCBVP"


def copied(into: Path, keep: Callable[[int], str], game: Path = GAME) -> Path:
    """The ``game`` in ``into``, each frame ``keep(number)``: "as is", "black" or "drop" (the
    frames after a dropped one renumbered, the taps moved with them)."""
    for name in ("calib.jpg", "calib.json", "game.json"):
        (into / name).symlink_to(game / name)
    (into / "frames").mkdir()
    black = into / "black.jpg"
    frames = sorted((game / "frames").iterdir())
    shape = cv2.imread(str(frames[0])).shape
    cv2.imwrite(str(black), np.zeros(shape, np.uint8))
    renumbered, n = {}, 0
    for k, path in enumerate(frames):
        renumbered[k] = n
        how = keep(k)
        if how == "drop":
            continue
        (into / "frames" / f"{n:06d}{path.suffix}").symlink_to(black if how == "black" else path)
        n += 1
    taps = [json.loads(line) for line in (game / "taps.jsonl").read_text().splitlines() if line]
    (into / "taps.jsonl").write_text("".join(
        json.dumps({**t, "frame": renumbered[t["frame"]]}) + "\n" for t in taps))
    return into


def misreading(rng: random.Random, share: float) -> Callable[[GridReading], GridReading]:
    """A change to the reader's answers: in ``share`` of the frames, one card read as
    another gem, sure."""

    def change(reading: GridReading) -> GridReading:
        if reading.cells is None or rng.random() >= share:
            return reading
        flat = list("".join(reading.cells))
        cards = [k for k, x in enumerate(flat) if x in GEMS]
        if not cards:
            return reading
        k = rng.choice(cards)
        flat[k] = rng.choice([g for g in GEMS if g != flat[k]])
        guessed = list("".join(reading.guesses or reading.cells))
        guessed[k] = flat[k]
        cut = lambda f: tuple("".join(f[r * 5:(r + 1) * 5]) for r in range(5))  # noqa: E731
        return replace(reading, cells=cut(flat), guesses=cut(guessed))

    return change


Change = Callable[[GridReading], GridReading]


def replayed(path: Path, change: Change | None) -> dict[str, Any]:
    """The replay's summary, the reader's answers changed by ``change``."""
    read = GridFollower.read
    if change is not None:
        def changed(self: GridFollower, image: np.ndarray | None) -> GridReading | None:
            reading = read(self, image)
            return None if reading is None else change(reading)
        GridFollower.read = changed  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            result = playback.open_and_play(path, None, lambda: GameStore(Path(tmp) / "g.sqlite"),
                                            lambda line: None)
    finally:
        GridFollower.read = read  # type: ignore[method-assign]
    return result


def _marked(frames: set[int], how: str) -> Callable[[int], str]:
    """What becomes of frame k: ``how`` for the ``frames`` marked, else "as is"."""
    return lambda k: how if k in frames else "as is"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--only", choices=("blank", "drop", "misread", "misread20", "sparse",
                                           "sparse3", "sparse4"))
    parser.add_argument("--game", type=Path, default=GAME)
    args = parser.parse_args()
    game = args.game
    truth = json.loads((game / "truth.json").read_text())
    truth = truth.get("final", truth)  # the split's truth nests it; a generated one does not
    tapped = {json.loads(line)["frame"] for line in
              (game / "taps.jsonl").read_text().splitlines() if line}
    frames = len(list((game / "frames").iterdir()))
    runs: list[tuple[str, str, Callable[[int], str], Change | None]] = []
    for seed in range(1, args.seeds + 1):
        for kind, share, how in (("blank", 0.1, "black"), ("drop", 0.15, "drop")):
            rng = random.Random(seed)
            marks = {k for k in range(frames) if rng.random() < share and k not in tapped}
            runs.append((kind, f"seed {seed}", _marked(marks, how), None))
        for kind, share in (("misread", 0.1), ("misread20", 0.2)):
            runs.append((kind, f"seed {seed}", _marked(set(), ""),
                         misreading(random.Random(seed), share)))
    for step, kind in ((2, "sparse"), (3, "sparse3"), (4, "sparse4")):
        for offset in range(step):
            left_out = {k for k in range(frames) if k % step != offset and k not in tapped}
            runs.append((kind, f"from frame {offset}", _marked(left_out, "drop"), None))
    counts: dict[str, list[int]] = {}
    for kind, name, keep, change in runs:
        if args.only and kind != args.only:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            path = copied(Path(tmp), keep, game)
            got = replayed(path, change)
        ok = all(got[k] == truth[k] for k in KEYS)
        tally = counts.setdefault(kind, [0, 0])
        tally[0] += ok
        tally[1] += 1
        state = ", ".join(f"{k} {got[k]}" for k in KEYS)
        print(f"{kind:9s} {name:14s} {'the truth' if ok else 'DIFFERS'}: {state}, "
              f"{got['turns']} turns", flush=True)
    print("runs ending at the truth: " + "; ".join(
        f"{kind} {ok}/{n}" for kind, (ok, n) in counts.items()))


if __name__ == "__main__":
    main()
