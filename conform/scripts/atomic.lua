-- Atomic: read, decide and write in one script, so the store serialises decisions.
local k = key_of()
local s = parse(redis.call('GET', k))
local admitted, retry = decide(s)
if admitted == 1 then redis.call('SET', k, format(s), 'PX', ttl) end
return { admitted, retry, now }
