package sim

import (
	"context"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// runOptions runs optionsWorld (one client at 20/s against 10/s, burst 10)
// for d with lanes ks and their options, and gives each lane's result and
// its trace.
func runOptions(t *testing.T, d time.Duration, ks []LaneKind, os ...LaneOptions) ([]LaneResult, map[int][]TraceRecord) {
	t.Helper()
	c := optionsWorld(ks, os...)
	c.Duration = d
	var recs traceRecords
	r, err := Run(context.Background(), c, Options{Trace: &recs})
	if err != nil {
		t.Fatal(err)
	}
	byLane := map[int][]TraceRecord{}
	for _, rec := range recs {
		byLane[rec.LaneIndex] = append(byLane[rec.LaneIndex], rec)
	}
	return r.Lanes, byLane
}

// The penalty charges every refusal: a client sending every T/2 to a full
// bucket of burst B (T = 100ms, B = 10) gets its first 2B−1 requests and
// then none, however long it keeps sending; without it, one in two.
func TestPenaltyLocksOutAClientThatKeepsSending(t *testing.T) {
	for _, k := range []LaneKind{LaneTokenBucket, LaneGCRA} {
		lanes, _ := runOptions(t, 5*time.Second, []LaneKind{k, k}, LaneOptions{}, LaneOptions{Penalty: true})
		plain, penalised := lanes[0], lanes[1]
		if penalised.Admitted != 2*10-1 {
			t.Errorf("%v with the penalty admitted %d of %d, want 2B−1 = 19", k, penalised.Admitted, penalised.Attempts)
		}
		if plain.Admitted < 10+5*10-1 {
			t.Errorf("%v without it admitted %d, want the burst and the rate: at least 59", k, plain.Admitted)
		}
	}
}

// A request the bucket would refuse waits up to Wait for its turn: never
// longer, and each one refused without the wait either waits or is refused.
func TestWaitDelaysUpToItsBound(t *testing.T) {
	const wait = 120 * time.Millisecond
	lanes, _ := runOptions(t, 3*time.Second, []LaneKind{LaneTokenBucket, LaneTokenBucket}, LaneOptions{}, LaneOptions{Wait: wait})
	plain, waits := lanes[0], lanes[1]
	if waits.Delayed == 0 || waits.Delay.Max > wait || waits.Delay.Max <= wait-100*time.Millisecond {
		t.Errorf("waiting lane delayed %d, the longest %v; want some, the longest within (%v, %v]", waits.Delayed, waits.Delay.Max, wait-100*time.Millisecond, wait)
	}
	if plain.Delayed != 0 || waits.Admitted < plain.Admitted || waits.Refused >= plain.Refused {
		t.Errorf("plain admitted %d refused %d delayed %d; waiting admitted %d refused %d: want the wait to admit more, later",
			plain.Admitted, plain.Refused, plain.Delayed, waits.Admitted, waits.Refused)
	}
}

// After a refusal a banned key is refused for the whole ban, whatever its
// rate: a fixed window of 10 a second banning for 2s admits 10 in [0, 1s),
// none in the ban, and 10 again from the window after the ban's end.
func TestBanRefusesForItsWholeLength(t *testing.T) {
	_, recs := runOptions(t, 5*time.Second, []LaneKind{LaneFixedWindow}, LaneOptions{Ban: 2 * time.Second})
	var firstRefusal, lastBanned time.Duration = -1, -1
	admittedIn := map[time.Duration]int{}
	for _, r := range recs[0] {
		switch r.Event {
		case TraceRefuse:
			if firstRefusal < 0 {
				firstRefusal = r.At
			}
			if r.At < firstRefusal+2*time.Second {
				lastBanned = r.At
			}
		case TraceAdmit:
			if firstRefusal >= 0 && r.At < firstRefusal+2*time.Second {
				t.Errorf("admitted at %v, within the ban from %v", r.At, firstRefusal)
			}
			admittedIn[r.At.Truncate(time.Second)]++
		}
	}
	if firstRefusal != 500*time.Millisecond || lastBanned < firstRefusal+time.Second || admittedIn[0] != 10 || admittedIn[3*time.Second] != 10 {
		t.Errorf("first refusal %v, last banned refusal %v, admitted per second %v; want 500ms, after 1.5s, 10 in the first second and 10 in the fourth",
			firstRefusal, lastBanned, admittedIn)
	}
}

// A bucket starting empty admits exactly its burst less than a full one while
// the client keeps it drained.
func TestStartLevelIsTheFirstTokens(t *testing.T) {
	empty := int64(0)
	lanes, _ := runOptions(t, 3*time.Second, []LaneKind{LaneTokenBucket, LaneTokenBucket, LaneGCRA, LaneGCRA},
		LaneOptions{}, LaneOptions{Start: &empty}, LaneOptions{}, LaneOptions{Start: &empty})
	for i := 0; i < 4; i += 2 {
		if full, e := lanes[i].Admitted, lanes[i+1].Admitted; full-e != 10 {
			t.Errorf("%v: full start admitted %d, empty %d; want the burst, 10, apart", lanes[i].Lane, full, e)
		}
	}
}

// A clock of tick decides at the time truncated to tick: on arrivals at whole
// milliseconds a 1ms clock changes nothing; a 1s clock refills the bucket
// only at whole seconds.
func TestClockTruncatesTheTime(t *testing.T) {
	lanes, recs := runOptions(t, 3*time.Second, []LaneKind{LaneTokenBucket, LaneTokenBucket, LaneTokenBucket},
		LaneOptions{}, LaneOptions{Clock: time.Millisecond}, LaneOptions{Clock: time.Second})
	if lanes[0].Admitted != lanes[1].Admitted || lanes[0].Refused != lanes[1].Refused {
		t.Errorf("a 1ms clock on whole-ms arrivals: admitted %d refused %d, want %d and %d as exact",
			lanes[1].Admitted, lanes[1].Refused, lanes[0].Admitted, lanes[0].Refused)
	}
	for _, r := range recs[2] {
		if r.Event == TraceAdmit && r.At >= time.Second && r.At%time.Second >= 500*time.Millisecond {
			t.Errorf("1s clock admitted at %v: the bucket it sees refilled only at the second, drained by its first half", r.At)
		}
	}
}

// A fixed window aligned to the key's first request starts its windows
// there. A client at 20/s from 500ms against 10 a second: aligned to the
// clock, [0, 1s) holds its first 10 (500ms to 950ms) and [1s, 2s) the next 10,
// so the first refusal is at 1.5s and the next admission at 2s; aligned to
// its first request, [500ms, 1.5s) holds 10, the first refusal is at 1s and
// the next admission at 1.5s.
func TestAlignFirstStartsWindowsAtTheFirstRequest(t *testing.T) {
	c := optionsWorld([]LaneKind{LaneFixedWindow, LaneFixedWindow}, LaneOptions{}, LaneOptions{AlignFirst: true})
	c.Duration = 3 * time.Second
	c.Clients[0].Arrivals[0].Start = 500 * time.Millisecond
	var recs traceRecords
	if _, err := Run(context.Background(), c, Options{Trace: &recs}); err != nil {
		t.Fatal(err)
	}
	firstRefusal := map[int]time.Duration{0: -1, 1: -1}
	firstAfter := map[int]time.Duration{0: -1, 1: -1}
	for _, r := range recs {
		i := r.LaneIndex
		if r.Event == TraceRefuse && firstRefusal[i] < 0 {
			firstRefusal[i] = r.At
		}
		if r.Event == TraceAdmit && firstRefusal[i] >= 0 && firstAfter[i] < 0 {
			firstAfter[i] = r.At
		}
	}
	want := map[int][2]time.Duration{0: {1500 * time.Millisecond, 2 * time.Second}, 1: {time.Second, 1500 * time.Millisecond}}
	for i, w := range want {
		if firstRefusal[i] != w[0] || firstAfter[i] != w[1] {
			t.Errorf("lane %d: first refusal %v, next admission %v; want %v and %v", i, firstRefusal[i], firstAfter[i], w[0], w[1])
		}
	}
}

// Lanes with options take the general path: they never share requests with
// other lanes (sharingLanes), whose fast verdicts assume the bare rule.
func TestLanesWithOptionsShareNothing(t *testing.T) {
	sharedAlways = true
	defer func() { sharedAlways = false }()
	cfg := optionsWorld([]LaneKind{LaneTokenBucket, LaneTokenBucket, LaneTokenBucket}, LaneOptions{}, LaneOptions{Penalty: true}, LaneOptions{})
	cfg = cfg.withDefaults()
	pop, err := newPopulation(t.Context(), cfg.Clients, cfg.Limits)
	if err != nil {
		t.Fatal(err)
	}
	got := sharingLanes(&cfg, Options{}, pop)
	if len(got) != 2 || got[0] != 0 || got[1] != 2 {
		t.Errorf("sharingLanes = %v, want [0 2]: the penalised lane apart", got)
	}
}

// keysWorld is n clients of their own IP, each sending one request a second
// from start+i×gap, against 1 a second per IP, the lanes' tables holding size
// keys.
func keysWorld(n, size int, full TableFull) Config {
	c := Config{Duration: 4 * time.Second, Seed: 1,
		Limits: []Limit{{Name: "ip", Key: KeyIP, Policy: algorithms.Policy{Limit: 1, Window: time.Second}}},
		Lanes:  []LaneKind{LaneFixedWindow},
		Clients: []ClientGroup{{Name: "c", Count: n, Arrivals: []Arrival{{Kind: ArrivalConstant,
			Rate: Rate{Count: 4, Per: time.Second}}}}},
		Variants: []Variant{{Name: "bounded", Options: LaneOptions{Keys: size, WhenFull: full}}},
	}
	return c
}

// A full key table meets a new key as its when_full says, and the result
// counts what it did: 3 clients at 4/s each, all at 0, 250ms, ..., against 1
// a second, in a table of 2 keys. The two keys in the table are used at every
// instant before the third client's request, so neither is ever idle:
// evict_idle refuses the third client's every request, as refuse does; evict
// forgets a key each time, so the clients get more than the limit; admit lets
// the third through untracked.
func TestKeyTableFull(t *testing.T) {
	for _, tc := range []struct {
		full      TableFull
		evicted   bool // some evictions
		refused   bool // some refusals by the table
		untracked bool
	}{{TableEvictIdle, false, true, false}, {TableEvict, true, false, false}, {TableRefuse, false, true, false}, {TableAdmit, false, false, true}} {
		r, err := Run(context.Background(), keysWorld(3, 2, tc.full), Options{})
		if err != nil {
			t.Fatal(err)
		}
		l := r.Lanes[0]
		if len(l.KeyTables) != 1 {
			t.Fatalf("%v: key tables %v, want one", tc.full, l.KeyTables)
		}
		kt := l.KeyTables[0]
		if kt.Size != 2 || kt.Limit != "ip" || (kt.Evicted > 0) != tc.evicted || (kt.Refused > 0) != tc.refused || (kt.Untracked > 0) != tc.untracked {
			t.Errorf("%v: %+v; want evictions %v, refusals %v, untracked %v", tc.full, kt, tc.evicted, tc.refused, tc.untracked)
		}
		if kt.Refused > l.Refused {
			t.Errorf("%v: the table refused %d, the lane only %d in all", tc.full, kt.Refused, l.Refused)
		}
		// 3 clients, 16 requests each, 1 a second each at most when tracked: 4 windows.
		switch tc.full {
		case TableEvict, TableAdmit:
			if l.Admitted <= 3*4 {
				t.Errorf("%v admitted %d, want more than the limit allows 3 tracked keys (12): keys forgotten or untracked", tc.full, l.Admitted)
			}
		default:
			if l.Admitted > 3*4 {
				t.Errorf("%v admitted %d, more than the limit allows 3 keys in 4 windows (12)", tc.full, l.Admitted)
			}
		}
	}
	// evict_idle evicts a key once it is idle: two clients stop at 1s, the
	// third starts at 2s, when the first two's windows are over.
	c := keysWorld(3, 2, TableEvictIdle)
	c.Clients = []ClientGroup{
		{Name: "early", Count: 2, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 4, Per: time.Second}, Stop: time.Second}}},
		{Name: "late", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 4, Per: time.Second}, Start: 2 * time.Second}}},
	}
	r, err := Run(context.Background(), c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	late := r.Lanes[0].Classes[1]
	if kt := r.Lanes[0].KeyTables[0]; kt.Evicted != 1 || kt.Refused != 0 || late.Admitted != 2 {
		t.Errorf("idle keys: %+v, the late client admitted %d; want 1 evicted, none refused, 1 a second for 2s", kt, late.Admitted)
	}
	// It looks at the least recently used key only: one client sends once at
	// 0, another every 250ms, a third from 1.25s: the first's key, least
	// recently used and idle from 1s, makes room, though the most recent is busy.
	c.Clients = []ClientGroup{
		{Name: "once", Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 1}}},
		{Name: "busy", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 4, Per: time.Second}}}},
		{Name: "new", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 4, Per: time.Second}, Start: 1250 * time.Millisecond}}},
	}
	if r, err = Run(context.Background(), c, Options{}); err != nil {
		t.Fatal(err)
	}
	if kt, n := r.Lanes[0].KeyTables[0], r.Lanes[0].Classes[2]; kt.Evicted != 1 || kt.Refused != 0 || n.Admitted != 3 {
		t.Errorf("the least recently used key idle: %+v, the new client admitted %d; want 1 evicted, none refused, 3 (1s, 2s, 3s windows)", kt, n.Admitted)
	}
	// A table big enough changes nothing.
	big, err := Run(context.Background(), keysWorld(3, 3, TableRefuse), Options{})
	if err != nil {
		t.Fatal(err)
	}
	c = keysWorld(3, 3, TableRefuse)
	c.Variants = nil
	plain, err := Run(context.Background(), c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if kt := big.Lanes[0].KeyTables[0]; kt.Evicted+kt.Refused+kt.Untracked != 0 || big.Lanes[0].Admitted != plain.Lanes[0].Admitted || big.Lanes[0].Refused != plain.Lanes[0].Refused {
		t.Errorf("a table of every key: %+v, admitted %d refused %d; without one %d and %d", kt, big.Lanes[0].Admitted, big.Lanes[0].Refused, plain.Lanes[0].Admitted, plain.Lanes[0].Refused)
	}
}

