package replay

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/quick"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// jsonLog is a JSON-lines log of one line per (ms after 2026-03-01 09:00, ip).
func jsonLog(lines [][2]any) []byte {
	var b bytes.Buffer
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for _, l := range lines {
		at := t0.Add(time.Duration(l[0].(int)) * time.Millisecond)
		fmt.Fprintf(&b, `{"time":%q,"ip":%q,"method":"GET","path":"/api"}`+"\n", at.Format(time.RFC3339Nano), l[1])
	}
	return b.Bytes()
}

func replayLog(t testing.TB, log []byte, o Options) *Result {
	t.Helper()
	o.Format = "json"
	res, err := Replay(context.Background(), []Input{{Name: "log", R: bytes.NewReader(log)}}, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// oneKey is 30 lines of one address, one every 100ms from 09:00:00 (windows
// of 1s aligned to the hour: 10 lines in each of three).
func oneKey() []byte {
	var lines [][2]any
	for i := range 30 {
		lines = append(lines, [2]any{i * 100, "198.51.100.7"})
	}
	return jsonLog(lines)
}

// TestThreeLocalReplicasAdmitThreeTimes: at 2 per second in fixed windows,
// one limiter admits the first 2 of each window's 10 lines: 6 of 30. Three
// replicas round robin, each counting alone, get lines 0, 3, 6, ... (r),
// 1, 4, 7, ... and 2, 5, 8, ...: 3 or 4 of each window's 10 lines each, of
// which each admits 2, so 6 a window, 18 = 3 × 6; 4 a window beyond the
// limit: 12. Over every start time, the fleet's most in one window is 6
// ([500ms, 1.5s): 500ms, then 1s to 1.4s), and a replica's 3: replica 1
// admits 100ms, 400ms, 1s, 1.3s, three in [400ms, 1.4s), the first replica
// to hold three (replica 2 at 1.4s, replica 0 at 2.1s).
func TestThreeLocalReplicasAdmitThreeTimes(t *testing.T) {
	l := mustLimit(t, "key=ip limit=2/1s")
	one := replayLog(t, oneKey(), Options{Limits: []Limit{l}, Lanes: []string{"fixed_window"}})
	three := replayLog(t, oneKey(), Options{Limits: []Limit{l}, Lanes: []string{"fixed_window"}, Fleet: Fleet{Replicas: 3}})
	a1, a3 := 30-one.Limits[0].Lanes[0].Refused, 30-three.Limits[0].Lanes[0].Refused
	if a1 != 6 || a3 != 18 {
		t.Errorf("admitted %d by one limiter and %d by three local replicas; want 6 and 18 (3 × 6)", a1, a3)
	}
	f := three.Limits[0].Lanes[0].Fleet
	if f == nil || f.Fleet.Count != 6 || f.Replica.Count != 3 || f.BusiestReplica != 1 || f.Beyond != 12 || f.Fleet.Key != "198.51.100.7" || f.Place != "local" {
		t.Errorf("fleet %+v: want fleet max 6, replica 1 max 3, 12 beyond the limit, key 198.51.100.7, local", f)
	}
	if one.Limits[0].Lanes[0].Fleet != nil {
		t.Errorf("one limiter has fleet figures")
	}
}

// randomLog is n lines over keys addresses, at random instants over span ms
// (in order, some at the same instant).
func randomLog(r *rand.Rand, n, keys, span int) []byte {
	var lines [][2]any
	for range n {
		lines = append(lines, [2]any{r.IntN(span), fmt.Sprintf("192.0.2.%d", r.IntN(keys))})
	}
	slices.SortStableFunc(lines, func(a, b [2]any) int { return a[0].(int) - b[0].(int) })
	return jsonLog(lines)
}

var fleetLanes = []string{"fixed_window", "sliding_log", "sliding_window_counter", "token_bucket", "leaky_bucket", "gcra",
	"nginx", "kong", "haproxy", "traefik", "envoy_local"}

// TestDividedAdmitsAtMostTheLimit: divided over 3 (or 7) replicas, no key
// is admitted more than the limit in any window of it aligned to the hour
// (the shares sum to the limit), in the lanes whose windows are those
// (fixed window, Kong's per-second window) and in the sliding log, whose
// every window holds at most its share on each replica.
func TestDividedAdmitsAtMostTheLimit(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{3, 7} {
		log := randomLog(r, 3000, 4, 20000)
		l := mustLimit(t, "key=ip limit=10/1s")
		res := replayLog(t, log, Options{Limits: []Limit{l}, Lanes: []string{"fixed_window", "sliding_log", "kong"},
			Fleet: Fleet{Replicas: n, Place: Place{Divided: true}}})
		for _, lane := range res.Limits[0].Lanes {
			if f := lane.Fleet; f.Beyond != 0 || lane.Lane == "sliding_log" && f.Fleet.Count > 10 {
				t.Errorf("%d replicas, %s: %d admitted beyond the limit, fleet max %d; want 0 and at most 10", n, lane.Lane, f.Beyond, f.Fleet.Count)
			}
			if lane.Refused == 0 {
				t.Errorf("%d replicas, %s: nothing refused", n, lane.Lane)
			}
		}
	}
}

// TestSharedIsOneLimiter: one shared state in an atomic store decides every
// line as one limiter does, in every lane; so does hash routing by ip of a
// per-ip limit counted locally (each address always on its replica).
func TestSharedIsOneLimiter(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	log := randomLog(r, 4000, 6, 30000)
	l := mustLimit(t, "key=ip limit=5/1s")
	one := replayLog(t, log, Options{Limits: []Limit{l}, Lanes: fleetLanes, Verdicts: true})
	for _, f := range []Fleet{
		{Replicas: 3, Place: Place{State: sim.StateShared}},
		{Replicas: 5, Routing: sim.RoutingRandom, Seed: 9, Place: Place{State: sim.StateShared}},
		{Replicas: 3, Routing: sim.RoutingHash},
		{Replicas: 4, Routing: sim.RoutingHash, HashKey: KeySpec{{Kind: "ip"}}},
	} {
		got := replayLog(t, log, Options{Limits: []Limit{l}, Lanes: fleetLanes, Verdicts: true, Fleet: f})
		for i, lane := range got.Limits[0].Lanes {
			if !slices.Equal(lane.Verdicts, one.Limits[0].Lanes[i].Verdicts) {
				t.Errorf("%+v, %s: verdicts differ from one limiter's", f, lane.Lane)
			}
			if one.Limits[0].Lanes[i].Refused == 0 {
				t.Errorf("%s: nothing refused", lane.Lane)
			}
		}
	}
	// Round robin of a local per-ip limit is not one limiter: the test can fail.
	rr := replayLog(t, log, Options{Limits: []Limit{l}, Lanes: fleetLanes, Verdicts: true, Fleet: Fleet{Replicas: 3}})
	if slices.Equal(rr.Limits[0].Lanes[0].Verdicts, one.Limits[0].Lanes[0].Verdicts) {
		t.Errorf("round robin over 3 local replicas decided as one limiter")
	}
}

// TestFleetReplayIsDeterministic: random routing is seeded: two replays give
// byte-identical JSON; another seed routes otherwise.
func TestFleetReplayIsDeterministic(t *testing.T) {
	log := randomLog(rand.New(rand.NewPCG(5, 6)), 3000, 5, 20000)
	l := mustLimit(t, "key=ip limit=5/1s")
	out := func(seed uint64) []byte {
		res := replayLog(t, log, Options{Limits: []Limit{l}, Lanes: fleetLanes,
			Fleet: Fleet{Replicas: 4, Routing: sim.RoutingRandom, Seed: seed}})
		var b bytes.Buffer
		if err := WriteJSON(&b, res); err != nil {
			t.Fatal(err)
		}
		WriteText(&b, res)
		return b.Bytes()
	}
	a, b, c := out(1), out(1), out(2)
	if !bytes.Equal(a, b) {
		t.Errorf("two replays with seed 1 differ")
	}
	if bytes.Equal(a, c) {
		t.Errorf("seeds 1 and 2 routed alike")
	}
}

// TestRetirementKeepsFleetDecisions: on arbitrary logs, keys retiring (and
// parked while a product's or a replica's state is not yet idle, taken back
// when they return) decide every line as when no key is ever retired, in
// every lane, placed in each way; parking happens.
func TestRetirementKeepsFleetDecisions(t *testing.T) {
	resumed := 0
	places := []Fleet{{}, {Replicas: 3}, {Replicas: 3, Place: Place{Divided: true}},
		{Replicas: 2, Routing: sim.RoutingRandom, Place: Place{State: sim.StateSynced, SyncInterval: 700 * time.Millisecond}},
		{Replicas: 3, Place: Place{State: sim.StateShared}}}
	cfg := &sim.Config{Lanes: []sim.LaneKind{sim.LaneKong, sim.LaneNginx, sim.LaneTokenBucket}, Variants: []sim.Variant{
		{Name: "kong-minute", Product: sim.ProductSettings{Kong: &sim.KongSettings{Minute: 30}}}, {}, {}}}
	prop := func(seed uint64, keys, gap uint8) bool {
		r := rand.New(rand.NewPCG(seed, 7))
		var lines [][2]any
		at := 0
		for range 400 {
			at += r.IntN(int(gap)%40*100 + 1) // pauses up to 4s: keys retire and return
			lines = append(lines, [2]any{at, fmt.Sprintf("192.0.2.%d", r.IntN(int(keys)%5+1))})
		}
		log := jsonLog(lines)
		l := mustLimit(t, "key=ip limit=3/1s")
		ok := true
		for _, f := range places {
			o := Options{Limits: []Limit{l}, Lanes: []string{"kong-minute", "nginx", "token_bucket", "gcra", "haproxy"},
				Config: cfg, Verdicts: true, Fleet: f, Late: NoLate}
			kept := o
			kept.noRetire = true
			got, want := replayLog(t, log, o), replayLog(t, log, kept)
			for i, lane := range got.Limits[0].Lanes {
				if !slices.Equal(lane.Verdicts, want.Limits[0].Lanes[i].Verdicts) {
					t.Logf("seed %d, %+v, %s: verdicts differ with retirement", seed, f, lane.Lane)
					ok = false
				}
			}
			for _, row := range got.deciders {
				for _, d := range row {
					if p, isPlaced := d.(*placedLimit); isPlaced {
						resumed += p.resumed
					}
				}
			}
		}
		return ok
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 25, Rand: nil}); err != nil {
		t.Error(err)
	}
	if resumed == 0 {
		t.Errorf("no parked key was taken back: the property did not test parking")
	}
}

// TestPlacedDecidesWithoutAllocating: a decision of a key already seen
// allocates nothing, on each placement, once its window's log has grown.
func TestPlacedDecidesWithoutAllocating(t *testing.T) {
	kind, _ := sim.ParseLane("nginx")
	for _, pl := range []Place{{}, {Divided: true}, {State: sim.StateShared}, {State: sim.StateSynced, SyncInterval: time.Second}} {
		route := new(int32)
		d, err := newPlaced(kind, mustLimit(t, "key=ip limit=100/1s").Policy, pl, 3, route, time.Second,
			func(p algorithms.Policy, _ time.Time) (sim.KeyRule, error) { return kind.PerKey(p) })
		if err != nil {
			t.Fatal(err)
		}
		if err := d.start(time.Time{}); err != nil {
			t.Fatal(err)
		}
		now := time.Duration(0)
		step := func() {
			now += 7 * time.Millisecond
			*route = int32(now/time.Millisecond) % 3
			d.decide(1, now)
		}
		for range 5000 {
			step()
		}
		if n := testing.AllocsPerRun(2000, step); n != 0 {
			t.Errorf("%s: %v allocations per decision, want 0", pl, n)
		}
	}
}
