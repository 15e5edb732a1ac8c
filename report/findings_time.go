package report

import (
	"fmt"

	"github.com/rlsim/rlsim/sim"
)

// timeFindings reads what the clients' patience, their retry budgets and the
// backend's CoDel did in each lane: each a line when it did anything.
func timeFindings(r sim.Result) []string {
	var out []string
	for _, l := range r.Lanes {
		if l.Abandoned > 0 {
			s := fmt.Sprintf("under %s clients abandoned %d of %d requests at their deadline", l.Title(), l.Abandoned, l.Unique)
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
