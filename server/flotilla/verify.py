"""Check a finished game's dealing (used by `flotilla up --demo`): the revealed seed matches the
commitment (the SDK's check), and replaying the action log from the seed with the local rules
gives the result the server announced."""

from __future__ import annotations

from flotilla.convert import GameConverter
from flotilla.games import rules_at
from flotilla.rules import Seat
from flotilla.rules.options import config_from_options
from flotilla.rules.replay import replay
from flotilla_client import FlotillaClient
from flotilla_client.commitment import VerificationFailed, check_commitment


async def verify_game(client: FlotillaClient, game: str, seed_sha256: str = "") -> None:
    """Raise VerificationFailed unless the finished `game` replays exactly.

    `seed_sha256` is the commitment the caller saw when the game began (Game.seed_sha256);
    without it, the one in the record is used.
    """
    record = await client.record(game)
    check_commitment(record, seed_sha256)
    seed = int(record.seed, 16)
    rules = rules_at(record.game.kind, record.game.rules_version)
    if rules is None:
        raise VerificationFailed(f"local rules do not include the game's {record.game.rules_version}")
    converter = GameConverter(rules)
    config = config_from_options(rules.config_type, record.game.seat_count, record.game.options)
    moves = ((Seat(step.seat), converter.action_from_pb(getattr(step.action, rules.name))) for step in record.actions)
    state = replay(rules, config, seed, moves)
    result = rules.result(state)
    if result is None:
        raise VerificationFailed("the replayed game did not end")
    if list(result.scores) != list(record.game.result.scores):
        raise VerificationFailed(
            f"replayed scores {list(result.scores)} != announced {list(record.game.result.scores)}"
        )
