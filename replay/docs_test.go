package replay

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDocsExamplesParse replays each format's example in docs/replay.md: every
// line parses, in the format it documents, and keys by every part it names.
func TestDocsExamplesParse(t *testing.T) {
	data, err := os.ReadFile("../docs/replay.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```log-(\\w+)\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	if len(blocks) != 3 {
		t.Fatalf("docs/replay.md has %d log examples, want 3 (combined, json, csv)", len(blocks))
	}
	fields, _ := ParseFields("time=ts,ip=remote_addr")
	keys := map[string]string{"combined": "ip+endpoint", "json": "ip/24+field:api_key", "csv": "ip+user+endpoint"}
	for _, b := range blocks {
		format, body := b[1], b[2]
		t.Run(format, func(t *testing.T) {
			opts := Options{Format: format, Strict: true, Limits: []Limit{mustLimit(t, "key="+keys[format]+" limit=1/1s")}}
			if format == "json" {
				opts.Fields = fields
			}
			res, err := Replay(context.Background(), []Input{{Name: "docs", R: strings.NewReader(body)}}, opts)
			if err != nil {
				t.Fatal(err)
			}
			lines := int64(strings.Count(strings.TrimSpace(body), "\n") + 1)
			if format == "csv" {
				lines-- // the header
			}
			if res.Requests != lines {
				t.Errorf("%d requests, want %d", res.Requests, lines)
			}
			if auto := sniff([]byte(body[:strings.Index(body, "\n")])); auto != format {
				t.Errorf("auto reads it as %s", auto)
			}
		})
	}
}
