package replay

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDocsFormatExamples: each format's example in docs/replay.md (a block
// tagged access-FORMAT) is its sample in testdata, every line of which parses
// in that format, detected as it (nginx's by its --nginx-format).
func TestDocsFormatExamples(t *testing.T) {
	data, err := os.ReadFile("../docs/replay.md")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"nginx": "formats-nginx.log", "envoy": "formats-envoy.log", "envoy-json": "formats-envoy.jsonl",
		"haproxy": "formats-haproxy.log", "alb": "formats-alb.log", "elb": "formats-elb.log"}
	blocks := regexp.MustCompile("(?s)```access-([\\w-]+)\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	seen := map[string]bool{}
	nginx, err := NginxFormat(nginxSampleFormat)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		format, body := b[1], b[2]
		seen[format] = true
		t.Run(format, func(t *testing.T) {
			sample, err := os.ReadFile("testdata/" + files[format])
			if err != nil || string(sample) != body {
				t.Fatalf("the example is not testdata/%s (%v)", files[format], err)
			}
			opts := Options{Format: "auto", Strict: true, Limits: []Limit{mustLimit(t, "key=endpoint+field:"+strings.Fields(fieldOf[format])[0]+" limit=1/1s")}}
			if format == "nginx" {
				opts.LogFormat = nginx
			}
			res, err := Replay(context.Background(), []Input{{Name: "docs", R: strings.NewReader(body)}}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if n := int64(strings.Count(body, "\n")); res.Requests != n || res.Format != format {
				t.Errorf("%d requests, format %s; want %d, %s", res.Requests, res.Format, n, format)
			}
		})
	}
	for format := range files {
		if !seen[format] {
			t.Errorf("docs/replay.md has no access-%s example", format)
		}
	}
}

// fieldOf is a field every line of each sample has.
var fieldOf = map[string]string{"nginx": "http_x_api_key", "envoy": "req.x-request-id", "envoy-json": "upstream_host",
	"haproxy": "backend_name", "alb": "client:port", "elb": "backend:port"}
