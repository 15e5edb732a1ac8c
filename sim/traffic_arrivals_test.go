package sim

import (
	"math"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim/engine"
)

func arrivalTimes(a Arrival, stop time.Duration) []time.Duration {
	st := arrivalState{rnd: engine.NewStream(1)}
	var out []time.Duration
	for {
		at, ok := nextArrival(&a, &st, stop)
		if !ok {
			return out
		}
		out = append(out, at)
	}
}

func TestArrivalShapes(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name string
		a    Arrival
		stop time.Duration
		want []time.Duration
	}{
		{"burst spread evenly", Arrival{Kind: ArrivalBurst, At: 100 * ms, Count: 4, Spread: 40 * ms}, time.Second,
			[]time.Duration{100 * ms, 110 * ms, 120 * ms, 130 * ms}},
		{"burst at once", Arrival{Kind: ArrivalBurst, At: 5 * ms, Count: 3}, time.Second, []time.Duration{5 * ms, 5 * ms, 5 * ms}},
		{"burst cut by the end", Arrival{Kind: ArrivalBurst, At: 990 * ms, Count: 4, Spread: 40 * ms}, time.Second,
			[]time.Duration{990 * ms}},
		{"constant 3 per second, exact", Arrival{Kind: ArrivalConstant, Rate: Rate{3, time.Second}}, time.Second,
			[]time.Duration{0, 333333333, 666666666}},
		{"constant from start to stop", Arrival{Kind: ArrivalConstant, Start: 10 * ms, Stop: 40 * ms, Rate: Rate{1, 10 * ms}}, time.Second,
			[]time.Duration{10 * ms, 20 * ms, 30 * ms}},
		{"on/off", Arrival{Kind: ArrivalOnOff, Rate: Rate{1, 10 * ms}, On: 20 * ms, Off: 30 * ms}, 110 * ms,
			[]time.Duration{0, 10 * ms, 50 * ms, 60 * ms, 100 * ms}},
		{"idle then burst", Arrival{Kind: ArrivalIdleThenBurst, Idle: 50 * ms, Count: 2, Spread: 10 * ms}, 130 * ms,
			[]time.Duration{50 * ms, 55 * ms, 110 * ms, 115 * ms}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := arrivalTimes(tc.a, tc.stop)
			if len(got) != len(tc.want) {
				t.Fatalf("arrivals at %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("arrivals at %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestConstantRateHasNoDrift(t *testing.T) {
	// 7 per second does not divide a second in nanoseconds; after an hour the
	// count must still be exactly 7×3600.
	got := arrivalTimes(Arrival{Kind: ArrivalConstant, Rate: Rate{7, time.Second}}, time.Hour)
	if len(got) != 7*3600 {
		t.Errorf("%d arrivals in an hour at 7/s, want %d", len(got), 7*3600)
	}
}

func TestPoissonRate(t *testing.T) {
	got := arrivalTimes(Arrival{Kind: ArrivalPoisson, Rate: Rate{50, time.Second}}, 2000*time.Second)
	want := 50.0 * 2000
	if math.Abs(float64(len(got))-want) > 4*math.Sqrt(want) {
		t.Errorf("%d Poisson arrivals, want %v ± 4σ", len(got), want)
	}
	for i := 1; i < len(got); i++ {
		if got[i] < got[i-1] {
			t.Fatalf("arrival %d at %v is before the previous at %v", i, got[i], got[i-1])
		}
	}
}

func TestIdentityTemplates(t *testing.T) {
	grp := ClientGroup{Name: "users", Identity: Identity{User: "u-{i}", IP: "203.0.113.7", Tenant: "{g}"}}
	for _, tc := range []struct {
		kind KeyKind
		want string
	}{
		{KeyUser, "user:u-3"}, {KeyIP, "ip:203.0.113.7"}, {KeyTenant, "tenant:users"},
		{KeyAPIKey, "api_key:users-3"}, {KeyGlobal, "global"},
	} {
		if got := clientKey(&grp, 3, tc.kind); got != tc.want {
			t.Errorf("key by %v = %q, want %q", tc.kind, got, tc.want)
		}
	}
}

func TestRetryPolicyBoundsAttempts(t *testing.T) {
	never := Limit{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1, Window: time.Hour}}
	cfg := Config{Duration: time.Minute, Lanes: []LaneKind{LaneSlidingLog}, Limits: []Limit{never},
		Clients: []ClientGroup{
			{Name: "first", Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 1}}},
			{Name: "fixed", Count: 3, Arrivals: []Arrival{{Kind: ArrivalBurst, At: time.Second, Count: 1}},
				Retry: Retry{Kind: RetryFixed, Delay: 100 * time.Millisecond, MaxAttempts: 4}},
			{Name: "none", Count: 2, Arrivals: []Arrival{{Kind: ArrivalBurst, At: time.Second, Count: 1}}},
		}}
	r := mustRun(t, cfg, Options{}).Lanes[0]
	byName := map[string]ClassResult{}
	for _, c := range r.Classes {
		byName[c.Name] = c
	}
	if c := byName["fixed"]; c.Attempts != 12 || c.GaveUp != 3 {
		t.Errorf("fixed retries: %d attempts, %d gave up; want 12 and 3", c.Attempts, c.GaveUp)
	}
	if c := byName["none"]; c.Attempts != 2 || c.GaveUp != 2 {
		t.Errorf("no retries: %d attempts, %d gave up; want 2 and 2", c.Attempts, c.GaveUp)
	}
	if r.AllDoneAt != time.Second+300*time.Millisecond {
		t.Errorf("all done at %v, want 1.3s (the fourth fixed attempt)", r.AllDoneAt)
	}
}
