package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// partitionsYAML is the docs' example of partitions, shortened: an AIMD lane
// without them, one with them whose limit adapts, and a class in none.
const partitionsYAML = `duration: 3s
lanes:
  - aimd
  - name: aimd_partitioned
    algorithm: aimd
    partitions:
      - {name: live, classes: [live], share: 0.9}
      - {name: batch, classes: [batch], share: 0.1}
aimd: {initial: 20, min: 8, max: 40}
clients:
  - {name: live, count: 20, arrivals: [{kind: poisson, rate: 10/s}]}
  - {name: batch, count: 5, arrivals: [{kind: poisson, rate: 100/s}]}
  - {name: probe, arrivals: [{kind: poisson, rate: 20/s}]}
backend: {capacity: 40, queue: 10, service: {mean: 100ms, distribution: exponential}}
`

// partitionTrace recounts, per lane and class, the attempts a concurrency
// lane's limit admitted.
type partitionTrace map[[2]string]int64

func (s partitionTrace) Record(r *sim.TraceRecord) error {
	if r.Event == sim.TraceAdmit {
		s[[2]string{r.LaneName, r.Class}]++
	}
	return nil
}

// The partitions table, its HTML, its JSON and its finding say what the
// lane measured, and its admitted and refused are the trace's: the attempts
// of the partition's classes the limit let in, and the 503s of its own limit
// (the class's shed_by_lane); the lane without partitions has no row.
func TestPartitionsTableIsTheTrace(t *testing.T) {
	s, err := scenarios.Parse("p.yaml", []byte(partitionsYAML))
	if err != nil {
		t.Fatal(err)
	}
	sink := partitionTrace{}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{Trace: sink})
	if err != nil {
		t.Fatal(err)
	}
	l := r.Lanes[1]
	if len(r.Lanes[0].Partitions) != 0 || len(l.Partitions) != 3 {
		t.Fatalf("partitions %v and %v, want none and three", r.Lanes[0].Partitions, l.Partitions)
	}
	rows := partitionTable(partitionLanes(r)).Rows()
	if len(rows) != 3 {
		t.Fatalf("%d rows, want one per partition of aimd_partitioned", len(rows))
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, []Run{{Scenario: s, Result: &r}}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Lanes []struct {
				Partitions []jsonLimitPartition `json:"partitions"`
			} `json:"lanes"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	js := doc.Runs[0].Lanes[1].Partitions
	findings := strings.Join(comparison{Run{Scenario: s, Result: &r}}.Findings(), "\n")
	for i, p := range l.Partitions {
		var admitted, refused int64
		for _, name := range p.Classes {
			admitted += sink[[2]string{l.Name, name}]
			refused += l.Classes[classIndex(l, name)].ShedByLane
		}
		if p.Admitted != admitted || p.Refused != refused {
			t.Errorf("%s: admitted %d refused %d; the trace %d, the classes' own 503s %d", p.Name, p.Admitted, p.Refused, admitted, refused)
		}
		want := []string{"", p.Name, strings.Join(p.Classes, ", "), percentF(p.Share), guaranteed(p), fmt.Sprint(p.Admitted), fmt.Sprint(p.Refused), fmt.Sprint(p.MostInFlight)}
		if i == 0 {
			want[0] = l.Title()
		}
		if strings.Join(rows[i], "|") != strings.Join(want, "|") {
			t.Errorf("row %v, want %v", rows[i], want)
		}
		if j := js[i]; j.Name != p.Name || j.Admitted != p.Admitted || j.Refused != p.Refused || j.MostInFlight != p.MostInFlight ||
			j.GuaranteedMin != p.Guaranteed[0] || j.GuaranteedMax != p.Guaranteed[1] || j.Share != p.Share {
			t.Errorf("JSON %+v, the lane %+v", j, p)
		}
		claim := fmt.Sprintf("%s (share %s, guaranteed %s places) had %d admitted and %d refused, at most %d in flight at once",
			p.Name, percentF(p.Share), guaranteed(p), p.Admitted, p.Refused, p.MostInFlight)
		if !strings.Contains(findings, claim) {
			t.Errorf("no finding %q in\n%s", claim, findings)
		}
	}
	if l.Partitions[2].Name != "unknown" || l.Partitions[0].Guaranteed[0] == l.Partitions[0].Guaranteed[1] {
		t.Errorf("partitions %+v: want the unknown one last, and live's places moving with the limit", l.Partitions)
	}
	b.Reset()
	if err := WriteHTML(&b, []Page{{Run: Run{Scenario: s, Result: &r}}}); err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		if !strings.Contains(b.String(), "<td>"+strings.Join(row, "</td><td>")+"</td>") {
			t.Errorf("the HTML report has no row %v", row)
		}
	}
}

// classIndex is the index of class name in l.Classes.
func classIndex(l sim.LaneResult, name string) int {
	for i, c := range l.Classes {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// docs/scenarios.md shows the partitions table of its example as rlsim run prints it.
func TestPartitionsTableInTheDocs(t *testing.T) {
	doc, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	sec := string(doc)[strings.Index(string(doc), "### Partitions\n"):]
	sec = sec[:strings.Index(sec, "\n### Client throttling")]
	block := sec[strings.Index(sec, "```yaml\n")+len("```yaml\n"):]
	s, err := scenarios.Parse("partitions.yaml", []byte(block[:strings.Index(block, "```")]))
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	writePartitions(&b, r, 0)
	if want := "```\n" + strings.TrimPrefix(b.String(), "\n") + "```\n"; !strings.Contains(sec, want) {
		t.Errorf("docs/scenarios.md does not show the partitions table as printed:\n%s", want)
	}
}
