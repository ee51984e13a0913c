-- Take a room-presence entry that went stale, only if it was not refreshed meanwhile.
-- KEYS[1] = flotilla:rooms:presence   ARGV[1] = member "<room>:<user>"   ARGV[2] = the score read
-- Returns 1 when taken (the caller frees the seat), 0 when the player came back.
if redis.call('ZSCORE', KEYS[1], ARGV[1]) ~= ARGV[2] then
  return 0
end
redis.call('ZREM', KEYS[1], ARGV[1])
return 1
