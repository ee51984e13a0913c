-- After handling a claimed timer: move it to the game's next wake-up (or remove it), unless
-- someone woke the game meanwhile (its score is no longer the claim's lease).
-- KEYS[1] = flotilla:timers   ARGV[1] = game id   ARGV[2] = the lease score it was claimed with
-- ARGV[3] = next wake-up ms, or "" for none
-- Returns 1 when settled, 0 when left alone.
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score ~= ARGV[2] then
  return 0
end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
