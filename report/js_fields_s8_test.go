package report

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// Every timeline field report.js reads (tl.name) is one the page's JSON
// writes: a renamed tag would leave the script reading undefined.
func TestReportJSReadsOnlyTimelineFieldsWritten(t *testing.T) {
	js, err := os.ReadFile("assets/report.js")
	if err != nil {
		t.Fatal(err)
	}
	written := map[string]bool{}
	typ := reflect.TypeOf(timelineJSON{})
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		written[name] = true
	}
	read := map[string]bool{}
	for _, m := range regexp.MustCompile(`\btl\.([a-z_]+)`).FindAllSubmatch(js, -1) {
		read[string(m[1])] = true
	}
	if len(read) < 5 {
		t.Fatalf("report.js reads %d timeline fields: the pattern no longer finds them", len(read))
	}
	for name := range read {
		if !written[name] {
			t.Errorf("report.js reads tl.%s, which timelineJSON does not write", name)
		}
	}
}
