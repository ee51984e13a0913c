-- The registered workers whose liveness lapsed by Redis's clock (candidates: the caller checks
-- their liveness keys, which are the truth), and in how many ms the next one lapses unless it
-- renews (-1: nobody else registered), so an idle sweeper need not look before then.
-- KEYS[1] = flotilla:workers
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local next_in = -1
local first = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
if first[2] then
  next_in = math.floor(tonumber(first[2]) - now)
end
return {redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now), next_in}
