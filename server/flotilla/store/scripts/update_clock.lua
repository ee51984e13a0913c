-- Store a game's seat clocks if the game is still at the expected version (the timer pass
-- starting or clearing deadlines between moves).
-- KEYS[1] = flotilla:game:{g}   ARGV[1] = expected version   ARGV[2] = seat clocks (JSON)
-- Returns 1 when stored, 0 when the version moved.
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'seatclock', ARGV[2])
return 1
