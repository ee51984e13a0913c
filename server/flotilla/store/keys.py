"""Every Redis key Flotilla uses, in one place. `{...}` is a Redis Cluster hash tag.

All keys of one game share the tag `{<game_id>}`, so every script touches one slot.

How to read a key family (the tables below and the `# |` comment rows further down): `{g}`
(one letter) is a hash tag holding a value, `{party}` (a word) a literal tag, `<x>` a value,
`[...]` an optional part. `tests/records/test_key_table.py` checks every family against the key
functions here and against the keys a played game leaves in Redis: a new key needs its row.

| key | type | holds |
|---|---|---|
| flotilla:game:{g} | HASH | kind, rules_version, seat_count, options, status, version, state, to_act, |
| | | result, created_ms, seed_sha256, clock (config), seatclock (app/clocks.py), private_code, head |
| | | (lineage), reserved (a room's or match's game), rated (its end moves ratings) |
| flotilla:game:{g}:seats | HASH | seat index -> JSON {user, name, kind} |
| flotilla:game:{g}:events | STREAM | one entry per commit, id 0-<last event id> (records.Entry): |
| | | v (version), e (event rows), p (prompts by seat; "d" their default actions), a (to_act), h (lineage), |
| | | ph (previous lineage), s and r (the seat and request id it applied; absent on a game's first entry) |
| flotilla:game:{g}:actions | LIST | JSON [seat, action, version after it, by, request id] per applied action (the |
| | | replay log; records.action_record) |
| flotilla:game:{g}:req:<seat>:<r> | STRING | the outcome of a seat's request r (retries; FLOTILLA_OUTCOME_TTL) |
| flotilla:game:{g}:replicated | STRING | a marker written before a WAIT (REPLICATED_MARKER_MS), so the WAIT covers |
| | | the game's primary |
| flotilla:games | ZSET | game id -> created us (listing; ids of expired games are dropped by the janitor) |
| flotilla:games:kind:<kind> | ZSET | the same, per game kind |
| flotilla:work:{<kind>@<version>:<shard>} | STREAM | submitted actions for workers (group "workers"); an entry |
| | | is deleted once applied |
| flotilla:worker:{<consumer>} | STRING | a live worker (PX FLOTILLA_WORKER_TTL_MS, renewed by the worker); once it is |
| | | gone, other workers take over that consumer's pending work and remove the consumer |
| flotilla:deadletter | STREAM | work entries set aside (the rules failed on one, or it was delivered over |
| | | FLOTILLA_MAX_DELIVERIES times): cause (also as why, its name before issue 25, for one release), |
| | | incident, deliveries, at (ms), stream and entry (its work stream and id), w.<field> its fields; |
| | | MAXLEN ~ FLOTILLA_DEAD_LETTER_MAXLEN; `flotilla deadletter list|retry` (store/deadletter.py) |
| flotilla:workers | ZSET | consumer -> when its liveness key lapses unless renewed (Redis time, ms): where the |
| | | sweep looks for dead workers; a member leaves once it is swept; the key expires 10 min after |
| | | the last renewal of any worker |
| flotilla:inbox:{<gateway>} | STREAM | outcomes for one gateway process; TTL FLOTILLA_INBOX_TTL renewed by its |
| | | gateway (workers never create it: XADD NOMKSTREAM); trimmed as the gateway reads |
| flotilla:user:{u} | HASH | display name, created ms (TTL: the session lifetime; kept once the user is rated) |
| flotilla:janitor:lease | STRING | the worker running the janitor pass now (PX) |
| flotilla:janitor:cursors | HASH | listing index -> ZSCAN cursor where the next janitor pass resumes |
| flotilla:timers | ZSET | game id -> when a worker must look at its clocks (ms) |
| flotilla:keys | HASH | token-signing keys (when FLOTILLA_SECRET is unset): current -> kid, k:<kid> -> JSON |
| | | {secret, created_ms, superseded_ms} (records.FIELDS["SigningKey"]; also as s, c, r, their names |
| | | before issue 25, for one release); no TTL: `flotilla keys rotate` deletes keys superseded over the |
| | | longest token lifetime ago |
| flotilla:apikey:<id> | HASH | an API key: name, user, created_ms, hash (SHA-256 of its secret); until revoked |
| flotilla:apikeys | SET | ids of the API keys (operator-made, removed by `flotilla apikey revoke`) |
| flotilla:game:{g}:revoked:<seat> | STRING | the seat left: its tokens are refused (TTL FLOTILLA_SEAT_TOKEN_TTL) |

A game's keys expire FLOTILLA_UNSTARTED_TTL after its creation unless every seat is taken
(the join that fills the last seat removes the TTL), and FLOTILLA_FINISHED_TTL after it ends.
"""

from __future__ import annotations

