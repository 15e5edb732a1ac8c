package sweep

import (
	"strings"
	"testing"
)

// Recommend's doc: ties go to the first in grid order, for max as for min.
func TestRecommendTiesGoToTheFirstPoint(t *testing.T) {
	lanes := []string{"token_bucket"}
	vary := Vary{Path: "limits[0].limit", Values: []string{"10", "20", "20.0"}}
	r := &Result{Header: Header{Varies: []Vary{vary}, Seeds: 1}, Points: []PointResult{
		fakePoint("10", lanes, [][]float64{{1}}, [][]float64{{1}}),
		fakePoint("20", lanes, [][]float64{{1}}, [][]float64{{1}}),
		fakePoint("20.0", lanes, [][]float64{{1}}, [][]float64{{1}}),
	}}
	for _, dir := range []string{"max", "min"} {
		f, err := ParseFind(dir+" limits[0].limit", []Vary{vary})
		if err != nil {
			t.Fatal(err)
		}
		recs := Objective{Find: f}.Recommend(r)
		if len(recs) != 1 {
			t.Fatalf("%s: %d recommendations, want 1", dir, len(recs))
		}
		want := 1 // 20 and 20.0 tie for max: the first, point 1
		if dir == "min" {
			want = 0
		}
		if recs[0].Point != want {
			t.Errorf("%s: point %d (%q), want %d", dir, recs[0].Point, recs[0].Value, want)
		}
	}
}

// A partial's seeds may be 1 to MaxSeeds, both ends included, as --seeds.
func TestPartialCheckTakesMaxSeeds(t *testing.T) {
	for _, tc := range []struct {
		seeds int
		bad   bool
	}{{1, false}, {MaxSeeds, false}, {MaxSeeds + 1, true}, {0, true}} {
		f := &partialFile{}
		f.Header.Seeds = tc.seeds
		got := false
		for _, e := range f.check() {
			if strings.HasPrefix(e.Error(), "seeds: want") {
				got = true
			}
		}
		if got != tc.bad {
			t.Errorf("seeds %d: refused %v, want %v", tc.seeds, got, tc.bad)
		}
	}
}
