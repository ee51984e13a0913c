-- Commit one transition if the game is still at the expected version (and clocks and status).
-- KEYS[1] = flotilla:game:{g}            (hash: version, state, status, to_act, result)
-- KEYS[2] = flotilla:game:{g}:events     (stream; entry id 0-<new version>)
-- KEYS[3] = flotilla:game:{g}:actions    (list: the replay log)
-- KEYS[4] = flotilla:game:{g}:req:<seat>:{r}  (cached outcome of this seat's request id)
-- KEYS[5] = flotilla:game:{g}:seats      (expired with the game)
-- KEYS[6] = the work stream to acknowledge the work on, KEYS[7] = the inbox to answer (single
--           Redis only: another slot in a cluster; with ARGV[20] / ARGV[23] = '0' untouched)
-- ARGV[1] = expected version   ARGV[2] = new version (last event id)   ARGV[3] = new state
-- ARGV[4] = encoded events     ARGV[5] = encoded prompts   ARGV[6] = to_act (JSON)
-- ARGV[7] = new status or ""   ARGV[8] = result (JSON or "")   ARGV[9] = action record
-- ARGV[10] = encoded outcome   ARGV[11] = outcome TTL (s)   ARGV[12] = seat clocks (JSON) or ""
-- ARGV[13] = seconds to keep a game this commit ends (0: forever)
-- ARGV[14] = expected lineage (the game's head; "" for a game stored before lineages)
-- ARGV[15] = this commit's lineage (app/lineage.py): the new head, and field h of the entry
--            (field ph holds the previous head, so a reader can check the chain)
-- ARGV[16] = the seat and ARGV[17] the request id whose action this is (fields s and r of the
--            entry: the mover's gateway answers the request from the entry; records.Entry)
-- ARGV[18] = '1' to compare status and seat clocks too: ARGV[19] expected status, ARGV[20]
--            expected seat clocks (joins and clock starts change them without a new version)
-- ARGV[21] = '1' to acknowledge and delete the work entry: ARGV[22] group, ARGV[23] entry id
-- ARGV[24] = '1' to answer the inbox (records.InboxReply: fields g, s, r, o), '2' to answer it
--            only when the request was applied before (a fresh commit is answered from its
--            entry by the mover's gateway, which follows the feed): ARGV[25] game id
-- Returns {1, status} when committed, {0, outcome} when this request id was already applied,
-- {-1, current version} when the game moved (the caller reloads and retries; nothing written).
local function settle(outcome, again)
  if ARGV[21] == '1' then
    redis.call('XACK', KEYS[6], ARGV[22], ARGV[23])
    redis.call('XDEL', KEYS[6], ARGV[23])
  end
  if ARGV[24] == '1' or (again and ARGV[24] == '2') then  -- NOMKSTREAM: a dead gateway's inbox stays gone
    redis.call('XADD', KEYS[7], 'NOMKSTREAM', 'MAXLEN', '~', 100000, '*', 'g', ARGV[25], 's', ARGV[16],
      'r', ARGV[17], 'o', outcome)
  end
end
local cached = redis.call('GET', KEYS[4])
if cached then
  settle(cached, true)
  return {0, cached}
end
local current = redis.call('HMGET', KEYS[1], 'version', 'head', 'status', 'seatclock')
local version = current[1]
if version ~= ARGV[1] or (current[2] or '') ~= ARGV[14] then
  return {-1, version or ''}
end
if ARGV[18] == '1' and ((current[3] or '') ~= ARGV[19] or (current[4] or '') ~= ARGV[20]) then
  return {-1, version}
end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'state', ARGV[3], 'to_act', ARGV[6], 'head', ARGV[15])
if ARGV[7] ~= '' then
  redis.call('HSET', KEYS[1], 'status', ARGV[7])
end
if ARGV[8] ~= '' then
  redis.call('HSET', KEYS[1], 'result', ARGV[8])
end
if ARGV[12] ~= '' then
  redis.call('HSET', KEYS[1], 'seatclock', ARGV[12])
end
redis.call('XADD', KEYS[2], '0-' .. ARGV[2], 'v', ARGV[2], 'e', ARGV[4], 'p', ARGV[5], 'a', ARGV[6],
  'h', ARGV[15], 'ph', ARGV[14], 's', ARGV[16], 'r', ARGV[17])
if ARGV[9] ~= '' then
  redis.call('RPUSH', KEYS[3], ARGV[9])
end
redis.call('SET', KEYS[4], ARGV[10], 'EX', tonumber(ARGV[11]))
local retain = tonumber(ARGV[13])
if ARGV[7] ~= '' and retain and retain > 0 then
  for i = 1, 3 do
    redis.call('EXPIRE', KEYS[i], retain)
  end
  redis.call('EXPIRE', KEYS[5], retain)
end
settle(ARGV[10], false)
return {1, redis.call('HGET', KEYS[1], 'status')}
