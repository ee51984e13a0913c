-- Remember a party's latest ticket (so that a member leaving cancels it), if the party still exists.
-- KEYS[1] = flotilla:{party}:p:<p>   ARGV[1] = "<queue> <ticket id>"
-- Returns 1 when recorded, 0 when the party is gone.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], 'ticket', ARGV[1])
return 1
