-- Remove a member from a sorted set only if its score is still the one read (a listing entry
-- re-added meanwhile, e.g. for a game re-created under the same id, is kept).
-- KEYS[1] = the sorted set   ARGV[1] = member   ARGV[2] = score as read
-- Returns 1 when removed, 0 otherwise.
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
