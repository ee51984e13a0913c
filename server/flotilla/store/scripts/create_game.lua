-- Create a game with its initial state and first stream entry (once: an existing id is left alone).
-- KEYS[1] = flotilla:game:{g}   KEYS[2] = flotilla:game:{g}:events   KEYS[3] = flotilla:game:{g}:seats
-- ARGV[1] = version (last event id of the first entry)   ARGV[2] = state   ARGV[3] = events
-- ARGV[4] = prompts   ARGV[5] = to_act   ARGV[6] = kind   ARGV[7] = rules version
-- ARGV[8] = seat count   ARGV[9] = options (JSON)   ARGV[10] = created ms   ARGV[11] = seed commitment
-- ARGV[12] = clock config (JSON)   ARGV[13] = seat clocks (JSON)   ARGV[14] = join code of a private game or ""
-- ARGV[15] = the first entry's lineage (app/lineage.py)
-- ARGV[16] = seconds the game lives unless every seat is taken (join_seat.lua removes the TTL); 0: no TTL
-- ARGV[17] = "" (open seats), or every seat's holder, a JSON array of {user, name, kind} in seat order: the
--            game starts with them seated, in this one step, and is reserved (join_seat.lua lets
--            nobody else in). A room's or a match's game: its players are seated all or none.
-- Returns 1 when created, 0 when the game already exists (with these holders, if given), -1 when
-- it exists with other holders.
local function users(holders)
  local out = {}
  for i, holder in ipairs(holders) do
    out[tostring(i - 1)] = holder['user']
  end
  return out
end
local seated = nil
if ARGV[17] ~= '' then
  seated = cjson.decode(ARGV[17])
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  if seated then
    local wanted = users(seated)
    local all = redis.call('HGETALL', KEYS[3])
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
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'state', ARGV[2], 'to_act', ARGV[5], 'status', status,
  'kind', ARGV[6], 'rules_version', ARGV[7], 'seat_count', ARGV[8], 'options', ARGV[9], 'created_ms', ARGV[10],
  'seed_sha256', ARGV[11], 'clock', ARGV[12], 'seatclock', ARGV[13], 'private_code', ARGV[14], 'head', ARGV[15])
redis.call('XADD', KEYS[2], '0-' .. ARGV[1], 'v', ARGV[1], 'e', ARGV[3], 'p', ARGV[4], 'a', ARGV[5], 'h', ARGV[15], 'ph', '')
if seated then
  redis.call('HSET', KEYS[1], 'reserved', '1')
  for i, holder in ipairs(seated) do
    redis.call('HSET', KEYS[3], tostring(i - 1), cjson.encode(holder))
  end
  return 1
end
local ttl = tonumber(ARGV[16])
if ttl and ttl > 0 then
  redis.call('EXPIRE', KEYS[1], ttl)
  redis.call('EXPIRE', KEYS[2], ttl)
end
return 1
