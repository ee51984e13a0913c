"""Every Redis key Flotilla uses, in one place. `{...}` is a Redis Cluster hash tag.

All keys of one game share the tag `{<game_id>}`, so every script touches one slot.

| key | type | holds |
|---|---|---|
| flotilla:game:{g} | HASH | kind, rules_version, seat_count, options, status, version, state, to_act, |
| | | result, created_ms, seed_sha256 |
| flotilla:game:{g}:seats | HASH | seat index -> JSON {user, name} |
| flotilla:game:{g}:events | STREAM | one entry per commit, id 0-<last event id>: |
| | | v (version), e (events), p (prompts by seat), a (to_act) |
| flotilla:game:{g}:actions | LIST | JSON [seat, action, through_event_id] per applied action (the replay log) |
| flotilla:game:{g}:req:{r} | STRING | the cached outcome of request r (idempotent retries) |
| flotilla:games | ZSET | game id -> created ms (listing) |
| flotilla:games:kind:<kind> | ZSET | the same, per game kind |
| flotilla:work:{<kind>@<version>:<shard>} | STREAM | submitted actions for workers (group "workers") |
| flotilla:inbox:{<gateway>} | STREAM | outcomes for one gateway process |
| flotilla:user:{u} | HASH | display name, created ms |
| flotilla:secret | STRING | token-signing key shared by gateways (when FLOTILLA_SECRET is unset) |
"""

from __future__ import annotations

PREFIX = "flotilla"
WORKER_GROUP = "workers"
GAMES = f"{PREFIX}:games"
SECRET = f"{PREFIX}:secret"


def game(g: str) -> str:
    return f"{PREFIX}:game:{{{g}}}"


def game_seats(g: str) -> str:
    return f"{PREFIX}:game:{{{g}}}:seats"


def game_events(g: str) -> str:
    return f"{PREFIX}:game:{{{g}}}:events"


def game_actions(g: str) -> str:
    return f"{PREFIX}:game:{{{g}}}:actions"


def game_reply(g: str, request_id: str) -> str:
    return f"{PREFIX}:game:{{{g}}}:req:{request_id}"


def games_of_kind(kind: str) -> str:
    return f"{PREFIX}:games:kind:{kind}"


def work(kind: str, rules_version: str, shard: int) -> str:
    return f"{PREFIX}:work:{{{kind}@{rules_version}:{shard}}}"


def inbox(gateway_id: str) -> str:
    return f"{PREFIX}:inbox:{{{gateway_id}}}"


def user(u: str) -> str:
    return f"{PREFIX}:user:{{{u}}}"
