-- Sliding window counter: the counts of the current and the previous fixed
-- window; the estimate previous x (window - elapsed)/window + current must
-- stay within the limit, compared exactly as
-- previous x (window - elapsed) <= (limit - current - cost) x window.
-- Retry-After is the earliest instant the estimate would admit the request.
local function key_of() return KEYS[1] end
local function parse(raw)
  local s = { start = 0, prev = 0, cur = 0 }
  if raw and raw ~= '' then
    local a, p, c = string.match(raw, '^(%d+) (%d+) (%d+)$')
    s.start, s.prev, s.cur = tonumber(a), tonumber(p), tonumber(c)
  end
  return s
end
local function format(s) return int(s.start) .. ' ' .. int(s.prev) .. ' ' .. int(s.cur) end
-- spare is min(floor(a x window / b), window): how much of a window the weight can spare.
local function spare(a, b)
  if a >= b then return window end
  return math.floor(a * window / b)
end
local function decide(s)
  local start, prev, cur = now - now % window, s.prev, s.cur
  if start <= s.start then
    start = s.start
  elseif start == s.start + window then
    prev, cur = s.cur, 0
  else
    prev, cur = 0, 0
  end
  local elapsed = math.max(now - start, 0)
  local room = limit - cur - cost
  if room >= 0 and prev * (window - elapsed) <= room * window then
    s.start, s.prev, s.cur = start, prev, cur + cost
    return 1, 0
  end
  if cost > limit then return 0, -1 end
  if room >= 0 then
    local e = window - spare(room, prev)
    if e < window then return 0, start + e - now end
  end
  return 0, start + 2 * window - spare(limit - cost, cur) - now
end
