-- renew: extend a resource lease the caller still holds.
-- KEYS[1] lease   KEYS[2] epoch
-- ARGV[1] owner   ARGV[2] token   ARGV[3] ttl in ms   ARGV[4] namespace epoch
-- Returns 1 renewed, 0 ownership lost, -1 epoch mismatch.
if redis.call('GET', KEYS[2]) ~= ARGV[4] then
  return -1
end
if redis.call('GET', KEYS[1]) ~= ARGV[1] .. '|' .. ARGV[2] then
  return 0
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
