"""Which ``/dev/video*`` nodes are cameras: the one way the app and ``companion doctor``
find USB cameras.

A Raspberry Pi lists many video nodes that are no camera OpenCV can open: the CSI camera's
own pipeline (unicam, rp1-cfe, the ISP) and the codecs. A USB camera lists two nodes, the
picture (index 0) and its metadata; only the picture is a camera.
"""

from __future__ import annotations

import re
from pathlib import Path

PIPELINE = ("unicam", "rp1-cfe", "pispbe", "bcm2835-", "rpivid", "rpi-hevc")
"""Name prefixes of the Pi's own camera pipeline, ISP and codecs."""


def usb_cameras(sys: Path = Path("/sys"), dev: Path = Path("/dev")) -> list[tuple[Path, str]]:
    """Each camera's device node and name, in node-number order."""
    cameras = []
    for node in sorted(sys.glob("class/video4linux/video*"), key=node_number):
        name = _read(node / "name")
        if _read(node / "index") not in ("", "0") or name.lower().startswith(PIPELINE):
            continue
        cameras.append((dev / node.name, name))
    return cameras


def node_number(path: Path) -> int:
    """The number in a node's name (``video10`` -> 10; -1 for none).

    >>> node_number(Path("/dev/video10"))
    10
    """
    digits = re.sub(r"\D", "", path.name)
    return int(digits) if digits else -1


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace").strip()
    except OSError:
        return ""
