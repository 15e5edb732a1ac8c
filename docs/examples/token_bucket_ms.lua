-- A token bucket as it is often written by hand: the tokens a float, the time
-- in whole milliseconds, state in a hash. rlsim's calling convention: KEYS[1]
-- the key; ARGV now (ns), cost, limit, window (ns), burst.
local key = KEYS[1]
local now = math.floor(tonumber(ARGV[1]) / 1e6) -- ms
local cost = tonumber(ARGV[2])
local rate = tonumber(ARGV[3]) / (tonumber(ARGV[4]) / 1e6) -- tokens per ms
local burst = tonumber(ARGV[5])
local s = redis.call('HMGET', key, 'tokens', 'ts')
local tokens = tonumber(s[1]) or burst
local ts = tonumber(s[2]) or now
tokens = math.min(burst, tokens + math.max(now - ts, 0) * rate)
if tokens < cost then
  return { 0, math.ceil((cost - tokens) / rate) * 1e6 }
end
redis.call('HSET', key, 'tokens', tokens - cost, 'ts', now)
redis.call('PEXPIRE', key, 60000)
return { 1, 0 }
