-- Create a game with its initial state and first stream entry (once: an existing id is left alone).
-- KEYS[1] = flotilla:game:{g}   KEYS[2] = flotilla:game:{g}:events
-- ARGV[1] = version (last event id of the first entry)   ARGV[2] = state   ARGV[3] = events
-- ARGV[4] = prompts   ARGV[5] = to_act   ARGV[6] = kind   ARGV[7] = rules version
-- ARGV[8] = seat count   ARGV[9] = options (JSON)   ARGV[10] = created ms   ARGV[11] = seed commitment
-- ARGV[12] = clock config (JSON)   ARGV[13] = seat clocks (JSON)   ARGV[14] = join code of a private game or ""
-- ARGV[15] = the first entry's lineage (app/lineage.py)
-- ARGV[16] = seconds the game lives unless every seat is taken (join_seat.lua removes the TTL); 0: no TTL
-- Returns 1 when created, 0 when the game already exists.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'state', ARGV[2], 'to_act', ARGV[5], 'status', 'waiting',
  'kind', ARGV[6], 'rules_version', ARGV[7], 'seat_count', ARGV[8], 'options', ARGV[9], 'created_ms', ARGV[10],
  'seed_sha256', ARGV[11], 'clock', ARGV[12], 'seatclock', ARGV[13], 'private_code', ARGV[14], 'head', ARGV[15])
redis.call('XADD', KEYS[2], '0-' .. ARGV[1], 'v', ARGV[1], 'e', ARGV[3], 'p', ARGV[4], 'a', ARGV[5], 'h', ARGV[15], 'ph', '')
local ttl = tonumber(ARGV[16])
if ttl and ttl > 0 then
  redis.call('EXPIRE', KEYS[1], ttl)
  redis.call('EXPIRE', KEYS[2], ttl)
end
return 1
