-- Rotate the token-signing keys: the new key signs from now on, the previous one only verifies,
-- and keys superseded longer ago than the longest token lifetime are deleted (no token of theirs
-- can still be valid).
-- KEYS[1] = flotilla:keys (hash: current -> kid; k:<kid> -> JSON records.FIELDS["SigningKey"]:
--           {secret: base64, created_ms, superseded_ms: 0 while it signs}; also as s, c and r,
--           their names before issue 25, for the previous release: records.LEGACY. A key is
--           superseded when either superseded_ms or r says so: the previous release sets only r)
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
    old.superseded_ms = now
    old.r = now
    redis.call('HSET', KEYS[1], 'k:' .. current, cjson.encode(old))
  end
end
local made = {secret = ARGV[2], created_ms = now, superseded_ms = 0, s = ARGV[2], c = now, r = 0}
redis.call('HSET', KEYS[1], 'k:' .. ARGV[1], cjson.encode(made), 'current', ARGV[1])
local out = {ARGV[1]}
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local field = all[i]
  if string.sub(field, 1, 2) == 'k:' then
    local key = cjson.decode(all[i + 1])
    local superseded = math.max(key.superseded_ms or 0, key.r or 0)
    if superseded > 0 and now - superseded > tonumber(ARGV[4]) then
      redis.call('HDEL', KEYS[1], field)
      table.insert(out, string.sub(field, 3))
    end
  end
end
return out
