-- Janitor: delete what is left of a game whose hash expired (a seat list, an event stream or an
-- action log written without the game's TTL). Nothing happens while the game exists.
-- KEYS[1] = flotilla:game:{g}   KEYS[2..] = the game's other keys
-- Returns 1 when the game is gone, 0 when it exists.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
for i = 2, #KEYS do
  redis.call('DEL', KEYS[i])
end
return 1
