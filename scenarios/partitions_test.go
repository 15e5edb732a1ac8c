package scenarios

import (
	"context"
	"fmt"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// docsSection is the text of docs/scenarios.md from heading to the next heading
// of its level.
func docsSection(t *testing.T, heading string) string {
	t.Helper()
	doc, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i := strings.Index(s, heading+"\n")
	if i < 0 {
		t.Fatalf("docs/scenarios.md has no %q", heading)
	}
	s = s[i+len(heading):]
	if j := strings.Index(s, "\n### "); j >= 0 {
		s = s[:j]
	}
	return s
}

// The Partitions section's example does what its text says: live succeeds
// 27% of the time without partitions, 78% with them, batch 12% with them.
func TestPartitionsExampleAsTheDocsSay(t *testing.T) {
	sec := docsSection(t, "### Partitions")
	block := yamlBlock.FindStringSubmatch(sec)
	if block == nil {
		t.Fatal("the Partitions section has no example")
	}
	s, err := Parse("partitions.yaml", []byte(block[1]))
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	success := func(lane, class string) string {
		for _, l := range r.Lanes {
			if l.Name != lane {
				continue
			}
			for _, c := range l.Classes {
				if c.Name == class {
					return fmt.Sprintf("%d%%", int(math.Round(100*float64(c.Succeeded)/float64(c.Unique))))
				}
			}
		}
		t.Fatalf("no class %s in lane %s", class, lane)
		return ""
	}
	claims := map[string]string{
		`live succeeds (\d+%) of the time;`:    success("aimd", "live"),
		`with them live .* succeeds (\d+%) of`: success("aimd_partitioned", "live"),
		`of the time, batch\s+(\d+%)`:          success("aimd_partitioned", "batch"),
	}
	text := strings.Join(strings.Fields(sec), " ")
	for pattern, got := range claims {
		m := regexp.MustCompile(pattern).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("the docs no longer say %q", pattern)
		}
		if m[1] != got {
			t.Errorf("the docs say %s (%q), the run gives %s", m[1], pattern, got)
		}
	}
}

// Partitions in error are named at their lines: a rate lane's, an unknown
// class, shares over 1.
func TestPartitionsErrorsNameTheirLines(t *testing.T) {
	src := `duration: 5s
lanes:
  - name: tb
    algorithm: token_bucket
    partitions:
      - {name: a, classes: [users], share: 0.5}
  - name: g
    algorithm: gradient2
    partitions:
      - {name: a, classes: [nobody], share: 0.5}
partitions:
  - {name: x, classes: [users], share: 0.8}
  - {name: y, classes: [bots], share: 0.3}
clients:
  - {name: users, count: 1, arrivals: [{kind: poisson, rate: 1/s}]}
  - {name: bots, count: 1, arrivals: [{kind: poisson, rate: 1/s}]}
`
	_, err := Parse("p.yaml", []byte(src))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		"p.yaml:5: lanes[0].partitions: a lane of token_bucket has no concurrency limit to partition",
		`p.yaml:10: lanes[1].partitions[0].classes[0]: "nobody" is no client group's name`,
		"p.yaml:11: partitions: the shares sum to 1.1",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("want %q among:\n%v", want, err)
		}
	}
}
