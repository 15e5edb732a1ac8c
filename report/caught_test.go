package report

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// caughtCount is what the trace says of one lane and class.
type caughtCount struct {
	attempts map[[3]int64]bool // client, request, attempt
	refused  map[string]int64  // per limit
	shed     map[string]int64  // per shedder, "" for the other 503s
	served   int64
}

// caughtSink recounts the caught table from the trace, per lane and class.
type caughtSink map[[2]string]*caughtCount

func (s caughtSink) Record(r *sim.TraceRecord) error {
	k := [2]string{r.LaneName, r.Class}
	c := s[k]
	if c == nil {
		c = &caughtCount{attempts: map[[3]int64]bool{}, refused: map[string]int64{}, shed: map[string]int64{}}
		s[k] = c
	}
	c.attempts[[3]int64{int64(r.Client), r.Request, int64(r.Attempt)}] = true
	switch r.Event {
	case sim.TraceRefuse:
		c.refused[r.Limit]++
	case sim.TraceShed:
		c.shed[r.Shedder]++
	case sim.TraceSuccess:
		c.served++
	}
	return nil
}

// caughtRun runs built-in name with sets, recording its trace.
func caughtRun(t *testing.T, name string, sets ...string) (sim.Result, caughtSink) {
	t.Helper()
	var ss []scenarios.Set
	for _, a := range sets {
		s, err := scenarios.ParseSet(a)
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, s)
	}
	sc, err := scenarios.LoadBuiltin(name, ss...)
	if err != nil {
		t.Fatal(err)
	}
	sink := caughtSink{}
	r, err := sim.Run(context.Background(), *sc.Config, sim.Options{Trace: sink})
	if err != nil {
		t.Fatal(err)
	}
	return r, sink
}

// Every cell of the table "which limiter caught which" is the trace's count:
// the attempts of the class, its refusals naming each limit, its sheds naming
// each shedder and naming none, its successes; with one lane and with two.
// The JSON's refused_by, shed_by and shed_other of the class are the same.
func TestCaughtTableIsTheTrace(t *testing.T) {
	for _, lanes := range []string{"lanes=[token_bucket]", "lanes=[token_bucket, fixed_window]"} {
		r, sink := caughtRun(t, "stripe-four-limiters", lanes)
		tb := caughtTable(caughtLanes(r))
		head, rows := tb.Head, tb.Rows()
		if len(rows) != len(r.Lanes)*len(r.Lanes[0].Classes) {
			t.Fatalf("%s: %d rows, want one per lane and class", lanes, len(rows))
		}
		offset := len(head) - 8 // the lane column, when there are two lanes
		for i, row := range rows {
			l := &r.Lanes[i/len(r.Lanes[0].Classes)]
			c := sink[[2]string{l.Name, row[offset]}]
			if c == nil {
				t.Fatalf("%s: no trace of class %s", lanes, row[offset])
			}
			want := []int64{int64(len(c.attempts)), c.refused["rate"], c.refused["in-flight"], c.shed["fleet_usage"], c.shed["utilisation"], c.shed[""], c.served}
			j := classJSON(l.Classes[i%len(l.Classes)])
			if j.Name != row[offset] || len(j.RefusedBy) != 2 || j.RefusedBy[0].Count != want[1] || j.RefusedBy[1].Count != want[2] ||
				len(j.ShedBy) != 2 || j.ShedBy[0].Count != want[3] || j.ShedBy[1].Count != want[4] || j.ShedOther != want[5] {
				t.Errorf("%s: the JSON of %s says %+v, %+v, other %d; the trace %v", lanes, j.Name, j.RefusedBy, j.ShedBy, j.ShedOther, want)
			}
			for j, w := range want {
				if got := row[offset+1+j]; got != strconv.FormatInt(w, 10) {
					t.Errorf("%s: %s, %s: %s, the trace %d", lanes, row[offset], head[offset+1+j], got, w)
				}
			}
		}
	}
}

// The table names the chain's limits and the shedders in its header, has the
// lane column only with two lanes and is printed only when a lane has more
// than one limit or a shedder; at 80 columns it fits.
func TestCaughtTableShape(t *testing.T) {
	r, _ := caughtRun(t, "stripe-four-limiters")
	want := "class attempts 429 rate 429 in-flight 503 fleet 503 util 503 other served"
	if got := strings.Join(caughtTable(caughtLanes(r)).Head, " "); got != want {
		t.Errorf("header %q, want %q", got, want)
	}
	var b bytes.Buffer
	writeCaught(&b, r, 80)
	for _, line := range strings.Split(b.String(), "\n") {
		if n := len([]rune(line)); n > 80 {
			t.Errorf("%d columns: %q", n, line)
		}
	}
	one, _ := caughtRun(t, "steady-overload")
	b.Reset()
	writeCaught(&b, one, 0)
	if b.Len() != 0 || len(caughtLanes(one)) != 0 {
		t.Errorf("one limit, no shedder: printed %q", b.String())
	}
	shed, _ := caughtRun(t, "stripe-four-limiters", "limits=[{name: rate, key: user, limit: 20, window: 1s}]")
	if len(caughtLanes(shed)) != 1 {
		t.Errorf("one limit and shedders: %d lanes with the table, want 1", len(caughtLanes(shed)))
	}
}

// docs/scenarios.md shows the table of stripe-four-limiters as rlsim run prints it.
func TestCaughtTableInTheDocs(t *testing.T) {
	doc, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	r, _ := caughtRun(t, "stripe-four-limiters")
	var b bytes.Buffer
	writeCaught(&b, r, 0)
	if want := "```\n" + strings.TrimPrefix(b.String(), "\n") + "```\n"; !strings.Contains(string(doc), want) {
		t.Errorf("docs/scenarios.md does not show the table as printed:\n%s", want)
	}
}
