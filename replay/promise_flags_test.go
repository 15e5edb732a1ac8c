package replay

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

func promiseFlags() Flags {
	return Flags{Limits: []string{"key=ip limit=10/1m"}, Lanes: []string{"gcra", "token_bucket"}, LogFormat: "auto", TZ: "UTC",
		Late: 5 * time.Second, LegitBelow: 0.5, Top: 10, Format: "text"}
}

// Flags.Options carries each flag into the options.
func TestPromiseFlagsCarried(t *testing.T) {
	f := promiseFlags()
	f.Limits = append(f.Limits, "key=user limit=3/s name=u")
	f.Lanes = []string{"gcra", "token_bucket"}
	f.LogFormat, f.Fields, f.TZ, f.Late, f.Strict, f.LegitBelow, f.Top = "json", "time=ts", "Europe/Paris", 3*time.Second, true, 0.25, 4
	f.Vary, f.Find, f.Where = "limits[1].burst=2,4", "min limits[1].burst", []string{"lane gcra refused <= 3"}
	o, err := f.Options()
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Limits) != 2 || o.Limits[0].Name != "ip" || o.Limits[1].Name != "u" || !slices.Equal(o.Lanes, f.Lanes) ||
		o.Format != "json" || o.Fields.Time != "ts" || o.Fields.IP != "ip" || o.Location.String() != "Europe/Paris" ||
		o.Late != 3*time.Second || !o.Strict || o.LegitBelow != 0.25 || o.Top != 4 {
		t.Errorf("Options = %+v", o)
	}
	if o.Sweep == nil || o.Sweep.Limit != 1 || o.Sweep.Field != "burst" || !slices.Equal(o.Sweep.Values, []int64{2, 4}) {
		t.Errorf("Sweep = %+v", o.Sweep)
	}
	if len(o.Where) != 1 || o.Where[0] != (Where{Lane: "gcra", Metric: "refused", Op: "<=", Want: 3, Text: "lane gcra refused <= 3"}) {
		t.Errorf("Where = %+v", o.Where)
	}
}

// Every bad flag is an error naming it, all at once.
func TestPromiseFlagsRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Flags)
		want string
	}{
		{"no limit", func(f *Flags) { f.Limits = nil }, "--limit: at least one is needed"},
		{"bad limit", func(f *Flags) { f.Limits = []string{"key=ip"} }, `--limit "key=ip": limit: missing`},
		{"legit above 1", func(f *Flags) { f.LegitBelow = 1.0000001 }, "--legit-below: want a share in (0, 1]"},
		{"legit NaN", func(f *Flags) { f.LegitBelow = nanFloat() }, "--legit-below"},
		{"negative top", func(f *Flags) { f.Top = -1 }, "--top: must be positive, got -1"},
		{"bad zone", func(f *Flags) { f.TZ = "Mars/Olympus" }, `--tz: unknown zone "Mars/Olympus"`},
		{"bad fields", func(f *Flags) { f.Fields = "host=h" }, "--fields: "},
		{"lane aimd", func(f *Flags) { f.Lanes = []string{"aimd"} }, `--lane: "aimd" is not a lane a log can replay`},
		{"format", func(f *Flags) { f.Format = "xml" }, `--format: unknown "xml" (want text, json, csv)`},
		{"log format", func(f *Flags) { f.LogFormat = "xml" }, `--log-format: unknown "xml"`},
		{"find without vary", func(f *Flags) { f.Find = "min limits[0].limit" }, "--find min limits[0].limit: want 'min PATH'"},
		{"find max", func(f *Flags) { f.Vary, f.Find = "limits[0].limit=1,2", "max limits[0].limit" }, "--find max limits[0].limit"},
		{"find other path", func(f *Flags) { f.Vary, f.Find = "limits[0].limit=1,2", "min limits[0].burst" }, "--find min limits[0].burst"},
		{"where without find", func(f *Flags) { f.Where = []string{"refused <= 1"} }, "--where: needs --vary and --find"},
		{"where on a lane not replayed", func(f *Flags) {
			f.Lanes, f.Vary, f.Find, f.Where = []string{"gcra"}, "limits[0].limit=1,2", "min limits[0].limit", []string{"lane token_bucket refused <= 1"}
		}, "token_bucket is not a lane replayed (gcra)"},
		{"vary a third limit", func(f *Flags) { f.Vary = "limits[2].limit=1,2" }, "--vary limits[2].limit: there are 1 --limit flags"},
	} {
		f := promiseFlags()
		tc.edit(&f)
		_, err := f.Options()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	f := promiseFlags()
	f.Top, f.Format, f.LogFormat = 0, "x", "y"
	_, err := f.Options()
	if err == nil || strings.Count(err.Error(), "\n") != 2 {
		t.Errorf("three bad flags: %v, want three errors", err)
	}
	f = promiseFlags()
	f.Late = 0
	if o, err := f.Options(); err != nil || o.Late != NoLate {
		t.Errorf("--late 0: %v, %v; want NoLate, not the default", o.Late, err)
	}
	f = promiseFlags()
	f.Find = "min  limits[0].limit "
	f.Vary = "limits[0].limit=1,2"
	if _, err := f.Options(); err != nil {
		t.Errorf("--find with spaces around the path: %v", err)
	}
}

