-- Store the ratings one finished game produced, exactly once per game, if no rating moved meanwhile.
-- KEYS[1] = flotilla:{rating:<kind>}:rated:<g> (guard)   KEYS[2] = ...:players (hash)   KEYS[3] = ...:board (zset)
-- KEYS[4..] = ...:history:<u> of each rated user
-- ARGV[1] = n (users)   then n user ids, n previous rating JSONs ("" for none, as read),
-- n new rating JSONs, n ordinals, n history entries (JSON), then how long to keep the guard (ms; 0: for good)
-- Returns 1 when rated now, 0 when this game was rated before, -1 when a rating moved (re-read and retry).
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local n = tonumber(ARGV[1])
for i = 1, n do
  local current = redis.call('HGET', KEYS[2], ARGV[1 + i]) or ''
  if current ~= ARGV[1 + n + i] then
    return -1
  end
end
for i = 1, n do
  local user = ARGV[1 + i]
  redis.call('HSET', KEYS[2], user, ARGV[1 + 2 * n + i])
  redis.call('ZADD', KEYS[3], tonumber(ARGV[1 + 3 * n + i]), user)
  redis.call('LPUSH', KEYS[3 + i], ARGV[1 + 4 * n + i])
  redis.call('LTRIM', KEYS[3 + i], 0, 999)
end
local keep = tonumber(ARGV[2 + 5 * n])
if keep and keep > 0 then
  redis.call('SET', KEYS[1], '1', 'PX', keep)
else
  redis.call('SET', KEYS[1], '1')
end
return 1
