"""Flotilla: an authoritative, distributed game server for nautical board games."""

__version__ = "0.1.0"
