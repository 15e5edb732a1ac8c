package report

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// caughtCount is what the trace says of one lane and class.
type caughtCount struct {
	attempts map[[3]int64]bool // client, request, attempt
	admitted map[[3]int64]bool // the attempts admitted to the backend
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
		c = &caughtCount{attempts: map[[3]int64]bool{}, admitted: map[[3]int64]bool{}, refused: map[string]int64{}, shed: map[string]int64{}}
		s[k] = c
	}
	a := [3]int64{int64(r.Client), r.Request, int64(r.Attempt)}
	c.attempts[a] = true
	switch r.Event {
	case sim.TraceAdmit:
		c.admitted[a] = true
	case sim.TraceRefuse:
		c.refused[r.Limit]++
	case sim.TraceShed:
		// A concurrency lane (without a chain) admits an attempt when its
		// own limit lets it in: a shed of no shedder before that is its limit's.
		by := r.Shedder
		if by == "" && r.Concurrency && !c.admitted[a] {
			by = "adaptive"
		}
		c.shed[by]++
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
// each shedder, the sheds naming none of an AIMD lane's attempts it never
// admitted (its limit's), the other sheds, its successes; with one lane and
// with three. The JSON's refused_by, shed_by, shed_by_lane and shed_other of
// the class are the same.
func TestCaughtTableIsTheTrace(t *testing.T) {
	for _, lanes := range []string{"lanes=[token_bucket]", "lanes=[token_bucket, fixed_window, aimd]"} {
		r, sink := caughtRun(t, "stripe-four-limiters", lanes)
		tb := caughtTable(caughtLanes(r), len(r.Lanes) > 1)
		head, rows := tb.Head, tb.Rows()
		classes := len(r.Lanes[0].Classes)
		if len(rows) != len(r.Lanes)*classes {
			t.Fatalf("%s: %d rows, want one per lane and class", lanes, len(rows))
		}
		offset := slices.Index(head, "class")
		for i, row := range rows {
			l := &r.Lanes[i/classes]
			c := sink[[2]string{l.Name, row[offset]}]
			if c == nil {
				t.Fatalf("%s: no trace of class %s", lanes, row[offset])
			}
			adaptive := "-"
			if l.Lane.Info().Class == sim.ConcurrencyLimiter {
				adaptive = strconv.FormatInt(c.shed["adaptive"], 10)
			}
			want := map[string]string{"attempts": strconv.Itoa(len(c.attempts)), "503 adaptive": adaptive,
				"503 other": strconv.FormatInt(c.shed[""], 10), "served": strconv.FormatInt(c.served, 10)}
			for _, n := range l.RefusedBy {
				want["429 "+n.Limit] = strconv.FormatInt(c.refused[n.Limit], 10)
			}
			for _, n := range l.ShedBy {
				want["503 "+shedderHeads[n.Limit]] = strconv.FormatInt(c.shed[n.Limit], 10)
			}
			for j := offset + 1; j < len(head); j++ {
				if w, ok := want[head[j]]; !ok || row[j] != w {
					t.Errorf("%s: %s, %s: %s, the trace %q", lanes, row[offset], head[j], row[j], w)
				}
			}
			js := classJSON(l.Classes[i%classes])
			if js.Name != row[offset] || len(js.RefusedBy) != 2 || js.RefusedBy[0].Count != c.refused["rate"] || js.RefusedBy[1].Count != c.refused["in-flight"] ||
				len(js.ShedBy) != 2 || js.ShedBy[0].Count != c.shed["fleet_usage"] || js.ShedBy[1].Count != c.shed["utilisation"] ||
				js.ShedByLane != c.shed["adaptive"] || js.ShedOther != c.shed[""] {
				t.Errorf("%s: the JSON of %s says %+v, %+v, by the lane %d, other %d; the trace %v", lanes, js.Name, js.RefusedBy, js.ShedBy, js.ShedByLane, js.ShedOther, c)
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
	wantAdaptive := "lane class attempts 429 rate 429 in-flight 503 fleet 503 util 503 adaptive 503 other served"
	two, _ := caughtRun(t, "stripe-four-limiters", "lanes=[token_bucket, aimd]")
	if got := strings.Join(caughtTable(caughtLanes(two), true).Head, " "); got != wantAdaptive {
		t.Errorf("with an AIMD lane, header %q, want %q", got, wantAdaptive)
	}
	if got := strings.Join(caughtTable(caughtLanes(r), false).Head, " "); got != want {
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

// The HTML report has the table too, a row per lane and class with the
// lane's name on its first class, each cell as the terminal's.
func TestCaughtTableInTheHTML(t *testing.T) {
	s, err := scenarios.LoadBuiltin("stripe-four-limiters")
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteHTML(&b, []Page{{Run: Run{Scenario: s, Result: &r}}}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if !strings.Contains(html, "Which limiter caught which") {
		t.Fatal("the HTML report has no table which limiter caught which")
	}
	for _, row := range caughtTable(caughtLanes(r), true).Rows() {
		var cells []string
		for _, c := range row {
			cells = append(cells, "<td>"+c+"</td>")
		}
		if !strings.Contains(html, strings.Join(cells, "")) {
			t.Errorf("the HTML report has no row %v", row)
		}
	}
}
