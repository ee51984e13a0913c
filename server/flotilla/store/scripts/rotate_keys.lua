-- Rotate the token-signing keys: the new key signs from now on, the previous one only verifies,
-- and keys superseded longer ago than the longest token lifetime are deleted (no token of theirs
-- can still be valid).
-- KEYS[1] = flotilla:keys (hash: current -> kid; k:<kid> -> JSON {s: secret base64, c: created ms,
--           r: superseded ms, 0 while it signs})
-- ARGV[1] = new kid   ARGV[2] = new secret (base64)   ARGV[3] = now (ms)
-- ARGV[4] = retire keys superseded more than this many ms ago
-- ARGV[5] = "1": only if no key signs yet (a first start; every process may race to make it)
-- Returns {the kid that signs now, retired kid, ...}
local current = redis.call('HGET', KEYS[1], 'current')
if ARGV[5] == '1' and current then
  return {current}
end
local now = tonumber(ARGV[3])
if current then
  local raw = redis.call('HGET', KEYS[1], 'k:' .. current)
  if raw then
    local old = cjson.decode(raw)
    old.r = now
    redis.call('HSET', KEYS[1], 'k:' .. current, cjson.encode(old))
  end
end
redis.call('HSET', KEYS[1], 'k:' .. ARGV[1], cjson.encode({s = ARGV[2], c = now, r = 0}), 'current', ARGV[1])
local out = {ARGV[1]}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local field = all[i]
  if string.sub(field, 1, 2) == 'k:' then
    local key = cjson.decode(all[i + 1])
    if key.r > 0 and now - key.r > tonumber(ARGV[4]) then
      redis.call('HDEL', KEYS[1], field)
      table.insert(out, string.sub(field, 3))
    end
  end
end
return out
