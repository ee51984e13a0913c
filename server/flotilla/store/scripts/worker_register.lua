-- A worker's liveness renewal, in the registry: its consumer's score is when its liveness key
-- lapses unless renewed, in Redis's own clock (so the hosts' clocks never matter).
-- KEYS[1] = flotilla:workers   ARGV[1] = consumer   ARGV[2] = the liveness key's TTL (ms)
-- ARGV[3] = the registry's own TTL (ms): it lapses once no worker has renewed for that long
local t = redis.call('TIME')
redis.call('ZADD', KEYS[1], t[1] * 1000 + math.floor(t[2] / 1000) + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
