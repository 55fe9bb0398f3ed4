-- leader_release: drop a job's leader lease if the caller holds it.
-- KEYS[1] leader lease
-- ARGV[1] owner
-- Returns 1 released, 0 held by someone else or gone.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
return 1
