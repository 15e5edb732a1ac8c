package scenarios

import (
	"context"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// retry-loop-2am holds every claim of its description and comments, each
// read from the run: 20s standing for an 8-hour night (×1440).
func TestBuiltinRetryLoop2am(t *testing.T) {
	s, err := LoadBuiltin("retry-loop-2am")
	if err != nil {
		t.Fatal(err)
	}
	if night := 8 * time.Hour; s.Config.Duration*1440 != night {
		t.Fatalf("duration %v ×1440 is not an 8-hour night", s.Config.Duration)
	}
	res, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	unlimited, perTenant := res.Lanes[0], res.Lanes[1]
	loop, others := 0, 1
	// 50 calls a second: 1000 in 20s, 1.44 million over the night.
	for _, l := range res.Lanes {
		if n := l.Classes[loop].Unique; n != 1000 || n*1440 != 1_440_000 {
			t.Errorf("%s: the integration made %d calls, want 1000 (1.44 million a night)", l.Name, n)
		}
	}
	// Retried at once over its 20ms round trip, within its 500ms timeout: at
	// most 25 attempts a call, and a refused call makes nearly all of them.
	c := perTenant.Classes[loop]
	if max := 25 * c.Unique; c.Attempts > max || c.Attempts < 20*(c.Unique-c.Succeeded) {
		t.Errorf("per-tenant: %d attempts for %d calls (%d refused), want at most 25 a call and at least 20 a refused one", c.Attempts, c.Unique, c.Unique-c.Succeeded)
	}
	// Unlimited, the loop takes the whole pool: every connection in use, the
	// others shed with 503 and served almost never, the loop almost always.
	if b := unlimited.Backend; b.MaxInFlight != 10 || b.Utilisation < 0.95 {
		t.Errorf("unlimited: pool at most %d in use, utilisation %.2f, want all 10 and at least 0.95", b.MaxInFlight, b.Utilisation)
	}
	if o := unlimited.Classes[others]; o.Shed == 0 || float64(o.Succeeded) > 0.05*float64(o.Unique) {
		t.Errorf("unlimited: others succeeded %d of %d (shed %d), want under 5%%", o.Succeeded, o.Unique, o.Shed)
	}
	if i := unlimited.Classes[loop]; float64(i.Succeeded) < 0.95*float64(i.Unique) {
		t.Errorf("unlimited: the integration succeeded %d of %d, want at least 95%%", i.Succeeded, i.Unique)
	}
	// Behind the per-tenant bucket only the loop gets 429s; nothing is shed,
	// and every other call is served in its round trip and one service time.
	if perTenant.Shed != 0 || c.Refused == 0 || c.Refused != perTenant.Refused {
		t.Errorf("per-tenant: shed %d, the integration refused %d of %d refusals, want 0 and all", perTenant.Shed, c.Refused, perTenant.Refused)
	}
	o := perTenant.Classes[others]
	if o.Succeeded != o.Unique || o.Attempts != o.Unique || o.TimeToSuccess.Max != 220*time.Millisecond {
		t.Errorf("per-tenant: others succeeded %d of %d in %d attempts, slowest %v, want all, one attempt each, 220ms",
			o.Succeeded, o.Unique, o.Attempts, o.TimeToSuccess.Max)
	}
	// The 429s cost the pool nothing: it served only what the limiter admitted.
	if perTenant.Backend.Served != perTenant.Admitted || perTenant.Backend.MaxInFlight >= 10 {
		t.Errorf("per-tenant: served %d of %d admitted, at most %d in use, want all admitted and a pool never full",
			perTenant.Backend.Served, perTenant.Admitted, perTenant.Backend.MaxInFlight)
	}
}
