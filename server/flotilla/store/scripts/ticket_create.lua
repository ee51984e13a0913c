-- Queue a matchmaking ticket once (the same ticket id again changes nothing).
-- KEYS[1] = flotilla:mm:{q}:waiting   KEYS[2] = flotilla:mm:{q}:ticket:<t>   KEYS[3] = its changes stream
-- ARGV[1] = ticket id   ARGV[2] = ticket JSON   ARGV[3] = enqueue ms   ARGV[4] = TTL (s)
-- Returns 1 when queued, 0 when the ticket exists already.
if redis.call('EXISTS', KEYS[2]) == 1 then
  return 0
end
redis.call('HSET', KEYS[2], 'data', ARGV[2], 'state', 'searching')
redis.call('ZADD', KEYS[1], tonumber(ARGV[3]), ARGV[1])
redis.call('XADD', KEYS[3], '*', 'state', 'searching')
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[4]))
redis.call('EXPIRE', KEYS[3], tonumber(ARGV[4]))
return 1
