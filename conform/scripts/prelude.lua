-- rlsim reference limiter script (rlsim conform --print-script NAME).
-- Calling convention (docs/conform.md):
--   KEYS[1]  the key the limit counts, as the caller names it
--   ARGV[1]  now: integer nanoseconds since the scenario's start
--   ARGV[2]  cost of the request, in cost units (at least 1)
--   ARGV[3]  limit: cost units per window
--   ARGV[4]  window, in nanoseconds
--   ARGV[5]  burst, in cost units (the limit when the policy sets none)
--   ARGV[6]  "" to use ARGV[1]; or the server clock's epoch in microseconds,
--            and then now is the server's TIME since that epoch
-- Returns {admitted (1 or 0), retry_after (ns; 0 when admitted, -1 never),
-- now (the ns this script decided at)}.
-- Lua numbers are doubles: integers are exact below 2^53, which rlsim checks
-- before it calls a script with a policy.
local now = tonumber(ARGV[1])
if ARGV[6] ~= nil and ARGV[6] ~= '' then
  local t = redis.call('TIME')
  now = ((tonumber(t[1]) * 1000000 + tonumber(t[2])) - tonumber(ARGV[6])) * 1000
end
local cost, limit = tonumber(ARGV[2]), tonumber(ARGV[3])
local window, burst = tonumber(ARGV[4]), tonumber(ARGV[5])
-- A key outlives its last use by about two windows of real time.
local ttl = math.ceil(window / 1e6) * 2 + 1000
local function int(x) return string.format('%.0f', x) end
local function gcd(a, b)
  while b ~= 0 do a, b = b, a % b end
  return a
end
local function ceildiv(a, b) return math.floor((a + b - 1) / b) end
