package replay

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata")

// TestSamples keeps testdata/sample.log (generated: documentation addresses,
// no real data) in step with writeCombined, and replays it.
func TestSamples(t *testing.T) {
	var log bytes.Buffer
	writeCombined(&log, 3000, 42)
	path := filepath.Join("testdata", "sample.log")
	if *update {
		if err := os.WriteFile(path, log.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, log.Bytes()) {
		t.Fatalf("%s is stale (go test ./replay -update): %v", path, err)
	}
	res, err := Replay(context.Background(), []Input{{Name: path, R: bytes.NewReader(got)}},
		Options{Limits: []Limit{mustLimit(t, "key=ip limit=100/1m burst=20")}})
	if err != nil || res.Requests != 3000-res.TooLate || res.Bad != 0 {
		t.Fatalf("replay: %v, %d requests, %d bad", err, res.Requests, res.Bad)
	}
}
