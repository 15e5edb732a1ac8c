package diff

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestFailOnListsTheMetricsItTakes: the metrics an unknown metric's error
// lists are each taken (no "unknown metric", with some value its unit
// reads), and a log's refusal lists exactly the metrics a log takes.
func TestFailOnListsTheMetricsItTakes(t *testing.T) {
	_, err := ParseFailOn("no_such_metric > 1", "run")
	m := regexp.MustCompile(`unknown metric "no_such_metric" \(want ([^)]*)\)`).FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("error %v lists no metrics", err)
	}
	listed := strings.Split(m[1], ", ")
	taken := func(metric, mode string) (bool, error) {
		var last error
		for _, v := range []string{"1", "1%", "1s", "0.5"} {
			_, err := ParseFailOn(metric+" > "+v, mode)
			if err == nil {
				return true, nil
			}
			if strings.Contains(err.Error(), "unknown metric") {
				return false, err
			}
			last = err
		}
		return false, last
	}
	var inLog []string
	for _, metric := range listed {
		if ok, err := taken(metric, "run"); !ok {
			t.Errorf("metric %q, listed, is not taken: %v", metric, err)
		}
		if ok, _ := taken(metric, "log"); ok {
			inLog = append(inLog, metric)
		}
	}
	_, err = ParseFailOn(listed[len(listed)-1]+" > 1%", "log")
	lm := regexp.MustCompile(`a log replayed in shadow measures only (.*)$`).FindStringSubmatch(err.Error())
	if lm == nil {
		t.Fatalf("a scenario metric in log mode: %v, naming no log metrics", err)
	}
	if said := strings.Split(lm[1], ", "); !slices.Equal(said, inLog) {
		t.Errorf("log mode says it measures %v; it takes %v", said, inLog)
	}
}
