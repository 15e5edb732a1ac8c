package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/internal/golden"
)

// docs/recipes.md answers ten common questions, each with a command and its
// real output. The tests here run every command of the page, from the
// repository's root as a reader of a clean clone would, and want the block
// under it (go test ./cmd/rlsim -run Recipes -update rewrites the blocks), so
// the page cannot go stale.

const recipesPage = "docs/recipes.md"

// elision is the line that stands, in an output block, for lines left out.
var elision = regexp.MustCompile(`^\[\.\.\. (\d+) lines? left out\]$`)

// shownMatches reports whether out is what shown shows: equal, or equal but
// for one elision line standing for exactly the lines it says.
func shownMatches(shown, out string) bool {
	head, n, tail, elided := splitElision(shown)
	if !elided {
		return shown == out
	}
	lines := strings.SplitAfter(out, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) != len(head)+n+len(tail) {
		return false
	}
	return strings.Join(lines[:len(head)], "") == strings.Join(head, "") &&
		strings.Join(lines[len(head)+n:], "") == strings.Join(tail, "")
}

// splitElision cuts a block at its elision line: the lines before it (each with
// its newline), the count it states, the lines after it.
func splitElision(shown string) (head []string, n int, tail []string, elided bool) {
	lines := strings.SplitAfter(shown, "\n")
	for i, l := range lines {
		if m := elision.FindStringSubmatch(strings.TrimSuffix(l, "\n")); m != nil {
			n, _ = strconv.Atoi(m[1])
			tail = lines[i+1:]
			if len(tail) > 0 && tail[len(tail)-1] == "" {
				tail = tail[:len(tail)-1]
			}
			return lines[:i], n, tail, true
		}
	}
	return nil, 0, nil, false
}

// elide is out shown as shown shows it: with its elision, if it has one,
// keeping as many lines before and after it (-update).
func elide(shown, out string) string {
	head, _, tail, elided := splitElision(shown)
	lines := strings.SplitAfter(out, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	left := len(lines) - len(head) - len(tail)
	if !elided || left <= 0 {
		return out
	}
	return strings.Join(lines[:len(head)], "") + fmt.Sprintf("[... %d lines left out]\n", left) +
		strings.Join(lines[len(head)+left:], "")
}

func readRecipes(t *testing.T) (path, doc string) {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "..", recipesPage))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, string(data)
}

