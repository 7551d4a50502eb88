"""Frame rate of the Nizam screen while it follows a game, and the app's resident memory.

Each frame the controller hands the screen a new 1280×720 camera picture, and every few
frames a new view (the next moment of a scripted game), the way the session does while a
game is played; the screen uploads the picture, redraws what changed and draws the window
(off-screen here, through Mesa). The heaviest case is five players with 20-character
names and a new view every frame, moves drawn as arrows and a refused one across the
screen. Then the real app (``companion app --demo``: the demo recording through vision and
the session) runs at 800x480 in its own process and its resident memory is sampled.
Targets (DESIGN.md, issues 5 and 13): ≥ 20 frames/s, ≤ 300 MB.

    .venv/bin/python tests/bench/bench_ui.py [--frames N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_NO_FILELOG", "1")

from companion.ui.env import prepare_kivy  # noqa: E402
from companion.view import PlayerView  # noqa: E402
from tests.ui.helpers import CORNERS, camera_frame, nizam_views  # noqa: E402

LONG = ("Oleksandra Kovalenko", "Maximilian Oberhause", "Bartholomew Ashcroft",
        "Anastasia Wojcikowsk", "Christopher Fairweat")


def rss_mb(field: str = "VmRSS") -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Playing:
    """A controller whose camera moves on every frame and whose game moves on every
    ``view_every`` frames; the grid's corners jitter by a pixel, as real readings do."""

    kind = "table"

    def __init__(self, frames, views, view_every: int, jitter: bool) -> None:
        self.frames, self.views = frames, views
        self.view_every, self.jitter = view_every, jitter
        self.tick = 0

    def view(self):
        return self.views[(self.tick // self.view_every) % len(self.views)]

    def camera(self):
        frame = self.frames[self.tick % len(self.frames)]
        dx = (self.tick % 3) - 1 if self.jitter else 0
        return frame, [(x + dx, y) for x, y in CORNERS]

    def tap(self, action, *args):
        pass

    def close(self):
        pass


def run(size, controller, count: int) -> tuple[float, float]:
    """Frames per second by the clock, and CPU milliseconds per frame (all threads, Mesa's
    too: on a busy machine the clock says how busy it is, the CPU time what a frame costs)."""
    from companion.ui.app import CompanionApp
    from tools.driver import AppDriver

    app = CompanionApp(lambda header: controller)
    driver = AppDriver(app, size)
    app.attach(controller)
    driver.settle()
    screen = app.table_screen
    for _ in range(10):  # warm the texture and glyph caches
        controller.tick += 1
        screen.refresh()
        driver.frames(1)
    from kivy.graphics.opengl import glFinish

    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(count):
        controller.tick += 1
        screen.refresh()
        driver.frames(1)
    glFinish()  # the last frame drawn, not only queued
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    driver.close()
    return count / elapsed, 1000 * cpu / count


def measure(size: tuple[int, int], count: int) -> None:
    from kivy.base import EventLoop

    EventLoop.ensure_window()
    gl_mb = rss_mb()
    frames = [camera_frame(seed=i) for i in range(8)]
    base = nizam_views()
    views = [replace(v, turn=v.turn + k) for k in range(4) for v in base[:5]]
    five = [replace(v, turn=v.turn + k, active=k % 5, players=tuple(
        PlayerView(name, 10 * i + k, i, last_turn=k) for i, name in enumerate(LONG)))
        for k in range(4) for v in nizam_views(LONG)[1:5]]
    for label, every, jitter, script in (
        ("camera only, grid still", 10**9, False, views),
        ("camera, grid wobbling 1 px, new view every 10 frames", 10, True, views),
        ("camera, new view every frame", 1, True, views),
        ("5 long names, arrows, refused move, new view each frame", 1, True, five),
    ):
        fps, cpu_ms = run(size, Playing(frames, script, every, jitter), count)
        print(f"  {size[0]}x{size[1]}  {label:54s} {fps:5.1f} frames/s "
              f"({1000 / fps:5.1f} ms, CPU {cpu_ms:5.1f} ms)   target >= 20 frames/s")
    load = Path("/proc/loadavg").read_text().split()[0]
    print(f"  {size[0]}x{size[1]}  machine load {load} on {os.cpu_count()} cores")
    print(f"  {size[0]}x{size[1]}  resident memory {rss_mb():.0f} MB (peak "
          f"{rss_mb('VmHWM'):.0f} MB; {gl_mb:.0f} MB of it once the GL window is open)"
          "   target <= 300 MB")


def real_app_memory(seconds: float) -> None:
    """The real app (the demo recording through vision, the session and the screen) at
    800x480 in a process of its own: its resident memory, sampled while it runs."""
    command = [sys.executable, "-m", "companion", "app", "--demo", "--size", "800x480",
               "--seconds", str(seconds)]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env={**os.environ, "KIVY_NO_ARGS": "1"})
    peak, samples = 0.0, 0
    status = Path(f"/proc/{proc.pid}/status")
    while proc.poll() is None:
        try:
            for line in status.read_text().splitlines():
                if line.startswith("VmRSS:"):
                    peak = max(peak, int(line.split()[1]) / 1024)
                    samples += 1
        except OSError:
            break
        time.sleep(0.2)
    proc.wait()
    print(f"  800x480  the real app (companion app --demo, {seconds:.0f} s, {samples} samples): "
          f"resident memory at most {peak:.0f} MB   target <= 300 MB (exit {proc.returncode})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--size", help="one screen size, WxH (else each in its own process)")
    parser.add_argument("--app-seconds", type=float, default=20.0,
                        help="how long the real app runs for its memory (0: not at all)")
    args = parser.parse_args()
    if args.size:
        width, height = (int(v) for v in args.size.split("x"))
        prepare_kivy(size=(width, height), fullscreen=False, virtual_keyboard=False, max_fps=0)
        measure((width, height), args.frames)
        return
    print(f"Nizam screen, {args.frames} frames, each with a new 1280x720 camera picture "
          "(a window of the screen's size per process; Mesa llvmpipe renders here):")
    for size in ("800x480", "1280x800"):
        subprocess.run([sys.executable, __file__, "--size", size, "--frames", str(args.frames)],
                       check=True)
    if args.app_seconds > 0:
        real_app_memory(args.app_seconds)


if __name__ == "__main__":
    main()
