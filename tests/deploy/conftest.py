"""Fixtures for the deployment tests: a made-up machine and its own config and data folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from .machine import Machine


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Config and data folders under tmp_path (platformdirs follows the XDG variables)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return Machine(tmp_path / "machine")