PREFIX = "flotilla"
WORKER_GROUP = "workers"
GAMES = f"{PREFIX}:games"
TIMERS = f"{PREFIX}:timers"
SIGNING_KEYS = f"{PREFIX}:keys"
API_KEYS = f"{PREFIX}:apikeys"
WORKERS = f"{PREFIX}:workers"
JANITOR_LEASE = f"{PREFIX}:janitor:lease"
JANITOR_CURSORS = f"{PREFIX}:janitor:cursors"
DEAD_LETTERS = f"{PREFIX}:deadletter"


def game(g: str) -> str:
    return f"{PREFIX}:game:{{{g}}}"


def game_seats(g: str) -> str:
    return f"{PREFIX}:game:{{{g}}}:seats"


def game_events(g: str) -> str:
    return f"{PREFIX}:game:{{{g}}}:events"


def game_of_events(key: str) -> str:
    """The game id in a `game_events` key."""
    return key[key.index("{") + 1 : key.rindex("}")]


def game_replicated(g: str) -> str:
    """A marker written (with a short TTL) before a WAIT, so that the WAIT covers the game's primary."""
    return f"{PREFIX}:game:{{{g}}}:replicated"


def game_actions(g: str) -> str:
    return f"{PREFIX}:game:{{{g}}}:actions"


def game_keys(g: str) -> list[str]:
    """The game's hash, seats, event stream and action log (outcome records expire on their own)."""
    return [game(g), game_seats(g), game_events(g), game_actions(g)]


def game_reply(g: str, seat: int, request_id: str) -> str:
    """The outcome record of one request: request ids are scoped to (game, seat)."""
    return f"{PREFIX}:game:{{{g}}}:req:{seat}:{request_id}"


def api_key(key_id: str) -> str:
    return f"{PREFIX}:apikey:{key_id}"


def revoked_seat(g: str, seat: int) -> str:
    """Marks a seat whose player left: its seat tokens are refused (TTL: the seat-token lifetime)."""
    return f"{PREFIX}:game:{{{g}}}:revoked:{seat}"


def games_of_kind(kind: str) -> str:
    return f"{PREFIX}:games:kind:{kind}"


def work(kind: str, rules_version: str, shard: int) -> str:
    return f"{PREFIX}:work:{{{kind}@{rules_version}:{shard}}}"


def worker(consumer: str) -> str:
    return f"{PREFIX}:worker:{{{consumer}}}"


def inbox(gateway_id: str) -> str:
    return f"{PREFIX}:inbox:{{{gateway_id}}}"


def user(u: str) -> str:
    return f"{PREFIX}:user:{{{u}}}"


# --- lobbies, matchmaking and ratings (docs/lobbies.md) ---------------------------------
# | flotilla:room:{r} | HASH | version, data (room JSON) |
# | flotilla:room:{r}:changes | STREAM | one entry per room version, id 0-<version>: room (room JSON; also |
# | | | as d, its name before issue 25, for one release: records.LEGACY) |
# | flotilla:rooms:seq | STRING | counter giving each room its listing sequence number |
# | flotilla:rooms:listed[:<kind>] | ZSET | open public room id -> open seats * 1e13 + seq |
# | flotilla:roomcode:{<code>} | STRING | a private room's id, by its join code (LobbyService finds a room by code); |
# | | | TTL a room's (24 h) from its creation |
# | flotilla:mm:queues | SET | queue ids (<kind>.<options hash>) that have had tickets |
# | flotilla:mm:{q}:waiting | ZSET | waiting ticket id -> enqueue ms |
# | flotilla:mm:{q}:ticket:<t> | HASH | data (JSON), state, match, game, seats (JSON user -> seat) |
# | flotilla:mm:{q}:ticket:<t>:changes | STREAM | one entry per change of the ticket: state (its new state) |
# | flotilla:mm:{q}:user:<u> | STRING | the user's latest ticket in the queue (one waiting ticket per user) |
# | flotilla:mm:{q}:pending | ZSET | claimed match id -> claim ms (game not yet made) |
# | flotilla:mm:{q}:match:<m> | STRING | a claimed match (JSON) until its game exists |
# | flotilla:bots | STREAM | bot seats to play (group "bots"): g (game), s (seat), u (user), n (name), policy, |
# | | | [difficulty] (also as p and d, their names before issue 25, for one release: records.BotSeat) |
# | flotilla:finished | STREAM | finished games (group "ratings"): g (game id) |
# | flotilla:{rating:<kind>}:players | HASH | user -> rating JSON {mu, sigma, games} |
# | flotilla:{rating:<kind>}:board | ZSET | user -> ordinal (mu - 3 sigma) |
# | flotilla:{rating:<kind>}:history:<u> | LIST | newest first: rating JSON after each rated game |
# | flotilla:{rating:<kind>}:rated:<g> | STRING | set once a game is rated (exactly-once guard), 1 min past the game |
ROOMS_SEQ = f"{PREFIX}:rooms:seq"
ROOMS_LISTED = f"{PREFIX}:rooms:listed"
MM_QUEUES = f"{PREFIX}:mm:queues"
BOTS = f"{PREFIX}:bots"
BOTS_GROUP = "bots"
FINISHED = f"{PREFIX}:finished"
RATINGS_GROUP = "ratings"


