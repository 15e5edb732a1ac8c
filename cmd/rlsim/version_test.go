package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The binary built from this checkout names its commit, in full in the
// JSON and as its first 12 hex digits in the line rlsim --version prints.
func TestVersionNamesTheCommit(t *testing.T) {
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not in a git checkout: no commit to name")
	}
	want := strings.TrimSpace(string(head))
	bin := binary(t)
	if info, err := exec.Command("go", "version", "-m", bin).Output(); err == nil && !strings.Contains(string(info), "vcs.revision=") {
		t.Skip("go stamped no commit into this build (it does not in a git worktree): nothing for rlsim to name")
	}
	out, err := exec.Command(bin, "version", "-o", "json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var v buildVersion
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("version -o json: %v: %s", err, out)
	}
	if v.Commit != want || v.Date == "" || !strings.HasPrefix(v.Go, "go") {
		t.Errorf("version -o json = %+v, want commit %s with its date", v, want)
	}
	line, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.Contains(string(line), "commit "+want[:12]) || !strings.HasPrefix(string(line), "rlsim ") {
		t.Errorf("rlsim --version = %q, %v; want the commit %s", line, err, want[:12])
	}
	plain, _ := exec.Command(bin, "version").Output()
	if string(plain) != string(line) {
		t.Errorf("rlsim version %q and rlsim --version %q differ", plain, line)
	}
}

// checkout reads a checkout's head commit, its date and whether a tracked
// file has changed since.
func TestCheckoutReadsHeadAndChanges(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_COMMITTER_DATE=2026-03-04T05:06:07+02:00")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	file := filepath.Join(dir, "a.go")
	os.WriteFile(file, []byte("package a\n"), 0o644)
	git("add", "a.go")
	git("commit", "-q", "-m", "one")
	head := git("rev-parse", "HEAD")
	commit, date, modified := checkout(dir)
	if commit != head || date != "2026-03-04T03:06:07Z" || modified {
		t.Errorf("checkout = %s %s %v, want %s 2026-03-04T03:06:07Z false", commit, date, modified, head)
	}
	os.WriteFile(file, []byte("package a // changed\n"), 0o644)
	if _, _, modified := checkout(dir); !modified {
		t.Errorf("a changed tracked file is not seen as modified")
	}
	if c, _, _ := checkout(t.TempDir()); c != "" {
		t.Errorf("a folder outside any checkout has commit %q", c)
	}
}

func TestVersionFormat(t *testing.T) {
	code, _, errOut := execute(t, "version", "--format", "yaml")
	if code != exitBadInput || !strings.Contains(errOut, "want text or json") {
		t.Errorf("version --format yaml: exit %d, %q", code, errOut)
	}
}

// -o, -f, --format and --output name the one format of every command that has one.
func TestOutputFormatSpellings(t *testing.T) {
	for _, spelling := range [][]string{{"-o", "json"}, {"-f", "json"}, {"--format", "json"}, {"--output", "json"}, {"-ojson"}} {
		code, out, errOut := execute(t, append([]string{"run", "boundary-burst", "--lanes", "gcra"}, spelling...)...)
		if code != 0 || !strings.HasPrefix(out, "{") {
			t.Errorf("run %v: exit %d, not JSON: %.60q %s", spelling, code, out, errOut)
		}
		code, out, _ = execute(t, append([]string{"version"}, spelling...)...)
		if code != 0 || !strings.HasPrefix(out, "{") {
			t.Errorf("version %v: exit %d, not JSON: %.60q", spelling, code, out)
		}
	}
	for _, cmd := range [][]string{{"run"}, {"sweep"}, {"sweep", "merge"}, {"conform"}, {"replay"}, {"version"}} {
		c, _, err := NewCmdRoot(&strings.Builder{}, nil).Find(cmd)
		if err != nil {
			t.Fatal(err)
		}
		if f := c.Flags().ShorthandLookup("o"); f == nil || f.Name != "format" {
			t.Errorf("rlsim %s: -o is not --format", strings.Join(cmd, " "))
		}
	}
}
