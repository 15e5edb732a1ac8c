package report

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/rlsim/rlsim/run"
)

// CheckDir refuses, before any work, an --out path the report may not
// replace: a file, a directory holding anything rlsim did not write there.
func CheckDir(out string) error {
	path, err := reportPath(out)
	if err != nil {
		return run.BadInputf("--out %s: %v", out, err)
	}
	return checkReportDir(out, path)
}

// CheckTrace refuses a --trace that is a folder, or that the report in out would
// overwrite (a relative name is written inside out, beside the report's own
// files) or delete (a path inside out, which the report replaces whole).
func CheckTrace(trace, out string) error {
	if out == "" || filepath.IsAbs(trace) {
		if st, err := os.Stat(trace); err == nil && st.IsDir() {
			return run.BadInputf("--trace %s: is a folder; give a file name ending in .csv or .jsonl", trace)
		}
		// The folder it goes in must be one: an output path to fix, said
		// before anything runs (not an I/O failure once it has).
		if st, err := os.Stat(filepath.Dir(trace)); err != nil || !st.IsDir() {
			return run.BadInputf("--trace %s: %s is not a folder to write it in", trace, filepath.Dir(trace))
		}
	}
	if out == "" {
		return nil
	}
	if !filepath.IsAbs(trace) {
		name := filepath.Clean(trace)
		if name != filepath.Base(name) || name == ".." || name == "." {
			return run.BadInputf("--trace %s: with --out, a relative --trace names a file inside %s; give a bare file name (trace.csv) or an absolute path outside %s", trace, out, out)
		}
		if reportWrites(name) {
			return run.BadInputf("--trace %s: the report in %s writes its own %s; choose another name", trace, out, name)
		}
		return nil
	}
	outPath, err := reportPath(out)
	if err != nil {
		return run.BadInputf("--out %s: %v", out, err)
	}
	dir := filepath.Dir(trace)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	if path := filepath.Join(dir, filepath.Base(trace)); path == outPath || strings.HasPrefix(path, outPath+string(filepath.Separator)) {
		return run.BadInputf("--trace %s: is inside --out %s, which the report replaces whole; give a bare file name to write the trace into the report, or a path outside %s", trace, out, out)
	}
	return nil
}

// reportWrites reports whether a report writes a file by that name.
func reportWrites(name string) bool {
	return name == "index.html" || name == "results.json" || name == MarkerName || strings.HasSuffix(name, ".png")
}

// TracePath is where the trace is written: with --out, a relative name is a file
// of the report.
func TracePath(trace string, out *Dir) string {
	if out != nil && !filepath.IsAbs(trace) {
		return out.File(filepath.Clean(trace))
	}
	return trace
}
