-- Racy, second round trip: decide on the state read earlier (ARGV[7]) and, on
-- an admission, write the new state over whatever is there now. Decisions other
-- replicas took between the read and this write are lost: over-admission.
local k = key_of()
local s = parse(ARGV[7])
local admitted, retry = decide(s)
if admitted == 1 then redis.call('SET', k, format(s), 'PX', ttl) end
return { admitted, retry, now }
