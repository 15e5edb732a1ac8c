package tui

import "testing"

// TestWideLayoutFrom110: the wide layout (long headings) and the long lane
// titles begin at the same width, 110 columns; at 109 both are short.
func TestWideLayoutFrom110(t *testing.T) {
	for _, tt := range []struct {
		width int
		short bool
	}{{109, true}, {110, false}, {111, false}} {
		m := newModel(t, builtins(t, "demo"), tt.width, 40)
		if got := m.layout().short; got != tt.short {
			t.Errorf("width %d: layout().short = %v, want %v", tt.width, got, tt.short)
		}
	}
}
