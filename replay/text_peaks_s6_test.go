package replay

import (
	"strings"
	"testing"
)

// The text's per-key peak line gives each percentile after its own label:
// with p50, p90, p99 and max all different, each label must be followed by
// the value of the field it names.
func TestWriteTextPeakLineLabelsOwnValues(t *testing.T) {
	r := &Result{Limits: []LimitResult{{Limit: "per_ip", Keys: 40, PeakP50: 3, PeakP90: 7, PeakP99: 11, PeakMax: 20}}}
	var b strings.Builder
	if err := WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	want := "per-key peak per window p50 3, p90 7, p99 11, max 20\n"
	if !strings.Contains(out, want) {
		t.Errorf("text has no line ending %q:\n%s", want, out)
	}
}
