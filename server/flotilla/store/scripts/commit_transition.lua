-- Commit one transition if the game is still at the expected version (and clocks and status).
-- GENERATED from flotilla/store/commit_script.py (lua_prelude); the test checks it.
-- KEYS[1] game: flotilla:game:{g} (hash: version, state, status, to_act, result, head, seatclock)
-- KEYS[2] events: flotilla:game:{g}:events (stream; entry id 0-<new version>; records.Entry)
-- KEYS[3] actions: flotilla:game:{g}:actions (list: the replay log; records.action_record)
-- KEYS[4] reply: flotilla:game:{g}:req:<seat>:{r} (the cached outcome of this seat's request id)
-- KEYS[5] seats: flotilla:game:{g}:seats (expired with the game)
-- KEYS[6] work_stream: the work stream to acknowledge the work on (the game key when ack is '0')
-- KEYS[7] inbox: the gateway inbox to answer (the game key when answer is '0')
-- ARGV[1] expected_version: the version the game must be at
-- ARGV[2] version: the new version (its last event id)
-- ARGV[3] state: the new state (GameHost.dumps)
-- ARGV[4] events: the event rows (JSON; field e of the entry)
-- ARGV[5] prompts: the prompts by seat (JSON, records.prompts_plain; field p)
-- ARGV[6] to_act: the seats to act (JSON; field a)
-- ARGV[7] status: the new status, or '' to keep it
-- ARGV[8] result: the result (JSON), or ''
-- ARGV[9] record: the action record to append to the replay log, or ''
-- ARGV[10] outcome: the request's outcome (records.OutcomeRecord)
-- ARGV[11] outcome_ttl_s: seconds to keep the outcome
-- ARGV[12] seatclock: the seat clocks (JSON, app/clocks.py), or '' to keep them
-- ARGV[13] retain_s: seconds to keep a game this commit ends (0: forever)
-- ARGV[14] expected_lineage: the game's head ('' before lineages); field ph of the entry
-- ARGV[15] lineage: this commit's lineage (app/lineage.py): the new head, field h
-- ARGV[16] seat: the seat whose action this is (field s; the inbox reply's s)
-- ARGV[17] request_id: its request id (field r; the inbox reply's r)
-- ARGV[18] compare_clocks: '1' to compare status and seat clocks too (joins, clock starts)
-- ARGV[19] expected_status: the status the game must have (with compare_clocks)
-- ARGV[20] expected_seatclock: the seat clocks the game must have (with compare_clocks)
-- ARGV[21] ack: '1' to XACK and XDEL the work entry (single Redis only)
-- ARGV[22] group: the work stream's consumer group
-- ARGV[23] entry_id: the work entry's id
-- ARGV[24] answer: '1' answer the inbox (records.InboxReply), '2' only a request applied before
-- ARGV[25] game_id: the game id (the inbox reply's g)
-- Returns {code, value}:
--    1 COMMITTED: committed; value: the game's status after it
--    0 ALREADY_APPLIED: this request id was applied before; value: its outcome (nothing written)
--   -1 MOVED: the game moved; value: its current version or '' (nothing written: reload, retry)
local k_game = KEYS[1]
local k_events = KEYS[2]
local k_actions = KEYS[3]
local k_reply = KEYS[4]
local k_seats = KEYS[5]
local k_work_stream = KEYS[6]
local k_inbox = KEYS[7]
local expected_version = ARGV[1]
local version = ARGV[2]
local state = ARGV[3]
local events = ARGV[4]
local prompts = ARGV[5]
local to_act = ARGV[6]
local status = ARGV[7]
local result = ARGV[8]
local record = ARGV[9]
local outcome = ARGV[10]
local outcome_ttl_s = ARGV[11]
local seatclock = ARGV[12]
local retain_s = ARGV[13]
local expected_lineage = ARGV[14]
local lineage = ARGV[15]
local seat = ARGV[16]
local request_id = ARGV[17]
local compare_clocks = ARGV[18]
local expected_status = ARGV[19]
local expected_seatclock = ARGV[20]
local ack = ARGV[21]
local group = ARGV[22]
local entry_id = ARGV[23]
local answer = ARGV[24]
local game_id = ARGV[25]
local function settle(answered, again)
  if ack == '1' then
    redis.call('XACK', k_work_stream, group, entry_id)
    redis.call('XDEL', k_work_stream, entry_id)
  end
  if answer == '1' or (again and answer == '2') then  -- NOMKSTREAM: a dead gateway's inbox stays gone
    redis.call('XADD', k_inbox, 'NOMKSTREAM', 'MAXLEN', '~', 100000, '*', 'g', game_id, 's', seat,
      'r', request_id, 'o', answered)
  end
end
local cached = redis.call('GET', k_reply)
if cached then
  settle(cached, true)
  return {0, cached}
end
local current = redis.call('HMGET', k_game, 'version', 'head', 'status', 'seatclock')
local current_version = current[1]
if current_version ~= expected_version or (current[2] or '') ~= expected_lineage then
  return {-1, current_version or ''}
end
if compare_clocks == '1' and ((current[3] or '') ~= expected_status or (current[4] or '') ~= expected_seatclock) then
  return {-1, current_version}
end
local fields = {'version', version, 'state', state, 'to_act', to_act, 'head', lineage}
if status ~= '' then
  fields[#fields + 1] = 'status'
  fields[#fields + 1] = status
end
if result ~= '' then
  fields[#fields + 1] = 'result'
  fields[#fields + 1] = result
end
if seatclock ~= '' then
  fields[#fields + 1] = 'seatclock'
  fields[#fields + 1] = seatclock
end
redis.call('HSET', k_game, unpack(fields))  -- one call (issue 26: calls per move)
redis.call('XADD', k_events, '0-' .. version, 'v', version, 'e', events, 'p', prompts, 'a', to_act,
  'h', lineage, 'ph', expected_lineage, 's', seat, 'r', request_id)
if record ~= '' then
  redis.call('RPUSH', k_actions, record)
end
redis.call('SET', k_reply, outcome, 'EX', tonumber(outcome_ttl_s))
local retain = tonumber(retain_s)
if status ~= '' and retain and retain > 0 then
  for _, key in ipairs({k_game, k_events, k_actions, k_seats}) do
    redis.call('EXPIRE', key, retain)
  end
end
settle(outcome, false)
if status == '' then
  status = current[3] or ''  -- unchanged: as read above (no HGET)
end
return {1, status}
