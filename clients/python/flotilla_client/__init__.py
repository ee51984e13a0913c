"""Flotilla's Python SDK: async and blocking clients for the gRPC API, a bot framework and a random bot.

The generated messages are in `flotilla.api.<package>.v1` (e.g.
`flotilla.api.game.v1.game_pb2`); this package imports nothing of the server's.
"""

from flotilla_client.bot import Bot, Played, fallback, run_bot, run_bots
from flotilla_client.bots import RandomBot, play_random, play_random_sync
from flotilla_client.client import FlotillaClient, PlayStream
from flotilla_client.commitment import VerificationFailed, check_commitment, seed_sha256
from flotilla_client.deal_check import check_deal
from flotilla_client.errors import FlotillaError
from flotilla_client.seat import Seat
from flotilla_client.sync import FlotillaSyncClient, SyncPlayStream
from flotilla_client.tls import Tls

__all__ = [
    "Bot",
    "FlotillaClient",
    "FlotillaError",
    "FlotillaSyncClient",
    "PlayStream",
    "Played",
    "RandomBot",
    "Seat",
    "SyncPlayStream",
    "Tls",
    "VerificationFailed",
    "check_commitment",
    "check_deal",
    "fallback",
    "play_random",
    "play_random_sync",
    "run_bot",
    "run_bots",
    "seed_sha256",
]
