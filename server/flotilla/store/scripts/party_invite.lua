-- The leader invites a user (inviting again renews the invitation).
-- KEYS[1] = flotilla:{party}:p:<p>   KEYS[2] = flotilla:{party}:p:<p>:invites
-- KEYS[3] = flotilla:{party}:invited:<invitee>
-- ARGV[1] = party id   ARGV[2] = caller   ARGV[3] = invitee   ARGV[4] = now (ms)
-- ARGV[5] = invitation lifetime (ms)   ARGV[6] = largest party   ARGV[7] = most pending invitations per user
-- Returns {1, lapses at ms}; {-1} no such party of the caller's; {-2} the caller is not its leader;
-- {-3} the invitee is a member already; {-4} members + invitations would exceed ARGV[6];
-- {-5} the invitee has ARGV[7] pending invitations. Nothing changes unless {1}.
local leader = redis.call('HGET', KEYS[1], 'leader')
if not leader then
  return {-1}
end
local members = cjson.decode(redis.call('HGET', KEYS[1], 'members'))
local caller_in, invitee_in = false, false
for _, m in ipairs(members) do
  if m.user == ARGV[2] then caller_in = true end
  if m.user == ARGV[3] then invitee_in = true end
end
if not caller_in then
  return {-1}
end
if leader ~= ARGV[2] then
  return {-2}
end
if invitee_in then
  return {-3}
end
local now = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local renewing = redis.call('ZSCORE', KEYS[2], ARGV[3])
if not renewing and #members + redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[6]) then
  return {-4}
end
if not redis.call('ZSCORE', KEYS[3], ARGV[1]) and redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[7]) then
  return {-5}
end
local expires = tonumber(redis.call('HGET', KEYS[1], 'expires_ms'))
local lapses = math.min(now + tonumber(ARGV[5]), expires)
redis.call('ZADD', KEYS[2], lapses, ARGV[3])
redis.call('PEXPIREAT', KEYS[2], expires)
redis.call('ZADD', KEYS[3], lapses, ARGV[1])
local last = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[3], last[2])
return {1, lapses}
