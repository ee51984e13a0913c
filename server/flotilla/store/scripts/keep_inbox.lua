-- Keep a gateway's inbox alive: create it (empty) if it is missing, then (re)set its TTL.
-- Workers add to it with XADD NOMKSTREAM, so an inbox whose gateway died expires and stays gone.
-- KEYS[1] = flotilla:inbox:{<gateway>}   ARGV[1] = TTL (ms)
-- Returns 1 when the inbox was created now, 0 when it existed.
local created = 0
if redis.call('EXISTS', KEYS[1]) == 0 then
  local id = redis.call('XADD', KEYS[1], '*', 'open', '1')
  redis.call('XDEL', KEYS[1], id)
  created = 1
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return created
