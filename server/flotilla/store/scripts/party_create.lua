-- Form a party led by its creator, once (the same party id again changes nothing).
-- KEYS[1] = flotilla:{party}:p:<p>   KEYS[2] = flotilla:{party}:user:<creator>
-- ARGV[1] = party id   ARGV[2] = creator's user id   ARGV[3] = creator's display name
-- ARGV[4] = now (ms)   ARGV[5] = when the party expires (ms)
-- Returns {1} when formed, {0} when the party exists already (the caller checks who is in it),
-- {-1, party id} when the creator is in another party (nothing changed).
if redis.call('EXISTS', KEYS[1]) == 1 then
  return {0}
end
local current = redis.call('GET', KEYS[2])
if current and current ~= ARGV[1] then
  return {-1, current}
end
local members = cjson.encode({{user = ARGV[2], name = ARGV[3]}})
redis.call('HSET', KEYS[1], 'leader', ARGV[2], 'members', members, 'created_ms', ARGV[4], 'expires_ms', ARGV[5])
redis.call('PEXPIREAT', KEYS[1], ARGV[5])
redis.call('SET', KEYS[2], ARGV[1], 'PXAT', ARGV[5])
return {1}
