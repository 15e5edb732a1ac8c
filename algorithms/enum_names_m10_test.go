package algorithms

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// enumConsts lists, from the package's source, the constants declared of
// each type in types: type → constant names.
func enumConsts(t *testing.T, types ...string) map[string][]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, typ := range types {
		want[typ] = true
	}
	out := map[string][]string{}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			typ := ""
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); ok {
					typ = id.Name
				} else if vs.Type != nil || len(vs.Values) > 0 {
					typ = "" // an untyped constant, or another type
				}
				if want[typ] {
					for _, n := range vs.Names {
						out[typ] = append(out[typ], n.Name)
					}
				}
			}
		}
	}
	return out
}

// Each value of the package's small enums says its constant's name, less the
// type's prefix, in lower case (CalendarSecond "second", Admit "admit"), and
// a value past them says its type and number; every constant the source
// declares of these types is checked.
func TestEnumNamesAreTheirConstants(t *testing.T) {
	values := map[string]fmt.Stringer{
		"Admit": Admit, "Refuse": Refuse, "Delay": Delay,
		"AlignClock": AlignClock, "AlignFirst": AlignFirst, "AlignCalendar": AlignCalendar,
		"EnvoyContinuous": EnvoyContinuous, "EnvoyStepwise": EnvoyStepwise,
		"CalendarSecond": CalendarSecond, "CalendarMinute": CalendarMinute, "CalendarHour": CalendarHour,
		"CalendarDay": CalendarDay, "CalendarMonth": CalendarMonth, "CalendarYear": CalendarYear,
	}
	prefix := map[string]string{"Verdict": "", "Align": "Align", "EnvoyRefill": "Envoy", "CalendarUnit": "Calendar"}
	consts := enumConsts(t, "Verdict", "Align", "EnvoyRefill", "CalendarUnit")
	for typ, names := range consts {
		for _, name := range names {
			v, ok := values[name]
			if !ok {
				t.Errorf("%s %s: not in this test's table", typ, name)
				continue
			}
			if want := strings.ToLower(strings.TrimPrefix(name, prefix[typ])); v.String() != want {
				t.Errorf("%s.String() = %q, want %q", name, v, want)
			}
		}
	}
	if n := len(consts["CalendarUnit"]) + len(consts["Verdict"]) + len(consts["Align"]) + len(consts["EnvoyRefill"]); n != len(values) {
		t.Errorf("the source declares %d constants of these types (%v), the table has %d", n, consts, len(values))
	}
	for _, tc := range []struct {
		v    fmt.Stringer
		want string
	}{{Verdict(9), "Verdict(9)"}, {Align(9), "Align(9)"}, {EnvoyRefill(9), "EnvoyRefill(9)"}, {CalendarUnit(0), "CalendarUnit(0)"}, {CalendarUnit(9), "CalendarUnit(9)"}} {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("String of a value past the constants = %q, want %q", got, tc.want)
		}
	}
}
