package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/sim"
)

// pageData extracts the data each page of a report hands to its script.
func pageData(t *testing.T, html []byte) []map[string]any {
	t.Helper()
	re := regexp.MustCompile(`(?s)<script type="application/json" class="page-data">(.*?)</script>`)
	var out []map[string]any
	for _, m := range re.FindAllSubmatch(html, -1) {
		var v map[string]any
		if err := json.Unmarshal(m[1], &v); err != nil {
			t.Fatalf("page data is not JSON: %v", err)
		}
		out = append(out, v)
	}
	return out
}

func TestOutWritesAReportMatchingResultsJSON(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	code, out, errOut := execute(t, "run", "demo", "backoff-contention", "--out", dir, "--trace", "trace.csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "findings") {
		t.Errorf("stdout lacks the table:\n%s", out)
	}
	for _, name := range []string{"index.html", "results.json", "trace.csv", "demo-timeline.png", "demo-rate.png",
		"demo-peak.png", "backoff-contention-contention.png"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	html, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	results, _ := os.ReadFile(filepath.Join(dir, "results.json"))
	var doc struct{ Runs []any }
	if err := json.Unmarshal(results, &doc); err != nil {
		t.Fatal(err)
	}
	pages := pageData(t, html)
	if len(pages) != len(doc.Runs) || len(pages) != 2 {
		t.Fatalf("%d pages, %d runs in results.json; want 2 of each", len(pages), len(doc.Runs))
	}
	for i, p := range pages {
		if !reflect.DeepEqual(p["run"], doc.Runs[i]) {
			t.Errorf("page %d: embedded run differs from results.json", i)
		}
	}
	for _, want := range []string{"rlsim run demo --seed 1", "rlsim run backoff-contention --seed 1", `href="#s2-backoff-contention"`} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	if bytes.Contains(html, []byte("http://")) || bytes.Contains(html, []byte("https://")) {
		t.Error("index.html refers to the network")
	}
	if entries, _ := os.ReadDir(filepath.Dir(dir)); len(entries) != 1 {
		t.Errorf("left beside the report: %v", entries)
	}
}

func TestOutReplacesAReportWholeAndRefusesOtherDirectories(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "r")
	if code, _, errOut := execute(t, "run", "boundary-burst", "--out", dir, "--trace", "t.csv"); code != 0 {
		t.Fatal(errOut)
	}
	marker, err := os.ReadFile(filepath.Join(dir, report.MarkerName))
	if err != nil {
		t.Fatalf("the report has no marker: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	want := "rlsim report 1" + "\n"
	for _, e := range entries {
		if e.Name() != report.MarkerName {
			want += e.Name() + "\n"
		}
	}
	if string(marker) != want {
		t.Errorf("marker:\n%s\nwant every file of the report:\n%s", marker, want)
	}
	// Through a symbolic link: the directory it points at is replaced, the link kept.
	link := filepath.Join(parent, "link")
	os.Symlink("r", link)
	if code, _, errOut := execute(t, "run", "idle-then-burst", "--out", link); code != 0 {
		t.Fatal(errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "boundary-burst-peak.png")); err == nil {
		t.Error("the old report's files survived: it was not replaced whole")
	}
	if _, err := os.Stat(filepath.Join(dir, "idle-then-burst-peak.png")); err != nil {
		t.Error(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link --out named was replaced: %v", err)
	}
	mine := filepath.Join(parent, "mine")
	os.Mkdir(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "index.html"), []byte("my page"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("keep"), 0o644)
	file := filepath.Join(parent, "file")
	os.WriteFile(file, []byte("keep"), 0o644)
	for _, tc := range []struct{ out, want string }{
		{mine, "does not hold an rlsim report (no .rlsim-report file)"},
		{dir, "holds an rlsim report and files it did not write (notes.txt)"},
		{file, "is a file, not a directory"},
	} {
		code, out, errOut := execute(t, "run", "boundary-burst", "--out", tc.out)
		if code != exitBadInput || !strings.Contains(errOut, tc.want) || out != "" {
			t.Errorf("--out %s: exit %d, %q; want exit 2 and %q before the run", tc.out, code, errOut, tc.want)
		}
	}
	for path, want := range map[string]string{filepath.Join(mine, "index.html"): "my page",
		filepath.Join(dir, "notes.txt"): "keep", file: "keep"} {
		if b, err := os.ReadFile(path); string(b) != want {
			t.Errorf("%s: %q, %v; want it untouched", path, b, err)
		}
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 4 {
		t.Errorf("files in %s: %v, want r, link, mine and file only", parent, entries)
	}
}

func TestTraceCollidingWithTheReportIsRefused(t *testing.T) {
	parent := t.TempDir()
	t.Chdir(parent)
	if code, _, errOut := execute(t, "run", "boundary-burst", "--out", "site", "--trace", "t.csv"); code != 0 {
		t.Fatal(errOut)
	}
	os.Symlink("site", "link")
	os.Mkdir("folder.csv", 0o755)
	abs := func(p string) string { return filepath.Join(parent, p) }
	for _, tc := range []struct {
		out, trace, want string
	}{
		{"site", "results.json", "the report in site writes its own results.json"},
		{"site", "./results.json", "writes its own results.json"},
		{"site", "x/../results.json", "writes its own results.json"},
		{"site", abs("site/t.csv"), "is inside --out site, which the report replaces whole"},
		{"site", abs("link/t.csv"), "is inside --out site"},
		{"link", abs("site/./t.csv"), "is inside --out link"},
		{"./site", abs("site/sub/../t.csv"), "is inside --out ./site"},
		{"site", "sub/t.csv", "a relative --trace names a file inside site"},
		{"site", "../t.csv", "a relative --trace names a file inside site"},
		{"", "folder.csv", "--trace folder.csv: is a folder"},
		{"site", abs("folder.csv"), "is a folder"},
	} {
		args := []string{"run", "boundary-burst", "--trace", tc.trace}
		if tc.out != "" {
			args = append(args, "--out", tc.out)
		}
		code, out, errOut := execute(t, args...)
		if code != exitBadInput || !strings.Contains(errOut, tc.want) || out != "" {
			t.Errorf("--out %s --trace %s: exit %d, %q; want exit 2 and %q", tc.out, tc.trace, code, errOut, tc.want)
		}
	}
	if b, err := os.ReadFile(filepath.Join("site", "t.csv")); err != nil || !bytes.HasPrefix(b, []byte("scenario,")) {
		t.Errorf("the trace in the report was lost: %v", err)
	}
	if code, _, errOut := execute(t, "run", "boundary-burst", "--out", "site", "--trace", abs("t.csv")); code != 0 {
		t.Errorf("a trace beside the report: %s", errOut)
	}
	// Bad input and an output path that loses files are reported together.
	os.WriteFile(filepath.Join("site", "notes.txt"), nil, 0o644)
	code, _, errOut := execute(t, "run", "no-such-scenario", "--out", "site", "--trace", "trace.txt")
	if code != exitBadInput || strings.Count(errOut, "\n") != 3 || !strings.Contains(errOut, "no-such-scenario") ||
		!strings.Contains(errOut, "notes.txt") || !strings.Contains(errOut, "trace.txt: want a file name ending") {
		t.Errorf("exit %d, %q; want both problems at once", code, errOut)
	}
}

func TestInterruptLeavesNoReport(t *testing.T) {
	parent := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opts := &runOptions{Out: &bytes.Buffer{}, Ctx: ctx, Args: []string{"demo"}, Format: "table",
		OutDir: filepath.Join(parent, "r"), TracePath: "t.csv", MaxEvents: defaultMaxEvents,
		Simulate: func(ctx context.Context, c sim.Config, o sim.Options) (sim.Result, error) {
			o.Trace.Record(&sim.TraceRecord{Class: "half-written"})
			return sim.Result{}, ctx.Err()
		}}
	if err := runRun(opts); exitStatus(err) != exitInterrupted {
		t.Errorf("error = %v, want an interruption", err)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 0 {
		t.Errorf("left %v, want nothing", entries)
	}
}

// browsed is the one report the browser tests read, opened once per package
// run in one headless Chromium: starting a browser is most of their cost.
var browsed struct {
	once      sync.Once
	dir, page string
	err       error
}

// browsedReport writes the report of boundary-burst, nat-per-ip,
// backoff-contention and choose-burst (three variants of one lane), opens it with #selftest, which has the page send the
// first timeline the pointer and wheel events a mouse would, and returns the
// page after its script ran. It skips with -short and without Chromium.
func browsedReport(t *testing.T) (dir, page string) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a browser: skipped with -short")
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not on PATH; .ci/run installs it (apt-get install chromium)")
	}
	browsed.once.Do(func() {
		if browsed.dir, browsed.err = os.MkdirTemp("", "rlsim-test-report-"); browsed.err != nil {
			return
		}
		removeAtExit(browsed.dir)
		dir := filepath.Join(browsed.dir, "r")
		var out, errOut bytes.Buffer
		if code := mainRun([]string{"run", "boundary-burst", "nat-per-ip", "backoff-contention", "choose-burst", "--out", dir}, &out, &errOut); code != 0 {
			browsed.err = fmt.Errorf("rlsim run: status %d: %s", code, errOut.String())
			return
		}
		browsed.page, browsed.err = browse(chromium, filepath.Join(browsed.dir, "profile"), "file://"+filepath.Join(dir, "index.html")+"#selftest")
	})
	if browsed.err != nil {
		t.Fatal(browsed.err)
	}
	if m := regexp.MustCompile(`(?s)<div id="errors"[^>]*>(.*?)</div>`).FindStringSubmatch(browsed.page); m == nil || strings.TrimSpace(m[1]) != "" {
		t.Errorf("script errors on the page: %q", m)
	}
	return filepath.Join(browsed.dir, "r"), browsed.page
}

// browse opens url in headless Chromium and returns the page after its script ran.
func browse(chromium, profile, url string) (string, error) {
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+profile,
		"--virtual-time-budget=5000", "--window-size=1400,2000", "--dump-dom", url)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("chromium: %v\n%s", err, stderr.String())
	}
	return string(dom), nil
}

// TestReportInABrowser reads the report back from a browser after its script
// ran: the timelines drawn, the table filled, no error.
func TestReportInABrowser(t *testing.T) {
	t.Parallel() // waits on Chromium, not the processor: beside the other tests
	dir, page := browsedReport(t)
	if !strings.Contains(page, `data-timelines="3"`) {
		t.Error(`body lacks data-timelines="3": the timelines were not drawn`)
	}
	drawn := regexp.MustCompile(`data-lanes-drawn="(\d+)" data-ticks-drawn="(\d+)"`).FindAllStringSubmatch(page, -1)
	if len(drawn) != 3 {
		t.Fatalf("%d timelines report what they drew, want 3", len(drawn))
	}
	for i, want := range []string{"8", "8", "3"} { // choose-burst's three variants last
		if d := drawn[i]; d[1] != want || d[2] == "0" {
			t.Errorf("timeline %d drew %s lanes and %s ticks, want %s lanes and some ticks", i, d[1], d[2], want)
		}
	}
	if rows := strings.Count(page, "<tr><td data-sort="); rows != 8+8+3+len(readRowsOfContention(t, dir)) {
		t.Errorf("%d table rows, want 19 lane rows and the contention cells", rows)
	}
}

// TestReportTimelineReactsToTheMouse reads the page's self-test on the first
// timeline (boundary-burst): hovering a refused tick must show the 429 and its
// Retry-After, the wheel must zoom, a drag must pan and a double-click must
// show the whole run again.
func TestReportTimelineReactsToTheMouse(t *testing.T) {
	t.Parallel() // the same page as TestReportInABrowser, read once
	if _, page := browsedReport(t); !strings.Contains(page, `data-selftest="hover zoom pan reset"`) {
		t.Errorf("the page's self-test did not pass every step (want data-selftest=\"hover zoom pan reset\")")
	}
}

func readRowsOfContention(t *testing.T, dir string) []any {
	b, _ := os.ReadFile(filepath.Join(dir, "results.json"))
	var doc struct {
		Runs []struct{ Contention *struct{ Rows []any } }
	}
	json.Unmarshal(b, &doc)
	return doc.Runs[2].Contention.Rows
}

// TestTopologyReportInABrowser opens the report of two built-ins in a
// topology: the script runs without error, each timeline draws its lanes and
// the store-outage one its outage, and the topology's tables are there.
func TestTopologyReportInABrowser(t *testing.T) {
	t.Parallel() // waits on Chromium, not the processor: beside the other tests
	if testing.Short() {
		t.Skip("starts a browser: skipped with -short")
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not on PATH; .ci/run installs it (apt-get install chromium)")
	}
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "r")
	var out, errOut bytes.Buffer
	if code := mainRun([]string{"run", "store-outage", "autoscaler-attack", "--out", dir}, &out, &errOut); code != 0 {
		t.Fatalf("rlsim run: status %d: %s", code, errOut.String())
	}
	page, err := browse(chromium, filepath.Join(tmp, "profile"), "file://"+filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`(?s)<div id="errors"[^>]*>(.*?)</div>`).FindStringSubmatch(page); m == nil || strings.TrimSpace(m[1]) != "" {
		t.Errorf("script errors on the page: %q", m)
	}
	if n := len(regexp.MustCompile(`data-lanes-drawn="4"`).FindAllString(page, -1)); n != 2 {
		t.Errorf("%d timelines drew their 4 lanes, want 2", n)
	}
	if !strings.Contains(page, `data-outages-drawn="1"`) {
		t.Error("the store-outage timeline did not draw its outage")
	}
	for _, s := range []string{"Limits across the fleet", "While the store was unavailable, by limit and class", "store down", "replicas change"} {
		if !strings.Contains(page, s) {
			t.Errorf("the page lacks %q", s)
		}
	}
}
