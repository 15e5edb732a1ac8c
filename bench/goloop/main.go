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

// model is bench/model.yaml's parameters, the flags.
type model struct {
	clients  int
	rate     float64 // requests per second of each client
	limit    int64
	window   time.Duration
	burst    int64
	duration time.Duration
	seed     uint64
}

func main() {
	var m model
	flag.IntVar(&m.clients, "clients", 100, "Poisson clients")
	flag.Float64Var(&m.rate, "rate", 100, "requests per second of each client")
	flag.Int64Var(&m.limit, "limit", 8000, "requests per window admitted in the long run")
	flag.DurationVar(&m.window, "window", time.Second, "the limit's window")
	flag.Int64Var(&m.burst, "burst", 100, "the most requests admitted at once")
	flag.DurationVar(&m.duration, "duration", 1000*time.Second, "virtual time simulated")
	flag.Uint64Var(&m.seed, "seed", 1, "random seed")
	flag.Parse()
	if !m.valid() {
		fmt.Fprintln(os.Stderr, "goloop: clients, rate, limit, window and burst must be positive")
		os.Exit(2)
	}
	events, admitted := m.simulate()
	fmt.Printf("events %d admitted %d refused %d\n", events, admitted, events-admitted)
}

func (m model) valid() bool {
	return m.clients >= 1 && m.rate > 0 && m.limit >= 1 && m.window > 0 && m.burst >= 1
}

// simulate runs the model and returns the arrivals before duration and how
// many of them the limit admitted.
func (m model) simulate() (events, admitted int64) {
	interval := m.window / time.Duration(m.limit) // GCRA's emission interval, ns
	tolerance := time.Duration(m.burst) * interval
	mean := float64(time.Second) / m.rate
	streams := make([]*rand.Rand, m.clients)
	q := make(queue, 0, m.clients)
	for c := range streams {
		streams[c] = rand.New(rand.NewPCG(m.seed, uint64(c)))
		q.push(arrival{time.Duration(streams[c].ExpFloat64() * mean), int32(c)})
	}
	var tat time.Duration // theoretical arrival time
	for q[0].at < m.duration {
		now, c := q[0].at, q[0].client
		events++
		if next := max(tat, now) + interval; next-now <= tolerance {
			tat = next
			admitted++
		}
		q.replaceTop(arrival{now + time.Duration(streams[c].ExpFloat64()*mean), c})
	}
	return events, admitted
}
