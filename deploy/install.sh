#!/usr/bin/env bash
# Installs the Nizam table companion and ends with `companion doctor`'s report.
#
# On a Raspberry Pi (Raspberry Pi OS 64-bit, Bookworm or Trixie): the apt packages for the
# camera (picamera2) and for Kivy on KMS/DRM, the venv (deploy/setup.sh), and a systemd
# service that starts the touchscreen app at boot, full screen, without a desktop.
# With --keep-desktop the desktop keeps the screen: no boot service (one installed before is
# disabled), and the app starts full screen when the user logs in to the desktop.
# Elsewhere, or with --no-service, all of that but the service.
# Safe to run again: after `git pull` it updates the venv and restarts the service, and
# changes nothing that is already as it should be.
#
# INSTALL_SYSROOT (tests only) stands in for / where the board's name and os-release are
# read and the unit is written: tests/deploy/test_install_runs.py runs this script against
# stub apt, dpkg and systemctl for Lite, Desktop, Trixie, --keep-desktop and a re-run.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: bash deploy/install.sh [--user NAME] [--service | --no-service] [--keep-desktop]
                              [--print-unit] [--dry-run]
  --user NAME     who runs the companion (default: you, or the user who ran sudo)
  --service       install the boot service even on a machine that is not a Raspberry Pi
  --no-service    do not install the boot service (the default off a Raspberry Pi)
  --keep-desktop  keep the desktop at boot: no boot service (one installed before is
                  disabled); the app starts full screen when you log in to the desktop
  --print-unit    print the systemd unit this machine would get, and change nothing
  --dry-run       say what would be installed or changed, and change nothing
EOF
}

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sysroot="${INSTALL_SYSROOT:-}"
unit_name=nizam-companion.service     # companion/doctor.py's SERVICE names it too
autostart_name=nizam-companion.desktop # companion/doctor.py's AUTOSTART names it too
unit_path="$sysroot/etc/systemd/system/$unit_name"

say() { echo "install: $*"; }
die() {
  echo "install: $*" >&2
  exit 1
}

service=auto user="" keep_desktop=0 print_unit=0 dry_run=0
while [ "$#" -gt 0 ]; do
  case "$1" in
    --service) service=yes ;;
    --no-service) service=no ;;
    --user) user="${2:?--user needs a name}"; shift ;;
    --user=*) user="${1#*=}" ;;
    --keep-desktop) keep_desktop=1 ;;
    --print-unit) print_unit=1 ;;
    --dry-run) dry_run=1 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
  esac
  shift
done

model=""
if [ -r "$sysroot/proc/device-tree/model" ]; then
  model="$(tr -d '\0' <"$sysroot/proc/device-tree/model")"
fi
on_pi=0
case "$model" in *"Raspberry Pi"*) on_pi=1 ;; esac
if [ "$service" = auto ]; then
  service=no
  if [ "$on_pi" = 1 ]; then service=yes; fi
fi
case "$root" in *[[:space:]]*) die "the checkout is at '$root': move it to a path without spaces" ;; esac

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "this step needs root and there is no sudo: run the script as root"
  fi
}

# A step that changes the machine, as root: with --dry-run only said, not done.
change() {
  if [ "$dry_run" = 1 ]; then
    say "would run: $*"
  else
    as_root "$@"
  fi
}

