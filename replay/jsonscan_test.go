package replay

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// FuzzJSONScan: the fast scanner reads a line only as encoding/json does
// (the reference twin): when it reads one, encoding/json reads it too, to the
// same fields and values; what it refuses is left to encoding/json.
func FuzzJSONScan(f *testing.F) {
	data, err := os.ReadFile("testdata/sample.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n")[:20] {
		f.Add(line)
	}
	for _, s := range []string{
		`{}`, ` { "a" : 1 , "b":[1,{"c":2}], "d":{"e":{"f":"g"}} } `, `{"a":"\u00e9"}`, `{"a":"é","b":true,"c":false,"d":null}`,
		`{"a":1,"a":2}`, `{"a":-0.5e+3,"b":0,"c":1E9}`, `{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":"x\"y"}`, `{"a":"\xff"}`,
		`{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{"j":1}}}}}}}}}}`, `{"a":[[[[[]]]]]}`, `{"a":1}x`, `[1]`, `null`, `{"a":1,}`,
		`{"request":{"ip":"192.0.2.1"},"request.ip":"x"}`, "{\"a\":\"\t\"}", `{"a" 1}`, `{"a":tru}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		p := &jsonLines{}
		var fast Record
		ok := p.scan([]byte(line), &fast)
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &obj); err != nil || obj == nil {
			if ok {
				t.Fatalf("scan read %q, which encoding/json refuses (%v)", line, err)
			}
			return
		}
		if !ok {
			return
		}
		var slow Record
		addFields(&slow, "", obj, 0)
		want := map[string]string{}
		for i, n := range slow.names {
			want[n] = string(slow.values[i])
		}
		got := map[string]string{}
		for i, n := range fast.names {
			got[n] = string(fast.values[i])
		}
		if len(got) != len(want) || len(fast.names) != len(got) {
			t.Fatalf("%q: scan %v, encoding/json %v", line, got, want)
		}
		for n, v := range want {
			if got[n] != v {
				t.Fatalf("%q: field %s: scan %q, encoding/json %q", line, n, got[n], v)
			}
		}
	})
}

// TestJSONScanReads: the lines of sample.jsonl, and nested ones, are read by
// the scanner itself (not left to encoding/json), allocating nothing once
// their names are known.
func TestJSONScanReads(t *testing.T) {
	lines := append(sampleLines(t, "sample.jsonl")[:50], sampleLines(t, "formats-envoy.jsonl")...)
	lines = append(lines, `{"meta":{"at":"2026-03-01T16:00:00Z"},"request":{"ip":"192.0.2.1","headers":{"x-api-key":"k1"}},"tags":["a",{"b":1}]}`)
	p := &jsonLines{}
	var r Record
	var bs [][]byte
	for _, l := range lines {
		if !p.scan([]byte(l), &r) {
			t.Errorf("scan left %q to encoding/json", l)
		}
		bs = append(bs, []byte(l))
	}
	allocs := testing.AllocsPerRun(100, func() {
		for _, l := range bs {
			p.scan(l, &r)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per %d lines, want 0", allocs, len(lines))
	}
}
