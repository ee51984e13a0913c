-- Mark a claimed match's tickets matched to their game (once; later calls change nothing).
-- KEYS[1] = flotilla:mm:{q}:pending   KEYS[2] = flotilla:mm:{q}:match:<m>
-- KEYS[3..] = pairs: flotilla:mm:{q}:ticket:<t>, its changes stream
-- ARGV[1] = match id   ARGV[2] = game id   ARGV[3..] = per ticket: seats JSON {user: seat}
-- Returns 1 when done now, 0 when it was done before.
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return 0
end
for i = 3, #ARGV do
  local ticket = KEYS[3 + (i - 3) * 2]
  local changes = KEYS[4 + (i - 3) * 2]
  redis.call('HSET', ticket, 'state', 'matched', 'game', ARGV[2], 'seats', ARGV[i])
  redis.call('XADD', changes, '*', 'state', 'matched')
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
return 1
