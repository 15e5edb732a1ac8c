package conform

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/sim"
)

// TestEveryScriptRedisCannotLoadIsBadInput: setUp loads each script a
// limiter has, in whichever place it stands (a racy limiter has no atomic
// script, only a read and a write); one that does not compile is the input's
// fault, named, before any attempt is sent.
func TestEveryScriptRedisCannotLoadIsBadInput(t *testing.T) {
	opts := needRedis(t)
	traffic, err := Traffic(context.Background(), *loadConfig(t, "testdata/mixed.yaml"), []sim.LaneKind{sim.LaneGCRA}, 0)
	if err != nil {
		t.Fatal(err)
	}
	const good, broken = "return redis.call('GET', KEYS[1])", "return {1, 0"
	for _, lim := range []*Limiter{
		NewAtomic("broken.lua", broken),
		NewRacy("broken.lua", broken, good),
		NewRacy("broken.lua", good, broken),
	} {
		_, err = Check(context.Background(), opts, traffic, CheckOptions{
			Replay: Replay{Clock: ClockScheduled, Scale: 200, Prefix: prefix(t)},
			Script: lim,
		})
		var ie *run.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), "script broken.lua: redis cannot load it: ") {
			t.Errorf("Check of %+v = %v; want bad input naming the script", lim, err)
		}
	}
}
