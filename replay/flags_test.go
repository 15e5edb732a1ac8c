package replay

import "testing"

// TestProgressLineETA: the ETA is the remaining bytes at the rate so far
// (compressed bytes for gzip, which Options.Progress counts), and none is
// claimed when the size is unknown (stdin).
func TestProgressLineETA(t *testing.T) {
	tests := []struct {
		name                string
		lines, bytes, total int64
		elapsed             float64
		want                string
	}{
		{"a quarter in 10s", 1000, 250, 1000, 10, "\r1000 lines, 100 lines/s, ETA 30s   "},
		{"half in 2s", 500, 50, 100, 2, "\r500 lines, 250 lines/s, ETA 2s   "},
		{"stdin", 1000, 250, -1, 10, "\r1000 lines, 100 lines/s   "},
		{"no time yet", 10, 5, 100, 0, "\r10 lines   "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ProgressLine(tt.lines, tt.bytes, tt.total, tt.elapsed); got != tt.want {
				t.Errorf("ProgressLine(%d, %d, %d, %v) = %q, want %q", tt.lines, tt.bytes, tt.total, tt.elapsed, got, tt.want)
			}
		})
	}
}

func TestOpenInputsNamesMissingFile(t *testing.T) {
	_, _, closeAll, err := OpenInputs([]string{"-", "testdata/no-such.log"}, nil)
	closeAll()
	if err == nil || err.Error() != "testdata/no-such.log: open testdata/no-such.log: no such file or directory" {
		t.Errorf("OpenInputs = %v, want the missing file named", err)
	}
	inputs, total, closeAll, err := OpenInputs([]string{"-"}, nil)
	closeAll()
	if err != nil || len(inputs) != 1 || inputs[0].Name != "-" || total != -1 {
		t.Errorf("OpenInputs(-) = %v, %d, %v; want stdin of unknown size", inputs, total, err)
	}
}

func TestOutputsFormat(t *testing.T) {
	out := Outputs{Text: []byte("t"), JSON: []byte("j"), CSV: []byte("c")}
	for format, want := range map[string]string{"text": "t", "json": "j", "csv": "c"} {
		if got := string(out.Format(format)); got != want {
			t.Errorf("Format(%q) = %q, want %q", format, got, want)
		}
	}
}
