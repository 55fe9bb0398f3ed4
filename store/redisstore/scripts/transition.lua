-- transition: move a job out of RUNNING. Terminal states never change.
-- A move to SUCCESS also needs the running pointer to be this job's; a move
-- to FAILED is allowed for a job that lost the pointer. Either deletes the
-- pointer only when it points at this job.
-- KEYS[1] job hash   KEYS[2] running pointer
-- ARGV[1] from (RUNNING)   ARGV[2] to   ARGV[3] job id
-- ARGV[4] the guards removed, space-separated: "terminal" takes out the
-- check that the job is RUNNING, "pointer" the checks of the pointer (a
-- SUCCESS without it is allowed, and the pointer is deleted whatever job
-- it names).
-- Returns {'APPLIED', to, the job id the deleted pointer named or ''}
--       | {'REJECTED', reason, status} | {'MISSING'}. Reason NOT_OWNER when
-- another job holds the pointer (reported first: it names who), else
-- ILLEGAL_TRANSITION when the job is not RUNNING, else NOT_OWNER for a
-- SUCCESS without the pointer.
local off = {}
for name in string.gmatch(ARGV[4] or '', '%S+') do off[name] = true end
local status = redis.call('HGET', KEYS[1], 'status')
if not status then
  return {'MISSING'}
end
local pointer = redis.call('GET', KEYS[2])
if not off['pointer'] and ARGV[2] == 'SUCCESS' and pointer and pointer ~= ARGV[3] then
  return {'REJECTED', 'NOT_OWNER', status}
end
if not off['terminal'] and status ~= ARGV[1] then
  return {'REJECTED', 'ILLEGAL_TRANSITION', status}
end
if not off['pointer'] and ARGV[2] == 'SUCCESS' and pointer ~= ARGV[3] then
  return {'REJECTED', 'NOT_OWNER', status}
end
redis.call('HSET', KEYS[1], 'status', ARGV[2])
local cleared = ''
if pointer and (off['pointer'] or pointer == ARGV[3]) then
  redis.call('DEL', KEYS[2])
  cleared = pointer
end
return {'APPLIED', ARGV[2], cleared}
