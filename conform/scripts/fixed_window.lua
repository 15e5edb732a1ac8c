-- Fixed window, INCR+EXPIRE style: one counter per key and window, named
-- KEYS[1]:<window number>, expiring after the window. Windows are aligned to
-- the scenario's start. Refused requests are not counted. The count is written
-- back with SET (inside one script the same as INCRBY) so that the racy
-- variant shares this code.
local start = now - now % window
local function key_of() return KEYS[1] .. ':' .. int(start / window) end
local function parse(raw)
  if raw and raw ~= '' then return { count = tonumber(raw) } end
  return { count = 0 }
end
local function format(s) return int(s.count) end
local function decide(s)
  if cost > limit then return 0, -1 end
  if cost > limit - s.count then return 0, start + window - now end
  s.count = s.count + cost
  return 1, 0
end
