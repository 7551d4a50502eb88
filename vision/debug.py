"""Draw what the reader saw on the frame, so a person can tell what went wrong."""

from __future__ import annotations

import cv2
import numpy as np

from .reader import UNSURE, GridReading

GREEN, ORANGE, RED, MAGENTA, GREY = (
    (60, 200, 60),
    (0, 160, 255),
    (40, 40, 230),
    (220, 60, 220),
    (150, 150, 150),
)


def draw_reading(
    frame: np.ndarray, reading: GridReading, candidates: np.ndarray | None = None
) -> np.ndarray:
    """A copy of ``frame`` with the grid's outline, every cell's pitch, and each cell's read
    (green: sure, orange: below 0.8, red: ``?``); the reason when no grid was found.
    ``candidates``: optional (N, 4, 2) card-like boxes the search considered (grey)."""
    out = frame.copy()
    scale = max(1.0, max(frame.shape[:2]) / 900)
    thick = max(1, round(2 * scale))
    if candidates is not None:
        for box in candidates:
            cv2.polylines(out, [np.round(box).astype(np.int32)], True, GREY, 1, cv2.LINE_AA)
    g, corners = reading.geometry, reading.corners
    if reading.cells is None or g is None or corners is None:
        _label(out, reading.reason or "no grid", (10, round(30 * scale)), RED, scale)
        return out
    for r in range(g.rows):
        for c in range(g.cols):
            cv2.polylines(
                out, [np.round(g.cell_quad(r, c)).astype(np.int32)], True, GREY, 1, cv2.LINE_AA
            )
    cv2.polylines(
        out, [np.round(corners).astype(np.int32)], True, MAGENTA, thick, cv2.LINE_AA
    )
    cv2.circle(out, tuple(np.round(corners[0]).astype(int)), 3 * thick, MAGENTA, -1)
    for r in range(g.rows):
        for c in range(g.cols):
            label = reading.cells[r][c]
            conf = float(reading.confidence[r, c])
            colour = RED if label == UNSURE else (GREEN if conf >= 0.8 else ORANGE)
            if g.seen[r, c]:
                cv2.polylines(
                    out,
                    [np.round(g.card_quad(r, c)).astype(np.int32)],
                    True,
                    colour,
                    1,
                    cv2.LINE_AA,
                )
            centre = g.to_image(g.card_centres[r, c][None])[0]
            text = f"{label} {conf:.2f}"
            (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, thick)
            _label(out, text, (round(centre[0] - tw / 2), round(centre[1] + th / 2)), colour, scale)
    return out


def _label(
    img: np.ndarray, text: str, org: tuple[int, int], colour: tuple[int, int, int], scale: float
) -> None:
    """Text with a dark outline: readable on any card or cloth."""
    font, size = cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale
    thick = max(1, round(scale))
    cv2.putText(img, text, org, font, size, (0, 0, 0), thick + 2, cv2.LINE_AA)
    cv2.putText(img, text, org, font, size, colour, thick, cv2.LINE_AA)
