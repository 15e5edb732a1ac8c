package report

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// WriteDir writes, for each run, every figure as PREFIX-FIGURE.png (a second
// run of the same scenario name gets NAME-2, a third NAME-3; "index" and
// "results" are never a prefix), then index.html and results.json; Commit
// lists every file in the marker. Each file is recomputed from the runs.
func TestWriteDirNamesEveryFileOfEveryRun(t *testing.T) {
	runs := []Run{sample(), sample(), sample(), sampleContention()}
	runs[3].Scenario.Name = "index" // a scenario named like the report's own page
	out := filepath.Join(t.TempDir(), "out")
	d, err := CreateDir(out)
	if err != nil {
		t.Fatal(err)
	}
	repro := []string{"rlsim run a", "rlsim run b", "rlsim run c", "rlsim run d"}
	if err := WriteDir(d, runs, repro); err != nil {
		t.Fatal(err)
	}
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}

	want := map[string][]byte{}
	var pages []Page
	for i, prefix := range []string{"sample", "sample-2", "sample-3", "index-2"} {
		p, err := NewPage(runs[i], repro[i])
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Images) == 0 {
			t.Fatalf("run %d has no figure: the test shows no PNG name", i)
		}
		for _, img := range p.Images {
			want[prefix+"-"+img.Figure.Name+".png"] = img.PNG
		}
		pages = append(pages, p)
	}
	var html, js bytes.Buffer
	if err := WriteHTML(&html, pages); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&js, runs); err != nil {
		t.Fatal(err)
	}
	want["index.html"], want["results.json"] = html.Bytes(), js.Bytes()
	if !strings.Contains(html.String(), "rlsim run c") {
		t.Errorf("index.html does not carry the third run's command")
	}

	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	var names []string
	for name := range want {
		names = append(names, name)
	}
	names = append(names, MarkerName)
	slices.Sort(names)
	if !slices.Equal(got, names) {
		t.Fatalf("files written: %v\nwant %v", got, names)
	}
	for name, b := range want {
		onDisk, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(onDisk, b) {
			t.Errorf("%s: %d bytes on disk differ from the %d recomputed", name, len(onDisk), len(b))
		}
	}
	marker, err := os.ReadFile(filepath.Join(out, MarkerName))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(marker), "\n"), "\n")
	if lines[0] != markerHeader {
		t.Errorf("marker starts %q, want %q", lines[0], markerHeader)
	}
	listed := slices.Sorted(slices.Values(lines[1:]))
	if want := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == MarkerName }); !slices.Equal(listed, want) {
		t.Errorf("marker lists %v, want %v", listed, want)
	}
}
