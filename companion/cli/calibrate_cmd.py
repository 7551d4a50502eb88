"""`companion calibrate colors|camera`: learn this table's palette and this camera's lens.

colors: from photos whose layout is given (``--labels``, rows joined by "/"; their shape
gives rows x cols) or whose counts alone are known (``--counts "R3O3Y3G3C3B3V3P3*1"``).
camera: from chessboard photos. Both save small versioned JSON files (by default in the
user's configuration folder, where the app looks for them).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

from calibration.counts import learn_palette_from_counts, parse_counts
from calibration.lens import SQUARE_MM, calibrate_camera
from calibration.palette import Palette, learn_palette
from calibration.store import lens_path, palette_path
from companion.errors import BadInput
from companion.words import OVER_EXPOSED
from vision.sources import read_image as vision_read_image

from .common import finite_positive, output_path, print_json, quiet_stderr, writing


def register(sub: Any) -> None:
    p = sub.add_parser("calibrate", help="learn the colour palette or the camera's lens")
    what = p.add_subparsers(dest="what", metavar="WHAT", required=True)

    colors = what.add_parser("colors", help="learn the colour classes from laid-out cards")
    colors.add_argument("--image", action="append", required=True, metavar="IMG")
    colors.add_argument(
        "--labels",
        action="append",
        metavar="GRID",
        help='true layout of each --image in order, rows joined by "/", e.g. "RGB/GGR"',
    )
    colors.add_argument("--counts", help='counts of each class in every image: "R3O3...*1"')
    colors.add_argument("--rows", type=int, help="grid rows (else from --labels)")
    colors.add_argument("--cols", type=int, help="grid columns (else from --labels)")
    colors.add_argument("--out", help=f"palette file to write (default {palette_path()})")
    colors.add_argument("--json", action="store_true")
    colors.set_defaults(handler=run_colors)

    camera = what.add_parser("camera", help="learn the lens model from chessboard photos")
    camera.add_argument("images", nargs="+", metavar="IMAGE")
    camera.add_argument("--board", default="9x6", help="inner corners, COLSxROWS (9x6)")
    camera.add_argument("--square-mm", type=square_mm, default=25.0,
                        help=f"side of one board square in mm, {SQUARE_MM[0]:g} to "
                        f"{SQUARE_MM[1]:g} (25)")
    camera.add_argument("--out", help=f"lens file to write (default {lens_path()})")
    camera.add_argument("--json", action="store_true")
    camera.set_defaults(handler=run_camera)


def square_mm(text: str) -> float:
    """An argparse type: ``--square-mm``, a number of millimetres in ``SQUARE_MM`` (checked
    before any photo is read).

    >>> square_mm("25")
    25.0
    >>> square_mm("1e308")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '1e308': a printed board square is 1 to 500 mm
    """
    value = finite_positive(text)
    low, high = SQUARE_MM
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(
            f"{text!r}: a printed board square is {low:g} to {high:g} mm")
    return value


def grid_shape(labels: str) -> tuple[int, int]:
    """Rows and columns of a layout written as rows joined by "/".

    >>> grid_shape("RGB/GGR")
    (2, 3)
    """
    rows = labels.split("/")
    widths = {len(r) for r in rows}
    if len(widths) != 1 or 0 in widths:
        raise BadInput(f"labels {labels!r}: rows differ in length or one is empty")
    return len(rows), widths.pop()


def read_image(path: str) -> np.ndarray:
    """The image in ``path`` as BGR, read by vision; its one line (not libpng's) when
    unreadable."""
    with quiet_stderr():
        return vision_read_image(path)


def _layout(args: argparse.Namespace) -> tuple[int, int, list[str] | None, dict[str, int] | None]:
    """(rows, cols, labels per image or None, counts or None) from the options, checked."""
    if (args.labels is None) == (args.counts is None):
        raise BadInput("give --labels for every --image, or --counts (not both)")
    if args.labels is not None:
        if len(args.labels) != len(args.image):
            raise BadInput(f"{len(args.image)} --image but {len(args.labels)} --labels")
        shapes = {grid_shape(lab) for lab in args.labels}
        if len(shapes) != 1:
            raise BadInput(f"--labels differ in shape: {sorted(shapes)}")
        rows, cols = shapes.pop()
        for option, value in (("--rows", args.rows), ("--cols", args.cols)):
            wanted = rows if option == "--rows" else cols
            if value is not None and value != wanted:
                raise BadInput(f"{option} {value} but the labels have {wanted}")
        return rows, cols, [lab.replace("/", "") for lab in args.labels], None
    counts = parse_counts(args.counts)
    total = sum(counts.values())
    rows, cols = args.rows, args.cols
    for option, value in (("--rows", rows), ("--cols", cols)):
        if value is not None and value < 1:
            raise BadInput(f"{option} {value}: a grid needs at least one row and column")
    if rows is None and cols is None:
        side = math.isqrt(total)
        if side * side != total:
            raise BadInput(f"counts add up to {total}: give --rows and --cols")
        rows = cols = side
    elif rows is None or cols is None:
        rows = rows if rows is not None else total // cols
        cols = cols if cols is not None else total // rows
    if rows * cols != total:
        raise BadInput(f"counts add up to {total}, not to {rows}x{cols} cells")
    return rows, cols, None, counts


def cell_patches(frame: np.ndarray, rows: int, cols: int, name: str) -> np.ndarray:
    """The grid's cell patches in reading order, found by vision."""
    from vision.cells import layout_patches

    patches = layout_patches(frame, rows, cols)
    if patches is None:
        raise BadInput(f"no {rows}x{cols} grid found in {name}")
    return patches


def _out(args: argparse.Namespace, default: Path) -> Path:
    """Where to save: ``--out`` checked before any work, else the app's own file."""
    return output_path(args.out, "--out") if args.out is not None else default


def run_colors(args: argparse.Namespace) -> int:
    out = _out(args, palette_path())
    rows, cols, labels, counts = _layout(args)
    if rows < 1 or cols < 1:
        raise BadInput(f"a grid needs at least one row and column, not {rows}x{cols}")
    images = [cell_patches(read_image(path), rows, cols, path) for path in args.image]
    palette: Palette
    if labels is not None:
        palette = learn_palette(list(zip(images, labels, strict=True)))
    else:
        assert counts is not None
        palette = learn_palette_from_counts(images, counts)
    with writing(out):
        palette.save(out)
    if palette.over_exposed:  # saved all the same, the players choose; the JSON keeps its form
        print(f"companion: warning: {OVER_EXPOSED}", file=sys.stderr)
    if args.json:
        print_json(
            {"palette": str(out), "classes": list(palette.classes), "samples": palette.samples}
        )
    else:
        print(f"palette {''.join(palette.classes)} from {palette.samples} cells saved to {out}")
    return 0


def parse_board(text: str) -> tuple[int, int]:
    """``"9x6"`` -> (9, 6): inner corners along the board's columns and rows."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise BadInput(f"--board {text!r}: expected COLSxROWS such as 9x6")
    cols, rows = int(parts[0]), int(parts[1])
    if cols < 2 or rows < 2:
        raise BadInput(f"--board {text!r}: needs at least 2x2 inner corners")
    return cols, rows


def run_camera(args: argparse.Namespace) -> int:
    board = parse_board(args.board)
    out = _out(args, lens_path())
    lens = calibrate_camera((read_image(p) for p in args.images), board, args.square_mm)
    with writing(out):
        lens.save(out)
    if args.json:
        print_json(
            {
                "rms": round(lens.rms, 4),
                "camera_matrix": lens.camera_matrix.tolist(),
                "dist": lens.dist.tolist(),
                "images_used": lens.images_used,
            }
        )
    else:
        fx, fy = lens.camera_matrix[0, 0], lens.camera_matrix[1, 1]
        print(
            f"lens from {lens.images_used} of {len(args.images)} images: "
            f"rms {lens.rms:.3f} px, fx {fx:.1f}, fy {fy:.1f}; saved to {out}"
        )
    return 0
