"""The session: the only writer of game state.

It turns stable grid readings and taps into game events, commits each event to the game
store before anything shows it, and folds the events into what the screen shows.
"""
