-- transition: move a job out of RUNNING. Terminal states never change.
-- A move to SUCCESS also needs the running pointer to be this job's; a move
-- to FAILED is allowed for a job that lost the pointer. Either deletes the
-- pointer only when it points at this job.
-- KEYS[1] job hash   KEYS[2] running pointer
-- ARGV[1] from (RUNNING)   ARGV[2] to   ARGV[3] job id
-- Returns {'APPLIED', to, released 0|1} | {'REJECTED', reason, status}
--       | {'MISSING'}. Reason NOT_OWNER when another job holds the pointer
-- (reported first: it names who), else ILLEGAL_TRANSITION when the job is
-- not RUNNING, else NOT_OWNER for a SUCCESS without the pointer.
local status = redis.call('HGET', KEYS[1], 'status')
if not status then
  return {'MISSING'}
end
local pointer = redis.call('GET', KEYS[2])
if ARGV[2] == 'SUCCESS' and pointer and pointer ~= ARGV[3] then
  return {'REJECTED', 'NOT_OWNER', status}
end
if status ~= ARGV[1] then
  return {'REJECTED', 'ILLEGAL_TRANSITION', status}
end
if ARGV[2] == 'SUCCESS' and pointer ~= ARGV[3] then
  return {'REJECTED', 'NOT_OWNER', status}
end
redis.call('HSET', KEYS[1], 'status', ARGV[2])
local released = 0
if pointer == ARGV[3] then
  redis.call('DEL', KEYS[2])
  released = 1
end
return {'APPLIED', ARGV[2], released}
