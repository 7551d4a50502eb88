#!/usr/bin/env bash
# Builds .venv with what the companion needs (with --test: what its tests need too).
# Safe to run again: it only reinstalls when pyproject.toml or the extras changed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
extras=""
if [ "${1:-}" = "--test" ]; then extras="[test]"; fi

on_pi=0
if grep -qs "Raspberry Pi" /proc/device-tree/model; then on_pi=1; fi

apt_packages=(python3 python3-venv python3-pip libgl1 libegl1 libgles2 libgl1-mesa-dri libgbm1 libdrm2 libmtdev1 libx11-6 libx11-xcb1 libxext6 libxrender1 libxrandr2 libxcursor1 libxi6 libxfixes3 libxss1)
if [ "$on_pi" = 1 ]; then apt_packages+=(python3-picamera2 python3-numpy); fi
# The tests check the deploy scripts with shellcheck and the boot unit with systemd-analyze.
if [ -n "$extras" ]; then apt_packages+=(shellcheck systemd); fi

if command -v dpkg >/dev/null 2>&1; then
  missing=()
  for p in "${apt_packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    echo "setup: installing apt packages: ${missing[*]}"
    $sudo apt-get update -q
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
  fi
fi

# Debian's own Python, not whatever python3 is first on PATH, so a missing
# dependency fails here exactly as on a fresh machine.
python=/usr/bin/python3
if [ ! -x "$python" ]; then python="$(command -v python3)"; fi

venv="$root/.venv"
venv_args=()
constraints="$root/.venv-constraints.txt"
: >"$constraints.tmp"
if [ "$on_pi" = 1 ]; then
  # picamera2 comes from apt and is built against apt's numpy: keep that numpy.
  venv_args+=(--system-site-packages)
  numpy_version="$("$python" -c 'import numpy; print(numpy.__version__)')"
  echo "numpy==$numpy_version" >"$constraints.tmp"
fi
mv "$constraints.tmp" "$constraints"

stamp="$venv/.companion-stamp"
want="$(cat "$root/pyproject.toml" "$constraints" | sha256sum | cut -d' ' -f1)$extras"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$venv/bin/python" ]; then
  exit 0
fi

if [ ! -x "$venv/bin/python" ]; then
  echo "setup: creating $venv"
  "$python" -m venv "${venv_args[@]}" "$venv"
fi
echo "setup: installing the companion$extras into $venv"
PIP_CONSTRAINT="$constraints" "$venv/bin/pip" install -q --disable-pip-version-check \
  -e "$root$extras"
echo "$want" >"$stamp"
