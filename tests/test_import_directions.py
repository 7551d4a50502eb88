"""DESIGN.md's import directions, beyond what import-linter's contracts check.

companion.rules is stdlib only; vision and calibration never import companion or kivy;
picamera2 is imported only inside the module that drives a Pi camera.
"""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported_top_names(package: str):
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield path, alias.name.split(".")[0]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                yield path, node.module.split(".")[0]


def test_rules_import_only_the_standard_library():
    bad = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path, name in imported_top_names("companion/rules")
        if name not in sys.stdlib_module_names and name != "companion"
    ]
    assert bad == []


def test_rules_import_nothing_else_of_the_project():
    bad = []
    for path in (ROOT / "companion/rules").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ImportFrom)
                and node.level == 0
                and (node.module or "").startswith("companion")
                and not (node.module or "").startswith("companion.rules")
            ):
                bad.append(f"{path.name}: {node.module}")
    assert bad == []


@pytest.mark.parametrize("package", ["vision", "calibration"])
def test_vision_and_calibration_know_no_games_or_screens(package):
    bad = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path, name in imported_top_names(package)
        if name in ("companion", "kivy")
    ]
    assert bad == []


def test_picamera2_only_where_a_pi_camera_is_driven():
    users = {
        str(path.relative_to(ROOT))
        for package in ("companion", "vision", "calibration")
        for path, name in imported_top_names(package)
        if name == "picamera2"
    }
    assert users <= {"vision/sources/picamera.py"}
