package sweep

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/sim"
)

// WriteDir writes each figure of a sweep as FIGURE.png (with several sweeps,
// SCENARIO-N-FIGURE.png, N from 1), then index.html, sweep.json and
// sweep.csv, each recomputed from the sweeps.
func TestWriteDirFilesRecomputed(t *testing.T) {
	two := func() Report {
		return sweepOf([]*sim.Result{twoLanes(9, 5, "api", "web")}, []*sim.Result{twoLanes(8, 6, "api", "web")})
	}
	for _, sweeps := range [][]Report{{two()}, {two(), two()}} {
		out := filepath.Join(t.TempDir(), "out")
		d, err := report.CreateDir(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteDir(d, sweeps); err != nil {
			t.Fatal(err)
		}
		if err := d.Commit(); err != nil {
			t.Fatal(err)
		}
		want := map[string][]byte{}
		var images [][]report.Image
		for i, s := range sweeps {
			var imgs []report.Image
			figs := Figures(s)
			if len(figs) == 0 {
				t.Fatal("a sweep of two points has no figure: no PNG name is tested")
			}
			for _, f := range figs {
				png, err := f.PNG()
				if err != nil {
					t.Fatal(err)
				}
				name := f.Name
				if len(sweeps) > 1 {
					name = s.Result.Scenario + "-" + string(rune('1'+i)) + "-" + f.Name
				}
				want[name+".png"] = png
				imgs = append(imgs, report.Image{Figure: f, PNG: png})
			}
			images = append(images, imgs)
		}
		var html, js, cs bytes.Buffer
		if err := WriteHTML(&html, sweeps, images); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(&js, sweeps); err != nil {
			t.Fatal(err)
		}
		if err := WriteCSV(&cs, sweeps); err != nil {
			t.Fatal(err)
		}
		want["index.html"], want["sweep.json"], want["sweep.csv"] = html.Bytes(), js.Bytes(), cs.Bytes()
		var names []string
		for n := range want {
			names = append(names, n)
		}
		names = append(names, report.MarkerName)
		slices.Sort(names)
		entries, err := os.ReadDir(out)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
		}
		if !slices.Equal(got, names) {
			t.Fatalf("%d sweeps: files %v\nwant %v", len(sweeps), got, names)
		}
		for n, b := range want {
			disk, err := os.ReadFile(filepath.Join(out, n))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(disk, b) {
				t.Errorf("%d sweeps: %s differs from the recomputed (%d bytes against %d)", len(sweeps), n, len(disk), len(b))
			}
		}
	}
}
