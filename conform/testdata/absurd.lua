-- A limiter script that answers nonsense within the calling convention's
-- shape: it admits every request and says it decided at 2^20 times the instant
-- passed, so that the exact algorithm fed those instants (a bucket refilled by
-- the long gaps between them) admits every request too. conform must report
-- its answers as outside the convention, never as explained by the clock.
return { 1, 0, tonumber(ARGV[1]) * 1048576 }
