-- Mark a game as rated (its end moves ratings), only if the game exists (no stray hash).
-- KEYS[1] = flotilla:game:{g}
-- Returns 1 when the game is marked, 0 when there is no such game.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], 'rated', '1')
return 1
