-- Sliding log in a sorted set: one member per admitted cost unit, scored by
-- its time. A unit admitted at t counts during (t - window, t]. A request
-- earlier than the newest entry is decided, and logged, as if it came then.
-- Retry-After is the time until enough of the oldest units have expired. The
-- third result is the instant the request was decided and logged at.
local key = KEYS[1]
if cost > limit then return { 0, -1, now } end
local eff = now
local newest = redis.call('ZREVRANGE', key, 0, 0, 'WITHSCORES')
if newest[2] and tonumber(newest[2]) > now then eff = tonumber(newest[2]) end
local cut = '(' .. int(eff - window)
local used = redis.call('ZCOUNT', key, cut, '+inf')
if cost > limit - used then
  local oldest = redis.call('ZRANGEBYSCORE', key, cut, '+inf', 'WITHSCORES', 'LIMIT', used + cost - limit - 1, 1)
  return { 0, tonumber(oldest[2]) + window - now, eff }
end
redis.call('ZREMRANGEBYSCORE', key, '-inf', int(eff - window))
local add = {}
for j = 1, cost do
  add[#add + 1] = int(eff)
  add[#add + 1] = int(eff) .. ':' .. (used + j) -- unique among the units at eff
end
redis.call('ZADD', key, unpack(add))
redis.call('PEXPIRE', key, ttl)
return { 1, 0, eff }
