package conform

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSmallHelpersAtTheirEdges: lastAt of none is 0, else the last attempt's
// instant; absDuration on each side of 0; noDecision names the requests the
// log missed only when there are some; logSize of a file, a folder and none.
func TestSmallHelpersAtTheirEdges(t *testing.T) {
	if got := lastAt(nil); got != 0 {
		t.Errorf("lastAt(nil) = %v", got)
	}
	if got := lastAt([]Attempt{{At: time.Second}, {At: 3 * time.Second}}); got != 3*time.Second {
		t.Errorf("lastAt = %v, want the last's 3s", got)
	}
	for _, d := range []time.Duration{-5, -1, 0, 1, 7} {
		want := d
		if d < 0 {
			want = -d
		}
		if got := absDuration(d); got != want {
			t.Errorf("absDuration(%v) = %v", d, got)
		}
	}
	if got := noDecision(GatewayCheck{NoDecision: 4}); got != "4" {
		t.Errorf("noDecision = %q", got)
	}
	if got := noDecision(GatewayCheck{NoDecision: 4, NotLogged: 2}); got != "4 (2 answered requests not in the access log, taken at their send)" {
		t.Errorf("noDecision with requests not logged = %q", got)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "a.log")
	if err := os.WriteFile(path, []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n, err := logSize(path); n != 5 || err != nil {
		t.Errorf("logSize = %d, %v", n, err)
	}
	if _, err := logSize(dir); err == nil || err.Error() != "--access-log: "+dir+" is not a file" {
		t.Errorf("logSize of a folder: %v", err)
	}
	if _, err := logSize(filepath.Join(dir, "none")); err == nil || !strings.HasPrefix(err.Error(), "--access-log: ") {
		t.Errorf("logSize of none: %v", err)
	}
}
