-- Rate limits (GCRA): take one call from every bucket, or from none; optionally queue work when all pass.
-- A bucket holds its theoretical arrival time (TAT, ms of the server's clock) with a TTL, so an
-- idle bucket costs nothing and vanishes. A bucket with `interval` ms between calls and `burst`
-- calls at once lets a call through when TAT + interval - burst * interval <= now.
-- KEYS[1..n] = flotilla:limit:{<limit>:<subject>}   KEYS[n+1] (optional) = a work stream
-- ARGV[1] = n   ARGV[2] = 1 to take, -1 to give back (a call refused by another bucket)
-- ARGV[3 + 2i], ARGV[4 + 2i] = interval (ms, may be fractional) and burst of bucket i+1
-- ARGV[3 + 2n ..] = the stream entry's fields and values (XADD'ed only when every bucket passes)
-- On Redis Cluster every bucket is its own slot: callers send one bucket per script (n = 1).
-- Returns {0} when every bucket passed (and the entry was added), else {i, retry-after ms} of the
-- first bucket that refused; then nothing was written.
local n = tonumber(ARGV[1])
local take = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local tats = {}
for i = 1, n do
  local interval = tonumber(ARGV[1 + 2 * i])
  local burst = tonumber(ARGV[2 + 2 * i])
  local tat = tonumber(redis.call('GET', KEYS[i]) or now)
  if tat < now then tat = now end
  if take < 0 then
    tats[i] = tat - interval
  else
    tats[i] = tat + interval
    local allow_at = tats[i] - burst * interval
    if allow_at > now then
      return {i, math.ceil(allow_at - now)}
    end
  end
end
for i = 1, n do
  if tats[i] > now then
    redis.call('SET', KEYS[i], tats[i], 'PX', math.ceil(tats[i] - now))
  else
    redis.call('DEL', KEYS[i])
  end
end
if #KEYS > n then
  local fields = {}
  for j = 3 + 2 * n, #ARGV do fields[#fields + 1] = ARGV[j] end
  redis.call('XADD', KEYS[n + 1], '*', unpack(fields))
end
return {0}
