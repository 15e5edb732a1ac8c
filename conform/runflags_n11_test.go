package conform

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/sim"
)

func runFlagsBase(scenario string) Flags {
	return Flags{Scenario: scenario, Redis: "127.0.0.1:1", Clock: "driver", Scale: 200, Tolerance: 50 * time.Millisecond,
		Show: 2, Runs: 1, Format: "text", MaxEvents: 1_000_000, MaxWall: time.Hour, Prefix: "rlsim:n11:"}
}

// TestRunFlagsRefusesBeforeRedis: each refusal RunFlags makes before it
// dials is bad input naming what is wrong, and writes nothing.
func TestRunFlagsRefusesBeforeRedis(t *testing.T) {
	dir := t.TempDir()
	twoLimits := filepath.Join(dir, "two.yaml")
	src, err := os.ReadFile("testdata/mixed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	two := strings.Replace(string(src), "limits:\n", "limits:\n  - name: other\n    key: user\n    limit: 9\n    window: 1s\n", 1)
	big := filepath.Join(dir, "big.lua")
	for _, f := range []struct{ path, data string }{{twoLimits, two}, {big, strings.Repeat("-", maxScriptSize+1)}} {
		if err := os.WriteFile(f.path, []byte(f.data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name  string
		edit  func(*Flags)
		words string
	}{
		{"no such scenario", func(f *Flags) { f.Scenario = filepath.Join(dir, "none.yaml") }, "none.yaml"},
		{"a contention study", func(f *Flags) { f.Scenario = "backoff-contention" }, "not a contention study"},
		{"over the budget", func(f *Flags) { f.MaxEvents = 1 }, "over the budget of 1"},
		{"two limits", func(f *Flags) { f.Scenario = twoLimits }, "a chain of one limit, got 2"},
		{"tolerance of the window", func(f *Flags) { f.Tolerance = time.Second }, "--tolerance: testdata/mixed.yaml: tolerance 1s is not below"},
		{"a lane with no script", func(f *Flags) { f.Lane = "leaky_bucket" }, "lane leaky_bucket has no limiter script"},
		{"a missing script", func(f *Flags) { f.Lane, f.ScriptFile = "token_bucket", filepath.Join(dir, "none.lua") }, "--script: "},
		{"a script that is a folder", func(f *Flags) { f.Lane, f.ScriptFile = "token_bucket", dir }, "is not a file"},
		{"a script too big", func(f *Flags) {
			f.Lane, f.ScriptFile = "token_bucket", big
		}, fmt.Sprintf("is %d bytes, over the %d", maxScriptSize+1, maxScriptSize)},
		{"over the wall time", func(f *Flags) { f.MaxWall = time.Millisecond }, "over --max-wall 1ms"},
	} {
		f := runFlagsBase("testdata/mixed.yaml")
		c.edit(&f)
		var out bytes.Buffer
		err := RunFlags(context.Background(), &out, &f)
		if err == nil || !run.IsBadInput(err) || !strings.Contains(err.Error(), c.words) {
			t.Errorf("%s: RunFlags = %v (bad input %v), want bad input saying %q", c.name, err, run.IsBadInput(err), c.words)
		}
		if out.Len() != 0 {
			t.Errorf("%s: wrote %q", c.name, out.String())
		}
	}
}

// TestRunFlagsWallTimeNamesTheRaceRuns: the wall-time refusal counts two race
// runs per run per replica count.
func TestRunFlagsWallTimeNamesTheRaceRuns(t *testing.T) {
	f := runFlagsBase("testdata/mixed.yaml")
	f.MaxWall, f.Runs, f.Replicas = time.Millisecond, 3, []int{2, 4}
	err := RunFlags(context.Background(), &bytes.Buffer{}, &f)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("(%d race runs included)", 2*3*2)) {
		t.Errorf("RunFlags = %v, want the 12 race runs named", err)
	}
}

// TestRunFlagsPrintScriptWritesItAlone: --print-script writes that script's
// source and nothing else, with no scenario or Redis.
func TestRunFlagsPrintScriptWritesItAlone(t *testing.T) {
	for _, name := range ScriptNames() {
		s, _ := ScriptNamed(name)
		var out bytes.Buffer
		if err := RunFlags(context.Background(), &out, &Flags{PrintScript: name}); err != nil || out.String() != s.Source {
			t.Errorf("--print-script %s: %v, wrote %d bytes, want its %d", name, err, out.Len(), len(s.Source))
		}
	}
}

// TestRunFlagsNamesAnUnreachableRedis: a Redis that does not answer is an
// error naming its address, not bad input.
func TestRunFlagsNamesAnUnreachableRedis(t *testing.T) {
	f := runFlagsBase("testdata/mixed.yaml")
	f.Lane = "token_bucket"
	err := RunFlags(context.Background(), &bytes.Buffer{}, &f)
	if err == nil || run.IsBadInput(err) || !strings.Contains(err.Error(), "conform: redis at 127.0.0.1:1") {
		t.Errorf("RunFlags against no Redis = %v, want an error naming it", err)
	}
}

// TestRunFlagsOnRedis runs mixed.yaml's token bucket on a real Redis: the
// text and the JSON name the scenario, seed and Redis, each lane's attempts
// are the traffic's, and a script that answers absurdly fails the check with
// every attempt named unexplained.
func TestRunFlagsOnRedis(t *testing.T) {
	opts := needRedis(t)
	traffic, err := Traffic(context.Background(), *loadConfig(t, "testdata/mixed.yaml"), []sim.LaneKind{sim.LaneTokenBucket}, 0)
	if err != nil {
		t.Fatal(err)
	}
	attempts := len(traffic[0].Attempts)
	f := runFlagsBase("testdata/mixed.yaml")
	f.Redis, f.Lane, f.Prefix = opts.Addr, "token_bucket", prefix(t, "text")
	var out bytes.Buffer
	if err := RunFlags(context.Background(), &out, &f); err != nil {
		t.Fatalf("RunFlags: %v\n%s", err, out.String())
	}
	first := fmt.Sprintf("conform: mixed (seed 7) against the Redis at %s\n", opts.Addr)
	if !strings.HasPrefix(out.String(), first) || !strings.Contains(out.String(), "token_bucket") {
		t.Errorf("text output:\n%s\nwant it to start %q and name the lane", out.String(), first)
	}

	f.Format, f.Prefix, f.Replicas = "json", prefix(t, "json"), []int{2}
	out.Reset()
	if err := RunFlags(context.Background(), &out, &f); err != nil {
		t.Fatalf("RunFlags json: %v", err)
	}
	var doc struct {
		Scenario string
		Seed     uint64
		Redis    string
		Lanes    []struct {
			Lane     string
			Attempts int
		}
		Races []struct {
			Lane     string
			Replicas int
			Runs     []json.RawMessage
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if doc.Scenario != "mixed" || doc.Seed != 7 || doc.Redis != opts.Addr || len(doc.Lanes) != 1 ||
		doc.Lanes[0].Lane != "token_bucket" || doc.Lanes[0].Attempts != attempts {
		t.Errorf("JSON = %+v, want mixed, seed 7, %s, one token_bucket lane of %d attempts", doc, opts.Addr, attempts)
	}
	if len(doc.Races) != 1 || doc.Races[0].Lane != "token_bucket" || doc.Races[0].Replicas != 2 || len(doc.Races[0].Runs) != 1 {
		t.Errorf("races = %+v, want one of 2 replicas on token_bucket, 1 run", doc.Races)
	}

	f.Lane, f.Prefix = "sliding_log", prefix(t, "log")
	err = RunFlags(context.Background(), &bytes.Buffer{}, &f)
	if !run.IsBadInput(err) || !strings.Contains(err.Error(), "--replicas: none of the lanes checked has racy scripts") {
		t.Errorf("replicas on sliding_log: RunFlags = %v, want bad input naming --replicas", err)
	}

	f.Lane, f.Format, f.Prefix, f.Replicas, f.ScriptFile = "token_bucket", "text", prefix(t, "absurd"), nil, "testdata/absurd.lua"
	out.Reset()
	err = RunFlags(context.Background(), &out, &f)
	want := fmt.Sprintf("conform: token_bucket: %d attempts decided otherwise than the exact algorithm at the same instants (%d of them answers outside the calling convention; the first: ",
		attempts, attempts)
	if !run.IsCheckFailed(err) || !strings.Contains(err.Error(), want) || !strings.HasSuffix(err.Error(), ", 0 store errors") {
		t.Errorf("absurd script: RunFlags = %v, want a failed check saying %q ... 0 store errors", err, want)
	}
	if !strings.HasPrefix(out.String(), first) {
		t.Errorf("absurd script: output %q, want the result written first", out.String())
	}
}
