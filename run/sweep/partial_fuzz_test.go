package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
)

// fuzzSweep is what FuzzMergePartials mutates: the two partials of a sweep
// of 3 points split in two (points 0 and 2, point 1), a partial of another
// sweep (other seeds), and the whole sweep's result as JSON, the one answer a
// merge may give. They are real partials, kept under testdata/partials so that
// each fuzz worker starts without running the sweep
// (TestFuzzPartialsAreCurrent holds them to what the sweep writes today).
type fuzzSweep struct {
	parts [2][]byte
	other []byte
	whole []byte
}

var fuzzPartialFiles = []string{"part-0.json", "part-1.json", "other-1.json", "whole.json"}

// makeFuzzPartials runs the sweeps of fuzzSweep, its files in the order of
// fuzzPartialFiles.
func makeFuzzPartials() ([][]byte, error) {
	sw := testSweep() // small partials, for the fuzzer's speed
	sw.Varies[0].Values = []string{"20", "40", "60"}
	sw.Seeds = 2
	sw.Overrides.Lanes = "gcra"
	run := func(sw Sweep) (*Result, error) {
		p, err := sw.Plan()
		if err != nil {
			return nil, err
		}
		return p.Run(context.Background(), RunOptions{Jobs: 2})
	}
	partial := func(sw Sweep) ([]byte, error) {
		r, err := run(sw)
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		err = WritePartial(&buf, r)
		return buf.Bytes(), err
	}
	var out [][]byte
	for i := range 2 {
		sw.Shard = Shard{i, 2}
		b, err := partial(sw)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	other := sw
	other.Seeds, other.Shard = 3, Shard{1, 2}
	b, err := partial(other)
	if err != nil {
		return nil, err
	}
	sw.Shard = Shard{}
	whole, err := run(sw)
	if err != nil {
		return nil, err
	}
	wb, err := json.Marshal(whole)
	return append(out, b, append(wb, '\n')), err
}

func readFuzzPartials() (*fuzzSweep, error) {
	var files [][]byte
	for _, name := range fuzzPartialFiles {
		b, err := os.ReadFile(filepath.Join("testdata", "partials", name))
		if err != nil {
			return nil, fmt.Errorf("%w (go test ./run/sweep -run TestFuzzPartialsAreCurrent -update writes it)", err)
		}
		files = append(files, b)
	}
	return &fuzzSweep{parts: [2][]byte{files[0], files[1]}, other: files[2], whole: bytes.TrimSuffix(files[3], []byte("\n"))}, nil
}

// updatePartials is -update, unless another test of the package declared it.
var updatePartials = func() func() bool {
	if f := flag.Lookup("update"); f != nil {
		return func() bool { return f.Value.String() == "true" }
	}
	u := flag.Bool("update", false, "rewrite testdata")
	return func() bool { return *u }
}()

// TestFuzzPartialsAreCurrent: the partials FuzzMergePartials starts from are
// what the sweep writes today (-update rewrites them).
func TestFuzzPartialsAreCurrent(t *testing.T) {
	files, err := makeFuzzPartials()
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range fuzzPartialFiles {
		path := filepath.Join("testdata", "partials", name)
		if updatePartials() {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, files[i], 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if kept, err := os.ReadFile(path); err != nil || !bytes.Equal(kept, files[i]) {
			t.Errorf("%s is not what the sweep writes today (%v); go test ./run/sweep -run TestFuzzPartialsAreCurrent -update rewrites it", path, err)
		}
	}
}

// Fuzz ops: what is done with the mutated file beside the true partials.
const (
	opAsIs      = iota // the mutated file as it is
	opResealed         // its digests made again for its content: only the checks of what it holds stand
	opDuplicate        // and the other true partial given twice
	opMixed            // beside a partial of another sweep
	opCount
)

// FuzzMergePartials: a merge of mutated partials (truncated, flipped, fields
// edited, shards swapped, duplicated, mixed with another sweep) never panics;
// it refuses as bad input with every line naming a file (or the shards
// missing), or it gives exactly the whole sweep's result. A partial resealed
// after its mutation may hold other figures, but never a result that breaks
// what the report relies on (every point once, one run per seed, every figure).
func FuzzMergePartials(f *testing.F) {
	fs, err := readFuzzPartials()
	if err != nil {
		f.Fatal(err)
	}
	p0 := fs.parts[0]
	flipped := bytes.Clone(p0)
	flipped[len(flipped)/2] ^= 0x01
	swapped := bytes.Replace(bytes.Clone(p0), []byte(`"shard":"0/2"`), []byte(`"shard":"1/2"`), 1)
	for _, seed := range []struct {
		data     []byte
		slot, op uint8
	}{
		{p0, 0, opAsIs}, {fs.parts[1], 1, opAsIs}, {p0, 2, opAsIs}, {p0, 0, opResealed}, {p0, 0, opDuplicate}, {p0, 0, opMixed},
		{p0[:len(p0)/2], 0, opAsIs}, {p0[:len(p0)-2], 0, opResealed}, {flipped, 0, opAsIs}, {flipped, 1, opResealed},
		{swapped, 0, opAsIs}, {swapped, 0, opResealed}, {fs.other, 1, opAsIs}, {append(bytes.Clone(p0), fs.parts[1]...), 0, opAsIs},
		{[]byte(`{"rlsim_sweep_partial":1}`), 0, opAsIs}, {[]byte(`{}`), 1, opResealed}, {nil, 0, opAsIs},
		{bytes.Replace(bytes.Clone(p0), []byte(`"totals":[`), []byte(`"totals":[1,`), 1), 0, opResealed},
		{bytes.Replace(bytes.Clone(p0), []byte(`"index":2`), []byte(`"index":1`), 1), 0, opResealed},
		{bytes.Replace(bytes.Clone(p0), []byte(`"index":2`), []byte(`"index":0`), 1), 0, opResealed},
	} {
		f.Add(seed.data, seed.slot, seed.op)
	}
	f.Fuzz(func(t *testing.T, data []byte, slot, op uint8) {
		op %= opCount
		if op == opResealed {
			data = reseal(data)
		}
		files := [][]byte{fs.parts[0], fs.parts[1]}
		switch slot % 3 {
		case 0, 1:
			files[slot%3] = data
		case 2:
			files = append(files, data)
		}
		keep := 1 - int(slot%3)%2 // the true partial left beside the mutated one
		switch op {
		case opDuplicate:
			files = append(files, fs.parts[keep])
		case opMixed:
			files[keep] = fs.other
		}
		names := make([]string, len(files))
		parts := make([]*partialFile, len(files))
		errs := make([]error, len(files))
		for i, b := range files {
			names[i] = "part-" + string(rune('a'+i)) + ".json"
			parts[i], errs[i] = decodePartial(names[i], bytes.NewReader(b))
		}
		r, err := merge(names, parts, errs)
		if err != nil {
			checkMergeError(t, err, names)
			return
		}
		if op != opResealed {
			if got, _ := json.Marshal(r); !bytes.Equal(got, fs.whole) {
				t.Fatalf("a merge of mutated partials gave another result than the whole sweep:\n%s", got)
			}
			return
		}
		checkMerged(t, r)
	})
}

// reseal is data with its digests made again, when it reads as a partial at all.
func reseal(data []byte) []byte {
	var f partialFile
	if json.Unmarshal(data, &f) != nil || f.seal() != nil {
		return data
	}
	b, err := json.Marshal(f)
	if err != nil {
		return data
	}
	return b
}

// checkMergeError: an input error, each of its lines naming a file given or
// the shards missing.
func checkMergeError(t *testing.T, err error, names []string) {
	t.Helper()
	var ie *run.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("merge error %v is not an input error", err)
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		named := strings.HasPrefix(line, "rlsim sweep merge: shards ")
		for _, n := range names {
			named = named || strings.HasPrefix(line, n+": ")
		}
		if !named {
			t.Fatalf("merge error line %q names no file", line)
		}
	}
}

// checkMerged: what a merge gives holds what the report relies on, and an
// objective and the spread checks read it without a panic.
func checkMerged(t *testing.T, r *Result) {
	t.Helper()
	grid, err := Grid(r.Varies)
	if err != nil || len(grid) != r.PointCount || len(r.Points) != r.PointCount {
		t.Fatalf("a merge of %d points for a grid of %d (%v), header %d", len(r.Points), len(grid), err, r.PointCount)
	}
	if len(r.Points[0].Runs) == 0 || len(r.Points[0].Runs[0].Lanes) == 0 {
		t.Fatalf("point 0: no runs or no lanes")
	}
	for i, pt := range r.Points {
		if pt.Index != i || !slices.Equal(pt.Values, grid[i]) || len(pt.Runs) != r.Seeds || len(pt.Runs[0].Lanes) != len(r.Points[0].Runs[0].Lanes) {
			t.Fatalf("point %d: index %d, values %q, %d runs of %d seeds", i, pt.Index, pt.Values, len(pt.Runs), r.Seeds)
		}
		for _, sr := range pt.Runs {
			if len(sr.Lanes) != len(pt.Runs[0].Lanes) {
				t.Fatalf("point %d: runs of %d and %d lanes", i, len(sr.Lanes), len(pt.Runs[0].Lanes))
			}
			for _, l := range sr.Lanes {
				if len(l.Totals) != len(run.Figures) {
					t.Fatalf("point %d: %d totals", i, len(l.Totals))
				}
				for _, c := range l.Classes {
					if len(c.Values) != len(run.Figures) {
						t.Fatalf("point %d: %d class values", i, len(c.Values))
					}
				}
			}
		}
	}
	var lanes, classes []string
	for _, l := range r.Points[0].Runs[0].Lanes {
		lanes = append(lanes, l.Lane)
	}
	for _, c := range r.Points[0].Runs[0].Lanes[0].Classes {
		classes = append(classes, c.Name)
	}
	obj := Objective{}
	obj.Find, _ = ParseFind("min "+r.Varies[0].Path, r.Varies)
	for _, s := range []string{"success >= 50%", "peak_ratio <= 1.5"} {
		if w, err := ParseWhere(s, lanes, classes); err == nil {
			obj.Where = append(obj.Where, w)
		}
	}
	if len(classes) > 0 {
		if w, err := ParseWhere("class "+classes[0]+" p99 <= 2s", lanes, classes); err == nil {
			obj.Where = append(obj.Where, w)
		}
	}
	obj.Recommend(r)
	SpreadChecks(nil, r.Points[0])
}
