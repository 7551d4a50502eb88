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
echo "== pytest";       "$bin/python" -m pytest "$@"
