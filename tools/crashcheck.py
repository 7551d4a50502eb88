"""Kill a replay at random moments and resume it: nothing may be lost or doubled.

Runs ``companion replay RECORDING --store DB`` uninterrupted once, then again into a fresh
store killing the process with SIGKILL at random moments ``kills`` times, resuming each
time, and finally letting it finish. The two game logs must give the same final state,
the same game record and the same events (each at the same frame), and the killed one
must hold every tap exactly once.

    python -m tools.crashcheck RECORDING --kills 20 --seed 1
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.session.nizam import TableSession
from companion.store import GameStore


def _replay(recording: Path, store: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "replay", str(recording), "--json", "--store",
         str(store)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def _final(recording: Path, store: Path) -> dict[str, Any]:
    proc = _replay(recording, store)
    out, err = proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"replay failed: {err.strip()}")
    return dict(json.loads(out.strip().splitlines()[-1]))


def _log(store: Path) -> tuple[list[dict[str, Any]], str]:
    with GameStore(store) as db:
        (game,) = db.games()
        events = [dict(e.payload) for e in db.events(game.id)]
        return events, TableSession(db, game.id).record()


def check(recording: Path, kills: int, seed: int, work: Path) -> dict[str, Any]:
    rng = random.Random(seed)
    clean_store, killed_store = work / "clean.sqlite", work / "killed.sqlite"
    t0 = time.monotonic()
    clean = _final(recording, clean_store)
    full = time.monotonic() - t0
    moments = []
    for _ in range(kills):
        proc = _replay(recording, killed_store)
        moment = rng.uniform(0.3, max(0.4, full * 0.9))
        try:
            proc.wait(timeout=moment)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        moments.append(round(moment, 2))
    resumed = _final(recording, killed_store)
    clean_events, clean_record = _log(clean_store)
    killed_events, killed_record = _log(killed_store)
    taps = [e["tap"] for e in killed_events if "tap" in e]
    return {
        "kills": kills,
        "kill_moments_s": moments,
        "uninterrupted_s": round(full, 2),
        # the frames read too: a resumed run reads every frame again from the first
        # (``playback.play``), as an unbroken one does
        "same_final_state": clean == resumed,
        "same_record": clean_record == killed_record,
        # every event, with the frame and tap it came at: a resumed replay reads on as an
        # unbroken one does (its reader and colours pass through the same states again)
        "same_events": clean_events == killed_events,
        "taps_once": len(taps) == len(set(taps)),
        "events": len(killed_events),
        "final": resumed,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.crashcheck", description=__doc__)
    parser.add_argument("recording", type=Path)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        result = check(args.recording, args.kills, args.seed, Path(work))
    print(json.dumps(result))
    ok = all(result[k] for k in ("same_final_state", "same_record", "same_events", "taps_once"))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
