"""Frame in, ``GridReading`` out; knows nothing of games.

- :mod:`vision.lattice`: find a rows x cols lattice of cards or tiles (``find_grid``,
  ``search_grid``, ``GridGeometry``), on card-like regions from :mod:`vision.candidates`;
- :mod:`vision.cells`: cut each cell (and some bare table) out as top-down patches;
- :mod:`vision.visible`: a closer look at cells whose card outline was not seen;
- :mod:`vision.reader`: ``read_grid`` = find, cut, classify with a ``calibration`` palette,
  and distrust what cannot be seen (``?``);
- :mod:`vision.tracker`: ``GridTracker`` follows the grid from frame to frame of a video
  (a few milliseconds) and searches again whenever that leaves a doubt;
- :mod:`vision.stability`: a reading counts once it held for k frames;
- :mod:`vision.sources`: frames from files, video, an OpenCV camera, the Pi camera, and a
  capture thread where the newest frame wins;
- :mod:`vision.debug`: draw a reading on its frame.
"""
