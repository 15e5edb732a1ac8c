package conform

import (
	"bytes"
	"context"
	"slices"
	"testing"
)

// TestRunFlagsPrintsAScript: --print-script writes the script alone, and
// needs neither a scenario nor a Redis.
func TestRunFlagsPrintsAScript(t *testing.T) {
	for _, s := range Scripts() {
		var out bytes.Buffer
		if err := RunFlags(context.Background(), &out, &Flags{PrintScript: s.Name}); err != nil {
			t.Fatal(err)
		}
		if out.String() != s.Source || s.Source == "" {
			t.Errorf("--print-script %s wrote %d bytes, want its %d", s.Name, out.Len(), len(s.Source))
		}
	}
}

func TestScriptLaneNames(t *testing.T) {
	names := ScriptLaneNames()
	if len(names) != len(ScriptLanes()) || len(names) == 0 {
		t.Fatalf("ScriptLaneNames() = %q for lanes %v", names, ScriptLanes())
	}
	for i, l := range ScriptLanes() {
		if names[i] != l.String() {
			t.Errorf("ScriptLaneNames()[%d] = %q, want %q", i, names[i], l.String())
		}
	}
	if !slices.Contains(names, "gcra") {
		t.Errorf("ScriptLaneNames() = %q lacks gcra", names)
	}
}
