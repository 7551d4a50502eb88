"""`companion detect IMAGE... [--rows R --cols C] [--palette FILE] [--json] [--debug OUT.png]`

Reads the grid in each image (DESIGN.md): its corners and every cell's class, ``.`` for an
empty cell, ``?`` where unsure. Without ``--palette`` the saved palette is used, or the
default deck profile before anyone calibrated. ``--debug`` draws the grid and each cell's
read on the image (with several images, OUT-1.png, OUT-2.png, ...).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import cv2

from calibration.lens import LensModel
from calibration.store import saved_palette
from companion.errors import BadInput
from vision.debug import draw_reading
from vision.reader import read_grid
from vision.sources import image_file, read_image

from .common import output_path, print_json, quiet_stderr, write_atomic


def register(sub: Any) -> None:
    p = sub.add_parser("detect", help="find the card grid in images and read every cell")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--rows", type=int, default=5, help="grid rows (5)")
    p.add_argument("--cols", type=int, default=5, help="grid columns (5)")
    p.add_argument("--palette", help="palette file (default: the saved one, else the deck profile)")
    p.add_argument("--lens", help="lens model file: undistort the images first")
    p.add_argument("--json", action="store_true", help="one JSON object per image")
    p.add_argument(
        "--debug", metavar="OUT.png", help="write the image with what was read drawn on it"
    )
    p.set_defaults(handler=run)


def debug_paths(out: str, count: int) -> list[Path]:
    """Where ``--debug`` writes each image's drawing.

    >>> [str(p) for p in debug_paths("grid.png", 2)]
    ['grid-1.png', 'grid-2.png']
    """
    path = Path(out)
    if count == 1:
        return [path]
    return [path.with_name(f"{path.stem}-{n}{path.suffix or '.png'}") for n in range(1, count + 1)]


def run(args: argparse.Namespace) -> int:
    if not (2 <= args.rows <= 12 and 2 <= args.cols <= 12):
        raise BadInput(f"--rows and --cols must be 2..12, not {args.rows}x{args.cols}")
    for name in args.images:
        image_file(name)
    outs: list[Path] = []
    if args.debug is not None:
        if Path(args.debug).suffix.lower() not in (".png", ".jpg", ".jpeg"):
            raise BadInput(f"--debug {args.debug}: give a .png or .jpg file name")
        outs = [output_path(str(p), "--debug") for p in debug_paths(args.debug, len(args.images))]
    palette = saved_palette(args.palette)
    lens = LensModel.load(args.lens) if args.lens is not None else None
    for n, name in enumerate(args.images):
        with quiet_stderr():
            frame = read_image(name)
        reading = read_grid(frame, palette, args.rows, args.cols, lens=lens)
        if args.json:
            print_json({"image": name, **reading.to_json()})
        elif reading.cells is None:
            print(f"{name}: no {args.rows}x{args.cols} grid ({reading.reason})")
        else:
            print(f"{name}: {'/'.join(reading.cells)}")
        if outs:
            shown = lens.undistort(frame) if lens is not None else frame
            ok, data = cv2.imencode(outs[n].suffix or ".png", draw_reading(shown, reading))
            if not ok:
                raise BadInput(f"{outs[n]}: cannot encode the debug image")
            write_atomic(outs[n], data.tobytes())
    return 0
