"""The bundled demos: short recorded games that ``companion`` plays when there is no camera.

``nizam``: 2 players, 6 turns, hands over the grid while shifting, combinations scored and
refilled, a cascade, a three-card payment and draws. ``pearl``: Pearl of the East, 2 players,
5 turns, tasks completed. Each was made by the recorder, e.g.::

    python -m tools.recorder companion/demo/nizam --players 2 --turns 6 --seed 3 \\
        --size 640x360 --quality 70
    python -m tools.recorder companion/demo/pearl --mode pearl --players 2 --turns 5 \\
        --seed 6 --size 640x360 --quality 70

``truth.json`` beside each is what the rules say happened; the tests check replays against it.
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORDINGS = {"nizam": HERE / "nizam", "pearl": HERE / "pearl"}
RECORDING = RECORDINGS["nizam"]
