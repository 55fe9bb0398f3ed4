-- release: drop a resource lease the caller still holds. The counter stays.
-- KEYS[1] lease   KEYS[2] epoch
-- ARGV[1] owner   ARGV[2] token   ARGV[3] namespace epoch
-- Returns 1 released, 0 ownership lost, -1 epoch mismatch.
if redis.call('GET', KEYS[2]) ~= ARGV[3] then
  return -1
end
if redis.call('GET', KEYS[1]) ~= ARGV[1] .. '|' .. ARGV[2] then
  return 0
end
redis.call('DEL', KEYS[1])
return 1
