package replay

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// retryLog is three keys sending one request every 2s for ten minutes; every
// 4th is refused and retried after each of delays in turn, the retries refused
// with statuses (the last admitted); the third key's with third, when not nil.
func retryLog(delays []time.Duration, statuses, third []int) []synthLine {
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	end := start.Add(10 * time.Minute)
	var out []synthLine
	for k := range 3 {
		ip := fmt.Sprintf("192.0.2.%d", k+1)
		for j := 0; ; j++ {
			at := start.Add(time.Duration(k)*300*time.Millisecond + time.Duration(j)*2*time.Second)
			if !at.Before(end) {
				break
			}
			if j%4 != 3 {
				out = append(out, synthLine{at, ip, "/api/orders", 200})
				continue
			}
			st := statuses
			if k == 2 && third != nil {
				st = third
			}
			for i, d := range delays {
				out = append(out, synthLine{at, ip, "/api/orders", st[i]})
				at = at.Add(d)
			}
			out = append(out, synthLine{at, ip, "/api/orders", 200})
		}
	}
	slices.SortStableFunc(out, func(a, b synthLine) int { return a.at.Compare(b.at) })
	return out
}

// TestDeriveEachRetryKind: the retry fitted to a log whose refusals are
// retried on a known schedule: its kind, first delay, cap, the statuses
// retried on and the attempts a chain reached.
func TestDeriveEachRetryKind(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name         string
		delays       []time.Duration
		statuses     []int
		third        []int
		kind         string
		delay, cap   time.Duration
		on429, on503 bool
	}{
		{"exponential", []time.Duration{100 * ms, 200 * ms, 400 * ms}, []int{429, 503, 429}, nil, "exponential", 100 * ms, 400 * ms, true, true},
		{"exponential from 250ms", []time.Duration{250 * ms, 500 * ms}, []int{503, 503}, nil, "exponential", 250 * ms, 500 * ms, false, true},
		{"fixed", []time.Duration{700 * ms, 700 * ms}, []int{429, 429}, nil, "fixed", 700 * ms, 0, true, false},
		{"fixed, one key on 503", []time.Duration{700 * ms}, []int{429}, []int{503}, "fixed", 700 * ms, 0, true, true},
		{"fixed, one key on 429", []time.Duration{700 * ms}, []int{503}, []int{429}, "fixed", 700 * ms, 0, true, true},
		{"fixed 1ms", []time.Duration{ms}, []int{503}, nil, "fixed", ms, 0, false, true},
		{"immediate", []time.Duration{0}, []int{429}, nil, "immediate", 0, 0, true, false},
	} {
		d := derive(t, jsonText(retryLog(c.delays, c.statuses, c.third)), 5)
		if len(d.Groups) != 1 {
			t.Errorf("%s: %d groups, want 1", c.name, len(d.Groups))
			continue
		}
		g := d.Groups[0]
		if g.Retry != c.kind || g.On429 != c.on429 || g.On503 != c.on503 || g.MaxAttempts < len(c.delays)+1 {
			t.Errorf("%s: retry %s on429 %v on503 %v max attempts %d, want %s %v %v and at least %d",
				c.name, g.Retry, g.On429, g.On503, g.MaxAttempts, c.kind, c.on429, c.on503, len(c.delays)+1)
		}
		if c.kind != "immediate" && g.Delay != c.delay {
			t.Errorf("%s: delay %v, want %v", c.name, g.Delay, c.delay)
		}
		if c.kind == "exponential" && g.Cap != c.cap {
			t.Errorf("%s: cap %v, want %v", c.name, g.Cap, c.cap)
		}
		if g.RepeatedShare != 1 {
			t.Errorf("%s: repeated share %v, want 1 (every refusal repeated)", c.name, g.RepeatedShare)
		}
	}
}
