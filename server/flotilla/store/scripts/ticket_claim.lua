-- Claim the tickets of one proposed match, only if every one of them is still waiting.
-- This is what makes any number of matchmakers safe: no ticket can be claimed twice.
-- KEYS[1] = flotilla:mm:{q}:waiting   KEYS[2] = flotilla:mm:{q}:pending   KEYS[3] = flotilla:mm:{q}:match:<m>
-- KEYS[4..] = flotilla:mm:{q}:ticket:<t> of each ticket
-- ARGV[1] = match id   ARGV[2] = match JSON   ARGV[3] = now ms   ARGV[4..] = the ticket ids (as KEYS[4..])
-- Returns 1 when claimed, 0 when some ticket was no longer waiting (nothing changed).
for i = 4, #ARGV do
  if not redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    return 0
  end
end
for i = 4, #ARGV do
  redis.call('ZREM', KEYS[1], ARGV[i])
  redis.call('HSET', KEYS[i], 'state', 'claimed', 'match', ARGV[1])
end
redis.call('SET', KEYS[3], ARGV[2])
redis.call('ZADD', KEYS[2], tonumber(ARGV[3]), ARGV[1])
return 1
