package sim

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// columnsOfTrace is a trace sink that bins the trace as a timeline does: the
// reference the counted columns (Options.Columns) are held to.
type columnsOfTrace struct {
	rows []*Bins[Column]
	w    time.Duration
	held int
}

func (t *columnsOfTrace) Record(r *TraceRecord) error {
	m, ok := MarkOf(r.Event)
	if !ok {
		return nil
	}
	for len(t.rows) <= r.LaneIndex {
		t.rows = append(t.rows, NewBins(t.w, t.held, (*Column).clear, (*Column).clear))
	}
	c := t.rows[r.LaneIndex].At(t.rows[r.LaneIndex].Column(r.At))
	if c == nil {
		return nil
	}
	if c.N[m]++; c.N[m] == 1 {
		c.Sample[m] = *r
	}
	return nil
}

// columnsShape is the width and count of columns that hold the whole of a
// run of cfg: about 40 columns.
func columnsShape(cfg Config) (time.Duration, int) {
	end := cfg.withDefaults()
	span := end.Duration + end.Drain
	w := max(span/40, 1)
	return w, int(span/w) + 2
}

// checkColumns runs cfg traced on the general path and binned, and counted in
// columns with the fastest settings (stepped through RunUntil, as the
// playground runs) and as rlsim runs (Run); each lane's columns must count
// exactly what the trace binned, and keep the same first attempt of each mark
// (who, when, which try), and the result must be the untraced one.
func checkColumns(cfg Config, want *diffRun) error {
	w, held := columnsShape(cfg)
	ref := &columnsOfTrace{w: w, held: held}
	diffGeneral().with(func() { _, _ = Run(context.Background(), cfg, Options{Trace: ref}) })
	for _, set := range []switchSet{diffSets()[0], {name: "as_run", on: map[string]bool{}}} {
		cols := NewColumns(w, held, 0)
		var res Result
		var err error
		set.with(func() {
			if set.name == "as_run" {
				res, err = Run(context.Background(), cfg, Options{Columns: cols})
				return
			}
			var s *Simulation
			if s, err = New(cfg, Options{Columns: cols}); err != nil {
				return
			}
			for t := time.Duration(0); t < s.End() && err == nil; t += w*3 + w/7 {
				err = s.RunUntil(t)
			}
			if err == nil {
				res, err = s.RunToEnd(context.Background())
			}
		})
		if err != nil {
			if want.err == "" {
				return fmt.Errorf("columns, %s: %v", set.name, err)
			}
			continue
		}
		if d := valueDiff("Result", reflect.ValueOf(res), reflect.ValueOf(want.res)); d != "" {
			return fmt.Errorf("columns, %s: %s", set.name, d)
		}
		if d := columnsDiff(cols, ref); d != "" {
			return fmt.Errorf("columns, %s, against the binned trace: %s", set.name, d)
		}
	}
	return nil
}

// columnsDiff is where the counted columns first differ from the binned
// trace, or "".
func columnsDiff(cols *Columns, ref *columnsOfTrace) string {
	for i := range cols.Lanes() {
		ring := cols.Lane(i)
		for k := range int64(ref.held) {
			got, _ := ring.Held(k)
			var want *Column
			if i < len(ref.rows) {
				want, _ = ref.rows[i].Held(k)
			}
			if want == nil {
				var none Column
				none.clear()
				want = &none
			}
			if got.N != want.N {
				return fmt.Sprintf("lane %d column %d: counts %v, want %v", i, k, got.N, want.N)
			}
			for m := range MarkKinds {
				g, w := &got.Sample[m], &want.Sample[m]
				if g.At != w.At || g.Client != w.Client || g.Request != w.Request || g.Attempt != w.Attempt || g.Cost != w.Cost ||
					g.Event != w.Event || g.LaneIndex != w.LaneIndex || g.Key != w.Key || g.Class != w.Class {
					return fmt.Sprintf("lane %d column %d: first %v at %v client %d request %d attempt %d, want at %v client %d request %d attempt %d",
						i, k, Mark(m), g.At, g.Client, g.Request, g.Attempt, w.At, w.Client, w.Request, w.Attempt)
				}
				// A first attempt that says it was answered with headers, or
				// names its replica, is the trace's record whole, but for the
				// store call, which the trace writes in an attempt's first
				// record (an admission's, not its shed's) and a column's
				// first may be its second. So is one that carries a
				// concurrency limiter's state.
				whole := *g
				whole.Store, whole.StoreLatency = w.Store, w.StoreLatency
				if (g.Answered || g.Replica >= 0 || g.Concurrency || w.Concurrency) && whole != *w {
					return fmt.Sprintf("lane %d column %d: first %v %+v, want %+v", i, k, Mark(m), *g, *w)
				}
			}
		}
	}
	return ""
}

