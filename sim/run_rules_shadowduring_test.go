package sim

import (
	"testing"
	"time"
)

func TestShadowDuring(t *testing.T) {
	s := time.Second
	r := Result{
		Limits: []Limit{{Shadow: true}, {}},
		Rules:  []RuleChange{{At: 30 * s, Limit: 0, Shadow: false}, {At: 40 * s, Limit: 1, Shadow: true}, {At: 50 * s, Limit: 0, Shadow: true}},
	}
	for _, tc := range []struct {
		limit    int
		from, to time.Duration
		want     bool
	}{
		{0, 0, s, true},             // a shadow from the start
		{0, 29 * s, 31 * s, true},   // enforced from 30s on, but a shadow before
		{0, 30 * s, 31 * s, false},  // the push applies at its instant
		{0, 31 * s, 50 * s, false},  // up to, not including, the push back to shadow
		{0, 49 * s, 51 * s, true},   // shadow again from 50s
		{1, 0, 40 * s, false},       // limit 1 enforced until 40s
		{1, 39 * s, 41 * s, true},   // then a shadow
		{2, 0, s, false},            // no such limit
		{0, 60 * s, 61 * s, true},   // still a shadow after the last push
		{1, 100 * s, 101 * s, true}, // and limit 1 too
	} {
		if got := r.ShadowDuring(tc.limit, tc.from, tc.to); got != tc.want {
			t.Errorf("ShadowDuring(%d, %v, %v) = %v, want %v", tc.limit, tc.from, tc.to, got, tc.want)
		}
	}
}
