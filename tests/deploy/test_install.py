"""The install script and the boot service it installs: shellcheck, the unit's keys,
`systemd-analyze verify`, and the Kivy pin the service's SDL2 needs. shellcheck and
systemd-analyze are required (deploy/setup.sh --test installs them): a missing one fails,
it is never skipped. (Deployment: no rule IDs of RULES.md.)"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

from packaging.specifiers import SpecifierSet

from companion import doctor

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
INSTALL = DEPLOY / "install.sh"


def unit_entries(text: str) -> dict[str, list[tuple[str, str]]]:
    """A systemd unit as its sections' (key, value) lines; keys may repeat."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = line.strip("[]")
            sections.setdefault(current, [])
        else:
            key, _, value = line.partition("=")
            sections[current].append((key, value))
    return sections


def values(entries: list[tuple[str, str]], key: str) -> list[str]:
    return [v for k, v in entries if k == key]


def ordinary_user() -> str:
    """This user if not root, else any login user, else ``daemon`` (every Debian has it;
    systemd warns about ``nobody``)."""
    if os.getuid() != 0:
        return pwd.getpwuid(os.getuid()).pw_name
    users = [p.pw_name for p in pwd.getpwall() if 1000 <= p.pw_uid < 60000]
    return users[0] if users else "daemon"


def tool(name: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} is not installed: run bash deploy/setup.sh --test"
    return path


def render(user: str = "nobody") -> str:
    done = subprocess.run(["bash", str(INSTALL), "--print-unit", "--service", "--user", user],
                          capture_output=True, text=True, timeout=30, check=True)
    return done.stdout


def test_every_deploy_script_passes_shellcheck():
    scripts = sorted(str(p) for p in DEPLOY.glob("*.sh"))
    done = subprocess.run([tool("shellcheck"), *scripts], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_unit_template_starts_the_app_as_a_kiosk_that_restarts_on_failure():
    unit = unit_entries((DEPLOY / "companion.service").read_text())
    service = unit["Service"]
    assert values(service, "ExecStart") == ["@ROOT@/.venv/bin/companion"]
    assert values(service, "Restart") == ["on-failure"]
    assert values(service, "User") == ["@USER@"]
    assert values(service, "SupplementaryGroups") == ["@GROUPS@"]
    env = values(service, "Environment")
    for setting in ("SDL_VIDEODRIVER=kmsdrm", "KIVY_WINDOW=sdl2", "KIVY_NO_FILELOG=1"):
        assert setting in env
    assert values(service, "StandardOutput") == ["journal"]
    assert values(service, "StandardError") == ["journal"]
    assert values(unit["Install"], "WantedBy") == ["multi-user.target"]


def test_installed_unit_runs_as_the_given_user_from_this_checkout():
    service = unit_entries(render("nobody"))["Service"]
    assert values(service, "User") == ["nobody"]
    assert values(service, "ExecStart") == [f"{ROOT}/.venv/bin/companion"]
    assert values(service, "WorkingDirectory") == [str(ROOT)]
    groups = values(service, "SupplementaryGroups")[0].split()
    assert set(groups) <= {"video", "render", "input"}
    assert re.search(r"@[A-Z]+@", render("nobody")) is None


def test_service_name_is_the_one_the_doctor_asks_systemd_about():
    assert f"unit_name={doctor.SERVICE}" in INSTALL.read_text()
    assert f"autostart_name={doctor.AUTOSTART}" in INSTALL.read_text()


def test_service_refuses_to_run_as_root():
    done = subprocess.run(["bash", str(INSTALL), "--print-unit", "--service", "--user", "root"],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode != 0
    assert "ordinary user" in done.stderr and done.stdout == ""


def test_unknown_option_is_refused_with_usage():
    done = subprocess.run(["bash", str(INSTALL), "--frobnicate"], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode != 0
    assert "unknown option --frobnicate" in done.stderr and "usage:" in done.stderr


def test_installed_unit_passes_systemd_analyze_verify(tmp_path):
    assert (ROOT / ".venv/bin/companion").exists(), "run deploy/setup.sh first"
    unit = tmp_path / doctor.SERVICE
    unit.write_text(render(ordinary_user()))
    done = subprocess.run([tool("systemd-analyze"), "verify", str(unit)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_kivy_is_pinned_below_3_which_drops_the_sdl2_the_service_names():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    [kivy] = [d for d in project["dependencies"] if d.startswith("kivy")]
    spec = SpecifierSet(kivy.removeprefix("kivy"))
    assert "2.3.1" in spec and "3.0.0" not in spec and "3.0.0.dev0" not in spec
