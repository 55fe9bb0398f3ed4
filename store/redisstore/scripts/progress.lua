-- progress: record a job's processed items, results and heartbeat, if the
-- job hash is still there (an HSET on a hash that expired would make a new
-- one, with no status and no TTL).
-- KEYS[1] job hash
-- ARGV[1] processed   ARGV[2] results   ARGV[3] heartbeat (unix ms)
-- Returns 1 recorded, 0 the job is gone.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('HSET', KEYS[1], 'processed', ARGV[1], 'results', ARGV[2], 'heartbeat', ARGV[3])
return 1
