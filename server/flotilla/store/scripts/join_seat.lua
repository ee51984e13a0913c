-- Take a seat: a given one, or the lowest open one. The same user joining again gets its seat back.
-- KEYS[1] = flotilla:game:{g}   KEYS[2] = flotilla:game:{g}:seats
-- KEYS[3] = flotilla:game:{g}:events   KEYS[4] = flotilla:game:{g}:actions
-- ARGV[1] = user id   ARGV[2] = seat JSON {user, name, kind}   ARGV[3] = wanted seat or "" for any
-- Returns {seat, 1 if this join started the game else 0} on success, {-1} no such game, {-2} the wanted seat is taken or all are, {-3} bad seat,
-- {-4, held seat} the user holds another seat already (one user, one seat), {-5} the game is reserved for
-- the players it was created with (a room's or a match's, create_game.lua) and the user is not one of them.
-- A game that has not started lives under a TTL (create_game.lua); its seats share that TTL, and
-- the join that takes the last seat removes it from every key of the game.
local n = tonumber(redis.call('HGET', KEYS[1], 'seat_count'))
if not n then
  return {-1}
end
local all = redis.call('HGETALL', KEYS[2])
for i = 1, #all, 2 do
  local holder = cjson.decode(all[i + 1])
  if holder['user'] == ARGV[1] then
    if ARGV[3] == '' or ARGV[3] == all[i] then
      return {tonumber(all[i]), 0}
    end
    return {-4, tonumber(all[i])}
  end
end
if redis.call('HGET', KEYS[1], 'reserved') == '1' then
  return {-5}
end
local seat = -2
if ARGV[3] ~= '' then
  local wanted = tonumber(ARGV[3])
  if wanted < 0 or wanted >= n then
    return {-3}
  end
  if redis.call('HEXISTS', KEYS[2], ARGV[3]) == 0 then
    seat = wanted
  end
else
  for i = 0, n - 1 do
    if redis.call('HEXISTS', KEYS[2], tostring(i)) == 0 then
      seat = i
      break
    end
  end
end
if seat < 0 then
  return {seat}
end
redis.call('HSET', KEYS[2], tostring(seat), ARGV[2])
if redis.call('HLEN', KEYS[2]) == n and redis.call('HGET', KEYS[1], 'status') == 'waiting' then
  redis.call('HSET', KEYS[1], 'status', 'active')
  for i = 1, 4 do
    redis.call('PERSIST', KEYS[i])
  end
  return {seat, 1}
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[2], ttl)
end
return {seat, 0}
