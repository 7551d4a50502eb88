#!/usr/bin/env bash
# The whole check: set-up, lint, types, import directions, then the tests.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/deploy/setup.sh" --test
cd "$root"
bin="$root/.venv/bin"
export KIVY_NO_ARGS=1
KIVY_HOME="$(mktemp -d)"
export KIVY_HOME
trap 'rm -rf "$KIVY_HOME"' EXIT
echo "== ruff";         "$bin/ruff" check --quiet .
echo "== mypy (companion, vision, calibration; strict on companion/rules)"; "$bin/mypy"
echo "== import directions"; "$bin/lint-imports" --no-cache
# One pytest worker per core, as many as the memory holds (a worker with a Kivy window and
# the image tests peaks near 1 GiB): on two cores the suite takes little more than half
# its time on one. Arguments after this script go to pytest; `-n 0` runs it in one process.
cores="$(nproc 2>/dev/null || echo 1)"
# A container may see the host's cores but get only a share of them (cgroup v2's cpu.max).
read -r quota period 2>/dev/null </sys/fs/cgroup/cpu.max || quota=max
if [ "$quota" != max ] && [ "${period:-0}" -gt 0 ]; then
  share=$(( (quota + period - 1) / period ))
  if [ "$share" -lt "$cores" ]; then cores=$share; fi
fi
if [ "$cores" -gt 4 ]; then cores=4; fi  # more windows and image tests at once gain little
free_kib="$(awk '/MemAvailable/ {print $2}' /proc/meminfo 2>/dev/null || echo 0)"
by_memory=$(( free_kib / (3 * 512 * 1024) ))
workers=$(( cores < by_memory ? cores : by_memory ))
if [ "$workers" -lt 1 ]; then workers=1; fi
echo "== pytest ($workers workers)"; "$bin/python" -m pytest -n "$workers" "$@"
