package sim

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// layers is sim's roles from the bottom up. Every non-test file of sim is
// named role_what.go, and a file may use what is defined in files of its own
// layer or of a layer below, never what a layer above defines. It is the one
// table of the layers inside sim, as run/deps_test.go's layers is of those
// between packages, and doc.go's paragraph on the layout says the same.
//
//   - world: the vocabulary — Config and the types it is made of (the
//     topology's, the lanes' settings, header styles), Options and the trace's
//     records, names of enums, FieldErrors, the checker and the caps, event
//     kinds, the marks a timeline counts and the columns it bins them in
//     (Options.Columns), the fast-path switches, and two small helpers (saturating time,
//     whole cache lines).
//   - traffic: the clients — arrival processes and their superposition, the
//     population and its keys, requests and their pool, backoff, the random
//     streams and the Queue other studies share.
//   - chain: the limits a request meets — the per-key deciders, the
//     concurrency limiters and client gates of the adaptive lanes, response
//     headers, and the lane registry that builds them.
//   - config: what is known of a Config without running it — defaults,
//     validation and caps (which read the registry), variants, lane order,
//     event estimates, rule-change schedules.
//   - measure: what a lane tallies as it runs and the results it hands back
//     (metrics, admissions counted later, fairness, adaptive state,
//     results and snapshots as types).
//   - lane, topo, fast: one lane running — its event loop, backend and rule
//     pushes, the fleet and store its decisions go through, and its fast
//     paths (kernel, direct, quick, following a leader). They are one layer because they are one loop: the lane
//     holds its fleet, direct path and kernel, the loop hands each attempt to
//     them, and they answer through the loop's own steps (act, admit, shed);
//     splitting them would take interfaces for what is one state machine.
//   - run: the Simulation — building and stepping lanes, running them in
//     parallel, sharing requests and streaming them, rule changes, live
//     controls and snapshots.
var layers = [][]string{
	{"world"},
	{"traffic"},
	{"chain"},
	{"config"},
	{"measure"},
	{"lane", "topo", "fast"},
	{"run"},
}

// TestLayersPointDown type-checks sim's non-test files and fails on every use,
// in a file of one layer, of an identifier that a file of a higher layer
// defines: a type, function, method, field, constant or variable. There is no
// list of exceptions: an upward use is fixed by moving the definition down to
// the layer it belongs to, or by passing a value instead of reaching up.
func TestLayersPointDown(t *testing.T) {
	layer := map[string]int{}
	for i, l := range layers {
		for _, r := range l {
			layer[r] = i
		}
	}
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Decls) == 0 { // doc.go
			continue
		}
		files = append(files, f)
		role, _, _ := strings.Cut(name, "_")
		if _, ok := layer[role]; !ok {
			t.Errorf("%s: the name starts with no role of layers (layers_test.go): name the file role_what.go", name)
		}
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check("github.com/rlsim/rlsim/sim", fset, files, info)
	if err != nil {
		t.Fatal(err)
	}
	layerOf := func(pos token.Pos) (file string, at int, ok bool) {
		file = filepath.Base(fset.Position(pos).Filename)
		role, _, _ := strings.Cut(file, "_")
		at, ok = layer[role]
		return file, at, ok
	}
	var upward []string
	seen := map[token.Pos]bool{}
	check := func(at token.Pos, obj types.Object) {
		if obj == nil || obj.Pkg() != pkg || !obj.Pos().IsValid() || seen[at] {
			return
		}
		seen[at] = true
		file, from, ok := layerOf(at)
		def, to, ok2 := layerOf(obj.Pos())
		if !ok || !ok2 || from >= to {
			return
		}
		upward = append(upward, fmt.Sprintf("%s: %s uses %s of %s: layer %s is below %s", fset.Position(at), file, obj.Name(), def, strings.Join(layers[from], ","), strings.Join(layers[to], ",")))
	}
	for id, obj := range info.Uses {
		check(id.Pos(), obj)
	}
	for sel, s := range info.Selections {
		check(sel.Sel.Pos(), s.Obj())
	}
	slices.Sort(upward)
	for _, u := range upward {
		t.Error(u)
	}
	// The table, the files and doc.go say the same.
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	if want := layersText(); !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(string(doc), "//", "")), " "), want) {
		t.Errorf("doc.go does not name the layers as layers_test.go does: want %q", want)
	}
	for _, l := range layers {
		for _, r := range l {
			if !slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, r+"_") && !strings.HasSuffix(n, "_test.go") }) {
				t.Errorf("layers names %s, which no file has", r)
			}
		}
	}
}

// layersText is the layers as doc.go states them: "world < traffic < ... <
// lane = topo = fast < run".
func layersText() string {
	var ls []string
	for _, l := range layers {
		ls = append(ls, strings.Join(l, " = "))
	}
	return strings.Join(ls, " < ")
}
