// Command replayparse is the floor rlsim replay is compared with: a minimal Go
// program that reads a combined (nginx/Apache) access log, the format of
// replay's benchmarks, parses each line's time and client address, and makes
// one exact token-bucket decision (as GCRA, its twin: integer nanoseconds)
// per lane per line, six lanes by default, each lane's state in a plain map
// from the address to its theoretical arrival time. No reordering, no
// figures beyond the counts, no retirement: the least a replay must do.
//
//	go run ./bench/replayparse -gen 2000000 >/tmp/access.log   # the log, deterministic
//	go run ./bench/replayparse /tmp/access.log                 # the floor
//	go run ./bench/replayparse -reuse /tmp/access.log          # the lower floor
//
// By default every line's time is parsed with time.Parse and each lane looks
// its key up in its own map[string]int64. -reuse is the lower floor: a line
// whose time stamp is the previous line's reuses its parse (lines in one
// second share it), and one map gives each address an index into every
// lane's flat slice of states, so that a line allocates nothing. Both print
// the lines read, the bad ones and each lane's admitted and refused (the
// same for both: they decide alike).
//
// The policy is -limit per -window with bursts of -burst (default 100 per
// minute, bursts of 20: replay's benchmark limit, key=ip limit=100/1m
// burst=20). docs/performance.md, "Replay beside a minimal parser", gives
// the ratio of rlsim replay's CPU to this program's on the same log.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rlsim/rlsim/internal/accesslog"
)

const stampLayout = "02/Jan/2006:15:04:05 -0700"

// policy is a token bucket of burst tokens refilled at limit per window, as
// GCRA: emission interval T = window/limit, tolerance burst×T.
type policy struct {
	interval, tolerance int64 // ns
}

// maxLanes bounds -lanes: each lane keeps a state per key.
const maxLanes = 64

func newPolicy(limit int64, window time.Duration, burst int64) (policy, error) {
	if limit <= 0 || window <= 0 || burst <= 0 || int64(window)%limit != 0 {
		return policy{}, errors.New("want positive -limit, -window and -burst, the window a whole number of ns per request")
	}
	t := int64(window) / limit
	return policy{interval: t, tolerance: burst * t}, nil
}

// admit decides one request at now on the theoretical arrival time tat (0 for
// a key never seen) and returns the new tat and whether it was admitted; a
// refusal stores nothing.
func (p policy) admit(tat, now int64) (int64, bool) {
	next := max(tat, now) + p.interval
	if next-now > p.tolerance {
		return tat, false
	}
	return next, true
}

// counts are what a run found.
type counts struct {
	lines, bad        int64
	admitted, refused []int64 // per lane
}

func (c counts) write(w io.Writer) {
	fmt.Fprintf(w, "lines %d bad %d\n", c.lines, c.bad)
	for i := range c.admitted {
		fmt.Fprintf(w, "lane %d admitted %d refused %d\n", i, c.admitted[i], c.refused[i])
	}
}

// fields returns a combined line's client address and time stamp.
func fields(line []byte) (key, stamp []byte, ok bool) {
	sp := bytes.IndexByte(line, ' ')
	open := bytes.IndexByte(line, '[')
	if sp <= 0 || open < 0 || len(line) < open+28 || line[open+27] != ']' {
		return nil, nil, false
	}
	return line[:sp], line[open+1 : open+27], true
}

// plain reads r with a map per lane and a time.Parse per line.
func plain(r io.Reader, p policy, lanes int) (counts, error) {
	c := counts{admitted: make([]int64, lanes), refused: make([]int64, lanes)}
	tats := make([]map[string]int64, lanes)
	for i := range tats {
		tats[i] = map[string]int64{}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		c.lines++
		key, stamp, ok := fields(sc.Bytes())
		if !ok {
			c.bad++
			continue
		}
		t, err := time.Parse(stampLayout, string(stamp))
		if err != nil {
			c.bad++
			continue
		}
		now := t.UnixNano()
		for i, m := range tats {
			tat, ok := p.admit(m[string(key)], now)
			if !ok {
				c.refused[i]++
				continue
			}
			m[string(key)] = tat
			c.admitted[i]++
		}
	}
	return c, sc.Err()
}

// reuse reads r with one map of key indexes, flat per-lane states and the
// previous line's time parse reused.
func reuse(r io.Reader, p policy, lanes int) (counts, error) {
	c := counts{admitted: make([]int64, lanes), refused: make([]int64, lanes)}
	index := map[string]int32{}
	tats := make([][]int64, lanes)
	var last [26]byte
	var lastNow int64
	have := false
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		c.lines++
		key, stamp, ok := fields(sc.Bytes())
		if !ok {
			c.bad++
			continue
		}
		if !have || string(stamp) != string(last[:]) {
			t, err := time.Parse(stampLayout, string(stamp))
			if err != nil {
				c.bad++
				continue
			}
			copy(last[:], stamp)
			lastNow, have = t.UnixNano(), true
		}
		id, ok := index[string(key)]
		if !ok {
			id = int32(len(index))
			index[string(key)] = id
			for i := range tats {
				tats[i] = append(tats[i], 0)
			}
		}
		for i, s := range tats {
			tat, ok := p.admit(s[id], lastNow)
			if !ok {
				c.refused[i]++
				continue
			}
			s[id] = tat
			c.admitted[i]++
		}
	}
	return c, sc.Err()
}

func main() {
	gen := flag.Int("gen", 0, "write a synthetic combined log of `N` lines to stdout (deterministic for -seed) and exit")
	seed := flag.Uint64("seed", 7, "the generated log's seed")
	reused := flag.Bool("reuse", false, "reuse the previous line's time parse and one key index for every lane (the lower floor)")
	limit := flag.Int64("limit", 100, "requests per -window")
	window := flag.Duration("window", time.Minute, "the limit's window")
	burst := flag.Int64("burst", 20, "the bucket's size")
	lanes := flag.Int("lanes", 6, "decisions per line (rlsim replay's default lanes: 6)")
	flag.Parse()
	if *gen > 0 {
		if err := accesslog.Write(os.Stdout, *gen, *seed); err != nil {
			fmt.Fprintln(os.Stderr, "replayparse:", err)
			os.Exit(1)
		}
		return
	}
	p, err := newPolicy(*limit, *window, *burst)
	if err != nil || flag.NArg() != 1 || *lanes <= 0 || *lanes > maxLanes {
		fmt.Fprintln(os.Stderr, "usage: replayparse [-reuse] [-limit N -window D -burst N -lanes N (1 to 64)] LOG | replayparse -gen N [-seed S]")
		if err != nil {
			fmt.Fprintln(os.Stderr, "replayparse:", err)
		}
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "replayparse:", err)
		os.Exit(1)
	}
	defer f.Close()
	run := plain
	if *reused {
		run = reuse
	}
	c, err := run(f, p, *lanes)
	if err != nil {
		fmt.Fprintln(os.Stderr, "replayparse:", err)
		os.Exit(1)
	}
	c.write(os.Stdout)
}
