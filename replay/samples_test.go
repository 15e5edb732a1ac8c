package replay

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata")

// TestSamples keeps the generated samples in testdata (documentation
// addresses, no real data) in step with writeCombined, and replays each: the
// combined log, and the same requests as JSON lines and as CSV, which replay
// to the same table.
func TestSamples(t *testing.T) {
	var log bytes.Buffer
	writeCombined(&log, 3000, 42)
	samples := map[string][]byte{"sample.log": log.Bytes(), "sample.jsonl": asJSONLines(t, log.Bytes()), "sample.csv": asCSV(t, log.Bytes())}
	var texts []string
	for _, name := range []string{"sample.log", "sample.jsonl", "sample.csv"} {
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(path, samples[name], 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, samples[name]) {
			t.Fatalf("%s is stale (go test ./replay -update): %v", path, err)
		}
		res, err := Replay(context.Background(), []Input{{Name: path, R: bytes.NewReader(got)}},
			Options{Limits: []Limit{mustLimit(t, "key=ip+endpoint limit=100/1m burst=20")}, Strict: true})
		if err != nil || res.Requests != 3000 {
			t.Fatalf("%s: %v, %d requests", name, err, res.Requests)
		}
		var b bytes.Buffer
		WriteText(&b, res)
		_, tables, _ := strings.Cut(b.String(), "\n") // the first line counts the CSV header's line
		texts = append(texts, tables)
	}
	if texts[0] != texts[1] || texts[0] != texts[2] {
		t.Errorf("the formats replay differently:\n%s\n%s\n%s", texts[0], texts[1], texts[2])
	}
}

// asJSONLines rewrites a combined log as JSON lines, times in RFC 3339 UTC.
func asJSONLines(t *testing.T, log []byte) []byte {
	var out bytes.Buffer
	eachRecord(t, log, func(r *Record) {
		line, _ := json.Marshal(map[string]string{"time": time.Unix(0, r.At).UTC().Format(time.RFC3339Nano),
			"ip": string(r.IP), "method": string(r.Method), "path": string(r.Path)})
		out.Write(append(line, '\n'))
	})
	return out.Bytes()
}

// asCSV rewrites a combined log as CSV, times as Unix seconds.
func asCSV(t *testing.T, log []byte) []byte {
	var out bytes.Buffer
	w := csv.NewWriter(&out)
	w.Write([]string{"time", "ip", "method", "path"})
	eachRecord(t, log, func(r *Record) {
		w.Write([]string{strconv.FormatInt(r.At/1e9, 10), string(r.IP), string(r.Method), string(r.Path)})
	})
	w.Flush()
	return out.Bytes()
}

func eachRecord(t *testing.T, log []byte, fn func(*Record)) {
	var c combined
	for _, line := range bytes.Split(bytes.TrimSpace(log), []byte("\n")) {
		var r Record
		if err := c.parse(line, &r); err != nil {
			t.Fatal(err)
		}
		fn(&r)
	}
}
