package report

import (
	"fmt"
	"io"

	"github.com/rlsim/rlsim/report/textlayout"
	"github.com/rlsim/rlsim/sim"
)

// writeRetryAfter prints, when some client honoured a Retry-After, how many
// answers carried one per lane, how many retries came back exactly when told and
// how many of those the limiter admitted then. Nothing when no retry came back
// when told.
func writeRetryAfter(w io.Writer, r sim.Result) {
	honoured := false
	for _, l := range r.Lanes {
		honoured = honoured || l.RetryAfter.RetriedAt > 0
	}
	if !honoured {
		return
	}
	fmt.Fprintf(w, "\nRetry-After: answers that carried one, retries that came back when told, and those admitted then\n")
	t := &textlayout.Table{Head: []string{"lane", "given", "retried then", "admitted then"}}
	for _, l := range r.Lanes {
		ra := l.RetryAfter
		t.Add(l.Title(), count(ra.Given), count(ra.RetriedAt), count(ra.SucceededAt))
	}
	t.Write(w)
}
