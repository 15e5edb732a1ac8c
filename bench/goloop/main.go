// Command goloop is bench/model.yaml written as a plain Go event loop: a binary
// heap of each client's next arrival and one global limit as GCRA, the token
// bucket's twin (same decision on every request). It is the floor rlsim is
// compared with: no lanes, metrics, traces or findings, only the model.
//
//	go run ./bench/goloop -duration 1000s
//
// prints the arrivals simulated and how many were admitted and refused.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"time"
)

// arrival is a client's next request at virtual time at (ns since the start).
type arrival struct {
	at     time.Duration
	client int32
}

// queue is a binary min-heap of arrivals by time, then client.
type queue []arrival

func (q queue) less(i, j int) bool {
	return q[i].at < q[j].at || (q[i].at == q[j].at && q[i].client < q[j].client)
}

func (q *queue) push(a arrival) {
	*q = append(*q, a)
	h := *q
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

// replaceTop puts a in place of the earliest arrival and restores the heap.
func (q queue) replaceTop(a arrival) {
	q[0] = a
	for i := 0; ; {
		l, small := 2*i+1, i
		if l < len(q) && q.less(l, small) {
			small = l
		}
		if r := l + 1; r < len(q) && q.less(r, small) {
			small = r
		}
		if small == i {
			return
		}
		q[i], q[small] = q[small], q[i]
		i = small
	}
}

func main() {
	clients := flag.Int("clients", 100, "Poisson clients")
	rate := flag.Float64("rate", 100, "requests per second of each client")
	limit := flag.Int64("limit", 8000, "requests per window admitted in the long run")
	window := flag.Duration("window", time.Second, "the limit's window")
	burst := flag.Int64("burst", 100, "the most requests admitted at once")
	duration := flag.Duration("duration", 1000*time.Second, "virtual time simulated")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if *clients < 1 || *rate <= 0 || *limit < 1 || *window <= 0 || *burst < 1 {
		fmt.Fprintln(os.Stderr, "goloop: clients, rate, limit, window and burst must be positive")
		os.Exit(2)
	}
	interval := *window / time.Duration(*limit) // GCRA's emission interval, ns
	tolerance := time.Duration(*burst) * interval
	mean := float64(time.Second) / *rate
	streams := make([]*rand.Rand, *clients)
	q := make(queue, 0, *clients)
	for c := range streams {
		streams[c] = rand.New(rand.NewPCG(*seed, uint64(c)))
		q.push(arrival{time.Duration(streams[c].ExpFloat64() * mean), int32(c)})
	}
	var tat time.Duration // theoretical arrival time
	var events, admitted int64
	for q[0].at < *duration {
		now, c := q[0].at, q[0].client
		events++
		if next := max(tat, now) + interval; next-now <= tolerance {
			tat = next
			admitted++
		}
		q.replaceTop(arrival{now + time.Duration(streams[c].ExpFloat64()*mean), c})
	}
	fmt.Printf("events %d admitted %d refused %d\n", events, admitted, events-admitted)
}
