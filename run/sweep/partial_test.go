package sweep

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
)

// twoByTwo is testSweep over a grid of 2 × 2 points, split in shards below.
func twoByTwo() Sweep {
	sw := testSweep()
	sw.Varies = append(sw.Varies, Vary{Path: "limits[0].burst", Values: []string{"20", "60"}})
	return sw
}

// editJSON rewrites the partial at path through edit, on its JSON as generic
// values, and writes it to a new file; the checksums are left as they were.
func editJSON(t *testing.T, path string, edit func(map[string]any)) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, filepath.Base(path), b)
}

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// firstTotals is the first figure array of the partial m.
func firstTotals(m map[string]any) []any {
	pt := m["points"].([]any)[0].(map[string]any)
	run := pt["runs"].([]any)[0].(map[string]any)
	return run["lanes"].([]any)[0].(map[string]any)["totals"].([]any)
}

// TestMergeRefusesDamagedPartials: a partial that was truncated, edited, joined
// to another or given twice is refused as bad input naming the file and what
// is wrong, never merged into a table that is silently wrong.
func TestMergeRefusesDamagedPartials(t *testing.T) {
	paths := writePartials(t, twoByTwo(), 2)
	whole, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	two, _ := os.ReadFile(paths[1])
	tests := []struct {
		name  string
		parts func() []string
		want  []string
	}{
		{"truncated", func() []string {
			return []string{writeFile(t, "part-0.json", whole[:len(whole)/2]), paths[1]}
		}, []string{"part-0.json: not a whole partial result", "truncated"}},
		{"empty", func() []string { return []string{writeFile(t, "part-0.json", nil), paths[1]} },
			[]string{"part-0.json: not a whole partial result"}},
		{"a figure edited", func() []string {
			return []string{editJSON(t, paths[0], func(m map[string]any) { firstTotals(m)[0] = firstTotals(m)[0].(float64) + 1 }), paths[1]}
		}, []string{"part-0.json: the content does not match its checksum"}},
		{"a figure array cut short", func() []string {
			return []string{editJSON(t, paths[0], func(m map[string]any) {
				pt := m["points"].([]any)[0].(map[string]any)
				lane := pt["runs"].([]any)[0].(map[string]any)["lanes"].([]any)[0].(map[string]any)
				lane["totals"] = lane["totals"].([]any)[:3]
			}), paths[1]}
		}, []string{"part-0.json: "}},
		{"a seed's run removed", func() []string {
			return []string{editJSON(t, paths[0], func(m map[string]any) {
				pt := m["points"].([]any)[0].(map[string]any)
				pt["runs"] = pt["runs"].([]any)[:1]
			}), paths[1]}
		}, []string{"part-0.json: "}},
		{"a point's values edited", func() []string {
			return []string{editJSON(t, paths[0], func(m map[string]any) {
				m["points"].([]any)[1].(map[string]any)["values"] = []any{"99", "20"}
			}), paths[1]}
		}, []string{"part-0.json: "}},
		{"a point's values removed", func() []string {
			return []string{editJSON(t, paths[0], func(m map[string]any) {
				m["points"].([]any)[0].(map[string]any)["values"] = []any{}
			}), paths[1]}
		}, []string{"part-0.json: "}},
		{"the seeds edited", func() []string {
			return []string{editJSON(t, paths[0], func(m map[string]any) { m["seeds"] = -5 }), paths[1]}
		}, []string{"part-0.json: "}},
		{"a shard count past the points", func() []string {
			return []string{editJSON(t, paths[0], func(m map[string]any) { m["shard"] = "0/1000000000" })}
		}, []string{"part-0.json: "}},
		{"two partials joined in one file", func() []string {
			return []string{writeFile(t, "part-0.json", append(append([]byte(nil), whole...), two...))}
		}, []string{"part-0.json: ", "after the partial result"}},
		{"a partial given twice", func() []string { return []string{paths[0], paths[1], paths[0]} },
			[]string{"shard 0/2 is also in"}},
		{"a partial of version 1", func() []string {
			return []string{editJSON(t, paths[0], func(m map[string]any) { m["rlsim_sweep_partial"] = 1 }), paths[1]}
		}, []string{"part-0.json: partial result version 1", "run the shards again with this rlsim"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := MergePartials(tc.parts())
			var ie *run.InputError
			if err == nil || !errors.As(err, &ie) {
				t.Fatalf("MergePartials = %d points, error %v; want an input error", pointsOf(r), err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q, want %q", err, w)
				}
			}
		})
	}
}

func pointsOf(r *Result) int {
	if r == nil {
		return 0
	}
	return len(r.Points)
}

