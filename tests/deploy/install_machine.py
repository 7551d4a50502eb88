"""A made-up Raspberry Pi for running deploy/install.sh whole: stub apt-get, apt-cache,
dpkg-query, systemctl, usermod, sudo, runuser, id and getent that answer from the machine's
state and log every call; a folder standing in for / (INSTALL_SYSROOT); a copy of the
checkout whose deploy/setup.sh and .venv/bin/companion only record that they ran.

The state is plain files the stubs read and write, so one run's changes are the next run's
starting point (a re-run) and a test reads what happened: ``calls`` (every stub call),
``changes`` (the calls that change the machine).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
USER, UID = "pi", 1000

# Package names as each release's apt knows them (Trixie renamed some libraries in the
# 64-bit time_t move: libmtdev1 became libmtdev1t64).
BOOKWORM = ["python3", "python3-venv", "python3-pip", "libegl1", "libgles2", "libgbm1",
            "libdrm2", "libgl1-mesa-dri", "libmtdev1", "libudev1", "python3-picamera2",
            "python3-numpy"]
TRIXIE = [("libmtdev1t64" if p == "libmtdev1" else p) for p in BOOKWORM]
LITE_INSTALLED = ["python3", "libudev1", "libdrm2", "python3-numpy"]
DESKTOP_INSTALLED = [*LITE_INSTALLED, "libegl1", "libgles2", "libgbm1", "libgl1-mesa-dri",
                     "python3-picamera2"]

STUBS = {
    "sudo": 'log sudo "$@"; exec "$@"',
    "runuser": 'log runuser "$@"; while [ "$1" != -- ]; do shift; done; shift; exec "$@"',
    "apt-get": '''log apt-get "$@"
if [ "$1" = install ]; then
  for p in "$@"; do case "$p" in -*|install) ;; *) echo "$p" >>"$STATE/installed" ;; esac; done
fi''',
    "apt-cache": 'grep -qx "${!#}" "$STATE/available"',
    "dpkg-query": '''if grep -qx "${!#}" "$STATE/installed"; then printf 'install ok installed'
else exit 1; fi''',
    "usermod": 'log usermod "$@"; echo "$2" >>"$STATE/groups"',
    "systemd-analyze": 'log systemd-analyze "$@"',
    "id": f'''case "$*" in
  -u|"-u {USER}") echo {UID} ;;
  -un|"-gn {USER}") echo {USER} ;;
  "-nG {USER}") echo {USER} $(cat "$STATE/groups") ;;
  {USER}) echo "uid={UID}({USER})" ;;
  *) exit 1 ;;
esac''',
    "getent": f'''case "$1 $2" in
  "passwd {USER}"|"passwd {UID}") echo "{USER}:x:{UID}:{UID}::$FAKE_HOME:/bin/bash" ;;
  "group "*) grep -qx "$2" "$STATE/known_groups" && echo "$2:x:44:" ;;
  *) exit 2 ;;
esac''',
    "systemctl": '''log systemctl "$@"
quiet=""; args=()
for a in "$@"; do if [ "$a" = --quiet ]; then quiet=1; else args+=("$a"); fi; done
set -- "${args[@]}"
case "$1" in
  get-default) cat "$STATE/default" ;;
  set-default) echo "$2" >"$STATE/default" ;;
  enable) echo "$2" >>"$STATE/enabled" ;;
  disable) grep -vx "$2" "$STATE/enabled" >"$STATE/e" || true; mv "$STATE/e" "$STATE/enabled" ;;
  is-enabled) grep -qx "$2" "$STATE/enabled" ;;
  is-active) grep -qx "$2" "$STATE/active" ;;
  start) echo "$2" >>"$STATE/active" ;;
  stop) grep -vx "$2" "$STATE/active" >"$STATE/a" || true; mv "$STATE/a" "$STATE/active" ;;
  daemon-reload|reset-failed) ;;
  *) echo "systemctl stub: $1?" >&2; exit 1 ;;
esac''',
}


@dataclass
class Run:
    code: int
    out: str
    err: str
    calls: list[str]

    @property
    def changes(self) -> list[str]:
        """What was done as root (the script asks systemctl, dpkg and apt-cache questions
        as the user), but not running the venv set-up or the doctor as the user."""
        return [c[len("sudo "):] for c in self.calls
                if c.startswith("sudo ") and not c.startswith("sudo runuser")]


class PiMachine:
    """A Raspberry Pi 5 with Raspberry Pi OS; ``release`` bookworm or trixie; ``desktop``
    boots to the desktop (graphical.target with a display manager running)."""

    def __init__(self, base: Path, release: str = "bookworm", desktop: bool = False) -> None:
        self.base = base
        self.state = base / "state"
        self.sysroot = base / "root"
        self.home = base / "home" / USER
        self.checkout = base / "home" / USER / "nizam"
        self.bin = base / "bin"
        for folder in (self.state, self.sysroot / "run/systemd/system",
                       self.sysroot / "etc/systemd/system", self.sysroot / "proc/device-tree",
                       self.checkout / "deploy", self.checkout / ".venv/bin", self.bin):
            folder.mkdir(parents=True, exist_ok=True)
        (self.sysroot / "proc/device-tree/model").write_text(
            "Raspberry Pi 5 Model B Rev 1.0\x00")
        name = "Debian GNU/Linux 13 (trixie)" if release == "trixie" else \
            "Debian GNU/Linux 12 (bookworm)"
        (self.sysroot / "etc/os-release").write_text(f'PRETTY_NAME="{name}"\n')
        available = TRIXIE if release == "trixie" else BOOKWORM
        installed = DESKTOP_INSTALLED if desktop else LITE_INSTALLED
        self._write("available", available)
        self._write("installed", [p for p in installed if p in available])
        self._write("known_groups", ["video", "render", "input", USER])
        self._write("groups", ["video"] if desktop else [])
        self._write("default", ["graphical.target" if desktop else "multi-user.target"])
        self._write("enabled", [])
        self._write("active", ["display-manager.service"] if desktop else [])
        for script in ("install.sh", "companion.service"):
            shutil.copy(ROOT / "deploy" / script, self.checkout / "deploy" / script)
        self._script(self.checkout / "deploy/setup.sh", 'log setup.sh "$@"')
        self._script(self.checkout / ".venv/bin/companion", 'log companion "$@"')
        for name, body in STUBS.items():
            self._script(self.bin / name, body)

    def _write(self, name: str, lines: list[str]) -> None:
        (self.state / name).write_text("".join(f"{line}\n" for line in lines))

    def read(self, name: str) -> list[str]:
        return (self.state / name).read_text().split()

    def _script(self, path: Path, body: str) -> None:
        path.write_text('#!/usr/bin/env bash\nset -u\n'
                        'log() { echo "$*" >>"$STATE/calls"; }\n' + body + "\n")
        path.chmod(0o755)

    @property
    def unit(self) -> Path:
        return self.sysroot / "etc/systemd/system/nizam-companion.service"

    @property
    def autostart(self) -> Path:
        return self.home / ".config/autostart/nizam-companion.desktop"

    def install(self, *args: str) -> Run:
        calls = self.state / "calls"
        calls.write_text("")
        env = {**os.environ, "PATH": f"{self.bin}:{os.environ['PATH']}", "STATE": str(self.state),
               "FAKE_HOME": str(self.home), "INSTALL_SYSROOT": str(self.sysroot),
               "HOME": str(self.home)}
        env.pop("SUDO_USER", None)
        done = subprocess.run(["bash", str(self.checkout / "deploy/install.sh"), *args],
                              env=env, capture_output=True, text=True, timeout=60)
        return Run(done.returncode, done.stdout, done.stderr, calls.read_text().splitlines())
