-- A member leaves; the next member in join order leads if the leader left; the last one out
-- ends the party.
-- KEYS[1] = flotilla:{party}:p:<p>   KEYS[2] = flotilla:{party}:p:<p>:invites   KEYS[3] = flotilla:{party}:user:<user>
-- ARGV[1] = party id   ARGV[2] = user
-- Returns {1, ticket} left, {2, ticket} left and the party ended, {-1} not a member (nothing
-- changed); `ticket` is the party's latest ticket ("<queue> <ticket id>", "" if none) to cancel.
local raw = redis.call('HGET', KEYS[1], 'members')
if not raw then
  return {-1}
end
local members, kept = cjson.decode(raw), {}
for _, m in ipairs(members) do
  if m.user ~= ARGV[2] then table.insert(kept, m) end
end
if #kept == #members then
  return {-1}
end
local ticket = redis.call('HGET', KEYS[1], 'ticket') or ''
if redis.call('GET', KEYS[3]) == ARGV[1] then
  redis.call('DEL', KEYS[3])
end
if #kept == 0 then
  redis.call('DEL', KEYS[1], KEYS[2])
  return {2, ticket}
end
-- The leader is always the first member (the creator, then the oldest member left).
redis.call('HSET', KEYS[1], 'members', cjson.encode(kept), 'leader', kept[1].user)
redis.call('HDEL', KEYS[1], 'ticket')
return {1, ticket}
