package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// phaseLane is the first lane with a fleet (its phases are shown), or -1.
func (m *Model) phaseLane() int {
	for i := range m.snaps {
		if m.sim.Phases(i) != nil {
			return i
		}
	}
	return -1
}

// phasesLine is the fleet's phases so far in lane i, in at most width
// columns: the state they leave now, then the latest phases with their
// times, newest last, as many as fit: "fleet (token bucket) now: the store
// failing, 4 replicas out, no healthy replica · t=70s replica 3 out of the
// rotation · t=70.05s no replica in the rotation: 503 for everyone". The
// lane's name goes first when it leaves room for the phases.
func (m *Model) phasesLine(i, width int) string {
	ps := m.sim.Phases(i)
	state := " now: " + sim.FleetStateOf(ps).Words()
	head := "fleet" + state
	named := "fleet (" + laneTitle(&m.snaps[i], false) + ")" + state
	var past []string
	used := len([]rune(head))
	for k := len(ps) - 1; k >= 0; k-- {
		s := " · t=" + phaseClock(ps[k].At) + " " + scenarios.Escape(ps[k].Words())
		if used+len([]rune(s)) > width {
			break
		}
		past = append([]string{s}, past...)
		used += len([]rune(s))
	}
	if used-len([]rune(head))+len([]rune(named)) <= width {
		head = named
	}
	return head + strings.Join(past, "")
}

// phaseClock is a phase's instant: seconds with up to two decimals.
func phaseClock(d time.Duration) string {
	return formatTime(d.Round(10 * time.Millisecond))
}

// clockInfo is the info line's clock: "t=4.00s of 10s", of the scenario's
// duration (not of its end, duration plus drain: "of 20s" for a 10s
// scenario read as twice its length); past it, while retries and queues
// drain, "t=12.00s of 10s, draining (to 20s at most)", and once finished
// there, "t=12.00s of 10s, drained".
func clockInfo(now, duration, end time.Duration, finished bool) string {
	s := fmt.Sprintf("t=%.2fs of %s", now.Seconds(), formatTime(duration))
	switch {
	case now <= duration:
	case finished:
		s += ", drained"
	default:
		s += fmt.Sprintf(", draining (to %s at most)", formatTime(end))
	}
	return s
}
