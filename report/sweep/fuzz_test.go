package sweep

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/run/sweep"
)

// FuzzSweepOfMergedPartials: whatever a merge accepts renders without a
// panic: table (full and fitted), JSON, CSV, the page and the plots. The
// fuzzer edits a real partial (run/sweep's testdata/partials, which run/sweep's
// TestFuzzPartialsAreCurrent keeps current) and WritePartial seals the edit
// again, as a buggy rlsim might write it, so that only the merge's checks of
// what a partial holds stand between it and the report. (run/sweep's
// FuzzMergePartials holds the merge's answers; this one what follows it.)
func FuzzSweepOfMergedPartials(f *testing.F) {
	dir := filepath.Join("..", "..", "run", "sweep", "testdata", "partials")
	var parts [2][]byte
	for i, name := range []string{"part-0.json", "part-1.json"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			f.Fatal(err)
		}
		parts[i] = b
	}
	for _, seed := range []struct {
		data []byte
		slot uint8
	}{
		{parts[0], 0}, {parts[1], 1},
		{bytes.Replace(bytes.Clone(parts[0]), []byte(`"lanes":[{`), []byte(`"lanes":[{"lane":"x","totals":[]},{`), 1), 0},
		{bytes.Replace(bytes.Clone(parts[1]), []byte(`"classes":[{`), []byte(`"classes":[{"name":"x","values":[]},{`), 1), 1},
		{bytes.Replace(bytes.Clone(parts[0]), []byte(`null`), []byte(`1e308`), -1), 0},
	} {
		f.Add(seed.data, seed.slot)
	}
	f.Fuzz(func(t *testing.T, data []byte, slot uint8) {
		var r sweep.Result
		if json.Unmarshal(data, &r) != nil {
			return
		}
		var sealed bytes.Buffer
		if sweep.WritePartial(&sealed, &r) != nil {
			return
		}
		files := [][]byte{parts[0], parts[1]}
		files[slot%2] = sealed.Bytes()
		tmp := t.TempDir()
		var paths []string
		for i, b := range files {
			p := filepath.Join(tmp, []string{"part-0.json", "part-1.json"}[i])
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
		}
		merged, err := sweep.MergePartials(paths)
		if err != nil {
			return
		}
		renderSweep(t, merged)
	})
}

// renderSweep writes r every way rlsim sweep does, with an objective over
// its first lane's classes.
func renderSweep(t *testing.T, r *sweep.Result) {
	t.Helper()
	var lanes, classes []string
	for _, l := range r.Points[0].Runs[0].Lanes {
		lanes = append(lanes, l.Lane)
	}
	for _, c := range r.Points[0].Runs[0].Lanes[0].Classes {
		classes = append(classes, c.Name)
	}
	var obj *sweep.Objective
	if find, err := sweep.ParseFind("min "+r.Varies[0].Path, r.Varies); err == nil {
		obj = &sweep.Objective{Find: find}
		conds := []string{"success >= 10%", "peak_ratio <= 2"}
		if len(classes) > 0 {
			conds = append(conds, "class "+classes[0]+" p99 <= 5s", "lane "+lanes[0]+" class "+classes[len(classes)-1]+" admitted_rate <= 100/s")
		}
		for _, c := range conds {
			if w, err := sweep.ParseWhere(c, lanes, classes); err == nil {
				obj.Where = append(obj.Where, w)
			}
		}
	}
	s := []Report{New(r, obj)}
	var out bytes.Buffer
	for _, width := range []int{0, 80} {
		if err := WriteTableFit(&out, s, width); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteJSON(&out, s); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&out, s); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&out, s, [][]report.Image{nil}); err != nil {
		t.Fatal(err)
	}
	Figures(s[0])
}