func nanFloat() float64 { var z float64; return z / z }

// Limit.Check reports every lane's problem on one line; newDecider names an
// unknown lane and the lanes a log can replay.
func TestPromiseLimitCheck(t *testing.T) {
	if err := mustLimit(t, "key=ip limit=10/1m").Check([]string{"gcra", "fixed_window"}); err != nil {
		t.Errorf("Check(10/1m) = %v", err)
	}
	_, err := newDecider("aimd", algorithms.Policy{Limit: 1, Window: time.Second})
	if err == nil || !strings.HasPrefix(err.Error(), `unknown lane "aimd" (want one of [`) {
		t.Errorf("newDecider(aimd) = %v", err)
	}
	l := Limit{Name: "x", Policy: algorithms.Policy{Limit: 1, Window: time.Second}}
	err = l.Check([]string{"nope", "gcra", "also"})
	if err == nil || strings.Count(err.Error(), "unknown lane") != 2 || strings.Contains(err.Error(), "\n") || strings.HasPrefix(err.Error(), ";") {
		t.Errorf("Check(two unknown lanes) = %q, want both on one line", err)
	}
	// Check of no lanes is every lane's.
	huge := Limit{Policy: algorithms.Policy{Limit: 1, Window: time.Second, Burst: 1 << 62}}
	if err := huge.Check(nil); err == nil {
		t.Errorf("a burst of 2^62 passes every lane")
	}
}

// FromScenario: a limit's name defaults to its key; keys map to log parts;
// the scenario's lanes a log can replay, once each, in order.
func TestPromiseFromScenarioMapping(t *testing.T) {
	gcra, _ := sim.ParseLane("gcra")
	tb, _ := sim.ParseLane("token_bucket")
	p := algorithms.Policy{Limit: 5, Window: time.Second}
	cfg := &sim.Config{
		Limits: []sim.Limit{{Key: sim.KeyAPIKey, Policy: p}, {Name: "t", Key: sim.KeyTenant, Policy: p, Endpoint: "login"},
			{Key: sim.KeyEndpoint, Policy: p}, {Key: sim.KeyGlobal, Policy: p}, {Key: sim.KeyUser, Policy: p}, {Key: sim.KeyIP, Policy: p}},
		Lanes: []sim.LaneKind{tb, sim.LaneAIMD, gcra, tb},
	}
	limits, lanes, err := FromScenario(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range limits {
		got = append(got, l.Name+"="+l.Key.String()+"@"+l.Endpoint)
	}
	want := []string{sim.KeyAPIKey.String() + "=field:api_key@", "t=field:tenant@login", sim.KeyEndpoint.String() + "=endpoint@",
		sim.KeyGlobal.String() + "=global@", sim.KeyUser.String() + "=user@", sim.KeyIP.String() + "=ip@"}
	if !slices.Equal(got, want) || !slices.Equal(lanes, []string{"token_bucket", "gcra"}) || limits[1].Policy != p {
		t.Errorf("FromScenario = %q, lanes %q; want %q and [token_bucket gcra]", got, lanes, want)
	}
	cfg.Lanes = nil
	if _, lanes, err := FromScenario(cfg); err != nil || lanes != nil {
		t.Errorf("no lanes named: %v, %v; want none (every lane)", lanes, err)
	}
	cfg.Rules = []sim.RuleChange{{Limit: 1, At: time.Second, Policy: p}, {Limit: 1, At: 2 * time.Second, Policy: p}}
	_, _, err = FromScenario(cfg)
	if err == nil || strings.Count(err.Error(), "limits[1].changes: replay cannot push rules") != 1 || strings.Contains(err.Error(), "limits[0].changes") {
		t.Errorf("two pushes of limit 1: %v, want limits[1] named once", err)
	}
}

// topologyFields names each topology-only setting set, in order.
func TestPromiseTopologyFields(t *testing.T) {
	if got := topologyFields(sim.Limit{State: sim.StateLocal}); len(got) != 0 {
		t.Errorf("a plain limit: %q", got)
	}
	l := sim.Limit{State: sim.StateShared, LocalLimit: sim.LocalDivided, SyncInterval: 1, OnStoreError: sim.FailClosed,
		Fallback: algorithms.Policy{Limit: 1, Window: time.Second}}
	if got := topologyFields(l); !slices.Equal(got, []string{"state", "local_limit", "sync_interval", "on_store_error", "fallback"}) {
		t.Errorf("every setting: %q", got)
	}
}
