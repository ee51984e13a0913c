-- Rate limits (GCRA) for a batch of calls, each taking one call from each of its buckets (all or
-- none), and each optionally queueing work when it passes: a gateway's whole pipeline of moves in
-- one script, so a move costs its XADD plus a share of the buckets' reads and writes.
-- A bucket holds its theoretical arrival time (TAT, ms of the server's clock) with a TTL, so an
-- idle bucket costs nothing and vanishes. A bucket with `interval` ms between calls and `burst`
-- calls at once lets a call through when TAT + interval - burst * interval <= now.
-- KEYS[1..nb] = flotilla:limit:{<limit>:<subject>}   KEYS[nb+1 ..] = work streams
-- ARGV[1] = nb   ARGV[2] = 1 to take, -1 to give back (calls refused by another check)
-- ARGV[1 + 2b], ARGV[2 + 2b] = interval (ms, may be fractional) and burst of bucket b
-- then one record per call, in order: stream (0: none, else its index among the streams),
-- k, k bucket indexes, f, f stream fields and values (XADD'ed when every bucket passes)
-- On Redis Cluster every bucket is its own slot: callers send one bucket and no stream.
-- Returns, per call: 0 (passed: taken, queued) or {j, retry-after ms} of its j-th bucket, which
-- refused (then nothing of that call was written).
local nb = tonumber(ARGV[1])
local take = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval, burst, tat, touched = {}, {}, {}, {}
for b = 1, nb do
  interval[b] = tonumber(ARGV[1 + 2 * b])
  burst[b] = tonumber(ARGV[2 + 2 * b])
end
-- Every bucket's TAT in one MGET a chunk (one call, not one GET a bucket; unpack's stack is bounded).
for first = 1, nb, 1000 do
  local last = math.min(first + 999, nb)
  local stored = redis.call('MGET', unpack(KEYS, first, last))
  for b = first, last do
    local v = now
    if stored[b - first + 1] then v = tonumber(stored[b - first + 1]) end
    if v < now then v = now end
    tat[b] = v
  end
end
local out = {}
local i = 3 + 2 * nb
while i <= #ARGV do
  local stream = tonumber(ARGV[i])
  local k = tonumber(ARGV[i + 1])
  i = i + 2
  local mine, new, refused = {}, {}, nil
  for j = 1, k do mine[j] = tonumber(ARGV[i + j - 1]) end
  i = i + k
  local f = tonumber(ARGV[i])
  i = i + 1
  for j = 1, k do
    local b = mine[j]
    if take < 0 then
      new[j] = tat[b] - interval[b]
    else
      new[j] = tat[b] + interval[b]
      local allow_at = new[j] - burst[b] * interval[b]
      if allow_at > now then
        refused = {j, math.ceil(allow_at - now)}
        break
      end
    end
  end
  if refused then
    out[#out + 1] = refused
  else
    for j = 1, k do
      tat[mine[j]] = new[j]
      touched[mine[j]] = true
    end
    if stream > 0 then
      local fields = {}
      for x = i, i + f - 1 do fields[#fields + 1] = ARGV[x] end
      redis.call('XADD', KEYS[nb + stream], '*', unpack(fields))
    end
    out[#out + 1] = 0
  end
  i = i + f
end
for b in pairs(touched) do
  if tat[b] > now then
    redis.call('SET', KEYS[b], tat[b], 'PX', math.ceil(tat[b] - now))
  else
    redis.call('DEL', KEYS[b])
  end
end
return out