def room(r: str) -> str:
    return f"{PREFIX}:room:{{{r}}}"


def room_code(code: str) -> str:
    return f"{PREFIX}:roomcode:{{{code}}}"


def room_changes(r: str) -> str:
    return f"{PREFIX}:room:{{{r}}}:changes"


def rooms_listed(kind: str) -> str:
    return f"{ROOMS_LISTED}:{kind}"


def mm_waiting(q: str) -> str:
    return f"{PREFIX}:mm:{{{q}}}:waiting"


def mm_ticket(q: str, t: str) -> str:
    return f"{PREFIX}:mm:{{{q}}}:ticket:{t}"


def mm_ticket_changes(q: str, t: str) -> str:
    return f"{PREFIX}:mm:{{{q}}}:ticket:{t}:changes"


def mm_user(q: str, u: str) -> str:
    return f"{PREFIX}:mm:{{{q}}}:user:{u}"


def mm_pending(q: str) -> str:
    return f"{PREFIX}:mm:{{{q}}}:pending"


def mm_match(q: str, m: str) -> str:
    return f"{PREFIX}:mm:{{{q}}}:match:{m}"


def ratings(kind: str) -> str:
    return f"{PREFIX}:{{rating:{kind}}}:players"


def leaderboard(kind: str) -> str:
    return f"{PREFIX}:{{rating:{kind}}}:board"


def rating_history(kind: str, u: str) -> str:
    return f"{PREFIX}:{{rating:{kind}}}:history:{u}"


def rated(kind: str, g: str) -> str:
    return f"{PREFIX}:{{rating:{kind}}}:rated:{g}"


# | flotilla:rooms:presence | ZSET | "<room>:<user>" -> last ms a seated player's WatchRoom stream was alive |
ROOMS_PRESENCE = f"{PREFIX}:rooms:presence"
# | flotilla:rooms:starting | ZSET | room -> when a start began (ms); a start left midway is finished by a matchmaker |
ROOMS_STARTING = f"{PREFIX}:rooms:starting"


# --- parties (lobby/parties.py). Every party key shares the tag {party}: a party's scripts touch
# its members' keys too, so they must be on one slot (one slot serves every party; parties change
# at human pace). A party's keys expire when it does (FLOTILLA_PARTY_TTL after its creation).
# | flotilla:{party}:p:<p> | HASH | leader, members (JSON [{user, name}] in join order), created_ms, expires_ms, |
# | | | ticket ("<queue> <ticket id>" of its latest ticket); PEXPIREAT expires_ms |
# | flotilla:{party}:p:<p>:invites | ZSET | invited user -> when the invitation lapses (ms); PEXPIREAT expires_ms |
# | flotilla:{party}:user:<u> | STRING | the user's party (at most one); PEXPIREAT the party's expires_ms |
# | flotilla:{party}:invited:<u> | ZSET | party -> when the invitation lapses (ms); expires with its last one |
def party(p: str) -> str:
    return f"{PREFIX}:{{party}}:p:{p}"


def party_invites(p: str) -> str:
    return f"{PREFIX}:{{party}}:p:{p}:invites"


def party_of_user(u: str) -> str:
    return f"{PREFIX}:{{party}}:user:{u}"


def party_invited(u: str) -> str:
    return f"{PREFIX}:{{party}}:invited:{u}"


# --- rate limits and quotas (app/limits.py; docs/security.md) ---------------------
# | flotilla:limit:{<limit>:<subject>} | STRING | a rate limit's GCRA bucket: its theoretical arrival time (ms); |
# | | | PX until the bucket is full again (an idle subject holds no key) |
# | flotilla:held:{<user>}:<what> | ZSET | games or rooms the user created that may still be open (score 0); |
# | | | closed ones are dropped when the quota is full; TTL FLOTILLA_FINISHED_TTL, renewed on each add |
# | flotilla:held:{<subject>}:waiting_tickets | ZSET | "<queue> <ticket id>" a user, or an address (subject |
# | | | `address:<address>`), created that may still wait; the same upkeep as above |
# | flotilla:held:{address:<address>}:new_queues | ZSET | queues the address (or a bot account: `{<user>}`) |
# | | | opened that may still be in use; the same upkeep as above |
# | flotilla:streams:{<subject>} | ZSET | open stream leases "<gateway>:<n>" -> expiry ms, of a user or an anonymous |
# | | | address; renewed by their gateway every third of the lease; TTL the lease |


def limit_bucket(limit: str, subject: str) -> str:
    return f"{PREFIX}:limit:{{{limit}:{subject}}}"


def held(user: str, what: str) -> str:
    return f"{PREFIX}:held:{{{user}}}:{what}"


def stream_leases(subject: str) -> str:
    return f"{PREFIX}:streams:{{{subject}}}"
