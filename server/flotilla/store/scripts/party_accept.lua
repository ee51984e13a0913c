-- The invited user joins the party (accepting again, once a member, changes nothing).
-- KEYS[1] = flotilla:{party}:p:<p>   KEYS[2] = flotilla:{party}:p:<p>:invites
-- KEYS[3] = flotilla:{party}:invited:<user>   KEYS[4] = flotilla:{party}:user:<user>
-- ARGV[1] = party id   ARGV[2] = user   ARGV[3] = display name   ARGV[4] = now (ms)   ARGV[5] = largest party
-- Returns {1} joined; {0} a member already; {-1} no pending invitation for this user (or no party);
-- {-2, party id} the user is in another party; {-3} the party is full. Nothing changes unless {1}
-- (but a lapsed invitation is dropped).
if redis.call('GET', KEYS[4]) == ARGV[1] and redis.call('EXISTS', KEYS[1]) == 1 then
  return {0}
end
local lapses = redis.call('ZSCORE', KEYS[2], ARGV[2])
if not lapses or tonumber(lapses) <= tonumber(ARGV[4]) or redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('ZREM', KEYS[2], ARGV[2])
  redis.call('ZREM', KEYS[3], ARGV[1])
  return {-1}
end
local current = redis.call('GET', KEYS[4])
if current and current ~= ARGV[1] then
  return {-2, current}
end
local members = cjson.decode(redis.call('HGET', KEYS[1], 'members'))
if #members >= tonumber(ARGV[5]) then
  return {-3}
end
table.insert(members, {user = ARGV[2], name = ARGV[3]})
redis.call('HSET', KEYS[1], 'members', cjson.encode(members))
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('SET', KEYS[4], ARGV[1], 'PXAT', redis.call('HGET', KEYS[1], 'expires_ms'))
return {1}
