-- End a waiting ticket (cancelled or expired), only if it is still waiting.
-- KEYS[1] = flotilla:mm:{q}:waiting   KEYS[2] = flotilla:mm:{q}:ticket:<t>   KEYS[3] = its changes stream
-- ARGV[1] = ticket id   ARGV[2] = the new state ("cancelled" or "expired")
-- Returns 1 when ended now, 0 when it was not waiting (matched, claimed or ended before).
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[2], 'state', ARGV[2])
redis.call('XADD', KEYS[3], '*', 'state', ARGV[2])
return 1
