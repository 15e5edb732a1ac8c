package replay

import (
	"bytes"
	"fmt"
	"testing"
	"time"
)

// jsonTextMicro is jsonText with times to the microsecond.
func jsonTextMicro(lines []synthLine) []byte {
	var b bytes.Buffer
	for _, l := range lines {
		fmt.Fprintf(&b, `{"time":"%s","ip":"%s","method":"GET","path":"%s","status":%d}`+"\n",
			l.at.Format("2006-01-02T15:04:05.000000Z07:00"), l.ip, l.path, l.status)
	}
	return b.Bytes()
}

// TestDeriveRetryDelaysRoundToTheNearestMs: a fitted retry's delay and an
// exponential one's cap are the log's delays rounded to the nearest ms (a
// fraction of a ms below, at and above one half).
func TestDeriveRetryDelaysRoundToTheNearestMs(t *testing.T) {
	us := time.Microsecond
	for _, frac := range []time.Duration{0, 200 * us, 499 * us, 500 * us, 501 * us, 800 * us} {
		for _, kind := range []string{"exponential", "fixed"} {
			first, last := 100*time.Millisecond+frac, 400*time.Millisecond+frac
			delays := []time.Duration{first, 200 * time.Millisecond, last}
			if kind == "fixed" {
				first = 700*time.Millisecond + frac
				delays = []time.Duration{first, first}
			}
			d := derive(t, jsonTextMicro(retryLog(delays, []int{429, 429, 429}, nil)), 5)
			if len(d.Groups) != 1 || d.Groups[0].Retry != kind {
				t.Fatalf("%s +%v: groups %+v, want one, retrying %s", kind, frac, d.Groups, kind)
			}
			g := d.Groups[0]
			if want := first.Round(time.Millisecond); g.Delay != want {
				t.Errorf("%s +%v: delay %v, want %v", kind, frac, g.Delay, want)
			}
			if want := last.Round(time.Millisecond); kind == "exponential" && g.Cap != want {
				t.Errorf("%s +%v: cap %v, want %v", kind, frac, g.Cap, want)
			}
		}
	}
}
