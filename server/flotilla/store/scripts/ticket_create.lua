-- Queue a matchmaking ticket once (the same ticket id again changes nothing); a user waits in
-- at most one ticket per queue.
-- KEYS[1] = flotilla:mm:{q}:waiting   KEYS[2] = flotilla:mm:{q}:ticket:<t>   KEYS[3] = its changes stream
-- KEYS[4..] = flotilla:mm:{q}:user:<u> of each party member (each holds the user's latest ticket id)
-- ARGV[1] = ticket id   ARGV[2] = ticket JSON   ARGV[3] = enqueue ms   ARGV[4] = TTL (s)
-- Returns {1} when queued, {0} when the ticket exists already, {-1, other ticket id, member index (0-based)}
-- when a party member still waits in another ticket of this queue (nothing changed).
if redis.call('EXISTS', KEYS[2]) == 1 then
  return {0}
end
for i = 4, #KEYS do
  local other = redis.call('GET', KEYS[i])
  if other and other ~= ARGV[1] and redis.call('ZSCORE', KEYS[1], other) then
    return {-1, other, i - 4}
  end
end
redis.call('HSET', KEYS[2], 'data', ARGV[2], 'state', 'searching')
redis.call('ZADD', KEYS[1], tonumber(ARGV[3]), ARGV[1])
redis.call('XADD', KEYS[3], '*', 'state', 'searching')
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[4]))
redis.call('EXPIRE', KEYS[3], tonumber(ARGV[4]))
for i = 4, #KEYS do
  redis.call('SET', KEYS[i], ARGV[1], 'EX', tonumber(ARGV[4]))
end
return {1}
