package report

import (
	"fmt"
	"io"

	"github.com/rlsim/rlsim/report/textlayout"
	"github.com/rlsim/rlsim/sim"
)

// writePacing prints, when some class paces itself from the quota headers, the
// attempts each class made and the share of them refused, lane by lane, so
// the load of pacing clients can be set against that of clients that discover
// the limit by hitting it. Nothing when no class paces.
func writePacing(w io.Writer, r sim.Result) {
	if len(r.Lanes) == 0 || !anyPaces(r.Lanes[0].Classes) {
		return
	}
	classes := r.Lanes[0].Classes
	fmt.Fprintf(w, "\nattempts and the share refused, by class (pacing: reads the quota headers)\n")
	head := []string{"lane"}
	for _, c := range classes {
		name := c.Name
		if c.Pace {
			name += " (pacing)"
		}
		head = append(head, name)
	}
	t := &textlayout.Table{Head: head}
	for _, l := range r.Lanes {
		row := []string{l.Title()}
		for _, c := range l.Classes {
			row = append(row, count(c.Attempts)+" "+percent(c.Refused, c.Attempts))
		}
		t.Add(row...)
	}
	t.Write(w)
}

func anyPaces(classes []sim.ClassResult) bool {
	for _, c := range classes {
		if c.Pace {
			return true
		}
	}
	return false
}
