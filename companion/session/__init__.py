"""The session: the only writer of game state.

It turns stable grid readings and taps into game events, commits each event to the game
store before anything shows it, and folds the events into what the screen shows.

- ``events``: the events, typed and versioned; reading a stored log, upgrading older ones.
- ``core``: what every session does the same way (fold, commit, undo, record, changes).
- ``table`` and ``nizam``: Nizam and Pearl of the East (the fold; the session with the
  camera's readings); ``sands``: The Desert Sands.
- ``kinds``: every game the companion plays, with its session, screen and record.
"""
