package conform

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// TestDocsStateTheCallingConvention holds docs/conform.md to the convention
// every reference script states in its header, line for line.
func TestDocsStateTheCallingConvention(t *testing.T) {
	doc, err := os.ReadFile("../docs/conform.md")
	if err != nil {
		t.Fatal(err)
	}
	prelude, err := scriptFiles.ReadFile("scripts/prelude.lua")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(prelude), "\n") {
		if strings.HasPrefix(line, "--   ") || strings.HasPrefix(line, "--            ") || strings.HasPrefix(line, "-- Returns") {
			if !strings.Contains(string(doc), line) {
				t.Errorf("docs/conform.md does not state %q", line)
			}
		}
	}
	for _, name := range ScriptNames() {
		if !strings.Contains(string(doc), "`"+name+"`") {
			t.Errorf("docs/conform.md does not name the script %s", name)
		}
	}
}

// TestDocsWorkedExample holds the worked example of docs/conform.md: the
// hand-written millisecond token bucket decides otherwise than the exact
// algorithm at tolerance 0 (its Retry-Afters are whole ms, rounded from a
// truncated clock), and conforms at 2ms.
func TestDocsWorkedExample(t *testing.T) {
	opts := needRedis(t)
	src, err := os.ReadFile("../docs/examples/token_bucket_ms.lua")
	if err != nil {
		t.Fatal(err)
	}
	cfg := loadConfig(t, "../scenarios/builtin/demo.yaml")
	traffic, err := Traffic(context.Background(), *cfg, []sim.LaneKind{sim.LaneTokenBucket}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tol        time.Duration
		conforming bool
	}{{0, false}, {2 * time.Millisecond, true}} {
		checks, err := Check(context.Background(), opts, traffic, CheckOptions{
			Replay:    Replay{Clock: ClockScheduled, Scale: 100, Prefix: prefix(t, tc.tol)},
			Tolerance: tc.tol, Script: NewAtomic("token_bucket_ms.lua", string(src)),
		})
		if err != nil {
			t.Fatal(err)
		}
		if c := checks[0]; (c.Unexplained == 0) != tc.conforming || c.RealAdmitted != c.ExactAdmitted {
			t.Errorf("tolerance %v: %d unexplained, admitted %d/%d; want conforming %v and the same admissions",
				tc.tol, c.Unexplained, c.ExactAdmitted, c.RealAdmitted, tc.conforming)
		}
	}
}

// TestDocsStateTheDeadlines holds docs/conform.md to the deadlines, the bound
// and the exit status of a run whose Redis went away, and to the time scale's
// range.
func TestDocsStateTheDeadlines(t *testing.T) {
	doc, err := os.ReadFile("../docs/conform.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"has a deadline of " + CallTimeout.String() + " of real time",
		"failed for " + GoneAfter.String() + ", from the send of the first",
		"the run ends at the latest " + Bound.String() + " after that first",
		"the exit status is 3: the run could\nnot finish",
		fmt.Sprintf("from 1 to %d)", int64(MaxScale)),
	} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("docs/conform.md does not state %q", want)
		}
	}
}
