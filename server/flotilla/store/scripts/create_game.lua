-- Create a game with its initial state and first stream entry (once: an existing id is left alone).
-- GENERATED from flotilla/store/create_script.py (lua_prelude); the test checks it.
-- KEYS[1] game: flotilla:game:{g} (hash)
-- KEYS[2] events: flotilla:game:{g}:events (stream; its first entry, records.Entry)
-- KEYS[3] seats: flotilla:game:{g}:seats (hash: seat -> holder)
-- ARGV[1] version: the first entry's version (its last event id)
-- ARGV[2] state: the initial state (GameHost.dumps)
-- ARGV[3] events: the event rows (JSON; field e of the entry)
-- ARGV[4] prompts: the prompts by seat (JSON; field p)
-- ARGV[5] to_act: the seats to act (JSON; field a)
-- ARGV[6] kind: the game kind
-- ARGV[7] rules_version: the rules version
-- ARGV[8] seat_count: the number of seats
-- ARGV[9] options: the options (JSON)
-- ARGV[10] created_ms: when it was created (ms)
-- ARGV[11] seed_sha256: the seed commitment
-- ARGV[12] clock: the clock config (JSON), or ''
-- ARGV[13] seatclock: the seat clocks (JSON, app/clocks.py), or ''
-- ARGV[14] private_code: the join code of a private game, or ''
-- ARGV[15] lineage: the first entry's lineage (app/lineage.py): the head, field h
-- ARGV[16] unstarted_ttl_s: seconds the game lives unless every seat is taken (join_seat.lua drops the TTL); 0: none
-- ARGV[17] holders: '' (open seats), or every seat's holder, a JSON array of {user, name, kind} in seat order: the game starts with them seated, in this one step, and is reserved (join_seat.lua lets nobody else in)
-- Returns:
--    1 CREATED: created
--    0 EXISTS: the game already exists (with these holders, if given): nothing written
--   -1 HELD_BY_OTHERS: it exists with other holders: nothing written
local k_game = KEYS[1]
local k_events = KEYS[2]
local k_seats = KEYS[3]
local version = ARGV[1]
local state = ARGV[2]
local events = ARGV[3]
local prompts = ARGV[4]
local to_act = ARGV[5]
local kind = ARGV[6]
local rules_version = ARGV[7]
local seat_count = ARGV[8]
local options = ARGV[9]
local created_ms = ARGV[10]
local seed_sha256 = ARGV[11]
local clock = ARGV[12]
local seatclock = ARGV[13]
local private_code = ARGV[14]
local lineage = ARGV[15]
local unstarted_ttl_s = ARGV[16]
local holders = ARGV[17]
local function users(list)
  local out = {}
  for i, holder in ipairs(list) do
    out[tostring(i - 1)] = holder['user']
  end
  return out
end
local seated = nil
if holders ~= '' then
  seated = cjson.decode(holders)
end
if redis.call('EXISTS', k_game) == 1 then
  if seated then
    local wanted = users(seated)
    local all = redis.call('HGETALL', k_seats)
    if #all ~= 2 * #seated then
      return -1
    end
    for i = 1, #all, 2 do
      if wanted[all[i]] ~= cjson.decode(all[i + 1])['user'] then
        return -1
      end
    end
  end
  return 0
end
local status = 'waiting'
if seated then
  status = 'active'
end
redis.call('HSET', k_game, 'version', version, 'state', state, 'to_act', to_act, 'status', status,
  'kind', kind, 'rules_version', rules_version, 'seat_count', seat_count, 'options', options, 'created_ms', created_ms,
  'seed_sha256', seed_sha256, 'clock', clock, 'seatclock', seatclock, 'private_code', private_code, 'head', lineage)
redis.call('XADD', k_events, '0-' .. version, 'v', version, 'e', events, 'p', prompts, 'a', to_act, 'h', lineage, 'ph', '')
if seated then
  redis.call('HSET', k_game, 'reserved', '1')
  for i, holder in ipairs(seated) do
    redis.call('HSET', k_seats, tostring(i - 1), cjson.encode(holder))
  end
  return 1
end
local ttl = tonumber(unstarted_ttl_s)
if ttl and ttl > 0 then
  redis.call('EXPIRE', k_game, ttl)
  redis.call('EXPIRE', k_events, ttl)
end
return 1
