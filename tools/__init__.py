"""Developers' tools, not shipped: the synthetic scene generator, the recorder of simulated
games on camera, the crash check, the staged games and the screenshots of every screen.

Run from the repository's root (``python -m tools.recorder …``); tests and benchmarks import
them from there. The shipped packages (``companion``, ``vision``, ``calibration``) never
import them (an import-linter contract in ``pyproject.toml``).
"""
