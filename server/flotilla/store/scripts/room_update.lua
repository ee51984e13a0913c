-- Write a room's new state if it is still at the expected version (compare-and-set).
-- KEYS[1] = flotilla:room:{r}   (hash: version, data)   KEYS[2] = flotilla:room:{r}:changes (stream)
-- ARGV[1] = expected version ("0": the room must not exist yet)   ARGV[2] = new room JSON
-- ARGV[3] = TTL (s) of the room and its change stream
-- A change entry's field (records.FIELDS["RoomChange"]): room, the room JSON; also d, its name
-- before issue 25, for readers of the previous release (records.LEGACY).
-- Returns {new version} when written, {-1, current version} when the room moved or is gone.
local current = redis.call('HGET', KEYS[1], 'version') or '0'
if current ~= ARGV[1] then
  return {-1, current}
end
local version = string.format('%d', tonumber(current) + 1)
redis.call('HSET', KEYS[1], 'version', version, 'data', ARGV[2])
redis.call('XADD', KEYS[2], 'MAXLEN', '~', 64, '0-' .. version, 'room', ARGV[2], 'd', ARGV[2])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[3]))
return {tonumber(version)}
