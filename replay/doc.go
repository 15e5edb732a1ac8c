// Package replay runs real access logs through the per-key limiters in shadow:
// every request's timestamp and key go through every lane and every limit,
// nothing is refused (open-loop, no retries), and each (lane, limit) pair records
// which requests it would have refused, whom, and when.
//
// A log is read once (Read: combined, JSON lines or CSV; gzip detected by its
// magic bytes), its lines put back in time order by a bounded reorder buffer
// (Reorder: a line at most Options.Late behind the latest is placed; a later one
// is counted as too late), and the resulting events are fed, in batches, to one
// goroutine per lane (Replay). Limiter state is held per live key and evicted
// exactly when the algorithm's Idle says the key decides as a new one would.
//
// Nothing here prints or exits; cmd/rlsim wires it to the command line.
package replay
