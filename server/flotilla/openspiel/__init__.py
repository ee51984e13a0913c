"""Flotilla's games as OpenSpiel games (the `openspiel` extra: `pip install 'flotilla[openspiel]'`).

Importing this package registers every game as `flotilla_<kind>` (as importing OpenSpiel's
`open_spiel.python.games` does for its own), so `pyspiel.load_game("flotilla_sail_away")` works
after it. `load(kind, **params)` loads one with typed parameters (`players`, `seed`, `max_moves`
and the game's own options); `seat.play_seat` puts an OpenSpiel bot in a seat of a real game over
gRPC. The mapping decisions are in `game`'s docstring and docs/openspiel.md.
"""

from flotilla.openspiel.game import FlotillaGame, FlotillaState, load, register_all, short_name

__all__ = ["FlotillaGame", "FlotillaState", "load", "register_all", "short_name"]

register_all()
