-- acquire: take the resource lease of a conflict key and a fencing token.
-- KEYS[1] lease   KEYS[2] counter   KEYS[3] epoch
-- ARGV[1] owner   ARGV[2] ttl in ms   ARGV[3] namespace epoch
-- ARGV[4] the guards removed, by name, space-separated: "history" takes
-- out the refusal of a lost counter or epoch (a missing counter then starts
-- again from zero), "namespace" the comparison of epochs.
-- Returns {'ACQUIRED', token} | {'EXTENDED', token} | {'CONTENDED', owner, token}.
-- Errors: FENCE_HISTORY_LOST (epoch or counter missing, or the counter below
-- the lease's token), FENCE_EPOCH <current epoch> (another namespace epoch), FENCE_CORRUPT
-- (a lease value that is not owner|token). Acquire never creates the counter:
-- a Redis that lost its data must not hand out tokens from zero again.
local off = {}
for name in string.gmatch(ARGV[4] or '', '%S+') do off[name] = true end
local epoch = redis.call('GET', KEYS[3])
local counter = redis.call('GET', KEYS[2])
if not off['history'] and (not epoch or not counter) then
  return redis.error_reply('FENCE_HISTORY_LOST epoch or counter key missing')
end
if not off['namespace'] and epoch and epoch ~= ARGV[3] then
  return redis.error_reply('FENCE_EPOCH ' .. epoch)
end
local lease = redis.call('GET', KEYS[1])
if lease then
  local owner, token = string.match(lease, '^(.*)|(%d+)$')
  if not owner then
    return redis.error_reply('FENCE_CORRUPT lease value ' .. lease)
  end
  if not off['history'] and tonumber(counter) < tonumber(token) then
    return redis.error_reply('FENCE_HISTORY_LOST counter ' .. counter .. ' below lease token ' .. token)
  end
  if owner == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return {'EXTENDED', tonumber(token)}
  end
  return {'CONTENDED', owner, tonumber(token)}
end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. token, 'PX', ARGV[2])
return {'ACQUIRED', token}