// TestRecipesShowTheRealOutput runs every command of docs/recipes.md and wants
// the output the page shows under it, the exit status a "# exit status N" line
// states, and every line the command writes on stderr quoted on the page.
func TestRecipesShowTheRealOutput(t *testing.T) {
	path, doc := readRecipes(t)
	examples := docExamples(t, doc)
	if len(examples) < 10 {
		t.Fatalf("%s has %d commands, want one at least for each of its ten recipes", recipesPage, len(examples))
	}
	t.Chdir(filepath.Join("..", ".."))
	start := time.Now()
	for i := len(examples) - 1; i >= 0; i-- { // from the end, so that a rewrite keeps earlier offsets
		ex := examples[i]
		code, out, errOut := execute(t, ex.args...)
		if code != ex.code {
			t.Errorf("rlsim %q: exit %d, want %d: %s", ex.args, code, ex.code, errOut)
		}
		// The line naming the log format replay detected is said once, in
		// the page's introduction.
		for _, line := range strings.Split(strings.TrimSpace(withoutDetection(errOut)), "\n") {
			if line != "" && !strings.Contains(doc, "`"+line+"`") {
				t.Errorf("%s does not quote what rlsim %q says on stderr: %q", recipesPage, ex.args, line)
			}
		}
		if golden.Updating() {
			doc = doc[:ex.from] + elide(ex.shown, out) + doc[ex.to:]
			continue
		}
		if !shownMatches(ex.shown, out) {
			t.Errorf("%s's block under rlsim %q is not what it prints now (go test ./cmd/rlsim -run Recipes -update):\n%s", recipesPage, ex.args, out)
		}
	}
	t.Logf("%d commands in %v", len(examples), time.Since(start))
	if golden.Updating() {
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRecipesAreTen: the page has ten recipes, each a question (a heading
// ending in "?") answered by at least one command.
func TestRecipesAreTen(t *testing.T) {
	_, doc := readRecipes(t)
	sections := strings.Split(doc, "\n## ")[1:]
	if len(sections) != 10 {
		t.Fatalf("%s has %d recipes, want 10", recipesPage, len(sections))
	}
	for _, s := range sections {
		title, _, _ := strings.Cut(s, "\n")
		if !strings.HasSuffix(title, "?") {
			t.Errorf("recipe %q is not a question", title)
		}
		if !strings.Contains(s, "```sh\n") {
			t.Errorf("recipe %q has no command", title)
		}
	}
}

// TestRecipesReadingsQuoteTheirOutput wants every number the prose after an
// output block states to appear in that output: a reading of a result quotes
// it (the lead-in to the next command, a paragraph ending in ":", is about
// that command).
func TestRecipesReadingsQuoteTheirOutput(t *testing.T) {
	_, doc := readRecipes(t)
	for _, ex := range docExamples(t, doc) {
		after := doc[ex.to+len("```\n"):]
		if end := strings.Index(after, "```"); end >= 0 {
			after = after[:end]
		}
		if end := strings.Index(after, "\n#"); end >= 0 {
			after = after[:end]
		}
		after = strings.TrimSpace(after)
		if strings.HasSuffix(after, ":") {
			after = after[:max(0, strings.LastIndex(after, "\n\n"))]
		}
		// Flags and paths in backquotes are the command's words, not readings.
		after = regexp.MustCompile("`[^`]*`").ReplaceAllString(after, "")
		for _, n := range proseNumber.FindAllString(after, -1) {
			if !strings.Contains(ex.shown, n) {
				t.Errorf("the reading after rlsim %q says %s, which its output does not show", ex.args, n)
			}
		}
	}
}

// TestRecipesConfigChange: the change the config recipe reviews is the one
// between its two files, line for line (their comments aside).
func TestRecipesConfigChange(t *testing.T) {
	_, doc := readRecipes(t)
	read := func(name string) []string {
		b, err := os.ReadFile(filepath.Join("..", "..", "docs", "examples", name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(string(b), "\n")
	}
	current, proposed := read("nginx-current.conf"), read("nginx-proposed.conf")
	if len(current) != len(proposed) {
		t.Fatalf("nginx-current.conf has %d lines, nginx-proposed.conf %d: want a change of lines in place", len(current), len(proposed))
	}
	var minus, plus []string
	for i := range current {
		if current[i] != proposed[i] && !strings.HasPrefix(current[i], "#") {
			minus = append(minus, "-"+current[i])
			plus = append(plus, "+"+proposed[i])
		}
	}
	want := "```diff\n" + strings.Join(append(minus, plus...), "\n") + "\n```\n"
	if !strings.Contains(doc, want) {
		t.Errorf("%s does not show the change between the two configs as\n%s", recipesPage, want)
	}
}

func TestShownMatches(t *testing.T) {
	out := "a\nb\nc\nd\n"
	for _, tc := range []struct {
		shown string
		want  bool
	}{
		{out, true},
		{"a\nb\nc\n", false},
		{"a\n[... 2 lines left out]\nd\n", true},
		{"a\n[... 1 line left out]\nd\n", false},
		{"a\n[... 3 lines left out]\n", true},
		{"[... 3 lines left out]\nd\n", true},
		{"a\n[... 2 lines left out]\nc\n", false},
		{"[... 4 lines left out]\n", true},
	} {
		if got := shownMatches(tc.shown, out); got != tc.want {
			t.Errorf("shownMatches(%q) = %v, want %v", tc.shown, got, tc.want)
		}
	}
	if got, want := elide("a\n[... 9 lines left out]\nd\n", "a\nb\nc\nd\ne\n"), "a\n[... 3 lines left out]\ne\n"; got != want {
		t.Errorf("elide: %q, want %q", got, want)
	}
}

// The README's tour shows the one-line form with its real output (-update
// rewrites the block), the command being the one shown above it.
func TestREADMEOneLine(t *testing.T) {
	args := []string{"run", "--limit", "key=ip limit=10/1s", "--traffic", "name=users 20 poisson 2/s",
		"--traffic", "name=scraper 1 constant 20/s", "--lanes", "sliding_log,token_bucket"}
	shown := strings.Join(strings.Fields(strings.ReplaceAll(readmeBlock(t, "**A limit in one line.**"), "\\\n", " ")), " ")
	if want := "rlsim " + strings.Join(quoteArgs(args), " "); shown != want {
		t.Errorf("README.md's one-line command is\n%s\nwant the one its output comes from:\n%s", shown, want)
	}
	code, out, errOut := execute(t, args...)
	if code != 0 {
		t.Fatalf("rlsim %q: exit %d: %s", args, code, errOut)
	}
	const marker = "Its real output (one line, one limit):"
	if golden.Updating() {
		rewriteREADMEBlock(t, marker, out)
		return
	}
	if got := readmeBlock(t, marker); got != out {
		t.Errorf("README.md's block after %q is not what rlsim %q prints now; paste its output:\n%s", marker, args, out)
	}
}

// quoteArgs quotes, as a reader would type them, the arguments that hold a
// space.
func quoteArgs(args []string) []string {
	var out []string
	for _, a := range args {
		if strings.ContainsAny(a, " ") {
			a = "'" + a + "'"
		}
		out = append(out, a)
	}
	return out
}

// The README's table of exit statuses names the statuses rlsim --help names.
func TestREADMEExitStatuses(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "### Exit statuses\n")
	if !ok {
		t.Fatal("README.md has no exit statuses")
	}
	table, _, _ = strings.Cut(table, "\n\n#")
	var inREADME []string
	for _, line := range strings.Split(table, "\n") {
		if cells := strings.Split(line, "|"); len(cells) > 2 && regexp.MustCompile(`^[\d, ]+$`).MatchString(strings.TrimSpace(cells[1])) {
			inREADME = append(inREADME, regexp.MustCompile(`\d+`).FindAllString(cells[1], -1)...)
		}
	}
	_, help, _ := strings.Cut(NewCmdRoot(&strings.Builder{}, nil).Long, "Exit status:")
	inHelp := regexp.MustCompile(`(?m)^  (\d+)|, (\d+)`).FindAllString(help, -1)
	for i := range inHelp {
		inHelp[i] = strings.Trim(inHelp[i], ", ")
	}
	if strings.Join(inREADME, " ") != strings.Join(inHelp, " ") {
		t.Errorf("README.md's table gives exit statuses %v, rlsim --help %v", inREADME, inHelp)
	}
}
