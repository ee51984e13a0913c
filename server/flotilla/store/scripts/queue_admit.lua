-- Admit a matchmaking queue to the set of queues, within a bound (a queue already in it always is).
-- KEYS[1] = flotilla:mm:queues   ARGV[1] = queue   ARGV[2] = most queues in the set (0: no bound)
-- Returns 1 when the queue is in the set now, 0 when the set is full (nothing changed).
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then
  return 1
end
local most = tonumber(ARGV[2])
if most > 0 and redis.call('SCARD', KEYS[1]) >= most then
  return 0
end
redis.call('SADD', KEYS[1], ARGV[1])
return 1
