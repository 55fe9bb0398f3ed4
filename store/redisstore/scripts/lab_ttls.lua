-- lab_ttls: after an actor's call, bring the keys it named back to the lab
-- clock (labclock.go), in the same round trip that reads what it did. A
-- key whose TTL is still above the marker's half was left alone by the
-- call: its server TTL becomes its lab TTL and the slack again. A key with
-- another TTL was given it by the call: the slack goes on top.
-- KEYS the call's keys
-- ARGV[1] half the marker TTL (ms)   ARGV[2] the slack (ms)
-- ARGV[2+i] the lab TTL of KEYS[i] (ms), -1 when it has none
-- Returns each key's TTL as the call left it (PTTL: -1 none, -2 gone).
local half, slack = tonumber(ARGV[1]), tonumber(ARGV[2])
local out = {}
for i, key in ipairs(KEYS) do
  local left = redis.call('PTTL', key)
  out[i] = left
  local lab = tonumber(ARGV[2 + i])
  if left > half then
    if lab > 0 then
      redis.call('PEXPIRE', key, lab + slack)
    end
  elseif left > 0 then
    redis.call('PEXPIRE', key, left + slack)
  end
end
return out
