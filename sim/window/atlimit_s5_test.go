package window

import (
	"testing"
	"time"
)

// A window exactly at the limit is not over it: OverLimit counts only the time
// a key's window held more than the limit.
func TestOverLimitAtLimitIsNotOver_s5(t *testing.T) {
	const s = time.Second
	for _, checked := range []bool{false, true} {
		var p *Tracker
		if checked {
			p = NewChecked(s, 2, 1, 1, FastPaths{})
		} else {
			tr := NewTracker(s, 2, 1)
			p = &tr
		}
		add := func(at time.Duration) {
			if checked {
				p.Verdict(0, at, 1, true)
			} else {
				p.Add(0, at, 1)
			}
		}
		add(0)
		add(s / 2) // 2 in (−0.5s, 0.5s]: at the limit, not over
		if got := p.OverLimit(); got != 0 {
			t.Errorf("checked=%v: OverLimit with the window at the limit = %v, want 0", checked, got)
		}
		add(s / 2) // 3 until the admission at 0 leaves at 1s
		add(s * 3 / 4)
		// Over from 0.5s: 3 until 0.75s, 4 until 1s, 3 until 1.5s, 1 after.
		if got, want := p.OverLimit(), s; got != want {
			t.Errorf("checked=%v: OverLimit = %v, want %v", checked, got, want)
		}
	}
}
