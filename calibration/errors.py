"""The root of the camera side's expected errors: a camera that cannot be used, a calibration
or picture file that cannot be read. ``companion.errors`` counts them among the expected
errors a command or screen reports in one line; anything else is a bug.

Calibration is the lowest layer (vision and companion sit above it), so the root is here.

>>> issubclass(CameraError, ValueError)
True
"""

from __future__ import annotations

__all__ = ["CameraError"]


class CameraError(ValueError):
    """The camera, a calibration file or a picture that cannot be used, said in one line."""