// TestMergeOfGoodPartialsIsTheWholeSweep: partials read back as written, in
// any order, merge into the whole sweep; the check of each costs nothing of it.
func TestMergeOfGoodPartialsIsTheWholeSweep(t *testing.T) {
	sw := twoByTwo()
	whole := mustJSON(t, runSweep(t, sw, 2))
	paths := writePartials(t, sw, 4)
	paths[0], paths[3] = paths[3], paths[0]
	merged, err := MergePartials(paths)
	if err != nil {
		t.Fatal(err)
	}
	if got := mustJSON(t, merged); !bytes.Equal(got, whole) {
		t.Errorf("the merge differs from the whole sweep")
	}
}

// resealJSON is editJSON with the digests made again for the edited content:
// a partial a buggy or other rlsim might write, which only the checks of what
// it holds can refuse.
func resealJSON(t *testing.T, path string, edit func(map[string]any)) string {
	t.Helper()
	edited, err := os.ReadFile(editJSON(t, path, edit))
	if err != nil {
		t.Fatal(err)
	}
	var f partialFile
	if err := json.Unmarshal(edited, &f); err != nil {
		t.Fatal(err)
	}
	if err := f.seal(); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, filepath.Base(path), b)
}

func point(m map[string]any, i int) map[string]any { return m["points"].([]any)[i].(map[string]any) }

func runOf(m map[string]any, pt, k int) map[string]any {
	return point(m, pt)["runs"].([]any)[k].(map[string]any)
}

func laneOf(m map[string]any, pt, k, l int) map[string]any {
	return runOf(m, pt, k)["lanes"].([]any)[l].(map[string]any)
}

