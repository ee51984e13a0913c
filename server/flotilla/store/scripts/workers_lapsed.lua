-- The registered workers whose liveness lapsed by Redis's clock (candidates: the caller checks
-- their liveness keys, which are the truth).
-- KEYS[1] = flotilla:workers
local t = redis.call('TIME')
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', t[1] * 1000 + math.floor(t[2] / 1000))
