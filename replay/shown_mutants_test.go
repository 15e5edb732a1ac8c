package replay

import (
	"context"
	"strings"
	"testing"
)

// TestShownStopsAtMaxShown: every bad line is counted, and exactly the first
// MaxShown are shown, not one more.
func TestShownStopsAtMaxShown(t *testing.T) {
	good := `192.0.2.1 - - [01/Mar/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"` + "\n"
	log := good + strings.Repeat("garbage\n", MaxShown+2)
	opts := Options{Limits: []Limit{mustLimit(t, "key=ip limit=1/1s")}, Format: "combined"}
	res, err := Replay(context.Background(), []Input{{Name: "a.log", R: strings.NewReader(log)}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Bad != MaxShown+2 || len(res.Shown) != MaxShown || res.Shown[MaxShown-1].Line != MaxShown+1 {
		t.Errorf("%d bad lines: bad %d, shown %v; want %d bad and lines 2 to %d shown", MaxShown+2, res.Bad, res.Shown, MaxShown+2, MaxShown+1)
	}
}
