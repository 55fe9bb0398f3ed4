-- leader_acquire: take a job's leader lease. It holds an owner id only.
-- KEYS[1] leader lease
-- ARGV[1] owner   ARGV[2] ttl in ms
-- Returns {'ACQUIRED'} | {'EXTENDED'} | {'CONTENDED', owner}.
local holder = redis.call('GET', KEYS[1])
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return {'ACQUIRED'}
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {'EXTENDED'}
end
return {'CONTENDED', holder}