// TestColumnsAsTraced holds the counted columns to the binned trace on the
// harness's random worlds (checkFastPaths runs checkColumns on every world it
// checks; this runs it on worlds of its own too, product lanes' included).
func TestColumnsAsTraced(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 30
	}
	for seed := range uint64(n) {
		cfg := diffWorld(seed+7000, 0)
		if seed%5 == 4 {
			cfg = diffProductWorld(seed)
		}
		if cfg.Validate() != nil {
			continue
		}
		want := runDiff(cfg, diffGeneral(), false)
		if err := checkColumns(cfg, &want); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

func TestColumnsChangedSinceLastAsked(t *testing.T) {
	cols := NewColumns(time.Second, 4, 1)
	r := cols.Lane(0)
	if _, _, ok := r.Changed(); ok {
		t.Fatal("Changed before any count: ok, want none")
	}
	r.count(MarkRefused, 5*time.Second+1)
	r.count(MarkAdmitted, time.Second) // forgotten: the ring of 4 holds columns 2 to 5
	r.count(MarkAdmitted, 3*time.Second)
	from, last, ok := r.Changed()
	if !ok || from != 3 || last != 5 {
		t.Fatalf("Changed = %d, %d, %v, want 3, 5, true", from, last, ok)
	}
	if _, _, ok := r.Changed(); ok {
		t.Fatal("Changed asked again: ok, want none")
	}
	if c, _ := r.Held(5); c.N[MarkRefused] != 1 || c.N[MarkAdmitted] != 0 {
		t.Fatalf("column 5 = %v, want one refused", c.N)
	}
	// Changed never names a column the ring no longer holds: counted in
	// column 6 and then 12, it holds 9 to 12.
	r.count(MarkAdmitted, 6*time.Second)
	r.count(MarkShed, 12*time.Second)
	if from, last, ok := r.Changed(); !ok || from != 9 || last != 12 {
		t.Fatalf("after a jump past the ring, Changed = %d, %d, %v, want 9, 12, true", from, last, ok)
	}
}

// FuzzColumnRingHotColumn counts arbitrary attempts (any mark, any instant,
// forward, back, far ahead past the ring, negative) in two rings, one finding
// each column by its time alone (hotColumnOff): every count reports the same
// column state and first, and at the end both hold the same columns and
// changes.
func FuzzColumnRingHotColumn(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 200, 7, 8, 0, 0, 255, 9})
	f.Add([]byte{10, 10, 10, 11, 90, 90, 91, 12, 3})
	f.Add([]byte{0, 1, 2, 3, 15, 15, 16, 15, 61, 62, 0, 66, 60, 68, 1})
	f.Add([]byte{20, 52})   // column 6, then back into column 5
	f.Add([]byte{0, 30, 0}) // column 0, the ring moved past it by a reader, column 0 again

	f.Fuzz(func(t *testing.T, ops []byte) {
		hot, cold := NewColumns(10, 4, 1).Lane(0), NewColumns(10, 4, 1).Lane(0)
		count := func(r *ColumnRing, off bool, m Mark, at time.Duration) (int64, bool, bool) {
			hotColumnOff = off
			defer func() { hotColumnOff = false }()
			c, first := r.count(m, at)
			if c == nil {
				return 0, first, false
			}
			return c.N[m], first, true
		}
		at := time.Duration(0)
		for i, op := range ops {
			m := Mark(op % byte(MarkKinds))
			switch op / byte(MarkKinds) % 7 { // how the instant moves
			case 0, 1, 2:
				at += time.Duration(op % 7) // within a column or to the next
			case 3:
				at -= time.Duration(op % 23) // back, maybe negative
			case 4:
				at += time.Duration(op) * 3 // past the ring
			case 5:
				at = time.Duration(op%8) * 10 // a column's first instant
			case 6:
				// A reader moves both rings ahead (At is theirs too), past the
				// column counted in last.
				k := int64(max(at, 0)/10) + 4 + int64(op%3)
				hot.At(k)
				cold.At(k)
			}
			hn, hf, hok := count(hot, false, m, at)
			cn, cf, cok := count(cold, true, m, at)
			if hn != cn || hf != cf || hok != cok {
				t.Fatalf("op %d (%v at %v): hot column counted %d first %v held %v, by time %d %v %v", i, m, at, hn, hf, hok, cn, cf, cok)
			}
		}
		hf, hl, hok := hot.Changed()
		cf, cl, cok := cold.Changed()
		if hf != cf || hl != cl || hok != cok || hot.First() != cold.First() {
			t.Fatalf("changed %d..%d %v, first held %d; by time %d..%d %v, %d", hf, hl, hok, hot.First(), cf, cl, cok, cold.First())
		}
		for k := cold.First(); k < cold.First()+4; k++ {
			h, _ := hot.Held(k)
			c, _ := cold.Held(k)
			if h.N != c.N {
				t.Fatalf("column %d: %v, by time %v", k, h.N, c.N)
			}
		}
	})
}
