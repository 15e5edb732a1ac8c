package diff

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/sim"
)

// TestLoadSideRefusals: each way a side does not load is bad input naming
// its argument; a scenario is a scenario, a product's config its product.
func TestLoadSideRefusals(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(bad, []byte("duration: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ arg, words string }{
		{"backoff-contention", "contention study has no limits"},
		{"builtin:backoff-contention", "contention study has no limits"},
		{"builtin:no-such-builtin", "no-such-builtin"},
		{filepath.Join(dir, "missing.conf"), "missing.conf"},
		{bad, "broken.yaml"},
	} {
		s, err := LoadSide(c.arg, "auto")
		if err == nil || s != nil {
			t.Errorf("LoadSide(%s) = %v, %v; want an error", c.arg, s, err)
			continue
		}
		if !run.IsBadInput(err) || !strings.Contains(err.Error(), c.words) {
			t.Errorf("LoadSide(%s): %v (bad input %v), want bad input saying %q", c.arg, err, run.IsBadInput(err), c.words)
		}
	}
	s := side(t, "builtin:steady-overload")
	if s.Kind != "scenario" || s.Arg != "builtin:steady-overload" || s.scenario == nil || s.config != nil {
		t.Errorf("a built-in's side = %+v, want a scenario", s.Label)
	}
	s = side(t, "steady-overload")
	if s.Kind != "scenario" || s.scenario == nil {
		t.Errorf("a built-in's bare name's side = %+v, want a scenario", s.Label)
	}
}

// TestScenarioArgEachCase: built-ins by either name and unrecognised YAML are
// scenarios; a path, a dotted name and any other file are configs.
func TestScenarioArgEachCase(t *testing.T) {
	dir := t.TempDir()
	nginx := filepath.Join(dir, "nginx.yaml")
	if err := os.WriteFile(nginx, []byte("limit_req_zone $binary_remote_addr zone=one:10m rate=5r/s;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		arg  string
		want bool
	}{
		{"builtin:demo", true}, {"demo", true}, {"./demo", false}, {"demo.conf", false},
		{"testdata/current.yaml", true}, {filepath.Join(dir, "unreadable.yml"), true},
		{filepath.Join(dir, "nginx.conf"), false}, {"no-such-builtin", false},
	} {
		if got := scenarioArg(c.arg); got != c.want {
			t.Errorf("scenarioArg(%s) = %v, want %v", c.arg, got, c.want)
		}
	}
}

// TestSideErrorNamesTheRole: the error names the side's role and argument and
// keeps both bad input and the cause.
func TestSideErrorNamesTheRole(t *testing.T) {
	s := &Side{Label: Label{Arg: "a.conf"}}
	cause := errors.New("boom")
	for i, role := range []string{"current", "proposed"} {
		err := sideError(i, s, cause)
		if want := "the " + role + " side, a.conf: boom"; err.Error() != want {
			t.Errorf("sideError(%d) = %q, want %q", i, err, want)
		}
		if !errors.Is(err, cause) || run.IsBadInput(err) {
			t.Errorf("sideError(%d, plain): wraps %v, bad input %v; want it wrapped, not bad input", i, errors.Is(err, cause), run.IsBadInput(err))
		}
		err = sideError(i, s, run.BadInputf("bad"))
		if !run.IsBadInput(err) || err.Error() != "the "+role+" side, a.conf: bad" {
			t.Errorf("sideError(%d, bad input) = %q (bad input %v)", i, err, run.IsBadInput(err))
		}
	}
}

// TestCounterCountsEachLaneApart: a record of a lane not yet seen grows the
// counter; first attempts are requests, refusals refused, other events nothing.
func TestCounterCountsEachLaneApart(t *testing.T) {
	c := &counter{}
	recs := []sim.TraceRecord{
		{LaneIndex: 2, Event: sim.TraceAdmit, Key: "k", Attempt: 1},
		{LaneIndex: 2, Event: sim.TraceRefuse, Key: "k", Attempt: 2},
		{LaneIndex: 2, Event: sim.TraceRefuse, Key: "k", Class: "c", Attempt: 1},
		{LaneIndex: 0, Event: sim.TraceDelay, Key: "j", Attempt: 1},
		{LaneIndex: 0, Event: sim.TraceDrop, Key: "j", Attempt: 1},
	}
	for i := range recs {
		if err := c.Record(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.lanes) != 3 {
		t.Fatalf("%d lanes, want 3", len(c.lanes))
	}
	if f := c.lane(2)[unit{key: "k"}]; f.requests != 1 || f.refused != 1 {
		t.Errorf("lane 2 key k: %+v, want 1 request, 1 refused", f)
	}
	if f := c.lane(2)[unit{key: "k", class: "c"}]; f.requests != 1 || f.refused != 1 {
		t.Errorf("lane 2 key k class c: %+v, want 1 request, 1 refused", f)
	}
	if f := c.lane(0)[unit{key: "j"}]; f.requests != 2 || f.refused != 0 {
		t.Errorf("lane 0 key j: %+v, want 2 requests, 0 refused", f)
	}
	if len(c.lane(1)) != 0 || len(c.lanes) != 3 {
		t.Errorf("lane 1 counted %v", c.lane(1))
	}
}
