-- GCRA, as redis-cell and redis_rate keep it: one theoretical arrival time
-- (TAT) per key. The emission interval T = window/limit is kept exactly: with
-- limit/window = L/W in lowest terms, TAT is stored in units of 1/L ns, and T
-- is W of them.
local g = gcd(limit, window)
local L, W = limit / g, window / g
local function key_of() return KEYS[1] end
local function parse(raw)
  if raw and raw ~= '' then return { tat = tonumber(raw) } end
  return { tat = 0 }
end
local function format(s) return int(s.tat) end
local function decide(s)
  if cost > burst then return 0, -1 end
  local wait = math.max(s.tat - now * L, 0) -- TAT - now, in units of 1/L ns
  local allowed = (burst - cost) * W
  if wait > allowed then return 0, ceildiv(wait - allowed, L) end
  s.tat = now * L + wait + cost * W
  return 1, 0
end
