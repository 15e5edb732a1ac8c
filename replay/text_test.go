package replay

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestWriteTextFit: on a narrow terminal each lane table drops columns, top
// key first, until it fits; width 0 keeps every column.
func TestWriteTextFit(t *testing.T) {
	f, err := os.Open("testdata/sample.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := Replay(context.Background(), []Input{{Name: "sample.log", R: f}}, Options{Limits: []Limit{mustLimit(t, "key=ip limit=100/1m burst=20")}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		width    int
		want     []string
		dropped  []string
		fitsUpTo int // every table line at most this wide (0: no bound)
	}{
		{0, []string{"would refuse", "keys refused", "top key (refused, peak)", "203.0.113.66 (932, 1032)"}, nil, 0},
		{72, []string{"would refuse", "keys refused"}, []string{"top key", "203.0.113.66", "legit-looking caught"}, 72},
		{45, []string{"would refuse"}, []string{"top key", "keys refused", "legit-looking caught"}, 45},
	}
	for _, tt := range tests {
		var b strings.Builder
		if err := WriteTextFit(&b, res, tt.width); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("width %d: no %q in\n%s", tt.width, w, out)
			}
		}
		for _, d := range tt.dropped {
			if strings.Contains(out, d) {
				t.Errorf("width %d: %q still there in\n%s", tt.width, d, out)
			}
		}
		for _, line := range strings.Split(out, "\n") {
			table := strings.HasPrefix(line, "lane ") || strings.HasPrefix(line, "gcra ") || strings.HasPrefix(line, "fixed_window ")
			if table && tt.fitsUpTo > 0 && len(line) > tt.fitsUpTo {
				t.Errorf("width %d: %q is %d wide", tt.width, line, len(line))
			}
		}
	}
}
