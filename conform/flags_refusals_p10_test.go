package conform

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/run"
)

// Every refusal of Flags.Check and GatewayFlags.Check, each by one edit of
// good flags: the error is bad input whose words name the flag and the value;
// all of one Check's edits at once are all told, each on its line.
func TestFlagsCheckEveryRefusal(t *testing.T) {
	redisBase := func() Flags {
		return Flags{Scenario: "demo", Redis: "127.0.0.1:1", Clock: "driver", Scale: 10, Tolerance: 50 * time.Millisecond,
			Show: 5, Runs: 3, Format: "text", MaxEvents: 1000, MaxWall: time.Minute}
	}
	redisCases := []struct {
		edit func(*Flags)
		want string
	}{
		{func(f *Flags) { f.Scenario = "" }, "conform: missing the scenario"},
		{func(f *Flags) { f.Redis = "" }, "--redis: missing the address"},
		{func(f *Flags) { f.ScriptFile = "x.lua" }, "--script: say which lane"},
		{func(f *Flags) { f.Clock = "sundial" }, fmt.Sprintf(`--clock: unknown clock "sundial" (want one of %v)`, ClockNames())},
		{func(f *Flags) { f.Lane = "nope" }, `--lane: unknown lane "nope"`},
		{func(f *Flags) { f.Scale = 0.5 }, fmt.Sprintf("--time-scale: must be between 1 and %d, got 0.5", int64(MaxScale))},
		{func(f *Flags) { f.Scale = MaxScale * 2 }, "--time-scale: must be between 1 and"},
		{func(f *Flags) { f.Scale = math.NaN() }, "--time-scale: must be between 1 and"},
		{func(f *Flags) { f.Format = "xml" }, `--format: unknown format "xml"`},
		{func(f *Flags) { f.Tolerance = -time.Millisecond }, "--tolerance: must not be negative, got -1ms"},
		{func(f *Flags) { f.Show = -2 }, "--show: must be between 0 and"},
		{func(f *Flags) { f.Runs = 0 }, "--runs: must be between 1 and"},
		{func(f *Flags) { f.MaxEvents = -3 }, "--max-events: must be positive, got -3"},
		{func(f *Flags) { f.MaxWall = -time.Second }, "--max-wall: must be positive, got -1s"},
		{func(f *Flags) { f.Replicas = []int{2, MaxReplicas + 1} }, fmt.Sprintf("--replicas: each must be between 1 and %d, got %d", MaxReplicas, MaxReplicas+1)},
	}
	all := redisBase()
	for _, tc := range redisCases {
		f := redisBase()
		tc.edit(&f)
		checkRefusal(t, "Flags", f.Check(), tc.want)
		if inAll(tc.want) {
			tc.edit(&all)
		}
	}
	err := all.Check()
	for _, tc := range redisCases {
		if inAll(tc.want) {
			checkRefusal(t, "Flags (all at once)", err, tc.want)
		}
	}
	// --print-script alone: a known script passes whatever else is missing,
	// an unknown one is told with the names.
	if err := (&Flags{PrintScript: ScriptNames()[0]}).Check(); err != nil {
		t.Errorf("--print-script %s alone: %v, want accepted", ScriptNames()[0], err)
	}
	checkRefusal(t, "Flags", (&Flags{PrintScript: "nope"}).Check(), fmt.Sprintf(`--print-script: unknown script "nope" (want one of %v)`, ScriptNames()))

	gwBase := func() GatewayFlags {
		return GatewayFlags{Scenario: "demo", URL: "http://127.0.0.1:8080", Lane: "token_bucket", KeyHeader: "X-Key", Path: "/",
			Tolerance: 50 * time.Millisecond, Format: "text", Show: 5, Scale: 1, MaxEvents: 1000, MaxWall: time.Minute}
	}
	if err := func() error { f := gwBase(); return f.Check() }(); err != nil {
		t.Fatalf("good gateway flags: %v", err)
	}
	gwCases := []struct {
		edit func(*GatewayFlags)
		want string
	}{
		{func(f *GatewayFlags) { f.Scenario = "" }, "conform: missing the scenario"},
		{func(f *GatewayFlags) { f.Conflicts = []string{"--redis"} }, "--redis: either --redis or --http"},
		{func(f *GatewayFlags) { f.Conflicts = []string{"--runs"} }, "--runs: not with --http"},
		{func(f *GatewayFlags) { f.URL = "ftp://h/" }, `--http: "ftp://h/" is not an absolute http:// or https:// URL`},
		{func(f *GatewayFlags) { f.URL = "http://h/?q=1" }, `--http: "http://h/?q=1" is not an absolute`},
		{func(f *GatewayFlags) { f.URL = "http:///x" }, `--http: "http:///x" is not an absolute`},
		{func(f *GatewayFlags) { f.Lane = "" }, "--lane: say which lane"},
		{func(f *GatewayFlags) { f.KeyHeader = "" }, `--key-header: "" is not an HTTP header name`},
		{func(f *GatewayFlags) { f.KeyHeader = "X Key" }, `--key-header: "X Key" is not an HTTP header name`},
		{func(f *GatewayFlags) { f.KeyHeader = "X:Key" }, `--key-header: "X:Key" is not`},
		{func(f *GatewayFlags) { f.KeyHeader = "Xé" }, `--key-header: "Xé" is not`},
		{func(f *GatewayFlags) { f.Path = "api" }, `--path: "api" is not a path starting with /`},
		{func(f *GatewayFlags) { f.Path = "/a#b" }, `--path: "/a#b" is not a path`},
		{func(f *GatewayFlags) { f.Scale = 2 }, "--time-scale: a gateway limits on its own wall clock: must be 1 with --http, got 2"},
		{func(f *GatewayFlags) { f.Format = "csv" }, `--format: unknown format "csv"`},
		{func(f *GatewayFlags) { f.Tolerance = -1 }, "--tolerance: must not be negative"},
		{func(f *GatewayFlags) { f.Show = MaxShow + 1 }, fmt.Sprintf("--show: must be between 0 and %d, got %d", MaxShow, MaxShow+1)},
		{func(f *GatewayFlags) { f.Show = -1 }, "--show: must be between 0 and"},
		{func(f *GatewayFlags) { f.MaxEvents = 0 }, "--max-events: must be positive, got 0"},
		{func(f *GatewayFlags) { f.MaxWall = 0 }, "--max-wall: must be positive, got 0s"},
	}
	for _, tc := range gwCases {
		f := gwBase()
		tc.edit(&f)
		checkRefusal(t, "GatewayFlags", f.Check(), tc.want)
	}
	for _, ok := range []func(*GatewayFlags){
		func(f *GatewayFlags) { f.URL = "https://gw.example:8443/base" },
		func(f *GatewayFlags) { f.KeyHeader = "X-Api-Key_2~!" },
		func(f *GatewayFlags) { f.Show, f.Tolerance = MaxShow, 0 },
		func(f *GatewayFlags) { f.Conflicts = nil },
	} {
		f := gwBase()
		ok(&f)
		if err := f.Check(); err != nil {
			t.Errorf("GatewayFlags %+v: %v, want accepted", f, err)
		}
	}
}

// inAll says which refusals of Flags are given at once: one --time-scale
// (they edit one flag), and not --script without --lane (--lane nope gives one).
func inAll(want string) bool {
	return (!strings.HasPrefix(want, "--time-scale") || strings.Contains(want, "0.5")) && !strings.HasPrefix(want, "--script")
}

func checkRefusal(t *testing.T, what string, err error, want string) {
	t.Helper()
	if err == nil || !run.IsBadInput(err) || !strings.Contains(err.Error(), want) {
		t.Errorf("%s.Check() = %v, want bad input %q", what, err, want)
	}
}
