package replay

import (
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"time"
)

// writeCombined writes n generated combined-format lines (documentation
// addresses, no real data): clients at rps requests per second in total, one
// of them (203.0.113.66) sending a third of all traffic; a few lines arrive
// up to 2s late.
func writeCombined(w io.Writer, n int, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.FixedZone("", -7*3600))
	paths := []string{"/api/users/%d", "/api/orders/%d?page=2", "/login", "/health"}
	for i := range n {
		at := start.Add(time.Duration(i) * 20 * time.Millisecond)
		if rng.IntN(50) == 0 {
			at = at.Add(-time.Duration(rng.IntN(2000)) * time.Millisecond)
		}
		ip := fmt.Sprintf("198.51.100.%d", rng.IntN(200))
		if rng.IntN(3) == 0 {
			ip = "203.0.113.66"
		}
		path := paths[rng.IntN(len(paths))]
		if path[len(path)-1] == 'd' || path[len(path)-1] == '2' {
			path = fmt.Sprintf(path, rng.IntN(1000))
		}
		fmt.Fprintf(w, "%s - - [%s] \"GET %s HTTP/1.1\" 200 %d \"-\" \"curl/8.5\"\n",
			ip, at.Format("02/Jan/2006:15:04:05 -0700"), path, 100+rng.IntN(5000))
	}
}

func gzipWriter(w io.Writer) *gzip.Writer { return gzip.NewWriter(w) }
