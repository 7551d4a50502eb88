"""The default deck profile: the gems of RULES.md (ruby, amber, topaz, emerald, turquoise,
sapphire, amethyst, spinel; the pearl) and the colours they nominally have.

Used before anyone calibrates, to name the clusters of a palette learned from counts alone,
and by synthetic scenes that draw gem cards. Colours are sRGB under white light.
"""

from __future__ import annotations

NOMINAL_RGB: dict[str, tuple[int, int, int]] = {
    "R": (200, 30, 45),  # ruby red
    "O": (240, 130, 30),  # amber orange
    "Y": (245, 210, 40),  # topaz yellow
    "G": (30, 160, 70),  # emerald green
    "C": (30, 185, 200),  # turquoise cyan
    "B": (30, 70, 180),  # sapphire blue
    "V": (130, 60, 170),  # amethyst violet
    "P": (240, 110, 170),  # spinel pink
    "*": (240, 238, 230),  # pearl: white, pearly
}
"""Nominal sRGB of each card's coloured field."""
