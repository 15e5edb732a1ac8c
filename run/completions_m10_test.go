package run

import (
	"slices"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// LaneCompletions offers, after what toComplete has already listed, the
// lanes of the scenarios named (a variant's name too) and then every
// algorithm, each once and in that order; an argument that does not load
// adds nothing.
func TestLaneCompletionsOfferTheScenariosLanesFirst(t *testing.T) {
	var name string
	var lanes []string
	for _, b := range scenarios.Builtins() {
		s, err := scenarios.LoadBuiltin(b.Name)
		if err != nil {
			t.Fatal(err)
		}
		ls := s.Config.LaneNames()
		if slices.ContainsFunc(ls, func(n string) bool { return !slices.Contains(sim.LaneNames(), n) }) {
			name, lanes = b.Name, ls
			break
		}
	}
	if name == "" {
		t.Fatal("no built-in has a variant lane")
	}
	want := func(done string, names []string) []string {
		var out []string
		for _, n := range append(append([]string(nil), names...), sim.LaneNames()...) {
			if !slices.Contains(out, done+n) {
				out = append(out, done+n)
			}
		}
		return out
	}
	for _, tc := range []struct {
		args       []string
		toComplete string
		done       string
		names      []string
	}{
		{[]string{BuiltinPrefix + name}, "", "", lanes},
		{[]string{BuiltinPrefix + name}, "gcra,tok", "gcra,", lanes},
		{[]string{BuiltinPrefix + name, BuiltinPrefix + name}, "a,b,", "a,b,", lanes},
		{[]string{BuiltinPrefix + "no-such-scenario"}, "x", "", nil},
	} {
		got := LaneCompletions(tc.args, tc.toComplete)
		if w := want(tc.done, tc.names); strings.Join(got, " ") != strings.Join(w, " ") {
			t.Errorf("LaneCompletions(%v, %q) =\n%v\nwant\n%v", tc.args, tc.toComplete, got, w)
		}
	}
}
