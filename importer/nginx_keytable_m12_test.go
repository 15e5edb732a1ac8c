package importer

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestNginxKeyTableRowsOfNamedVariables: every variable the key table of
// docs/import-nginx.md names outright (a row of `$name`s, not a rule such as
// "another $http_…") imports as its row's kind, with a Problem at the zone's
// line exactly when the row says yes ("text without variables" beside
// $server_name is read as the row's too, not tried); and each variable ngxVarKinds knows is
// in such a row, so the table and the code list the same names.
func TestNginxKeyTableRowsOfNamedVariables(t *testing.T) {
	doc, err := os.ReadFile("../docs/import-nginx.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("^\\| ((?:`\\$[a-z_]+`, )*`\\$[a-z_]+`)(?:, [a-z ]+)? \\| `([a-z_]+)` \\| (yes[^|]*)?\\|$")
	name := regexp.MustCompile("`\\$([a-z_]+)`")
	documented := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		mt := row.FindStringSubmatch(line)
		if mt == nil {
			continue
		}
		kind, problem := mt[2], mt[3] != ""
		for _, n := range name.FindAllStringSubmatch(mt[1], -1) {
			v := n[1]
			documented[v] = true
			conf := "http {\n\tlimit_req_zone $" + v + " zone=z:1m rate=1r/s;\n\tserver { location = /a { limit_req zone=z; } }\n}"
			m := importText(t, conf)
			if len(m.Limits) != 1 || m.Limits[0].Key != kind {
				t.Errorf("$%s: limits %+v, want one keyed %s (the table's row)", v, m.Limits, kind)
			}
			told := false
			for _, p := range m.Problems {
				told = told || p.At.Line == 2
			}
			if told != problem {
				t.Errorf("$%s: a problem at the zone told %v, the table says %v (%v)", v, told, problem, m.Problems)
			}
		}
	}
	if len(documented) < 10 {
		t.Fatalf("read %d named variables of the table, want its rows (the table's shape changed?)", len(documented))
	}
	for _, k := range ngxVarKinds {
		if !documented[k.name] {
			t.Errorf("$%s (%s) is read by the importer but named in no row of the table", k.name, k.kind)
		}
	}
}
