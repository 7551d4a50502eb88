"""Where the app keeps this table's calibration, and loading it with sensible fallbacks.

Files live in the user's configuration folder (``platformdirs``): ``palette.json``,
``camera.json`` (the Pi camera's settings frozen when the palette was learned) and
``lens.json``. Before anyone calibrates there is no palette file and the default deck
profile is used; there is no lens file and frames are used as the camera gives them.
"""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_config_dir

from .camera import CameraLock, CameraLockError
from .lens import LensModel
from .palette import Palette, default_palette

APP_NAME = "nizam-companion"


def config_dir() -> Path:
    return Path(user_config_dir(APP_NAME))


def palette_path() -> Path:
    """Where ``companion calibrate colors`` saves the palette by default."""
    return config_dir() / "palette.json"


def lens_path() -> Path:
    """Where ``companion calibrate camera`` saves the lens model by default."""
    return config_dir() / "lens.json"


def camera_lock_path() -> Path:
    """Where the Pi camera's exposure, white balance and focus are saved with the palette."""
    return config_dir() / "camera.json"


def saved_camera_lock() -> CameraLock | None:
    """The camera settings saved with the palette, or None when there are none or they
    cannot be read (the camera then adjusts itself until the next calibration)."""
    path = camera_lock_path()
    if not path.exists():
        return None
    try:
        return CameraLock.load(path)
    except CameraLockError:
        return None


def saved_palette(path: str | Path | None = None) -> Palette:
    """The palette in ``path`` (default: the saved one), or the default deck profile if the
    default file does not exist. A named file that is missing or bad raises PaletteError."""
    if path is not None:
        return Palette.load(path)
    default = palette_path()
    return Palette.load(default) if default.exists() else default_palette()


def saved_lens(path: str | Path | None = None) -> LensModel | None:
    """The lens model in ``path`` (default: the saved one), or None when none was saved."""
    if path is not None:
        return LensModel.load(path)
    default = lens_path()
    return LensModel.load(default) if default.exists() else None
