package golden

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures; Fatal stops the check as
// the real one does (by a panic that run recovers).
type recorder struct {
	testing.TB
	errs  []string
	fatal string
}

type stopped struct{}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, a ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, a...))
}
func (r *recorder) Fatalf(format string, a ...any) {
	r.fatal = fmt.Sprintf(format, a...)
	panic(stopped{})
}
func (r *recorder) Fatal(a ...any) {
	r.fatal = fmt.Sprint(a...)
	panic(stopped{})
}

func run(check func(tb testing.TB)) (r *recorder) {
	r = &recorder{}
	defer func() {
		if p := recover(); p != nil && p != (stopped{}) {
			panic(p)
		}
	}()
	check(r)
	return r
}

func setUpdate(t *testing.T, v string) {
	t.Helper()
	old := flag.Lookup("update").Value.String()
	if err := flag.Set("update", v); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { flag.Set("update", old) })
}

func TestCheckSameBytesPasses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.golden")
	os.WriteFile(path, []byte("hello\n"), 0o644)
	if r := run(func(tb testing.TB) { Check(tb, path, []byte("hello\n")) }); len(r.errs) > 0 || r.fatal != "" {
		t.Errorf("same bytes: errors %q, fatal %q", r.errs, r.fatal)
	}
}

func TestCheckDifferentTextShowsBothAndSavesGot(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	path := filepath.Join(t.TempDir(), "a.golden")
	os.WriteFile(path, []byte("want-text\n"), 0o644)
	r := run(func(tb testing.TB) { Check(tb, path, []byte("got-text\n")) })
	if len(r.errs) != 1 || r.fatal != "" {
		t.Fatalf("errors %q, fatal %q; want one error", r.errs, r.fatal)
	}
	for _, s := range []string{path, "got-text", "want-text", "-update"} {
		if !strings.Contains(r.errs[0], s) {
			t.Errorf("the error does not name %q: %s", s, r.errs[0])
		}
	}
	if saved, err := os.ReadFile(filepath.Join(tmp, "got-a.golden")); err != nil || string(saved) != "got-text\n" {
		t.Errorf("got saved as %q, %v", saved, err)
	}
	if want, _ := os.ReadFile(path); string(want) != "want-text\n" {
		t.Errorf("the golden file was rewritten without -update: %q", want)
	}
}

func TestCheckDifferentBinaryNamesTheSavedFile(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	path := filepath.Join(t.TempDir(), "b.png")
	os.WriteFile(path, []byte("\x89PNG\x00OLDBYTES"), 0o644)
	r := run(func(tb testing.TB) { Check(tb, path, []byte("\x89PNG\x00NEWBYTES")) })
	saved := filepath.Join(tmp, "got-b.png")
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], saved) || strings.Contains(r.errs[0], "BYTES") {
		t.Errorf("errors %q; want one naming %s without the bytes", r.errs, saved)
	}
	// Either side binary is binary.
	os.WriteFile(path, []byte("text"), 0o644)
	r = run(func(tb testing.TB) { Check(tb, path, []byte("\x00bin")) })
	if len(r.errs) != 1 || strings.Contains(r.errs[0], "--- want") {
		t.Errorf("binary got: errors %q", r.errs)
	}
	os.WriteFile(path, []byte("x\x00OLDBYTES"), 0o644)
	r = run(func(tb testing.TB) { Check(tb, path, []byte("text")) })
	if len(r.errs) != 1 || strings.Contains(r.errs[0], "BYTES") {
		t.Errorf("binary want: errors %q", r.errs)
	}
}

func TestCheckMissingFileIsFatal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.golden")
	r := run(func(tb testing.TB) { Check(tb, path, []byte("x")) })
	if !strings.Contains(r.fatal, "-update") || len(r.errs) > 0 {
		t.Errorf("fatal %q, errors %q; want a fatal naming -update", r.fatal, r.errs)
	}
}

func TestUpdateRewritesTheFile(t *testing.T) {
	setUpdate(t, "true")
	if !Updating() {
		t.Fatal("Updating() = false with -update")
	}
	path := filepath.Join(t.TempDir(), "new", "dir", "c.golden")
	r := run(func(tb testing.TB) { Check(tb, path, []byte("fresh")) })
	if len(r.errs) > 0 || r.fatal != "" {
		t.Fatalf("errors %q, fatal %q", r.errs, r.fatal)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != "fresh" {
		t.Errorf("file %q, %v; want it written", got, err)
	}
	setUpdate(t, "false")
	if Updating() {
		t.Error("Updating() = true without -update")
	}
}

func TestCheckFuncUsesItsEqual(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.golden")
	os.WriteFile(path, []byte("ABC"), 0o644)
	fold := func(got, want []byte) (bool, error) { return strings.EqualFold(string(got), string(want)), nil }
	if r := run(func(tb testing.TB) { CheckFunc(tb, path, []byte("abc"), fold) }); len(r.errs) > 0 || r.fatal != "" {
		t.Errorf("equal by its own rule: errors %q, fatal %q", r.errs, r.fatal)
	}
	broken := func(got, want []byte) (bool, error) { return true, errors.New("cannot decode") }
	if r := run(func(tb testing.TB) { CheckFunc(tb, path, []byte("abc"), broken) }); !strings.Contains(r.fatal, "cannot decode") {
		t.Errorf("an error of equal: fatal %q, want it", r.fatal)
	}
}
