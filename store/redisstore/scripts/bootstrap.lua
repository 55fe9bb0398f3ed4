-- bootstrap: create the fencing history of one conflict key.
-- KEYS[1] counter   KEYS[2] epoch
-- ARGV[1] namespace epoch   ARGV[2] counter start
-- The counter never goes down: an existing higher counter is kept.
-- Returns {epoch, counter}.
redis.call('SET', KEYS[2], ARGV[1])
local counter = tonumber(redis.call('GET', KEYS[1]) or '-1')
if counter < tonumber(ARGV[2]) then
  counter = tonumber(ARGV[2])
  redis.call('SET', KEYS[1], counter)
end
return {tonumber(ARGV[1]), counter}
