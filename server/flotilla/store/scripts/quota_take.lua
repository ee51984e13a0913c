-- A quota of things a subject holds at once (open games or rooms of a user, its open streams).
-- KEYS[1] = a ZSET member -> expiry ms (open games/rooms: no expiry, score 0 = kept until reconciled)
-- ARGV[1] = member   ARGV[2] = max   ARGV[3] = the key's TTL (ms)   ARGV[4] = the lease (ms; 0: none)
-- Leased members whose expiry passed are dropped first. A member held already is renewed and passes.
-- Returns 0 when the member is held now, or the number held when the quota is full (nothing written).
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[4])
if lease > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], 1, now)
end
local held = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not held then
  local count = redis.call('ZCARD', KEYS[1])
  if count >= tonumber(ARGV[2]) then
    return count
  end
end
local score = 0
if lease > 0 then score = now + lease end
redis.call('ZADD', KEYS[1], score, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 0
