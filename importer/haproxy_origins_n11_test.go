package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHAProxyLimitsNameTheirThreeLines: each limit imported from every
// HAProxy sample is at its rule's line, its stick-table's and its tracking
// rule's, in that order, each line holding what it names.
func TestHAProxyLimitsNameTheirThreeLines(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "haproxy", "*.cfg"))
	seen := 0
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		src, err := SourceFile(name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Import(src, "haproxy")
		if err != nil {
			continue
		}
		for _, l := range m.Limits {
			seen++
			if len(l.At) != 3 {
				t.Errorf("%s: limit %s at %v, want its rule, table and tracking lines", name, l.Name, l.At)
				continue
			}
			text := func(i int) string {
				o := l.At[i]
				if o.File != name || o.Line < 1 || o.Line > len(lines) {
					t.Fatalf("%s: limit %s origin %v outside the file", name, l.Name, o)
				}
				return lines[o.Line-1]
			}
			table := strings.SplitN(l.Name, "@", 2)[0]
			if rule := text(0); !strings.Contains(rule, "-request") || !strings.Contains(rule, " if ") {
				t.Errorf("%s: limit %s's first origin, line %d %q, is not its rule", name, l.Name, l.At[0].Line, rule)
			}
			if tl := text(1); !strings.Contains(tl, "stick-table") && !strings.Contains(tl, "backend "+table) && !strings.Contains(tl, "table "+table) {
				t.Errorf("%s: limit %s's second origin, line %d %q, is not table %s", name, l.Name, l.At[1].Line, tl, table)
			}
			if tr := text(2); !strings.Contains(tr, "track-sc") {
				t.Errorf("%s: limit %s's third origin, line %d %q, is not its tracking rule", name, l.Name, l.At[2].Line, tr)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no HAProxy sample imported a limit")
	}
}
