"""Operator commands against the Redis of REDIS_URL: `flotilla keys`, `apikey`, `deadletter`."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Coroutine
from typing import Any

from flotilla.cli.reach import reach_redis, run_async
from flotilla.settings import Settings
from flotilla.worker.deadletters import add_parser as add_deadletter_parser


def add_admin_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`flotilla keys`, `apikey` and `deadletter`, and their flags."""
    keys = sub.add_parser("keys", help="token-signing keys in Redis: rotate (a new one signs) or list")
    keys.add_argument("action", choices=("rotate", "list"), help="rotate: a new key signs; list: the keys kept")
    keys.set_defaults(func=cmd_keys)
    apikey = sub.add_parser("apikey", help="API keys of bot accounts: create --name NAME, list, revoke ID")
    apikey.add_argument("action", choices=("create", "list", "revoke"), help="create --name NAME, list, or revoke ID")
    apikey.add_argument("id", nargs="?", default="", help="the key id to revoke")
    apikey.add_argument("--name", default="", help="the bot's display name (create)")
    apikey.set_defaults(func=cmd_apikey)
    add_deadletter_parser(sub)
    sub.choices["deadletter"].set_defaults(func=cmd_deadletter)


def _admin(work: Callable[[Any, Settings], Coroutine[Any, Any, int]], part: Callable[[Any], Any] | None = None) -> int:
    """Run an operator command against the Redis of REDIS_URL, on the part of the store it needs
    (`part`, made from the store; the auth store unless told)."""
    from flotilla.store.auth_store import AuthStore  # noqa: PLC0415
    from flotilla.store.redis_store import RedisStore  # noqa: PLC0415

    settings = Settings.from_env()

    async def run() -> int:
        await reach_redis(settings)
        store = RedisStore.from_settings(settings)
        try:
            return await work((part or AuthStore.of)(store), settings)
        finally:
            await store.close()

    return run_async(run())


def _ms(ms: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ms / 1000)) if ms else "-"


def cmd_keys(args: argparse.Namespace) -> int:
    """Rotate or list the token-signing keys kept in Redis."""

    async def work(auth: Any, settings: Settings) -> int:
        if settings.secret:
            print("keys are pinned by FLOTILLA_SECRET (kid:secret,...): rotate them there", file=sys.stderr)
            return 2
        if args.action == "rotate":
            from flotilla.identity.configure import lifetimes  # noqa: PLC0415  (the identity, games: ~0.4 CPU-s)

            await auth.key_set()  # the first key, if there is none yet
            kid, retired = await auth.rotate(lifetimes(settings).longest_s)
            print(f"signing with {kid} now (gateways pick it up within FLOTILLA_KEYS_REFRESH)")
            for old in retired:
                print(f"retired {old}")
            return 0
        for key in await auth.list_keys():
            role = "signs" if key.signing else f"verifies (superseded {_ms(key.superseded_ms)})"
            print(f"{key.kid}  created {_ms(key.created_ms)}  {role}")
        return 0

    return _admin(work)


def cmd_apikey(args: argparse.Namespace) -> int:
    """Mint, list or revoke API keys of bot accounts."""
    from flotilla.app.errors import InvalidRequest  # noqa: PLC0415
    from flotilla.app.inputs import display_name  # noqa: PLC0415

    async def work(auth: Any, _settings: Settings) -> int:
        if args.action == "create":
            try:
                name = display_name(args.name or "", "--name")
            except InvalidRequest as error:
                print(error.message, file=sys.stderr)
                return 2
            record, key = await auth.create_api_key(name)
            print(f"API key {record.key_id} for {name} (users/{record.user}); shown once, keep it secret:")
            print(key)
            return 0
        if args.action == "revoke":
            if not args.id or not await auth.revoke_api_key(args.id):
                print(f"no API key {args.id!r}", file=sys.stderr)
                return 1
            print(f"revoked {args.id}: its sessions end within FLOTILLA_API_KEY_SESSION_TTL")
            return 0
        for record in await auth.list_api_keys():
            print(f"{record.key_id}  {record.name}  users/{record.user}  created {_ms(record.created_ms)}")
        return 0

    return _admin(work)


def cmd_deadletter(args: argparse.Namespace) -> int:
    """List or retry the work entries the workers set aside (worker/deadletters.py)."""
    from flotilla.store.deadletter import DeadLetters  # noqa: PLC0415
    from flotilla.worker.deadletters import run  # noqa: PLC0415

    async def work(letters: Any, _settings: Settings) -> int:
        return await run(args, letters)

    return _admin(work, DeadLetters.of)
