"""deploy/install.sh run whole on a made-up Raspberry Pi (stub apt, dpkg, systemctl:
tests/deploy/install_machine.py): Raspberry Pi OS Lite, Desktop, Trixie, --keep-desktop,
--dry-run and a re-run, each checked by what it changed. (Deployment: no rule IDs.)"""

from __future__ import annotations

import pytest

from .install_machine import USER, PiMachine
from .test_install import unit_entries, values

UNIT = "nizam-companion.service"


def test_lite_installs_packages_groups_and_the_boot_service_and_starts_it(tmp_path):
    pi = PiMachine(tmp_path)
    run = pi.install()
    assert run.code == 0, run.err
    wanted = {"python3-picamera2", "libmtdev1", "libegl1", "python3-venv"}
    assert wanted <= set(pi.read("installed"))
    assert set(pi.read("groups")) == {"video", "render", "input"}
    service = unit_entries(pi.unit.read_text())["Service"]
    assert values(service, "User") == [USER]
    assert values(service, "ExecStart") == [f"{pi.checkout}/.venv/bin/companion"]
    assert "COMPANION_KIOSK=1" in values(service, "Environment")
    assert pi.read("enabled") == [UNIT] and pi.read("default") == ["multi-user.target"]
    assert not any(c.startswith("systemctl set-default") for c in run.changes)
    # The doctor runs (in a fresh login with the new groups) before the app takes the camera.
    doctor = run.calls.index("companion doctor")
    assert run.calls.index(f"systemctl start {UNIT}") > doctor
    assert UNIT in pi.read("active") and "setup.sh" in run.calls
    assert run.out.rstrip().endswith("install: installed")


def test_desktop_no_longer_boots_to_the_desktop_and_says_to_reboot(tmp_path):
    pi = PiMachine(tmp_path, desktop=True)
    run = pi.install()
    assert run.code == 0, run.err
    assert pi.read("default") == ["multi-user.target"] and pi.read("enabled") == [UNIT]
    assert "sudo systemctl set-default graphical.target" in run.out  # how to undo it
    assert "reboot to start the companion" in run.out
    assert UNIT not in pi.read("active")  # the desktop holds the screen until the reboot


def test_trixie_gets_its_renamed_libraries(tmp_path):
    pi = PiMachine(tmp_path, release="trixie")
    run = pi.install()
    assert run.code == 0, run.err
    [apt] = [c for c in run.changes if " apt-get install " in c]
    assert "libmtdev1t64" in apt.split() and "libmtdev1" not in apt.split()
    again = pi.install()
    assert "apt packages already installed" in again.out
    assert not any("apt-get" in c for c in again.changes)


def test_keep_desktop_never_takes_the_screen_at_boot(tmp_path):
    pi = PiMachine(tmp_path, desktop=True)
    run = pi.install("--keep-desktop")
    assert run.code == 0, run.err
    assert pi.read("default") == ["graphical.target"]
    assert pi.read("enabled") == [] and UNIT not in pi.read("active")
    assert not pi.unit.exists()
    assert not any(c.startswith(("systemctl enable", "systemctl set-default", "systemctl start"))
                   for c in run.changes)
    entry = pi.autostart.read_text()
    assert f"Exec={pi.checkout}/.venv/bin/companion --fullscreen" in entry
    assert "the desktop keeps the screen at boot" in run.out
    again = pi.install("--keep-desktop")
    assert again.code == 0 and again.changes == []


def test_keep_desktop_after_a_kiosk_install_disables_the_service_and_back(tmp_path):
    pi = PiMachine(tmp_path)
    pi.install()
    assert pi.read("enabled") == [UNIT] and UNIT in pi.read("active")
    run = pi.install("--keep-desktop")
    assert run.code == 0, run.err
    assert pi.read("enabled") == [] and UNIT not in pi.read("active")
    assert f"systemctl disable --quiet {UNIT}" in run.changes and pi.autostart.exists()
    back = pi.install()
    assert pi.read("enabled") == [UNIT] and not pi.autostart.exists()
    assert "replaces the desktop autostart" in back.out


def test_a_re_run_changes_nothing_but_restarting_the_app(tmp_path):
    pi = PiMachine(tmp_path)
    pi.install()
    unit = pi.unit.read_text()
    run = pi.install()
    assert run.code == 0, run.err
    assert run.changes == [f"systemctl stop {UNIT}", f"systemctl reset-failed {UNIT}",
                           f"systemctl start {UNIT}"]
    assert pi.unit.read_text() == unit and "apt packages already installed" in run.out


@pytest.mark.parametrize("desktop", [False, True])
def test_dry_run_says_what_it_would_do_and_changes_nothing(tmp_path, desktop):
    pi = PiMachine(tmp_path, desktop=desktop)
    before = {name: pi.read(name) for name in ("installed", "groups", "default", "enabled")}
    run = pi.install("--dry-run")
    assert run.code == 0, run.err
    assert run.changes == [] and "setup.sh" not in run.calls
    assert "companion doctor" not in run.calls
    assert {name: pi.read(name) for name in before} == before
    assert not pi.unit.exists() and not pi.autostart.exists()
    assert "would run: env DEBIAN_FRONTEND=noninteractive apt-get install" in run.out
    assert f"would run: systemctl enable --quiet {UNIT}" in run.out
    assert ("would run: systemctl set-default multi-user.target" in run.out) == desktop
    assert run.out.rstrip().endswith("dry run over: nothing was changed")
