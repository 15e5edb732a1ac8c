package web

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestEveryCommandCheckedAgainstTheBudget: apply checks every command
// against what the session may hold before applying it (its doc): a session
// already over its bound refuses each command, as over budget, and changes
// nothing; at exactly its bound the commands that add nothing apply.
func TestEveryCommandCheckedAgainstTheBudget(t *testing.T) {
	commands := []command{
		{Op: "play"}, {Op: "pause"}, {Op: "step", Count: 1}, {Op: "speed", Index: 0},
		{Op: "burst", Count: 1}, {Op: "rule", Limit: 5, Window: int64(time.Second)}, {Op: "rate", Index: 0, Count: 1},
		{Op: "sample", Lane: 0, Column: 0, Mark: 0},
	}
	for _, c := range commands {
		sess := demoSession(t)
		cfg := sess.sim.Config()
		sess.maxBytes = sess.held.bytes(&cfg) - 1
		before, playing, speed := sess.sim.Now(), sess.playing, sess.speed
		_, err := sess.apply(c)
		var over errOverBudget
		if !errors.As(err, &over) || !strings.HasPrefix(err.Error(), "refused: this session would hold about") {
			t.Errorf("%s over the bound: err %v, want refused as over budget", c.Op, err)
		}
		if sess.sim.Now() != before || sess.playing != playing || sess.speed != speed {
			t.Errorf("%s over the bound changed the session", c.Op)
		}
	}
	for _, c := range []command{{Op: "play"}, {Op: "pause"}, {Op: "speed", Index: 1}} {
		sess := demoSession(t)
		cfg := sess.sim.Config()
		sess.maxBytes = sess.held.bytes(&cfg)
		if _, err := sess.apply(c); err != nil {
			t.Errorf("%s at exactly the bound: %v", c.Op, err)
		}
	}
}
