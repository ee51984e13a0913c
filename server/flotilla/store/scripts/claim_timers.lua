-- Claim due timers: every game whose wake-up time has passed is pushed `lease` ms into the
-- future and returned, so one worker handles it; if that worker dies, it is due again later.
-- KEYS[1] = flotilla:timers (zset game id -> wake-up ms)
-- ARGV[1] = now ms   ARGV[2] = lease ms   ARGV[3] = at most this many
-- Returns the claimed game ids.
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local until_ms = tonumber(ARGV[1]) + tonumber(ARGV[2])
for _, game in ipairs(due) do
  redis.call('ZADD', KEYS[1], until_ms, game)
end
return due
