-- acquire_job: start a job for a target, or reuse the one running. The
-- running pointer and the job hash are created together, so no request can
-- see one without the other.
-- KEYS[1] running pointer   KEYS[2] job hash
-- ARGV[1] job id   ARGV[2] total items   ARGV[3] the job hash's ttl in ms
-- ARGV[4] createdAt (unix ms)   ARGV[5] target   ARGV[6] the pointer's ttl in ms
-- Returns {'REUSED', running job id} | {'ACQUIRED', job id}.
local current = redis.call('GET', KEYS[1])
if current then
  return {'REUSED', current}
end
redis.call('HSET', KEYS[2], 'status', 'RUNNING', 'total', ARGV[2], 'processed', 0,
  'createdAt', ARGV[4], 'target', ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[6])
return {'ACQUIRED', ARGV[1]}
