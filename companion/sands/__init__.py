"""The Desert Sands by numbers: the exact solver, its cache on disk and the advice built on it."""
