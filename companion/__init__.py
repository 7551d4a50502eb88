"""Nizam table companion: watches a game of Nizam through a camera and keeps it honest."""

__version__ = "0.1.0"
