-- acquire_naive: the UNSAFE acquire, kept as real code to show what goes
-- wrong. It INCRs the counter even when Redis lost it (starting again from
-- zero) and checks no namespace epoch.
-- KEYS[1] lease   KEYS[2] counter
-- ARGV[1] owner   ARGV[2] ttl in ms
-- Returns {'ACQUIRED', token} | {'EXTENDED', token} | {'CONTENDED', owner, token}.
local lease = redis.call('GET', KEYS[1])
if lease then
  local owner, token = string.match(lease, '^(.*)|(%d+)$')
  if owner == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return {'EXTENDED', tonumber(token)}
  end
  return {'CONTENDED', owner or lease, tonumber(token or '0')}
end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. token, 'PX', ARGV[2])
return {'ACQUIRED', token}
