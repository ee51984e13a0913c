"""Flotilla's games as OpenSpiel games (the `openspiel` extra: `pip install 'flotilla[openspiel]'`).

`register_all()` registers every game as `flotilla_<kind>`; `load(kind, **params)` loads one
(`players`, `seed`, `max_moves` and the game's own options); `seat.play_seat` puts an OpenSpiel
bot in a seat of a real game over gRPC. The mapping decisions are in `game`'s docstring and
docs/openspiel.md.
"""
