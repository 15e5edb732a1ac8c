package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/rlsim/rlsim/internal/golden"
	"github.com/rlsim/rlsim/scenarios"
)

// docExample is one worked example of a doc: a ```sh block holding one rlsim
// command, and the fenced block after it, the command's real output.
type docExample struct {
	args     []string
	code     int    // the exit status a "# exit status N" line in the block states; 0 without
	from, to int    // the output block's body in the doc
	shown    string // the output the doc shows
}

var exitStatusLine = regexp.MustCompile(`^# exit status (\d+)$`)

// docExamples finds the worked examples of doc.
func docExamples(t *testing.T, doc string) []docExample {
	t.Helper()
	var out []docExample
	rest := 0
	for {
		i := strings.Index(doc[rest:], "```sh\n")
		if i < 0 {
			return out
		}
		start := rest + i + len("```sh\n")
		end := start + strings.Index(doc[start:], "```\n")
		ex := docExample{}
		var words []string
		for _, line := range strings.Split(strings.ReplaceAll(doc[start:end], "\\\n", " "), "\n") {
			line = strings.TrimSpace(line)
			if m := exitStatusLine.FindStringSubmatch(line); m != nil {
				ex.code, _ = strconv.Atoi(m[1])
			} else if line != "" && !strings.HasPrefix(line, "#") {
				words = append(words, shellWords(t, line)...)
			}
		}
		if len(words) < 2 || words[0] != "rlsim" {
			t.Fatalf("the sh block at byte %d is not one rlsim command: %q", start, doc[start:end])
		}
		ex.args = words[1:]
		o := strings.Index(doc[end+4:], "```\n")
		if o < 0 {
			t.Fatalf("no output block after %q", words)
		}
		ex.from = end + 4 + o + 4
		ex.to = ex.from + strings.Index(doc[ex.from:], "```")
		ex.shown = doc[ex.from:ex.to]
		out = append(out, ex)
		rest = ex.to + 3
	}
}

// TestSizingDocShowsTheRealOutput runs every command of docs/sizing.md, from
// the repository's root as a reader would, and wants the output the doc shows
// under it (go test ./cmd/rlsim -update rewrites the blocks).
func TestSizingDocShowsTheRealOutput(t *testing.T) {
	path, err := filepath.Abs(filepath.Join("..", "..", "docs", "sizing.md"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	examples := docExamples(t, doc)
	if len(examples) < 5 {
		t.Fatalf("docs/sizing.md has %d worked examples, want the 5 it tells", len(examples))
	}
	t.Chdir(filepath.Join("..", ".."))
	for i := len(examples) - 1; i >= 0; i-- { // from the end, so that a rewrite keeps earlier offsets
		ex := examples[i]
		code, out, errOut := execute(t, ex.args...)
		if code != ex.code {
			t.Errorf("rlsim %q: exit %d, want %d: %s", ex.args, code, ex.code, errOut)
		}
		if ex.code != 0 && !strings.Contains(doc, "`"+strings.TrimSpace(errOut)+"`") {
			t.Errorf("docs/sizing.md does not quote what rlsim %q says on stderr: %q", ex.args, errOut)
		}
		if golden.Updating() {
			doc = doc[:ex.from] + out + doc[ex.to:]
			continue
		}
		if out != ex.shown {
			t.Errorf("docs/sizing.md's block under rlsim %q is not what it prints now (go test ./cmd/rlsim -update):\n%s", ex.args, out)
		}
	}
	if golden.Updating() {
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSizingDocTellsItsScenarios checks what the prose of docs/sizing.md says
// of its two scenarios' traffic against the scenarios themselves, and that the
// file it shows is the file the commands run.
func TestSizingDocTellsItsScenarios(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "sizing.md"))
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(filepath.Join("..", "..", "docs", "examples", "per-api-key.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```yaml\n"+string(file)+"```\n") {
		t.Errorf("docs/sizing.md does not show docs/examples/per-api-key.yaml as it is")
	}
	burst, _ := scenarios.BuiltinSource("choose-burst")
	for _, tc := range []struct {
		source []byte
		path   string
		want   any
		prose  string
	}{
		{file, "clients.0.count", 40, "Forty customers"},
		{file, "clients.0.arrivals.0.count", 8, "a page of 8 requests"},
		{file, "clients.1.arrivals.0.rate", "40/s", "sends 40 requests a second"},
		{file, "limits.0.key", "api_key", "counts per API key"},
		{burst, "limits.0.limit", 10, "10 requests per second per"},
		{burst, "clients.0.count", 20, "Twenty users"},
		{burst, "clients.0.arrivals.0.count", 15, "a page of 15 requests"},
		{burst, "clients.0.arrivals.0.spread", "300ms", "within 300ms"},
		{burst, "clients.1.arrivals.0.count", 150, "150 requests at once"},
		{burst, "clients.1.arrivals.0.at", "10s", "at t=10s"},
	} {
		if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), tc.prose) {
			t.Errorf("docs/sizing.md no longer says %q: drop its case", tc.prose)
		}
		var v any
		if err := yaml.Unmarshal(tc.source, &v); err != nil {
			t.Fatal(err)
		}
		for _, step := range strings.Split(tc.path, ".") {
			if i, err := strconv.Atoi(step); err == nil {
				v = v.([]any)[i]
			} else {
				v = v.(map[string]any)[step]
			}
		}
		if v != tc.want {
			t.Errorf("%q: %s is %v, not %v", tc.prose, tc.path, v, tc.want)
		}
	}
}

var proseNumber = regexp.MustCompile(`\d+(?:\.\d+)?(?:%|/s|×)?`)

// TestSizingDocNumbersAreShown wants every number the prose after an output
// block states to appear in that output: the reading of a result quotes it.
func TestSizingDocNumbersAreShown(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "sizing.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, ex := range docExamples(t, doc) {
		after := doc[ex.to+len("```\n"):]
		if end := strings.Index(after, "```"); end >= 0 {
			after = after[:end]
		}
		if end := strings.Index(after, "\n#"); end >= 0 {
			after = after[:end]
		}
		// The lead-in to the next command is about that command.
		after = strings.TrimSpace(after)
		if end := strings.LastIndex(after, "\n\n"); end >= 0 && strings.HasSuffix(after, ":") {
			after = after[:end]
		}
		for _, n := range proseNumber.FindAllString(after, -1) {
			if !strings.Contains(ex.shown, n) {
				t.Errorf("the prose after rlsim %q says %s, which its output does not show", ex.args, n)
			}
		}
	}
}
