package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// checkOutputs refuses, all at once and before the run, --out and --trace paths
// that would lose a file: a directory holding what rlsim did not write, a trace
// the report would overwrite or delete.
func checkOutputs(opts *runOptions) error {
	var errs []error
	if opts.OutDir != "" {
		if path, err := reportPath(opts.OutDir); err != nil {
			errs = append(errs, badInputf("--out %s: %v", opts.OutDir, err))
		} else {
			errs = append(errs, checkReportDir(opts.OutDir, path))
		}
	}
	if opts.TracePath != "" {
		_, err := traceIsJSONL(opts.TracePath)
		errs = append(errs, err, checkTrace(opts.TracePath, opts.OutDir))
	}
	return errors.Join(errs...)
}

// checkTrace refuses a --trace that is a folder, or that the report in out would
// overwrite (a relative name is written inside out, beside the report's own
// files) or delete (a path inside out, which the report replaces whole).
func checkTrace(trace, out string) error {
	if out == "" || filepath.IsAbs(trace) {
		if st, err := os.Stat(trace); err == nil && st.IsDir() {
			return badInputf("--trace %s: is a folder; give a file name ending in .csv or .jsonl", trace)
		}
	}
	if out == "" {
		return nil
	}
	if !filepath.IsAbs(trace) {
		name := filepath.Clean(trace)
		if name != filepath.Base(name) || name == ".." || name == "." {
			return badInputf("--trace %s: with --out, a relative --trace names a file inside %s; give a bare file name (trace.csv) or an absolute path outside %s", trace, out, out)
		}
		if reportWrites(name) {
			return badInputf("--trace %s: the report in %s writes its own %s; choose another name", trace, out, name)
		}
		return nil
	}
	outPath, err := reportPath(out)
	if err != nil {
		return badInputf("--out %s: %v", out, err)
	}
	dir := filepath.Dir(trace)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	if path := filepath.Join(dir, filepath.Base(trace)); path == outPath || strings.HasPrefix(path, outPath+string(filepath.Separator)) {
		return badInputf("--trace %s: is inside --out %s, which the report replaces whole; give a bare file name to write the trace into the report, or a path outside %s", trace, out, out)
	}
	return nil
}

// reportWrites reports whether a report writes a file by that name.
func reportWrites(name string) bool {
	return name == "index.html" || name == "results.json" || name == markerName || strings.HasSuffix(name, ".png")
}

// tracePath is where the trace is written: with --out, a relative name is a file
// of the report.
func tracePath(trace string, out *reportDir) string {
	if out != nil && !filepath.IsAbs(trace) {
		return out.File(filepath.Clean(trace))
	}
	return trace
}
