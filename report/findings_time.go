package report

import (
	"fmt"
	"strings"

	"github.com/rlsim/rlsim/sim"
)

// timeFindings reads what the clients' patience, their retry budgets and the
// backend's CoDel did in each lane: each a line when it did anything.
func timeFindings(r sim.Result) []string {
	var out []string
	for _, l := range r.Lanes {
		var waits []string
		if l.Abandoned > 0 {
			waits = append(waits, fmt.Sprintf("clients abandoned %d of %d requests at their deadline", l.Abandoned, l.Unique))
		}
		if l.TimedOut > 0 {
			waits = append(waits, fmt.Sprintf("clients gave up %d of %d attempts at their timeout", l.TimedOut, l.Attempts))
		}
		if len(waits) > 0 {
			s := "under " + l.Title() + " " + strings.Join(waits, "; ")
			if l.WastedWork > 0 {
				s += fmt.Sprintf("; the backend still spent %s of work on answers that came too late", FormatDuration(l.WastedWork))
			}
			out = append(out, s)
		}
		if l.RetriesDenied > 0 {
			out = append(out, fmt.Sprintf("under %s retry budgets refused %d retries, %d attempts sent for %d requests",
				l.Title(), l.RetriesDenied, l.Attempts, l.Unique))
		}
		if l.Backend.Dropped > 0 {
			out = append(out, fmt.Sprintf("under %s CoDel dropped %d waiting requests with 503 to keep the backend's queue short",
				l.Title(), l.Backend.Dropped))
		}
	}
	return out
}
