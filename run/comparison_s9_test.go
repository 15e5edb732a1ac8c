package run

import (
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
)

// A lane the flags made invalid is named by its name, not by sim's
// variants[i], which no file or flag of the user's says.
func TestFlagsProblemNamesTheLane(t *testing.T) {
	s, err := scenarios.Parse("t.yaml", []byte("limits: [{limit: 10, burst: 5}]\nclients: [{arrivals: [{kind: constant, rate: 1/s}]}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = Overrides{Lanes: "nginx,haproxy"}.Apply([]*scenarios.Scenario{s})
	if err == nil || !strings.Contains(err.Error(), "lane haproxy: ") || strings.Contains(err.Error(), "variants[") {
		t.Errorf("error %v, want it to name lane haproxy", err)
	}
}
