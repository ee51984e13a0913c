-- Take over the pending messages of a dead consumer (its liveness key is gone), then remove the
-- consumer once it holds nothing. Atomic, so of several workers sweeping at once only one claims.
-- KEYS[1] = a work stream
-- ARGV[1] = group   ARGV[2] = the dead consumer   ARGV[3] = the claiming consumer   ARGV[4] = at most this many
-- Returns the claimed entries as XCLAIM does: {id, {field, value, ...}} each.
local rows = redis.call('XPENDING', KEYS[1], ARGV[1], '-', '+', ARGV[4], ARGV[2])
local ids = {}
for i, row in ipairs(rows) do
  ids[i] = row[1]
end
local claimed = {}
if #ids > 0 then
  claimed = redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[3], 0, unpack(ids))
end
if #ids < tonumber(ARGV[4]) then
  redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], ARGV[2])
end
return claimed