// The bounded table's list keeps its keys least recently used last: a key
// used again moves first, and the one evicted is the one unused longest.
func TestBoundedKeysEvictsTheLeastRecentlyUsed(t *testing.T) {
	d, err := newDecider(plainRule(LaneFixedWindow), algorithms.Policy{Limit: 5, Window: time.Second}, 4)
	if err != nil {
		t.Fatal(err)
	}
	b := newBoundedKeys(d.(forgettable), algorithms.Policy{Limit: 5, Window: time.Second}, LaneOptions{Keys: 3, WhenFull: TableEvict}, 4)
	for _, k := range []int32{0, 1, 2, 0} { // 1 is now the least recently used
		b.decide(k, 0, 1)
	}
	b.decide(3, 0, 1)
	if b.in[1] || !b.in[0] || !b.in[2] || !b.in[3] || b.stats.Evicted != 1 {
		t.Errorf("after 0,1,2,0 then 3 in a table of 3: members %v, evicted %d; want 1 evicted", b.in, b.stats.Evicted)
	}
	// The evicted key is forgotten: its count starts again.
	if d := b.peek(1, 0, 5); d.Verdict != algorithms.Admit {
		t.Errorf("key 1 after its eviction: a request of the whole limit is %v, want admitted as a new key's", d.Verdict)
	}
	// peek changes nothing: the table is as it was.
	if b.in[1] || b.stats.Evicted != 1 {
		t.Errorf("peek changed the table: members %v, evicted %d", b.in, b.stats.Evicted)
	}
}
