package sweep

import (
	"strings"
	"testing"
)

func differencesBase() *partialFile {
	return &partialFile{Partial: 1, Rlsim: "v1", Definition: "d1", Result: Result{
		Header: Header{Scenario: "s", SourceSHA256: "abc", Sets: []string{"a=1"}, Lanes: "fixed", Duration: "2s",
			Varies: []Vary{{Path: "limits[0].rate", Values: []string{"1", "2"}}}, Seed: 7, Seeds: 3, PointCount: 2},
		Shard: "0/2"}}
}

// TestDifferencesNamesEachFieldAndNeverNothing: differences names what differs
// between two sweeps' definitions: each compared field alone named by its flag
// with both values, and nothing else; when none of those fields differs (the
// digests differ on something it does not list, here the point count) it
// still gives a reason, never an empty one.
func TestDifferencesNamesEachFieldAndNeverNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(p *partialFile)
		want string
	}{
		{"rlsim", func(p *partialFile) { p.Rlsim = "v2" }, `rlsim "v2", not "v1"`},
		{"scenario", func(p *partialFile) { p.Scenario = "t" }, `scenario "t", not "s"`},
		{"source", func(p *partialFile) { p.SourceSHA256 = "def" }, `scenario source SHA-256 "def", not "abc"`},
		{"sets", func(p *partialFile) { p.Sets = []string{"a=2"} }, `--set ["a=2"], not ["a=1"]`},
		{"lanes", func(p *partialFile) { p.Lanes = "gcra" }, `--lanes "gcra", not "fixed"`},
		{"duration", func(p *partialFile) { p.Duration = "3s" }, `--duration "3s", not "2s"`},
		{"vary", func(p *partialFile) { p.Varies = []Vary{{Path: "limits[0].rate", Values: []string{"1", "3"}}} },
			`--vary [{"Path":"limits[0].rate","Values":["1","3"]}], not [{"Path":"limits[0].rate","Values":["1","2"]}]`},
		{"seed", func(p *partialFile) { p.Seed = 8 }, "--seed 8, not 7"},
		{"seeds", func(p *partialFile) { p.Seeds = 2 }, "--seeds 2, not 3"},
		{"two fields", func(p *partialFile) { p.Seed, p.Seeds = 8, 2 }, "--seed 8, not 7; --seeds 2, not 3"},
		{"none listed: the point count", func(p *partialFile) { p.PointCount = 4 }, "their definitions differ"},
		{"none listed: the argument and the digest", func(p *partialFile) { p.Arg, p.Definition = "other/path.json", "d2" }, "their definitions differ"},
	} {
		a, b := differencesBase(), differencesBase()
		tc.edit(b)
		if got := differences(a, b); got != tc.want {
			t.Errorf("%s: differences = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestMergeOfAnotherSweepAlwaysSaysWhy: a partial whose definition digest
// differs from the first's is refused as a part of another sweep, with a
// reason in the parentheses even when every field differences lists agrees.
func TestMergeOfAnotherSweepAlwaysSaysWhy(t *testing.T) {
	a, b := differencesBase(), differencesBase()
	b.Shard, b.Definition, b.PointCount = "1/2", "d2", 4
	_, err := merge([]string{"a.json", "b.json"}, []*partialFile{a, b}, []error{nil, nil})
	if want := "b.json: a part of another sweep than a.json (their definitions differ)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("merge = %v, want an error with %q", err, want)
	}
	if err != nil && strings.Contains(err.Error(), "()") {
		t.Errorf("merge = %v: an empty reason", err)
	}
}
