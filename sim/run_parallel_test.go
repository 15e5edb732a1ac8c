package sim

import (
	"context"
	"errors"
	"reflect"
	"runtime"
	"testing"
	"time"
)

// TestLiveStepsAtOnceTraceLikeOneAfterTheOther steps a world in RunUntil, with
// a burst injected, a rate changed and a rule pushed between steps, once with
// its lanes one after the other (GOMAXPROCS 1) and once at once (GOMAXPROCS 4):
// the trace, record for record in the same order, and the result are the same.
func TestLiveStepsAtOnceTraceLikeOneAfterTheOther(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	play := func(procs int) (*traceLog, Result) {
		runtime.GOMAXPROCS(procs)
		var tr traceLog
		s, err := New(liveWorld(Arrival{Kind: ArrivalPoisson, Rate: Rate{Count: 6, Per: time.Second}}), Options{Trace: &tr})
		if err != nil {
			t.Fatal(err)
		}
		for at := 100 * time.Millisecond; at <= s.End(); at += 100 * time.Millisecond {
			if err := s.RunUntil(at); err != nil {
				t.Fatal(err)
			}
			switch at {
			case time.Second:
				err = s.Inject(2, 30, 200*time.Millisecond)
			case 2 * time.Second:
				err = s.ChangeRate(0, Rate{Count: 20, Per: time.Second})
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		return &tr, s.Result()
	}
	seqTrace, seqResult := play(1)
	parTrace, parResult := play(4)
	if len(seqTrace.recs) < 100 {
		t.Fatalf("only %d trace records", len(seqTrace.recs))
	}
	if !reflect.DeepEqual(seqTrace.recs, parTrace.recs) {
		t.Errorf("lanes at once traced %d records, one after the other %d, or in another order", len(parTrace.recs), len(seqTrace.recs))
	}
	if !reflect.DeepEqual(seqResult, parResult) {
		t.Errorf("lanes at once measured\n%+v\nwant\n%+v", parResult, seqResult)
	}
}

// failingSink fails on its n-th record.
type failingSink struct{ n, seen int }

var errSink = errors.New("sink full")

func (f *failingSink) Record(*TraceRecord) error {
	if f.seen++; f.seen >= f.n {
		return errSink
	}
	return nil
}

// TestTraceErrorStopsLanesAtOnce wants the sink's error from RunUntil and
// RunToEnd whether the lanes run one after the other or at once.
func TestTraceErrorStopsLanesAtOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 4} {
		for _, live := range []bool{false, true} {
			runtime.GOMAXPROCS(procs)
			s, err := New(liveWorld(Arrival{Kind: ArrivalConstant, Rate: Rate{Count: 6, Per: time.Second}}), Options{Trace: &failingSink{n: 50}})
			if err != nil {
				t.Fatal(err)
			}
			if live {
				err = s.RunUntil(s.End())
			} else {
				_, err = s.RunToEnd(context.Background())
			}
			if !errors.Is(err, errSink) {
				t.Errorf("GOMAXPROCS %d, live %v: error %v, want %v", procs, live, err, errSink)
			}
		}
	}
}

// TestCoresBoundTheLanesAtOnce runs a world of eight lanes with GOMAXPROCS 4
// and Options.Cores 0, 1 and 3: at most Cores lanes at once (workers), and
// the same result each time.
func TestCoresBoundTheLanesAtOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	cfg := liveWorld(Arrival{Kind: ArrivalPoisson, Rate: Rate{Count: 6, Per: time.Second}})
	cfg.Lanes = DefaultLanes()
	var want Result
	for _, c := range []struct{ cores, workers int }{{0, 4}, {1, 1}, {3, 3}, {9, 4}} {
		s, err := New(cfg, Options{Cores: c.cores})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.workers(); got != c.workers {
			t.Errorf("Cores %d on 4 cores: %d lanes at once, want %d", c.cores, got, c.workers)
		}
		got, err := Run(context.Background(), cfg, Options{Cores: c.cores})
		if err != nil {
			t.Fatal(err)
		}
		if c.cores == 0 {
			want = got
		} else if !reflect.DeepEqual(got, want) {
			t.Errorf("Cores %d measured another result than Cores 0", c.cores)
		}
	}
}
