// Package replay runs real access logs through the per-key limiters in shadow:
// every request's timestamp and key go through every lane and every limit,
// nothing is refused (open-loop, no retries), and each (lane, limit) pair records
// which requests it would have refused, whom, and when.
//
// A log is read once (read.go: combined, JSON lines or CSV; gzip detected by its
// magic bytes; times in the years 1678 to 2261, others bad lines), its lines
// put back in time order by a reorder buffer of at most MaxReorder lines (a line
// at most Options.Late behind the latest is placed; a later one is counted as
// too late, and so is one behind a line the full buffer let go early), and the
// resulting events are fed, in batches, to one goroutine per lane (Replay).
// Memory grows with the keys live at once plus the keys ever refused, and the
// buffer's bound: the reader retires a key that sent nothing for
// retireAfter, when every lane's Idle says it decides as a new one would; its
// peak goes into an exact histogram, and only keys a lane refused keep their
// name and figures (docs/replay.md says what each figure counts).
//
// Nothing here exits or reads the wall clock: cmd/rlsim gives Command.Run the
// command line's readers, writers and clock.
package replay
