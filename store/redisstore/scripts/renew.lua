-- renew: extend a resource lease the caller still holds.
-- KEYS[1] lease   KEYS[2] epoch
-- ARGV[1] owner   ARGV[2] token   ARGV[3] ttl in ms   ARGV[4] namespace epoch
-- ARGV[5] the guards removed, space-separated: "owner" takes out the check
-- that the lease is still owner|token (it then extends whatever lease is
-- there), "namespace" the comparison of epochs.
-- Returns 1 renewed, 0 ownership lost (or no lease at all), -1 epoch mismatch.
local off = {}
for name in string.gmatch(ARGV[5] or '', '%S+') do off[name] = true end
if not off['namespace'] and redis.call('GET', KEYS[2]) ~= ARGV[4] then
  return -1
end
if not off['owner'] and redis.call('GET', KEYS[1]) ~= ARGV[1] .. '|' .. ARGV[2] then
  return 0
end
return redis.call('PEXPIRE', KEYS[1], ARGV[3])
