"""`companion doctor`: checks camera, display, touch, calibration files, disk and game database."""

from __future__ import annotations

import argparse
import math
from typing import Any

from companion import doctor


def register(sub: Any) -> None:
    p = sub.add_parser(
        "doctor", help="check this machine for what the companion needs",
        description="Check the cameras (the Pi camera as libcamera sees it: sensor mode, crop, "
        "frames per second; USB cameras), the display, the GPU and the user's groups, "
        "touch, the palette and lens files, free disk space and the game database; print "
        "ok / warn / fail with what to do. Exits 1 when something fails, else 0.")
    p.add_argument("--json", action="store_true",
                   help='print a list of {"check", "status", "detail", "fix"}')
    p.add_argument("--no-camera", action="store_true",
                   help="skip opening cameras (e.g. while the companion is using one)")
    p.add_argument("--seconds", type=_seconds, default=1.0,
                   help="how long to count each camera's frames (default 1)")
    p.set_defaults(handler=run)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.1 <= value <= 30:
        raise argparse.ArgumentTypeError(f"{text}: give 0.1 to 30 seconds")
    return value


def current_host() -> doctor.Host:
    return doctor.Host()


def run(args: argparse.Namespace) -> int:
    findings = doctor.diagnose(current_host(), camera=not args.no_camera, seconds=args.seconds)
    print(doctor.report_json(findings) if args.json else doctor.report(findings))
    return doctor.exit_code(findings)
