"""Flotilla's Python SDK: an async client for the gRPC API, and a random bot built on it."""

from flotilla_client.bots import play_random
from flotilla_client.client import FlotillaClient, FlotillaError, Seat
from flotilla_client.tls import Tls

__all__ = ["FlotillaClient", "FlotillaError", "Seat", "Tls", "play_random"]
