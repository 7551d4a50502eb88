#!/usr/bin/env bash
# Sets up (first time) and starts the companion; arguments go to the `companion` command.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/deploy/setup.sh"
exec "$root/.venv/bin/companion" "$@"
