package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
)

type versionOptions struct {
	Out    io.Writer
	Format string
}

// NewCmdVersion builds "rlsim version".
func NewCmdVersion(out io.Writer, runF func(*versionOptions) error) *cobra.Command {
	opts := &versionOptions{Out: out}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print rlsim's version",
		Long: `Print the module version, the commit it was built from and that commit's date
(with "modified" when the checkout had changes), and the Go it was built with.
A binary built by go build or go install from a checkout carries its commit; one
run by go run reads it from the checkout it was built from. rlsim --version
prints the same line.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return versionRun(opts)
		},
	}
	formatFlag(cmd.Flags(), &opts.Format, "text", "output `format`: text or json")
	return cmd
}

// buildVersion is what rlsim was built from.
type buildVersion struct {
	Version  string `json:"version"`            // the module's, "(devel)" from a checkout
	Commit   string `json:"commit,omitempty"`   // the VCS revision, in full
	Date     string `json:"date,omitempty"`     // the commit's time, RFC 3339 UTC
	Modified bool   `json:"modified,omitempty"` // the checkout had uncommitted changes
	Go       string `json:"go"`
}

func (v buildVersion) String() string {
	s := "rlsim " + v.Version
	if v.Commit != "" {
		about := []string{"commit " + v.Commit[:min(12, len(v.Commit))]}
		if v.Date != "" {
			about = append(about, v.Date)
		}
		if v.Modified {
			about = append(about, "modified")
		}
		s += " (" + strings.Join(about, ", ") + ")"
	}
	return s + " " + v.Go
}

func versionRun(opts *versionOptions) error {
	v := currentVersion()
	switch opts.Format {
	case "text":
		_, err := fmt.Fprintln(opts.Out, v)
		return err
	case "json":
		b, _ := json.Marshal(v)
		_, err := fmt.Fprintf(opts.Out, "%s\n", b)
		return err
	}
	return badInputf("--format: unknown %q (want text or json)", opts.Format)
}

// currentVersion is the binary's version, read once: a test process runs
// thousands of commands, and each read of a go run binary runs git.
var currentVersion = sync.OnceValue(readVersion)

// readVersion reads the binary's build information; a binary go run
// built (in a go-build folder, with no VCS stamp, as go run leaves out)
// reads its commit from the checkout its source came from.
func readVersion() buildVersion {
	v := buildVersion{Version: "(devel)", Go: runtime.Version()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v = stamped(v, bi)
	if v.Commit == "" && builtByGoRun() {
		if _, file, _, ok := runtime.Caller(0); ok {
			v.Commit, v.Date, v.Modified = checkout(filepath.Dir(file))
		}
	}
	return v
}

// stamped is v with what bi says: the Go release, the module version and the
// VCS stamp go build writes (revision, time, modified when "true").
func stamped(v buildVersion, bi *debug.BuildInfo) buildVersion {
	v.Go = bi.GoVersion
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.time":
			v.Date = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// builtByGoRun reports whether the binary is one go run built: it lives in
// go run's exe folder under a go-build folder (a temporary one, or the build
// cache where go run keeps the binaries it built).
func builtByGoRun() bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	for dir := filepath.Dir(exe); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if strings.HasPrefix(filepath.Base(dir), "go-build") {
			return true
		}
	}
	return false
}

// checkout is the commit at the head of the git checkout holding dir, its
// date and whether the checkout has changes; empty when dir is in none.
func checkout(dir string) (commit, date string, modified bool) {
	out, err := exec.Command("git", "-C", dir, "log", "-1", "--format=%H %cI").Output()
	if err != nil {
		return "", "", false
	}
	commit, when, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if t, err := time.Parse(time.RFC3339, when); err == nil {
		date = t.UTC().Format(time.RFC3339)
	}
	status, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=no").Output()
	return commit, date, err == nil && len(strings.TrimSpace(string(status))) > 0
}