# Who runs the companion: an ordinary user when there is a service (never root).
if [ -z "$user" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    user="$(id -un)"
  elif [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
    user="$SUDO_USER"
  elif [ "$service" = yes ] && getent passwd 1000 >/dev/null; then
    user="$(getent passwd 1000 | cut -d: -f1)" # Raspberry Pi OS's first user
  else
    user="$(id -un)"
  fi
fi
id "$user" >/dev/null 2>&1 || die "there is no user '$user' (create one: sudo adduser $user)"
if [ "$service" = yes ] && [ "$(id -u "$user")" -eq 0 ]; then
  die "the service runs as an ordinary user, not root: give --user NAME"
fi
if [ "$service" = yes ] && [ "$keep_desktop" = 1 ]; then
  service=desktop # the desktop keeps the screen; the app starts with it
fi
if [ "$service" = yes ] && [ "$print_unit" = 0 ] && [ ! -d "$sysroot/run/systemd/system" ]; then
  die "systemd is not running here, so there can be no boot service: use --no-service"
fi
home="$(getent passwd "$user" | cut -d: -f6)"
groups=()
for g in video render input; do
  if getent group "$g" >/dev/null; then groups+=("$g"); fi
done

# Runs a command as $user with that user's own home (platformdirs finds its files there),
# in a fresh login when groups were just added (a running shell keeps its old groups).
fresh_groups=0
as_user() {
  if [ "$(id -un)" = "$user" ] && [ "$fresh_groups" = 0 ]; then
    "$@"
  else
    as_root runuser -u "$user" -- env -u XDG_CONFIG_HOME -u XDG_DATA_HOME -u XDG_RUNTIME_DIR \
      HOME="$home" "$@"
  fi
}

render_unit() {
  local escaped_root
  escaped_root="$(printf '%s' "$root" | sed 's/[&|\\]/\\&/g')"
  sed -e "s|@ROOT@|$escaped_root|g" -e "s|@USER@|$user|g" \
    -e "s|@GROUP@|$(id -gn "$user")|g" -e "s|@GROUPS@|${groups[*]}|g" \
    "$root/deploy/companion.service"
}

if [ "$print_unit" = 1 ]; then
  render_unit
  exit 0
fi

if [ "$on_pi" = 1 ]; then
  say "$model; the companion runs as $user"
else
  # shellcheck source=/dev/null
  say "not a Raspberry Pi ($(. "$sysroot/etc/os-release" && echo "$PRETTY_NAME")); runs as $user"
fi
if [ "$dry_run" = 1 ]; then say "dry run: nothing is changed"; fi

# -- apt packages ----------------------------------------------------------------------
# Kivy's wheel brings its own SDL2 (built with KMS/DRM); SDL2 loads these at run time.
packages=(python3 python3-venv python3-pip libegl1 libgles2 libgbm1 libdrm2 libgl1-mesa-dri
  libmtdev1 libudev1)
if [ "$on_pi" = 1 ]; then packages+=(python3-picamera2 python3-numpy); fi

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
available() { apt-cache show --no-all-versions "$1" >/dev/null 2>&1; }

if command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for p in "${packages[@]}"; do
    if ! installed "$p" && ! installed "${p}t64"; then missing+=("$p"); fi
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    say "updating the package lists for: ${missing[*]}"
    change apt-get update -q
    wanted=()
    for p in "${missing[@]}"; do
      if available "$p"; then
        wanted+=("$p")
      elif available "${p}t64"; then
        wanted+=("${p}t64") # Trixie renamed some libraries in the 64-bit time_t move
      elif [ "$p" = python3-picamera2 ]; then
        say "warning: python3-picamera2 is not in the apt sources: no Pi camera (USB ones work)"
      else
        die "apt has no package $p: is this Debian 12 / Raspberry Pi OS Bookworm or newer?"
      fi
    done
    if [ "${#wanted[@]}" -gt 0 ]; then
      say "installing ${wanted[*]}"
      change env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${wanted[@]}"
    fi
  else
    say "apt packages already installed"
  fi
else
  say "warning: no dpkg here; install Python 3.11+, venv and pip yourself"
fi

# -- the venv ------------------------------------------------------------------------
if ! as_user test -w "$root"; then
  die "$user cannot write to $root: clone the companion as $user (e.g. into $home/nizam)"
fi
if [ "$dry_run" = 1 ]; then
  say "would set up the venv in $root/.venv (deploy/setup.sh)"
else
  say "setting up the venv in $root/.venv"
  as_user bash "$root/deploy/setup.sh"
fi

# -- the service, or the desktop's autostart -------------------------------------------
join_groups() {
  for g in "${groups[@]}"; do
    case " $(id -nG "$user") " in
      *" $g "*) ;;
      *)
        say "adding $user to the $g group (log out and in for your own shell to have it)"
        change usermod -aG "$g" "$user"
        fresh_groups=1
        ;;
    esac
  done
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chmod 755 "$work" # as_user reads the autostart entry from here
autostart="$home/.config/autostart/$autostart_name"
start_service=0
if [ "$service" = yes ]; then
  join_groups
  render_unit >"$work/$unit_name"
  if command -v systemd-analyze >/dev/null 2>&1; then
    systemd-analyze verify "$work/$unit_name" || die "the service unit does not verify (above)"
  fi
  if ! cmp -s "$work/$unit_name" "$unit_path"; then
    say "installing $unit_path"
    change install -m 0644 "$work/$unit_name" "$unit_path.new"
    change mv -f "$unit_path.new" "$unit_path"
    change systemctl daemon-reload
  fi
  if ! systemctl is-enabled --quiet "$unit_name" 2>/dev/null; then
    change systemctl enable --quiet "$unit_name"
  fi
  if [ -e "$autostart" ]; then
    say "the boot service replaces the desktop autostart of --keep-desktop"
    change rm -f "$autostart"
  fi
  if [ "$(systemctl get-default)" = graphical.target ]; then
    say "the desktop will no longer start at boot, the companion will (undo:" \
      "sudo systemctl set-default graphical.target)"
    change systemctl set-default multi-user.target
  fi
  if systemctl is-active --quiet display-manager.service; then
    say "a desktop holds the screen now: reboot to start the companion (sudo reboot)"
  else
    start_service=1
  fi
  # The doctor below opens the camera: the running app must let go of it first.
  if systemctl is-active --quiet "$unit_name"; then change systemctl stop "$unit_name"; fi
elif [ "$service" = desktop ]; then
  join_groups
  # A boot service would fight the desktop for the screen: it must not start at boot.
  if [ -e "$unit_path" ]; then
    if systemctl is-active --quiet "$unit_name"; then change systemctl stop "$unit_name"; fi
    if systemctl is-enabled --quiet "$unit_name" 2>/dev/null; then
      say "the boot service no longer starts at boot (the desktop keeps the screen)"
      change systemctl disable --quiet "$unit_name"
    fi
  fi
  cat >"$work/$autostart_name" <<EOF
[Desktop Entry]
Type=Application
Name=Nizam table companion
Comment=The companion full screen on this desktop (deploy/install.sh --keep-desktop)
Exec=$root/.venv/bin/companion --fullscreen
X-GNOME-Autostart-enabled=true
EOF
  if ! cmp -s "$work/$autostart_name" "$autostart"; then
    say "installing $autostart"
    if [ "$dry_run" = 1 ]; then
      say "would run: install -D -m 0644 $work/$autostart_name $autostart (as $user)"
    else
      as_user install -D -m 0644 "$work/$autostart_name" "$autostart"
    fi
  fi
  say "the desktop keeps the screen at boot; the companion starts full screen when $user" \
    "logs in to the desktop (no boot service; to stop that: rm $autostart)"
else
  say "no boot service (--service installs one); start the app with: $root/.venv/bin/companion"
fi

# -- the report ----------------------------------------------------------------------
if [ "$dry_run" = 1 ]; then
  say "dry run over: nothing was changed"
  exit 0
fi
echo "== companion doctor"
doctor=0
as_user "$root/.venv/bin/companion" doctor || doctor=$?
if [ "$start_service" = 1 ]; then
  as_root systemctl reset-failed "$unit_name" 2>/dev/null || true # a past crash loop
  as_root systemctl start "$unit_name"
  say "the companion is running; its log: journalctl -u $unit_name -b"
fi
if [ "$doctor" -ne 0 ]; then
  say "installed; the doctor found problems (above): fix them, then check again with" \
    "$root/.venv/bin/companion doctor"
else
  say "installed"
fi
