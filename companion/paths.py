"""Where the companion keeps its files: one place to ask, so the app, the commands and
``companion doctor`` never disagree.

- configuration (``platformdirs.user_config_dir``): the settings, and this table's
  calibration — the palette and the lens model, whose names ``calibration.store`` owns;
- data (``platformdirs.user_data_dir``): the game database;
- cache (``$COMPANION_CACHE_DIR``, else ``platformdirs.user_cache_dir``): The Desert Sands'
  solved odds (``companion.sands.odds``).

On Linux ``platformdirs`` honours ``XDG_CONFIG_HOME`` and ``XDG_DATA_HOME``; tests and a
second installation point those elsewhere rather than this module growing its own override,
because calibration (which may not import companion) must find the same files.

>>> database_path().name
'games.sqlite'
>>> palette_path().parent == config_dir()
True
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_cache_dir, user_data_dir

from calibration.store import APP_NAME, config_dir, lens_path, palette_path

__all__ = [
    "APP_NAME",
    "CACHE_ENV",
    "cache_dir",
    "config_dir",
    "data_dir",
    "database_path",
    "lens_path",
    "palette_path",
    "settings_path",
]


def data_dir() -> Path:
    return Path(user_data_dir(APP_NAME))


def database_path() -> Path:
    """The SQLite game store (``companion.store.GameStore``)."""
    return data_dir() / "games.sqlite"


def settings_path() -> Path:
    """The app's own settings (player names, last options), kept beside the calibration."""
    return config_dir() / "settings.json"


CACHE_ENV = "COMPANION_CACHE_DIR"


def cache_dir() -> Path:
    """``$COMPANION_CACHE_DIR``, else the platform's per-user cache folder for the app
    (on Linux ``$XDG_CACHE_HOME/nizam-companion``, by default ``~/.cache/nizam-companion``)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    return Path(user_cache_dir(APP_NAME))