// TestMergeChecksWhatAPartialHolds: a partial whose checksums are right but
// whose content is not what its sweep writes (as a buggy or other rlsim might
// write it) is refused naming the file and the field, never a panic later.
func TestMergeChecksWhatAPartialHolds(t *testing.T) {
	sw := twoByTwo() // 4 points; shard 0/2 holds points 0 and 2, 1/2 points 1 and 3
	paths := writePartials(t, sw, 2)
	other := twoByTwo()
	other.Seeds = 2
	otherPaths := writePartials(t, other, 2)
	tests := []struct {
		name string
		edit func(map[string]any)
		want string
	}{
		{"a figure array cut short", func(m map[string]any) { l := laneOf(m, 0, 0, 0); l["totals"] = l["totals"].([]any)[:3] },
			"points[0]: runs[0].lanes[0].totals: 3 figures, want 18"},
		{"a class's figures cut short", func(m map[string]any) {
			c := laneOf(m, 1, 2, 1)["classes"].([]any)[0].(map[string]any)
			c["values"] = []any{}
		}, "points[1]: runs[2].lanes[1].classes[0].values: 0 figures, want 18"},
		{"a seed's run removed", func(m map[string]any) { point(m, 0)["runs"] = point(m, 0)["runs"].([]any)[:2] },
			"points[0]: 2 runs, want one per seed, 3"},
		{"a run's seed edited", func(m map[string]any) { runOf(m, 0, 1)["seed"] = 7 }, "points[0]: runs[1]: seed 7, want 2"},
		{"a lane removed from one seed", func(m map[string]any) { r := runOf(m, 0, 1); r["lanes"] = r["lanes"].([]any)[:1] },
			"points[0]: runs[1]: 1 lanes, but runs[0] has 2"},
		{"a lane renamed in one seed", func(m map[string]any) { laneOf(m, 0, 2, 1)["lane"] = "gcra" },
			`points[0]: runs[2].lanes[1]: lane "gcra", but runs[0] has "token_bucket"`},
		{"a point with fewer lanes", func(m map[string]any) {
			for _, r := range point(m, 1)["runs"].([]any) {
				r.(map[string]any)["lanes"] = r.(map[string]any)["lanes"].([]any)[:1]
			}
		}, "points[1]: 1 lanes, but points[0] has 2: every point runs the same lanes"},
		{"no lanes", func(m map[string]any) {
			for _, r := range point(m, 0)["runs"].([]any) {
				r.(map[string]any)["lanes"] = []any{}
			}
		}, "points[0]: runs[0]: no lanes"},
		{"a class removed", func(m map[string]any) { l := laneOf(m, 0, 0, 1); l["classes"] = l["classes"].([]any)[:1] },
			`points[0]: runs[0].lanes[1].classes: ["quiet"], but runs[0].lanes[0] has ["quiet" "noisy"]`},
		{"a point's values edited", func(m map[string]any) { point(m, 1)["values"] = []any{"99", "20"} },
			`points[1]: values ["99" "20"], but point 2 of the grid is ["40" "20"]`},
		{"a point's values removed", func(m map[string]any) { point(m, 0)["values"] = []any{} },
			`points[0]: values [], but point 0 of the grid is ["20" "20"]`},
		{"a point of another shard", func(m map[string]any) { point(m, 1)["index"] = 1 }, "points[1]: point 1 is not shard 0/2's"},
		{"a point twice", func(m map[string]any) { m["points"].([]any)[1] = point(m, 0) }, "points[1]: index 0 after 0: each point once"},
		{"a point past the grid", func(m map[string]any) { point(m, 1)["index"] = 6 }, "points[1]: index 6, outside the sweep's 4 points"},
		{"a point missing", func(m map[string]any) { m["points"] = m["points"].([]any)[:1] }, "points: 1, but shard 0/2 of 4 points holds 2"},
		{"the point count edited", func(m map[string]any) { m["point_count"] = 5 }, "point_count: 5, but the varies make 4 points"},
		{"the point count edited down", func(m map[string]any) { m["point_count"] = 3 }, "point_count: 3, but the varies make 4 points"},
		{"a vary without values", func(m map[string]any) { m["vary"].([]any)[1].(map[string]any)["Values"] = []any{} },
			"vary: --vary limits[0].burst: no values"},
		{"the seeds edited", func(m map[string]any) { m["seeds"] = -5 }, "seeds: want 1 to 1000, got -5"},
		{"seeds past the largest", func(m map[string]any) { m["seed"] = uint64(math.MaxUint64) }, "seed, seeds: seeds 18446744073709551615 to"},
		{"a shard count past any sweep's points", func(m map[string]any) { m["shard"] = "0/1000000000" },
			"--shard 0/1000000000: 1000000000 shards, more than the 10000 points a sweep may have"},
		{"a shard index past the count", func(m map[string]any) { m["shard"] = "2/2" }, "--shard 2/2: want i/n with 0 <= i < n"},
		{"no shard", func(m map[string]any) { delete(m, "shard") }, "shard: none: not the result of one shard (--shard i/n)"},
		{"another rlsim", func(m map[string]any) { m["rlsim"] = "v9.9.9" }, `a part of another sweep than ` + paths[1] + ` (rlsim "v9.9.9", not "(devel)")`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bad := resealJSON(t, paths[0], tc.edit)
			_, err := MergePartials([]string{paths[1], bad})
			var ie *run.InputError
			if err == nil || !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want an input error with %q", err, tc.want)
			}
			if err != nil && !strings.Contains(err.Error(), bad+": ") {
				t.Errorf("error %q does not name %s", err, bad)
			}
		})
	}
	// Not resealed: the digests themselves edited.
	for _, tc := range []struct{ field, want string }{
		{"definition_sha256", "the sweep's definition does not match its digest"},
		{"content_sha256", "the content does not match its checksum"},
		{"rlsim", "the sweep's definition does not match its digest"},
	} {
		bad := editJSON(t, paths[0], func(m map[string]any) { m[tc.field] = "0" + m[tc.field].(string)[1:] })
		if _, err := MergePartials([]string{bad, paths[1]}); err == nil || !strings.Contains(err.Error(), bad+": "+tc.want) {
			t.Errorf("%s edited: error %v, want %q", tc.field, err, tc.want)
		}
	}
	// Two sweeps mixed: each difference of their definitions named.
	_, err := MergePartials([]string{paths[0], otherPaths[1]})
	if want := otherPaths[1] + ": a part of another sweep than " + paths[0] + " (--seeds 2, not 3)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("two sweeps mixed: error %v, want %q", err, want)
	}
}

// Every problem of every file at once: a damaged file does not hide another's.
func TestMergeReportsEveryFile(t *testing.T) {
	paths := writePartials(t, twoByTwo(), 3)
	a := editJSON(t, paths[0], func(m map[string]any) { m["seeds"] = 2 })
	b := writeFile(t, "part-2.json", []byte("{"))
	_, err := MergePartials([]string{a, paths[1], b})
	for _, want := range []string{a + ": the content does not match its checksum", b + ": not a whole partial result"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	}
}

// A partial holds what its sweep ran even where JSON cannot: a path that is
// not UTF-8, a figure that is infinite. It reads back and verifies.
func TestPartialReadsBackWhatJSONCannotHold(t *testing.T) {
	r := runSweep(t, testSweep(), 2)
	r.Arg = "scen\xffario.yaml"
	r.Points[0].Runs[0].Lanes[0].Totals[0] = run.Num(math.Inf(1))
	r.Shard = "0/1"
	var buf bytes.Buffer
	if err := WritePartial(&buf, r); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPartial(writeFile(t, "part.json", buf.Bytes())); err != nil {
		t.Errorf("a partial as written does not read back: %v", err)
	}
}
