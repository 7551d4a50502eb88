"""The live parts: what runs while a game is played, between the camera and the screens.

- :mod:`companion.live.app`: the app wired to the camera, the game store and the sessions;
- :mod:`companion.live.watcher`: the table watcher (frames → vision → stability → session);
- :mod:`companion.live.stones`: the stone watcher of The Desert Sands and its calibration;
- :mod:`companion.live.threads`: the thread each watcher reads frames on;
- :mod:`companion.live.recording` and :mod:`companion.live.playback`: a game recorded on
  camera, and ``companion replay``, the same pipeline over it with no screen.

Layers (import-linter): ``companion.cli`` (which wires them) above ``companion.ui`` above
``companion.live`` above ``companion.session`` above ``companion.rules``; nothing here
imports a screen or a command.
"""
