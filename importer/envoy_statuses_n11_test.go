package importer

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestEnvoyEveryOtherRefusalStatusIsTold: the lane answers with the first
// filter's status (an option when not 429); each later status that differs,
// above or below it, is told at its own place, naming both.
func TestEnvoyEveryOtherRefusalStatusIsTold(t *testing.T) {
	for _, codes := range [][]int64{{429}, {503}, {429, 429}, {503, 429}, {429, 503}, {503, 429, 503, 418}, {418, 429}} {
		r := &envoyReader{f: &nodeFile{name: "e.yaml", m: &Model{}}, m: &Model{}, hcms: 1}
		r.buckets = []envoyBucket{{Limit: Limit{Name: "b", Limit: 10, Window: time.Second, Burst: 10, At: []Origin{{File: "e.yaml", Line: 1}}}}}
		for i, c := range codes {
			r.statuses = append(r.statuses, envoyStatus{code: c, at: Origin{File: "e.yaml", Line: 10 * (i + 1)}})
		}
		r.finish()
		var told []Problem
		for _, p := range r.m.Problems {
			if strings.Contains(p.Message, "refusals answer") {
				told = append(told, p)
			}
		}
		var want []string
		for i, c := range codes[1:] {
			if c != codes[0] {
				want = append(want, fmt.Sprintf("e.yaml:%d: refusals answer %d here but %d at e.yaml:10", 10*(i+2), c, codes[0]))
			}
		}
		if len(told) != len(want) {
			t.Errorf("statuses %v: told %v, want %q", codes, told, want)
		}
		for k := range min(len(told), len(want)) {
			if !strings.HasPrefix(told[k].String(), want[k]) {
				t.Errorf("statuses %v: told %q, want it to start %q", codes, told[k].String(), want[k])
			}
		}
		status := ekLaneField(r.m.Lanes[0], "status")
		if codes[0] == 429 && status != nil || codes[0] != 429 && status != codes[0] {
			t.Errorf("statuses %v: the lane's status option %v, want %v (none for 429)", codes, status, codes[0])
		}
	}
}
