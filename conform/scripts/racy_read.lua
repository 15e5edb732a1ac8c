-- Racy, first round trip: read the state. The caller passes what it read to
-- the write script as ARGV[7] ("" when nothing was there).
return redis.call('GET', key_of())
