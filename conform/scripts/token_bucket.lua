-- Token bucket: a bucket of burst tokens, refilled at limit per window, that
-- starts full. State: the tokens missing (the deficit, in units of 1/W token,
-- with limit/window = L/W in lowest terms) and the time of the last admission.
-- A request earlier than the last admission is decided as if it came then.
local g = gcd(limit, window)
local L, W = limit / g, window / g
local function key_of() return KEYS[1] end
local function parse(raw)
  local s = { deficit = 0, last = 0 }
  if raw and raw ~= '' then
    local d, l = string.match(raw, '^(%d+) (%d+)$')
    s.deficit, s.last = tonumber(d), tonumber(l)
  end
  return s
end
local function format(s) return int(s.deficit) .. ' ' .. int(s.last) end
local function decide(s)
  if cost > burst then return 0, -1 end
  local at = math.max(now, s.last)
  local deficit = math.max(s.deficit - (at - s.last) * L, 0)
  local allowed = (burst - cost) * W
  if deficit > allowed then return 0, ceildiv(deficit - allowed, L) + (at - now) end
  s.deficit, s.last = deficit + cost * W, at
  return 1, 0
end
