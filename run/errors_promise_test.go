package run

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// BadInput and CouldNotFinish keep nil nil and wrap what they mark, so that
// errors.Is and errors.As reach the cause.
func TestMarksKeepNilAndUnwrap(t *testing.T) {
	if BadInput(nil) != nil || CouldNotFinish(nil) != nil {
		t.Fatal("BadInput(nil) or CouldNotFinish(nil) is not nil")
	}
	cause := errors.New("redis went away")
	u := CouldNotFinish(cause)
	var ue *UnfinishedError
	if !errors.As(u, &ue) || !errors.Is(u, cause) || u.Error() != "redis went away" {
		t.Errorf("CouldNotFinish(%v) = %v: want an *UnfinishedError wrapping the cause, same text", cause, u)
	}
	b := BadInput(cause)
	var ie *InputError
	if !errors.As(b, &ie) || !errors.Is(b, cause) || b.Error() != "redis went away" || !IsBadInput(b) {
		t.Errorf("BadInput(%v) = %v: want an *InputError wrapping the cause, same text", cause, b)
	}
	if got := BadInputf("--seeds: want 1 to %d, got %d", 1000, 0).Error(); got != "--seeds: want 1 to 1000, got 0" {
		t.Errorf("BadInputf = %q", got)
	}
}

// share is 0 when there is nothing to divide by: a lane of no requests has a
// success rate of 0 (so success >= x fails and refused <= x passes).
func TestChecksOfNoRequests(t *testing.T) {
	r := &sim.Result{Duration: time.Second, Lanes: []sim.LaneResult{{Lane: sim.LaneTokenBucket, Name: "token_bucket"}}}
	for _, tc := range []struct {
		metric scenarios.Metric
		op     string
		want   float64
		pass   bool
	}{
		{scenarios.SuccessRate, ">=", 0.5, false},
		{scenarios.SuccessRate, ">=", 0, true},
		{scenarios.RefusedRate, "<=", 0, true},
		{scenarios.ShedRate, "<", 0, false},
		{scenarios.AdmittedRate, "<=", 0, true},
	} {
		got := Checks([]scenarios.Check{{Metric: tc.metric, Op: tc.op, Want: tc.want}}, r)
		if len(got) != 1 || got[0].Got != 0 || got[0].None || got[0].Pass != tc.pass || math.IsNaN(got[0].Got) {
			t.Errorf("%s %s %v on no requests = %+v, want got 0, pass %v", tc.metric, tc.op, tc.want, got, tc.pass)
		}
	}
	if got := share(3, 0); got != 0 {
		t.Errorf("share(3, 0) = %v, want 0", got)
	}
	if got := share(1, 4); got != 0.25 {
		t.Errorf("share(1, 4) = %v, want 0.25", got)
	}
}

// Failed counts the results that did not pass, none of an empty list.
func TestFailedCounts(t *testing.T) {
	for _, tc := range []struct {
		pass []bool
		want int
	}{{nil, 0}, {[]bool{true}, 0}, {[]bool{false}, 1}, {[]bool{true, false, false, true}, 2}} {
		var rs []CheckResult
		for _, p := range tc.pass {
			rs = append(rs, CheckResult{Pass: p})
		}
		if got := Failed(rs); got != tc.want {
			t.Errorf("Failed(%v) = %d, want %d", tc.pass, got, tc.want)
		}
	}
}

// Num writes the shortest number that reads back exactly, null for NaN and
// both infinities.
func TestNumJSONShortest(t *testing.T) {
	for _, tc := range []struct {
		n    float64
		want string
	}{{0.1, "0.1"}, {1.0 / 3, "0.3333333333333333"}, {0, "0"}, {-2.5, "-2.5"}, {math.Inf(-1), "null"}, {math.NaN(), "null"}} {
		b, err := json.Marshal(Num(tc.n))
		if err != nil || string(b) != tc.want {
			t.Errorf("Marshal(Num(%v)) = %s, %v; want %s", tc.n, b, err, tc.want)
		}
		if tc.want == "null" {
			continue
		}
		var back Num
		if err := json.Unmarshal(b, &back); err != nil || float64(back) != tc.n {
			t.Errorf("Num %s read back as %v, %v; want %v", b, back, err, tc.n)
		}
	}
	var n Num
	if err := json.Unmarshal([]byte(`"x"`), &n); err == nil {
		t.Error(`Unmarshal("x") into a Num = nil error, want one`)
	}
}
