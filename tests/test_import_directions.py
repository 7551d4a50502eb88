"""DESIGN.md's import directions, beyond what import-linter's contracts check.

companion.rules is stdlib only; vision and calibration never import companion or kivy;
picamera2 is imported only inside the module that drives a Pi camera; no module takes
another's private names.
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


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


PROJECT = ("companion", "vision", "calibration", "tools")


def private_reaches(module: str, is_package: bool, source: str) -> list[str]:
    """Where ``module``'s ``source`` takes what is private to another of the project's
    modules: a name ``_x`` imported from it or read off what it imported (``lattice._x``),
    or a module ``_m`` from outside the package it belongs to."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found = []
    imported = set()  # names bound by importing from the project
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            origin = ".".join(base + ([node.module] if node.module else []))
            froms = [origin]
            if origin.split(".")[0] not in PROJECT:
                continue
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"from {origin} import {alias.name}")
                imported.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            froms = [alias.name for alias in node.names if alias.name.split(".")[0] in PROJECT]
            imported.update((alias.asname or alias.name).split(".")[0] for alias in node.names
                            if alias.name.split(".")[0] in PROJECT)
        elif (isinstance(node, ast.Attribute) and _private(node.attr)
              and isinstance(node.value, ast.Name) and node.value.id in imported):
            found.append(f"{node.value.id}.{node.attr}")
            continue
        else:
            continue
        for origin in froms:
            parts = origin.split(".")
            for i, part in enumerate(parts):
                owner = ".".join(parts[:i])
                if _private(part) and not f"{module}.".startswith(f"{owner}."):
                    found.append(f"import of {origin}")
    return found


def test_private_reaches_are_seen():
    assert private_reaches("vision.tracker", False, "from .lattice import _apply, ring") == [
        "from vision.lattice import _apply"]
    assert private_reaches("companion.app", False, "from calibration._files import w") == [
        "import of calibration._files"]
    assert private_reaches("vision.tracker", False, "from . import lattice\nlattice._fit()") == [
        "lattice._fit"]
    inside = "from ._stats import median\nfrom .palette import Palette\nself._x = 1"
    assert private_reaches("calibration.palette", False, inside) == []
    assert private_reaches("tools.driver", False, "from kivy.app import App\nApp._app") == []
    assert private_reaches("calibration", True, "from ._stats import median") == []


def test_no_module_takes_another_modules_private_names():
    # What two modules share has a public name in one home (issue 14).
    bad = [
        f"{path.relative_to(ROOT)}: {reach}"
        for package in PROJECT
        for path in sorted((ROOT / package).rglob("*.py"))
        for reach in private_reaches(_module_name(path), path.name == "__init__.py",
                                     path.read_text())
    ]
    assert bad == []
