"""The rules of Nizam, Pearl of the East and The Desert Sands, as in RULES.md.

Pure Python, standard library only: no camera, no numpy, no Kivy. The one place rules live.
"""
