package scenarios

import "testing"

// Warnings of a scenario without a topology, a contention study among them,
// is none (rlsim validate asks it of every scenario it checks).
func TestWarningsOfScenariosWithoutATopology(t *testing.T) {
	for _, name := range []string{"backoff-contention", "demo"} {
		s, err := LoadBuiltin(name)
		if err != nil {
			t.Fatal(err)
		}
		if w := Warnings(s); len(w) != 0 {
			t.Errorf("%s: Warnings = %v, want none", name, w)
		}
	}
}
