// Package accesslog writes synthetic nginx/Apache combined access logs for
// benchmarks: deterministic for a seed, documentation addresses only (no real
// data), so that anyone can regenerate the log a figure was measured on.
package accesslog

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"time"
)

// Start is the first line's time.
var Start = time.Date(2026, 3, 1, 9, 0, 0, 0, time.FixedZone("", -7*3600))

// Spacing is the time between consecutive lines before jitter: 100 requests
// per second in all.
const Spacing = 10 * time.Millisecond

// Addresses is how many client addresses share the traffic besides the heavy
// one, 203.0.113.66, which sends a third of it (about 2000 a minute).
const Addresses = 2000

// Write writes n combined-format lines generated from seed. One line in 50
// arrives up to 2s late (out of time order), as real logs written at the
// end of each request do.
func Write(w io.Writer, n int, seed uint64) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	rng := rand.New(rand.NewPCG(seed, 1))
	paths := []string{"/api/users/%d", "/api/orders/%d?page=2", "/login", "/health"}
	for i := range n {
		at := Start.Add(time.Duration(i) * Spacing)
		if rng.IntN(50) == 0 {
			at = at.Add(-time.Duration(rng.IntN(2000)) * time.Millisecond)
		}
		a := rng.IntN(Addresses)
		ip := fmt.Sprintf("198.51.%d.%d", 100+a/250, a%250)
		if rng.IntN(3) == 0 {
			ip = "203.0.113.66"
		}
		path := paths[rng.IntN(len(paths))]
		if path[1] == 'a' {
			path = fmt.Sprintf(path, rng.IntN(1000))
		}
		if _, err := fmt.Fprintf(bw, "%s - - [%s] \"GET %s HTTP/1.1\" 200 %d \"-\" \"curl/8.5\"\n",
			ip, at.Format("02/Jan/2006:15:04:05 -0700"), path, 100+rng.IntN(5000)); err != nil {
			return err
		}
	}
	return bw.Flush()
}
