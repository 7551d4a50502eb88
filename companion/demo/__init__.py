"""The bundled demo: a short recorded game (2 players, 6 turns, hands over the grid, a
combination scored and refilled, a cascade) that ``companion`` plays when there is no camera.

It was made by ``python -m companion.recorder companion/demo/recording --players 2
--turns 6 --seed 3 --size 640x360 --quality 75``; ``truth.json`` is what the rules say
happened, which the tests check the replay against.
"""

from pathlib import Path

RECORDING = Path(__file__).resolve().parent / "recording"
