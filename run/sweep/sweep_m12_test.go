package sweep

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
)

// TestSweepRunFailsWithTheRunsOwnError: a run of the sweep that fails ends the
// sweep with that run's error (the one run.Scenario gives for the same
// scenario and seed), not a cancellation it caused, whatever the jobs.
func TestSweepRunFailsWithTheRunsOwnError(t *testing.T) {
	for _, jobs := range []int{1, 2, 4} {
		sw := testSweep()
		p, err := sw.Plan()
		if err != nil {
			t.Fatal(err)
		}
		pt := p.owned[len(p.owned)-1]
		s := *p.scenarios[pt]
		c := *s.Config
		c.Duration = -c.Duration // sim refuses it; the plan's checks are behind it
		s.Config = &c
		p.scenarios[pt] = &s
		seeded := s
		sc := c
		sc.Seed = p.Seed
		seeded.Config = &sc
		_, want := run.Scenario(context.Background(), &seeded, run.Options{})
		if want == nil {
			t.Fatal("run.Scenario ran a negative duration")
		}
		calls := 0
		r, err := p.Run(context.Background(), RunOptions{Jobs: jobs, Progress: func(done, total int) { calls++ }})
		if err == nil || r != nil {
			t.Fatalf("jobs %d: Run = %v, %v; want the run's error", jobs, r, err)
		}
		if errors.Is(err, context.Canceled) || err.Error() != want.Error() {
			t.Errorf("jobs %d: Run's error %q, want the run's own %q", jobs, err, want)
		}
		if total := len(p.owned) * p.Seeds; calls >= total {
			t.Errorf("jobs %d: progress told %d times of %d runs, with one failed", jobs, calls, total)
		}
	}
}

// TestSweepProgressCountsEveryRun: Progress is told each finished run, one
// more each time, up to every run of the shard, the total always the same.
func TestSweepProgressCountsEveryRun(t *testing.T) {
	for _, sh := range []Shard{{}, {0, 2}, {1, 2}} {
		sw := testSweep()
		sw.Varies = append(sw.Varies, Vary{Path: "limits[0].burst", Values: []string{"20", "60", "80"}})
		sw.Shard = sh
		p, err := sw.Plan()
		if err != nil {
			t.Fatal(err)
		}
		want := len(p.owned) * sw.Seeds
		var got []int
		if _, err := p.Run(context.Background(), RunOptions{Jobs: 2, Progress: func(done, total int) {
			if total != want {
				t.Errorf("shard %v: progress total %d, want %d", sh, total, want)
			}
			got = append(got, done)
		}}); err != nil {
			t.Fatal(err)
		}
		if len(got) != want {
			t.Fatalf("shard %v: progress told %d times, want %d", sh, len(got), want)
		}
		for i, d := range got {
			if d != i+1 {
				t.Errorf("shard %v: progress call %d said %d done, want %d", sh, i, d, i+1)
			}
		}
	}
}

// TestPartialCheckListsAtMostMaxPartialErrors: a partial's problems are listed
// up to maxPartialErrors, in the order of its fields; "more problems, not
// listed" follows only when there are more than that, never with exactly
// maxPartialErrors.
func TestPartialCheckListsAtMostMaxPartialErrors(t *testing.T) {
	paths := writePartials(t, twoByTwo(), 2) // shard 0/2: points 0 and 2, 3 seeds each
	// Every run's seed edited: problems in the order points[0] runs[0..2],
	// points[1] runs[0..2], so n edits give n problems, listed in that order.
	order := [][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}
	for _, n := range []int{1, 5, 6} {
		bad := resealJSON(t, paths[0], func(m map[string]any) {
			for _, pk := range order[:n] {
				runOf(m, pk[0], pk[1])["seed"] = 1000
			}
		})
		_, err := MergePartials([]string{bad, paths[1]})
		if err == nil {
			t.Fatalf("%d seeds edited: merged", n)
		}
		lines := strings.Split(err.Error(), "\n")
		if len(lines) != n || strings.Contains(err.Error(), "more problems") {
			t.Errorf("%d seeds edited: %d lines, want %d and no note of more:\n%v", n, len(lines), n, err)
		}
		for i, l := range lines[:min(n, len(lines))] {
			pk := order[i]
			want := bad + ": points[" + string(rune('0'+pk[0])) + "]: runs[" + string(rune('0'+pk[1])) + "]: seed 1000, want "
			if !strings.HasPrefix(l, want) {
				t.Errorf("%d seeds edited: line %d %q, want it to begin %q", n, i, l, want)
			}
		}
	}
	// Every run's seed and every lane's totals: 6 + 12 problems.
	for _, tc := range []struct {
		lanes int // lanes whose totals are cut, of every run
		want  int // problems found
	}{{0, 6}, {1, 12}, {2, 18}} {
		bad := resealJSON(t, paths[0], func(m map[string]any) {
			for _, pk := range order {
				runOf(m, pk[0], pk[1])["seed"] = 1000
				for l := range tc.lanes {
					lane := laneOf(m, pk[0], pk[1], l)
					lane["totals"] = lane["totals"].([]any)[:1]
				}
			}
		})
		_, err := MergePartials([]string{bad, paths[1]})
		if err == nil {
			t.Fatalf("%d problems: merged", tc.want)
		}
		lines := strings.Split(err.Error(), "\n")
		more := strings.HasSuffix(err.Error(), bad+": ...; more problems, not listed")
		switch {
		case tc.want <= maxPartialErrors && (len(lines) != tc.want || more):
			t.Errorf("%d problems: %d lines (note of more %v), want every one and no note:\n%v", tc.want, len(lines), more, err)
		case tc.want > maxPartialErrors && (len(lines) != maxPartialErrors+1 || !more):
			t.Errorf("%d problems: %d lines (note of more %v), want %d and the note:\n%v", tc.want, len(lines), more, maxPartialErrors, err)
		}
	}
}

// TestPartialCheckAtExactlyMaxPartialErrors: with exactly maxPartialErrors
// problems every one is listed and none is said to be left out; one more and
// the note follows the first maxPartialErrors.
func TestPartialCheckAtExactlyMaxPartialErrors(t *testing.T) {
	for _, n := range []int{maxPartialErrors - 1, maxPartialErrors, maxPartialErrors + 1} {
		f := &partialFile{Result: Result{Header: Header{Varies: []Vary{{Path: "limits[0].limit", Values: []string{"1"}}}, PointCount: 1, Seeds: 1}, Shard: "0/1"}}
		for range n {
			f.Header.Varies = append(f.Header.Varies, Vary{Values: []string{"1"}}) // each a vary with no path
		}
		f.Header.PointCount = 1
		errs := f.check()
		var listed, notes int
		for _, e := range errs {
			switch {
			case strings.Contains(e.Error(), "no path"):
				listed++
			case e.Error() == "...; more problems, not listed":
				notes++
			default:
				t.Errorf("%d varies without a path: problem %q", n, e)
			}
		}
		if want := min(n, maxPartialErrors); listed != want {
			t.Errorf("%d varies without a path: %d listed, want %d", n, listed, want)
		}
		if wantNotes := map[bool]int{true: 1, false: 0}[n > maxPartialErrors]; notes != wantNotes {
			t.Errorf("%d varies without a path: %d notes of more, want %d", n, notes, wantNotes)
		}
	}
}
